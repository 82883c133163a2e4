// Ordered folding of blocks computed in parallel (see ordered_blocks.hpp).
#include "engine/ordered_blocks.hpp"

#include <memory>
#include <thread>

namespace gufunc {
namespace engine {

namespace {

// Which thread folds is up to the runner, but its long double sums must round as
// the calling thread's do: a new Windows thread's x87 unit starts rounding to 53
// bits whatever the caller uses. So the folder takes the caller's control word while
// it folds (elsewhere every thread has the same).
#if defined(_WIN32) && defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
unsigned short x87_control() {
  unsigned short word;
  __asm__ volatile("fnstcw %0" : "=m"(word));
  return word;
}
void set_x87_control(unsigned short word) { __asm__ volatile("fldcw %0" : : "m"(word)); }
#else
unsigned short x87_control() { return 0; }
void set_x87_control(unsigned short) {}
#endif

struct CallerPrecision {
  explicit CallerPrecision(unsigned short caller) : saved(x87_control()) {
    set_x87_control(caller);
  }
  ~CallerPrecision() { set_x87_control(saved); }
  unsigned short saved;
};

enum FolderState { kNotStarted, kFolding, kDone };

struct Shared {
  size_t first, last, slots;
  std::atomic<size_t> next;    // first block no task has claimed
  std::atomic<size_t> folded;  // first block the folder has not folded
  std::atomic<int> folder{kNotStarted};
  std::unique_ptr<std::atomic<size_t>[]> ready;  // per slot: 1 + the block it holds, once computed
  const OrderedHooks& hooks;
  const std::atomic<bool>& failed;
  unsigned short caller_x87 = x87_control();  // constructed on the calling thread

  Shared(size_t f, size_t l, size_t s, const OrderedHooks& h, const std::atomic<bool>& fail)
      : first(f),
        last(l),
        slots(s),
        next(f),
        folded(f),
        ready(new std::atomic<size_t>[s]),
        hooks(h),
        failed(fail) {
    for (size_t i = 0; i < s; ++i) ready[i].store(0);
  }
  size_t slot_of(size_t k) const { return (k - first) % slots; }
};

// Waits are short (one block's work), so spin first and then give the core away.
void pause(unsigned* spins) {
  if (++*spins > 64) std::this_thread::yield();
}

// While the block it needs next is being computed by a helper, the folder computes
// a later block into its slot instead of waiting: otherwise a helper that claims
// each next block as soon as it finishes one would leave the folder waiting every
// time, and the work would run on one thread at a time.
bool compute_ahead(Shared* sh, size_t k) {
  size_t j = sh->next.load();
  if (j >= sh->last || j >= k + sh->slots || !sh->next.compare_exchange_strong(j, j + 1)) {
    return false;
  }
  const size_t slot = sh->slot_of(j);
  sh->hooks.compute_into(j, slot);  // a failure sets `failed`, which ends the waits
  sh->ready[slot].store(j + 1, std::memory_order_release);
  return true;
}

void fold_all(Shared* sh) {
  const CallerPrecision precision(sh->caller_x87);
  for (size_t k = sh->first; k < sh->last && !sh->failed.load(std::memory_order_relaxed); ++k) {
    size_t unclaimed = k;
    if (sh->next.compare_exchange_strong(unclaimed, k + 1)) {
      if (!sh->hooks.compute_and_fold(k)) break;
    } else {
      const size_t slot = sh->slot_of(k);
      unsigned spins = 0;
      while (sh->ready[slot].load(std::memory_order_acquire) != k + 1 && !sh->failed) {
        if (!compute_ahead(sh, k)) pause(&spins);
      }
      if (sh->failed) break;
      sh->hooks.fold_slot(k, slot);
    }
    sh->folded.store(k + 1, std::memory_order_release);
  }
  sh->folder.store(kDone);
}

void help(Shared* sh) {
  // A helper may add long doubles for the fold (a fast sum's chunks): as the caller's.
  const CallerPrecision precision(sh->caller_x87);
  unsigned spins = 0;
  while (!sh->failed.load(std::memory_order_relaxed)) {
    size_t k = sh->next.load();
    if (k >= sh->last) return;
    if (k >= sh->folded.load(std::memory_order_acquire) + sh->slots) {
      // The ring is full: wait for the folder only while it runs.
      if (sh->folder.load() != kFolding) return;
      pause(&spins);
      continue;
    }
    if (!sh->next.compare_exchange_weak(k, k + 1)) continue;
    spins = 0;
    const size_t slot = sh->slot_of(k);
    const bool ok = sh->hooks.compute_into(k, slot);
    sh->ready[slot].store(k + 1, std::memory_order_release);
    if (!ok) return;
  }
}

}  // namespace

void run_ordered(Runner* runner, int threads, size_t first, size_t last, size_t slots,
                 const OrderedHooks& hooks, const std::atomic<bool>& failed) {
  if (first >= last) return;
  Shared shared(first, last, slots < 1 ? 1 : slots, hooks, failed);
  if (threads <= 1 || runner == nullptr || last - first == 1) {
    shared.folder.store(kFolding);
    fold_all(&shared);
    return;
  }
  // The first task to start folds (a helper starting first would find no folder to
  // wait for); the others help.
  runner->parallel_for(static_cast<size_t>(threads), 1, [&](size_t from, size_t to) {
    for (size_t t = from; t < to; ++t) {
      int idle = kNotStarted;
      if (shared.folder.compare_exchange_strong(idle, kFolding)) {
        fold_all(&shared);
      } else {
        help(&shared);
      }
    }
  });
}

}  // namespace engine
}  // namespace gufunc
