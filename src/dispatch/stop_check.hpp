// The answer to a long kernel's "should I stop?" (gufunc_should_stop() in
// gufunc/context.h) while rounds (rounds.hpp) run. A single slice can take seconds
// (a 2000x2000 matmul), far longer than a round should, so such kernels ask every
// few milliseconds of their work. On the thread that runs the rounds (R's main
// thread) the answer is the rounds' own interrupt check, at most every 10 ms; other
// threads must not call R, so they read the flag that check sets on a yes. A kernel
// that stops returns an error; run_in_rounds sees the flag after the round and
// throws Interrupted instead of reporting that error.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>

#include "dispatch/rounds.hpp"
#include "gufunc/context.h"

namespace gufunc {

// Gives a kernel's context the stop check (after gufunc_context_init()).
void attach_stop_check(gufunc_context* ctx);

// Set by run_in_rounds on its thread for one pass: kernels on this thread then run
// hooks.interrupted when they ask (hooks without one leave the outer pass's check in
// place). The outermost pass with a check clears the flag when it begins and ends,
// so one evaluation's stop never stops the next.
class StopScope {
 public:
  explicit StopScope(const RoundHooks& hooks);
  ~StopScope();
  StopScope(const StopScope&) = delete;
  StopScope& operator=(const StopScope&) = delete;

 private:
  const RoundHooks* outer_;
  bool checks_;
};

// True once a check said stop, on any thread.
bool stop_requested();

// On the thread of a StopScope with a check: runs it unless it ran less than 10 ms
// ago (on this thread). True once a check said stop; elsewhere only reads the flag.
bool poll_interrupt();

// True on a thread where poll_interrupt() can run the check.
bool polls_here();

// Wraps the body of a parallel loop over n items that the calling thread joins. The
// calling thread alone may run the check: once it has run its share and every item
// has started, it does not block in the thread library waiting for the others'
// items (where it could not ask) but waits here, polling, so that their kernels
// stop when they ask.
class PollingWait {
 public:
  PollingWait(size_t n, const std::function<void(size_t, size_t)>& body)
      : n_(n), body_(body), caller_(std::this_thread::get_id()) {}
  void operator()(size_t begin, size_t end);

 private:
  const size_t n_;
  const std::function<void(size_t, size_t)>& body_;
  const std::thread::id caller_;
  std::atomic<size_t> started_{0}, finished_{0};
  std::mutex lock_;
  std::condition_variable all_done_;
};

}  // namespace gufunc
