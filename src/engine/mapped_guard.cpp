// The bus-error guard of mapped files (see mapped_guard.hpp). The handler only
// reads atomics and calls mmap(), a plain system call on the platforms it is built
// for; the slots are a fixed array, so it never takes a lock or allocates.
#include "engine/mapped_guard.hpp"

#include <atomic>

#if defined(__linux__) || defined(__APPLE__)
#define GUFUNC_MAPPED_GUARD 1
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace gufunc {
namespace engine {

namespace {

std::atomic<uint64_t> faults{0};

#ifdef GUFUNC_MAPPED_GUARD

// More files open at once than this are read with pread() instead.
constexpr int kSlots = 1024;

struct Slot {
  std::atomic<uintptr_t> begin{0}, end{0};  // begin 0: free
};
Slot slots[kSlots];

struct sigaction previous;
std::atomic<bool> installed{false};
uintptr_t page_bytes = 4096;

// The action that was there before, for a bus error that is not ours.
void pass_on(int sig, siginfo_t* info, void* context) {
  if (previous.sa_flags & SA_SIGINFO) {
    if (previous.sa_sigaction != nullptr) previous.sa_sigaction(sig, info, context);
    return;
  }
  if (previous.sa_handler == SIG_DFL || previous.sa_handler == SIG_IGN) {
    if (previous.sa_handler == SIG_IGN && info->si_code <= 0) return;  // sent, ignored
    signal(sig, SIG_DFL);
    // A sent signal is raised again (delivered on return); a fault's read runs
    // again on return: either now meets the default action, as it would have.
    if (info->si_code <= 0) raise(sig);
    return;
  }
  previous.sa_handler(sig);
}

void on_bus_error(int sig, siginfo_t* info, void* context) {
  // Only a fault has an address (si_code > 0); a bus error sent by kill() is passed on.
  const uintptr_t at = info->si_code > 0 ? reinterpret_cast<uintptr_t>(info->si_addr) : 0;
  for (Slot& s : slots) {
    if (at == 0) break;
    const uintptr_t begin = s.begin.load(std::memory_order_acquire);
    const uintptr_t end = s.end.load(std::memory_order_acquire);
    if (begin == 0 || at < begin || at >= end) continue;
    const uintptr_t page = at & ~(page_bytes - 1);
    void* p = mmap(reinterpret_cast<void*>(page), end - page, PROT_READ,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    if (p == MAP_FAILED) break;
    faults.fetch_add(1, std::memory_order_acq_rel);
    return;
  }
  pass_on(sig, info, context);
}

#endif

}  // namespace

uint64_t mapped_read_faults() { return faults.load(std::memory_order_acquire); }

#ifdef GUFUNC_MAPPED_GUARD

bool install_mapped_guard() {
  if (installed.load()) return true;
  const long page = sysconf(_SC_PAGESIZE);
  if (page > 0) page_bytes = static_cast<uintptr_t>(page);
  struct sigaction action = {};
  action.sa_sigaction = on_bus_error;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  if (sigaction(SIGBUS, &action, &previous) != 0) return false;
  installed.store(true);
  return true;
}

int guard_mapping(const char* begin, size_t bytes) {
  if (!installed.load() || begin == nullptr || bytes == 0) return -1;
  const uintptr_t b = reinterpret_cast<uintptr_t>(begin);
  const uintptr_t e = (b + bytes + page_bytes - 1) & ~(page_bytes - 1);
  for (int i = 0; i < kSlots; ++i) {
    uintptr_t expected = 0;
    if (slots[i].end.load() == 0 && slots[i].begin.compare_exchange_strong(expected, b)) {
      slots[i].end.store(e, std::memory_order_release);
      return i;
    }
  }
  return -1;
}

void unguard_mapping(int slot) {
  if (slot < 0 || slot >= kSlots) return;
  slots[slot].begin.store(0, std::memory_order_release);
  slots[slot].end.store(0, std::memory_order_release);
}

void remove_mapped_guard() {
  if (!installed.load()) return;
  struct sigaction current;
  if (sigaction(SIGBUS, nullptr, &current) == 0 && (current.sa_flags & SA_SIGINFO) &&
      current.sa_sigaction == on_bus_error) {
    sigaction(SIGBUS, &previous, nullptr);
  }
  installed.store(false);
}

#else

bool install_mapped_guard() { return false; }
int guard_mapping(const char*, size_t) { return -1; }
void unguard_mapping(int) {}
void remove_mapped_guard() {}

#endif

}  // namespace engine
}  // namespace gufunc
