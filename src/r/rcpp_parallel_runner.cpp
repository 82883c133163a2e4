// RcppParallel implementation of the core's Runner.
//
// RcppParallel.h would also include RMatrix.h, whose std::iterator is deprecated in
// C++17 and makes every compile warn; so only the parallel-for parts are included,
// with RcppParallel.h's own rule for when TBB is used.
#include "r/rcpp_parallel_runner.hpp"

#include <RcppParallel/TinyThread.h>

#ifndef RCPP_PARALLEL_USE_TBB
#if defined(__APPLE__) || defined(__gnu_linux__) || \
    (defined(__sun) && defined(__SVR4) && !defined(__sparc))
#define RCPP_PARALLEL_USE_TBB 1
#else
#define RCPP_PARALLEL_USE_TBB 0
#endif
#endif
#if RCPP_PARALLEL_USE_TBB
#include <RcppParallel/TBB.h>
#endif
#include <RcppParallel/Backend.h>

#include "dispatch/stop_check.hpp"

namespace gufunc {
namespace r {

namespace {
struct BodyWorker : public RcppParallel::Worker {
  const std::function<void(size_t, size_t)>& body;
  explicit BodyWorker(const std::function<void(size_t, size_t)>& b) : body(b) {}
  void operator()(std::size_t begin, std::size_t end) override { body(begin, end); }
};
}  // namespace

// The thread count is passed as given (gufunc resolves it from its option and
// RcppParallel's settings); the backend follows RCPP_PARALLEL_BACKEND as RcppParallel does.
// On the thread that checks for interrupts during rounds, the body waits for the
// other threads' last items polling that check (dispatch/stop_check.hpp); TBB runs
// part of the loop on the calling thread, tinythread does not (it then waits unasked).
void RcppParallelRunner::parallel_for(size_t n, size_t grain,
                                      const std::function<void(size_t, size_t)>& body) {
  if (polls_here()) {
    PollingWait polling(n, body);
    run(n, grain, [&](size_t begin, size_t end) { polling(begin, end); });
  } else {
    run(n, grain, body);
  }
}

void RcppParallelRunner::run(size_t n, size_t grain,
                             const std::function<void(size_t, size_t)>& body) {
  BodyWorker worker(body);
#if RCPP_PARALLEL_USE_TBB
  if (RcppParallel::internal::backend() == RcppParallel::internal::BACKEND_TBB) {
    RcppParallel::tbbParallelFor(0, n, worker, grain, threads_);
    return;
  }
#endif
  RcppParallel::ttParallelFor(0, n, worker, grain);
}

}  // namespace r
}  // namespace gufunc
