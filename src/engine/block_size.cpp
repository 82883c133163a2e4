// Block sizing (see block_size.hpp).
#include "engine/block_size.hpp"

#include <algorithm>

#if defined(__linux__)
#include <unistd.h>
#endif

#include "engine/reduce_sums.hpp"

namespace gufunc {
namespace engine {

size_t l2_cache_bytes() {
  static const size_t bytes = [] {
    long b = -1;
#if defined(__linux__) && defined(_SC_LEVEL2_CACHE_SIZE)
    b = sysconf(_SC_LEVEL2_CACHE_SIZE);
#endif
    return b > 0 ? static_cast<size_t>(b) : size_t(256) << 10;
  }();
  return bytes;
}

size_t block_elements(size_t streams, size_t requested, bool reads_files) {
  if (requested > 0) return requested;
  if (reads_files) return kFileBlockElements;
  const size_t per_element = 8 * std::max<size_t>(streams, 2);
  const size_t n = l2_cache_bytes() / 2 / per_element;
  // Whole chunks of fast-order sums (also whole cache lines): a block that cuts a
  // chunk adds the cut values one at a time (15 % of the samples of a fast
  // sum(expression) with blocks of 21,824 elements).
  const size_t chunk = static_cast<size_t>(kFastChunk);
  return std::min<size_t>(std::max<size_t>(n / chunk * chunk, chunk), kFileBlockElements);
}

}  // namespace engine
}  // namespace gufunc
