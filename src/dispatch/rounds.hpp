// The one scheduler of long work, eager and lazy: work items [0, n) run a round at a
// time, and between rounds the calling (main) thread checks for an interrupt and
// reports progress. Rounds are sized by time, not by count, so that Ctrl-C is seen
// within about kRoundTarget whatever an item costs (a 3x3 matmul or a 500x500 one),
// and cheap work still runs in a handful of rounds. An item is never split: one that
// alone takes seconds (a 2000x2000 matmul) is stopped from inside, by its kernel
// asking the same check during the round (stop_check.hpp).
//
// Sizing rule: the first round is the caller's guess (small: a cheap call of a few
// rounds' size is then one round). After each round the time per item is measured
// and the next round is sized to take kRoundTarget at that rate, but at most
// kMaxGrowth times the last round (so one quick round of noise cannot make a huge
// one; 64 times after a round under a millisecond, too short to be more than the
// cost of starting it) and never below the caller's least round (an item or grain per thread, so
// every thread has work). A slow round makes the next one smaller straight away.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>

namespace gufunc {

// Thrown when RoundHooks::interrupted said stop. The caller discards what the
// rounds wrote.
struct Interrupted {};

// What runs between rounds, on the thread that called run_in_rounds (R's main
// thread when R called): both optional.
struct RoundHooks {
  // True to stop: run_in_rounds then throws Interrupted.
  std::function<bool()> interrupted;
  // progress(done, total): `done` items of `total` finished; called after every
  // round with increasing `done`, the last time with done == total. An evaluation
  // may run several passes one after another (each kernel of a batch, a nested
  // gufunc value, a mean's second pass), each counting its own items; a pass run
  // inside another pass's round (a chunk of rowSums() computing its lazy input)
  // reports nothing, the outer pass does.
  std::function<void(size_t done, size_t total)> progress;
};

// Round sizes from measured times (the rule above).
class RoundSizer {
 public:
  static constexpr std::chrono::milliseconds kRoundTarget{60};
  static const size_t kMaxGrowth = 8;

  RoundSizer(size_t first, size_t least)
      : least_(least < 1 ? 1 : least), next_(first < least_ ? least_ : first) {}
  size_t next() const { return next_; }
  // The last round ran `items` items in `seconds`.
  void ran(size_t items, double seconds);

 private:
  size_t least_, next_;
};

// Calls run_round(from, to) on the calling thread for consecutive rounds covering
// [0, n), the first of `first` items, none smaller than `least` (but the last), with
// the hooks after each round (the interrupt check at most every 10 ms, so a long run
// of short calls pays little; kernels that ask during a round share that check).
// Throws Interrupted after a round in which the check said stop. Stops early,
// without throwing, once stopped() is true (a kernel failed: the caller reports it).
void run_in_rounds(size_t n, size_t first, size_t least, const RoundHooks& hooks,
                   const std::function<bool()>& stopped,
                   const std::function<void(size_t, size_t)>& run_round);

}  // namespace gufunc
