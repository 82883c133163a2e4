// How the core asks for parallel work without knowing the threading library:
// the R bridge implements Runner with RcppParallel; benchmarks and C tests use
// SerialRunner. Bodies run on worker threads and must not touch the R API.
#pragma once

#include <cstddef>
#include <functional>

namespace gufunc {

class Runner {
 public:
  virtual ~Runner() = default;
  // Calls body(begin, end) over disjoint ranges covering [0, n), each at least
  // `grain` long except the last; returns when all are done.
  virtual void parallel_for(size_t n, size_t grain,
                            const std::function<void(size_t, size_t)>& body) = 0;
  virtual int threads() const = 0;
};

class SerialRunner : public Runner {
 public:
  void parallel_for(size_t n, size_t, const std::function<void(size_t, size_t)>& body) override {
    if (n > 0) body(0, n);
  }
  int threads() const override { return 1; }
};

}  // namespace gufunc
