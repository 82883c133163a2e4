// Work in rounds sized by time (see rounds.hpp).
#include "dispatch/rounds.hpp"

#include <algorithm>

#include "dispatch/stop_check.hpp"

namespace gufunc {

namespace {
// A round under a millisecond is mostly the cost of starting it: it may grow
// kQuickGrowth-fold (to at most about kRoundTarget at its rate), so that cheap work
// starts its long rounds after one or two short ones.
const double kQuickRound = 0.001;
const double kQuickGrowth = 64;
}  // namespace

void RoundSizer::ran(size_t items, double seconds) {
  const double target = std::chrono::duration<double>(kRoundTarget).count();
  const double growth = seconds < kQuickRound ? kQuickGrowth : kMaxGrowth;
  const double most = static_cast<double>(items) * growth;
  // A round too quick to time (or of no items) grows as much as allowed.
  const double wanted = items > 0 && seconds > 0 ? target * items / seconds : most;
  next_ = static_cast<size_t>(std::max(static_cast<double>(least_), std::min(wanted, most)));
}

void run_in_rounds(size_t n, size_t first, size_t least, const RoundHooks& hooks,
                   const std::function<bool()>& stopped,
                   const std::function<void(size_t, size_t)>& run_round) {
  // Rounds run inside a round of an outer pass on this thread report no progress.
  thread_local int depth = 0;
  struct Level {
    Level() { ++depth; }
    ~Level() { --depth; }
  } level;
  const bool report = depth == 1 && hooks.progress;
  const StopScope stop_scope(hooks);  // long kernels of the round ask the same check
  RoundSizer sizer(first, least);
  for (size_t done = 0; done < n;) {
    if (stopped && stopped()) return;
    const size_t count = std::min(sizer.next(), n - done);
    const auto started = std::chrono::steady_clock::now();
    run_round(done, done + count);
    if (stop_requested()) throw Interrupted();  // a kernel stopped mid-round
    const auto now = std::chrono::steady_clock::now();
    sizer.ran(count, std::chrono::duration<double>(now - started).count());
    done += count;
    if (hooks.interrupted && poll_interrupt()) throw Interrupted();  // at most every 10 ms
    if (report) hooks.progress(done, n);
  }
}

}  // namespace gufunc
