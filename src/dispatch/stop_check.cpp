// Stop checks for long kernels (see stop_check.hpp).
#include "dispatch/stop_check.hpp"

#include <chrono>

namespace gufunc {

namespace {

// The interrupt check runs at most this often (it costs microseconds in R).
const std::chrono::milliseconds kCheckEvery(10);
// How long the calling thread of a parallel loop sleeps between polls while it waits.
const std::chrono::milliseconds kWaitStep(5);

// Process-wide: kernels on worker threads have no way to learn which evaluation they
// belong to, and only one thread (R's main thread) runs checked rounds.
std::atomic<bool> stop_flag{false};

thread_local const RoundHooks* current_hooks = nullptr;  // the innermost check here
thread_local int checked_depth = 0;
thread_local std::chrono::steady_clock::time_point last_check;

int should_stop(void*) {
  try {
    return poll_interrupt() ? 1 : 0;
  } catch (...) {
    // The check failed (no memory): stop, since kernels may be C and cannot unwind.
    stop_flag.store(true);
    return 1;
  }
}

}  // namespace

void attach_stop_check(gufunc_context* ctx) {
  ctx->should_stop = &should_stop;
  ctx->stop_data = nullptr;
}

StopScope::StopScope(const RoundHooks& hooks)
    : outer_(current_hooks), checks_(static_cast<bool>(hooks.interrupted)) {
  if (!checks_) return;
  if (checked_depth++ == 0) stop_flag.store(false);
  current_hooks = &hooks;
}

StopScope::~StopScope() {
  if (!checks_) return;
  current_hooks = outer_;
  if (--checked_depth == 0) stop_flag.store(false);
}

bool stop_requested() { return stop_flag.load(std::memory_order_relaxed); }

bool polls_here() { return current_hooks != nullptr; }

bool poll_interrupt() {
  if (stop_requested()) return true;
  if (current_hooks == nullptr) return false;
  const auto now = std::chrono::steady_clock::now();
  // By time, not per call: many short evaluations in a row (x[i] in a loop) check
  // once per kCheckEvery, and kernels may ask as often as they like.
  if (now - last_check < kCheckEvery) return false;
  last_check = now;
  if (!current_hooks->interrupted()) return false;
  stop_flag.store(true);
  return true;
}

void PollingWait::operator()(size_t begin, size_t end) {
  const size_t count = end - begin;
  started_.fetch_add(count);
  struct Finish {  // counted even when the body throws, so no one waits forever
    PollingWait& w;
    size_t count;
    ~Finish() {
      if (w.finished_.fetch_add(count) + count == w.n_) {
        std::lock_guard<std::mutex> g(w.lock_);
        w.all_done_.notify_all();
      }
    }
  };
  {
    Finish finish{*this, count};
    body_(begin, end);
  }
  if (std::this_thread::get_id() != caller_ || started_.load() < n_) return;
  std::unique_lock<std::mutex> g(lock_);
  while (finished_.load() < n_) {
    all_done_.wait_for(g, kWaitStep);
    g.unlock();
    should_stop(nullptr);  // on a yes, the kernels still running see the flag and stop
    g.lock();
  }
}

}  // namespace gufunc
