// det "(n,n)->()" and solve "(n,n),(n,k)->(n,k)" for stacks of small matrices: LU
// with partial pivoting per slice (linalg_lu.hpp). A big slice asks whether to stop
// as it goes (kernels/stop_poll.hpp).
//
// det: a slice with NA or NaN gives NA_real_; an exactly singular slice gives 0.
// solve: follows base R's solve(): a slice with a non-finite value, an exactly zero
// pivot, or a reciprocal condition number below the double epsilon (R's default
// `tol`) is an error naming the slice.
// clang-format off
#include "kernels/loop_options.hpp"  // first: covers everything below
// clang-format on
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>

#include "dispatch/table.hpp"
#include "kernels/builtins.hpp"
#include "kernels/linalg_common.hpp"
#include "kernels/linalg_lu.hpp"
#include "kernels/r_summary.hpp"

namespace gufunc {
namespace {

using namespace linalg;

bool any_nan(const double* a, intptr_t len) {
  bool nan = false;
  for (intptr_t i = 0; i < len; ++i) nan |= std::isnan(a[i]);
  return nan;
}

bool all_finite(const double* a, intptr_t len) {
  bool finite = true;
  for (intptr_t i = 0; i < len; ++i) finite &= std::isfinite(a[i]);
  return finite;
}

// The determinant of `a` (destroyed), or false when `poll` said stop.
bool det_of(double* a, intptr_t n, intptr_t* piv, StopPoll* poll, double* det) {
  if (any_nan(a, n * n)) {
    *det = rsem::na_real();
    return true;
  }
  int sign = 1;
  const intptr_t zero = lu_factor(a, n, piv, &sign, poll);
  if (zero == kLuStopped) return false;
  if (zero != 0) {
    *det = 0.0;
    return true;
  }
  // The product of the pivots with its power of two kept apart, so that a partial
  // product past the double range (1e300 * 1e300 * 1e-300 * 1e-300) is not Inf or
  // 0; the significands multiply, and round, as in the plain product.
  double m = sign;
  intptr_t e = 0;
  for (intptr_t j = 0; j < n; ++j) {
    int k = 0;
    m *= std::frexp(a[j + j * n], &k);
    e += k;
    m = std::frexp(m, &k);
    e += k;
  }
  const intptr_t limit = 100000;  // far past the range: ldexp() gives Inf or 0
  *det = std::ldexp(m, static_cast<int>(std::max(-limit, std::min(limit, e))));
  return true;
}

// "double(n,n) -> double()"
int det_loop(char** args, const intptr_t* dims, const intptr_t* steps, void* data) {
  gufunc_context* ctx = context_of(data);
  return guarded_kernel(ctx, [&]() -> int {
    const intptr_t len = dims[0], n = dims[1];
    if (len <= 0) return 0;
    Scratch<double> work(static_cast<size_t>(n * n));
    Scratch<intptr_t> piv(static_cast<size_t>(n));
    StopPoll poll(ctx);
    const char* a = args[0];
    char* out = args[1];
    for (intptr_t l = 0; l < len; ++l, a += steps[0], out += steps[1]) {
      gather(a, n, n, steps[2], steps[3], work.get());
      if (!det_of(work.get(), n, piv.get(), &poll, reinterpret_cast<double*>(out))) {
        return gufunc_stopped(ctx);
      }
    }
    return 0;
  });
}

// Factors slice `l`'s matrix (already in `lu`) and checks it can be solved, with
// base R's wording; returns -1 with the error set otherwise.
int factor_solvable(double* lu, intptr_t n, intptr_t* piv, double* work, intptr_t l, StopPoll* poll,
                    gufunc_context* ctx) {
  if (!all_finite(lu, n * n)) {
    return gufunc_error_at(ctx, l, "the matrix has non-finite values (NA, NaN or Inf)");
  }
  const double anorm = norm1(lu, n);
  int sign = 1;
  const intptr_t zero = lu_factor(lu, n, piv, &sign, poll);
  if (zero == kLuStopped) return gufunc_stopped(ctx);
  if (zero != 0) {
    return gufunc_error_at(ctx, l, "the matrix is exactly singular (pivot U[%ld,%ld] = 0)",
                           static_cast<long>(zero), static_cast<long>(zero));
  }
  const double rcond = lu_rcond(lu, piv, n, anorm, work);
  if (!(rcond >= DBL_EPSILON)) {
    return gufunc_error_at(ctx, l,
                           "the matrix is computationally singular: reciprocal condition "
                           "number = %g",
                           rcond);
  }
  return 0;
}

// "double(n,n), double(n,k) -> double(n,k)"
int solve_loop(char** args, const intptr_t* dims, const intptr_t* steps, void* data) {
  gufunc_context* ctx = context_of(data);
  return guarded_kernel(ctx, [&]() -> int {
    const intptr_t len = dims[0], n = dims[1], k = dims[2];
    if (len <= 0) return 0;
    Scratch<double> work(static_cast<size_t>(n * n + n * k + 3 * n));
    Scratch<intptr_t> piv(static_cast<size_t>(n));
    StopPoll poll(ctx);
    double* lu = work.get();
    double* x = lu + n * n;
    double* est = x + n * k;
    const char* a = args[0];
    const char* b = args[1];
    char* out = args[2];
    for (intptr_t l = 0; l < len; ++l, a += steps[0], b += steps[1], out += steps[2]) {
      gather(a, n, n, steps[3], steps[4], lu);
      if (factor_solvable(lu, n, piv.get(), est, l, &poll, ctx) != 0) return -1;
      gather(b, n, k, steps[5], steps[6], x);
      for (intptr_t j = 0; j < k; ++j) {
        lu_solve(lu, piv.get(), n, x + j * n);
        if (poll.stop_after(static_cast<double>(n) * static_cast<double>(n))) {
          return gufunc_stopped(ctx);
        }
      }
      scatter(x, n, k, out, steps[7], steps[8]);
    }
    return 0;
  });
}

}  // namespace

void register_linalg_solve_kernels(Table& table) {
  table.add_kernel(linalg_init("det", "double(n,n) -> double()", det_loop));
  table.add_kernel(linalg_init("solve", "double(n,n), double(n,k) -> double(n,k)", solve_loop));
}

}  // namespace gufunc
