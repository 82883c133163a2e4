// How the builtin O(n^3) kernels ask whether to stop (gufunc_should_stop() in
// gufunc/context.h): once per about a million multiply-adds, a millisecond or so,
// so that one slice of seconds (a 2000x2000 matmul) stops soon after Ctrl-C while a
// stack of small slices pays next to nothing. Asking changes no arithmetic.
#pragma once

#include "gufunc/context.h"

namespace gufunc {
namespace linalg {

class StopPoll {
 public:
  explicit StopPoll(const gufunc_context* ctx) : ctx_(ctx) {}
  // Counts `work` multiply-adds just done; true when the kernel should stop.
  bool stop_after(double work) {
    done_ += work;
    if (done_ < kPollWork) return false;
    done_ = 0;
    return gufunc_should_stop(ctx_) != 0;
  }

 private:
  static constexpr double kPollWork = 1048576;
  const gufunc_context* ctx_;
  double done_ = 0;
};

}  // namespace linalg
}  // namespace gufunc
