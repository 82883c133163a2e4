// How the core asks for parallel work without knowing the threading library:
// the R bridge implements Runner with RcppParallel; benchmarks and C tests use
// SerialRunner. Bodies run on worker threads and must not touch the R API.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
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

// What the workers of one parallel loop report: a kernel error and the union of the
// warnings (GUFUNC_WARN_* bits) they raised. Safe to share between them. Of errors
// in known loop iterations the lowest one's is kept, whatever order the threads met
// them in: the error a serial loop gives, the same on any number of threads.
struct WorkerOutcome {
  std::atomic<unsigned> warnings{0};
  std::atomic<bool> failed{false};
  std::mutex lock;
  std::string message;
  // The error's class when a worker threw one of gufunc's (a file cut short while it
  // was read: gufunc_file_changed_error); empty for a kernel's error.
  std::string condition_class;
  intptr_t failed_at = -1;  // the failing loop iteration of the whole call, if known
  // Iterations from here on need not run: the lowest failing one (0 when an error
  // names none).
  std::atomic<intptr_t> stop_from{std::numeric_limits<intptr_t>::max()};

  void fail(const std::string& msg, intptr_t at = -1, const std::string& cls = std::string()) {
    std::lock_guard<std::mutex> g(lock);
    const bool first = !failed.exchange(true);
    if (first || (at >= 0 && failed_at >= 0 && at < failed_at)) {
      message = msg;
      condition_class = cls;
      failed_at = at;
    }
    const intptr_t from = at >= 0 ? at : 0;
    if (from < stop_from.load()) stop_from.store(from);
  }

  // Whether a worker at loop iteration `pos` may stop: an error at or before it.
  bool stops_at(intptr_t pos) const { return pos >= stop_from.load(std::memory_order_relaxed); }
};

}  // namespace gufunc
