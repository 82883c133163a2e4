// The core's Runner on RcppParallel (TBB): the only place threads are created.
#pragma once

#include "dispatch/parallel.hpp"

namespace gufunc {
namespace r {

class RcppParallelRunner : public Runner {
 public:
  explicit RcppParallelRunner(int threads) : threads_(threads < 1 ? 1 : threads) {}
  void parallel_for(size_t n, size_t grain,
                    const std::function<void(size_t, size_t)>& body) override;
  int threads() const override { return threads_; }

 private:
  void run(size_t n, size_t grain, const std::function<void(size_t, size_t)>& body);
  int threads_;
};

}  // namespace r
}  // namespace gufunc
