// Output memory faulted in a block at a time (see fresh_pages.hpp).
#include "engine/fresh_pages.hpp"

#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace gufunc {
namespace engine {

void prefault_for_writing(char* p, size_t bytes) {
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
  static const uintptr_t page = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
  if (bytes < 16 * page) return;
  // Whole pages only: the partial ones at either end may hold other data.
  const uintptr_t from = (reinterpret_cast<uintptr_t>(p) + page - 1) / page * page;
  const uintptr_t to = (reinterpret_cast<uintptr_t>(p) + bytes) / page * page;
  if (to > from) madvise(reinterpret_cast<void*>(from), to - from, MADV_POPULATE_WRITE);
#else
  (void)p;
  (void)bytes;
#endif
}

}  // namespace engine
}  // namespace gufunc
