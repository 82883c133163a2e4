// How the core asks for parallel work without knowing the threading library:
// the R bridge implements Runner with RcppParallel; benchmarks and C tests use
// SerialRunner. Bodies run on worker threads and must not touch the R API.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>

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

// What the workers of one parallel loop report: the first kernel error and the
// union of the warnings (GUFUNC_WARN_* bits) they raised. Safe to share between them.
struct WorkerOutcome {
  std::atomic<unsigned> warnings{0};
  std::atomic<bool> failed{false};
  std::mutex lock;
  std::string message;
  intptr_t failed_at = -1;  // the failing loop iteration of the whole call, if known

  void fail(const std::string& msg, intptr_t at = -1) {
    std::lock_guard<std::mutex> g(lock);
    if (!failed.exchange(true)) {
      message = msg;
      failed_at = at;
    }
  }
};

}  // namespace gufunc
