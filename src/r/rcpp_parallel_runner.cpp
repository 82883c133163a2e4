// RcppParallel implementation of the core's Runner.
#include "r/rcpp_parallel_runner.hpp"

#include <RcppParallel.h>

namespace gufunc {
namespace r {

namespace {
struct BodyWorker : public RcppParallel::Worker {
  const std::function<void(size_t, size_t)>& body;
  explicit BodyWorker(const std::function<void(size_t, size_t)>& b) : body(b) {}
  void operator()(std::size_t begin, std::size_t end) override { body(begin, end); }
};
}  // namespace

void RcppParallelRunner::parallel_for(size_t n, size_t grain,
                                      const std::function<void(size_t, size_t)>& body) {
  BodyWorker worker(body);
  RcppParallel::parallelFor(0, n, worker, grain, threads_);
}

}  // namespace r
}  // namespace gufunc
