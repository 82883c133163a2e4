// Blocks computed in parallel but consumed in index order by one thread: what a sum
// in one long double accumulator needs to give base R's bits whatever the threads.
//
// One task, the folder, takes the blocks first to last: a block no other task has
// claimed it computes and folds itself; a block a helper claimed it folds from the
// helper's slot once the helper is done. Helpers claim the next unclaimed blocks and
// compute them into a ring of slots, at most `slots` blocks ahead of the folder. So
// the folder's sequential work overlaps the helpers' computing, and when computing
// is cheap the folder simply runs ahead of them.
//
// No task waits for one that may not be running (the runner may run the tasks one
// after another on one thread): the folder waits only for a block a running helper is
// computing, and a helper waits for a free slot only while the folder runs.
#pragma once

#include <atomic>
#include <cstddef>
#include <functional>

#include "dispatch/parallel.hpp"

namespace gufunc {
namespace engine {

struct OrderedHooks {
  // On the folder: computes block k and folds it. False when it failed.
  std::function<bool(size_t k)> compute_and_fold;
  // On a helper: computes block k into slot `slot`. False when it failed.
  std::function<bool(size_t k, size_t slot)> compute_into;
  // On the folder: folds block k from slot `slot`.
  std::function<void(size_t k, size_t slot)> fold_slot;
};

// Runs blocks [first, last) with `threads` tasks on `runner` (one task: no helper,
// no slot used) and a ring of `slots` slots. Stops early once `failed` is set.
void run_ordered(Runner* runner, int threads, size_t first, size_t last, size_t slots,
                 const OrderedHooks& hooks, const std::atomic<bool>& failed);

}  // namespace engine
}  // namespace gufunc
