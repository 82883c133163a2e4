// eigen_symmetric "(n,n)->(n),(n,n)": the eigen decomposition of each symmetric
// slice by cyclic Jacobi rotations (accurate to a few ulps for the small matrices
// of a stack, and simple). As eigen(symmetric = TRUE): only the lower triangle is
// read, values come in decreasing order, vectors are the unit-norm columns, and a
// slice with NA, NaN or Inf is an error (naming the slice). A big slice asks whether
// to stop as it goes (kernels/stop_poll.hpp).
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
#include "kernels/stop_poll.hpp"

namespace gufunc {
namespace {

using namespace linalg;

const int kMaxSweeps = 100;

// Applies the rotation of columns (and rows) p and q that zeroes a[p, q].
void rotate(double* a, double* v, intptr_t n, intptr_t p, intptr_t q) {
  const double apq = a[p + q * n];
  const double tau = (a[q + q * n] - a[p + p * n]) / (2.0 * apq);
  // The smaller root of t^2 + 2 tau t - 1 = 0 (rotation angle at most pi/4).
  const double t = std::fabs(tau) > 1e150
                       ? 0.5 / tau
                       : (tau >= 0 ? 1.0 : -1.0) / (std::fabs(tau) + std::sqrt(1.0 + tau * tau));
  const double c = 1.0 / std::sqrt(1.0 + t * t), s = t * c;
  for (intptr_t r = 0; r < n; ++r) {
    if (r == p || r == q) continue;
    const double arp = a[r + p * n], arq = a[r + q * n];
    a[r + p * n] = a[p + r * n] = c * arp - s * arq;
    a[r + q * n] = a[q + r * n] = s * arp + c * arq;
  }
  a[p + p * n] -= t * apq;
  a[q + q * n] += t * apq;
  a[p + q * n] = a[q + p * n] = 0.0;
  for (intptr_t r = 0; r < n; ++r) {
    const double vrp = v[r + p * n], vrq = v[r + q * n];
    v[r + p * n] = c * vrp - s * vrq;
    v[r + q * n] = s * vrp + c * vrq;
  }
}

// Diagonalizes the symmetric `a` in place, accumulating the rotations in `v`. False
// when `poll` said stop.
bool jacobi(double* a, double* v, intptr_t n, StopPoll* poll) {
  for (intptr_t j = 0; j < n; ++j) {
    for (intptr_t i = 0; i < n; ++i) v[i + j * n] = i == j ? 1.0 : 0.0;
  }
  for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
    double off = 0.0, diag = 0.0;
    for (intptr_t j = 0; j < n; ++j) {
      diag += a[j + j * n] * a[j + j * n];
      for (intptr_t i = j + 1; i < n; ++i) off += a[i + j * n] * a[i + j * n];
    }
    // Converged once the off-diagonal part is far below rounding of the whole.
    if (off == 0.0 || std::sqrt(off) <= 1e-3 * DBL_EPSILON * std::sqrt(diag + 2.0 * off)) {
      return true;
    }
    for (intptr_t p = 0; p + 1 < n; ++p) {
      for (intptr_t q = p + 1; q < n; ++q) {
        if (a[p + q * n] != 0.0) rotate(a, v, n, p, q);
      }
      // A rotation updates two rows and columns of `a` and two columns of `v`.
      if (poll->stop_after(4.0 * static_cast<double>(n - p - 1) * static_cast<double>(n))) {
        return false;
      }
    }
  }
  return true;
}

// Entries this far from 1 are scaled first: the sums of squares and the rotations'
// tau*tau would overflow above about 1e154 and lose everything below about 1e-160.
const double kScaleAbove = std::ldexp(1.0, 256), kScaleBelow = std::ldexp(1.0, -256);

// A power of two that brings the largest entry of `a` into [0.5, 1) when it lies
// outside [kScaleBelow, kScaleAbove] (else 0: no scaling). Multiplying by a power
// of two is exact, and the eigenvalues of the scaled matrix times it are the
// matrix's, its eigenvectors the same.
int scale_exponent(const double* a, intptr_t len) {
  double largest = 0.0;
  for (intptr_t e = 0; e < len; ++e) largest = std::max(largest, std::fabs(a[e]));
  if (largest == 0.0 || (largest >= kScaleBelow && largest <= kScaleAbove)) return 0;
  int exponent = 0;
  std::frexp(largest, &exponent);
  return exponent;
}

// What eigen_slice() found.
enum class SliceResult { Done, NotFinite, Stopped };

// One slice: `x` read through strides (lower triangle), results written the same way.
SliceResult eigen_slice(const char* x, const intptr_t* steps, char* values, char* vectors,
                        intptr_t n, double* a, double* v, intptr_t* order, StopPoll* poll) {
  gather(x, n, n, steps[3], steps[4], a);
  bool finite = true;
  for (intptr_t e = 0; e < n * n; ++e) finite &= std::isfinite(a[e]);
  if (!finite) return SliceResult::NotFinite;
  for (intptr_t j = 0; j < n; ++j) {
    for (intptr_t i = j + 1; i < n; ++i) a[j + i * n] = a[i + j * n];
  }
  const int scale = scale_exponent(a, n * n);
  if (scale != 0) {
    for (intptr_t e = 0; e < n * n; ++e) a[e] = std::ldexp(a[e], -scale);
  }
  if (!jacobi(a, v, n, poll)) return SliceResult::Stopped;
  if (scale != 0) {
    for (intptr_t j = 0; j < n; ++j) a[j + j * n] = std::ldexp(a[j + j * n], scale);
  }
  for (intptr_t j = 0; j < n; ++j) order[j] = j;
  std::stable_sort(order, order + n,
                   [&](intptr_t i, intptr_t j) { return a[i + i * n] > a[j + j * n]; });
  for (intptr_t j = 0; j < n; ++j) {
    const intptr_t src = order[j];
    at(values, j, 0, steps[5], 0) = a[src + src * n];
    double norm = 0.0;
    for (intptr_t i = 0; i < n; ++i) norm += v[i + src * n] * v[i + src * n];
    norm = std::sqrt(norm);
    for (intptr_t i = 0; i < n; ++i) at(vectors, i, j, steps[6], steps[7]) = v[i + src * n] / norm;
  }
  return SliceResult::Done;
}

// "double(n,n) -> double(n), double(n,n)"
int eigen_loop(char** args, const intptr_t* dims, const intptr_t* steps, void* data) {
  gufunc_context* ctx = context_of(data);
  return guarded_kernel(ctx, [&]() -> int {
    const intptr_t len = dims[0], n = dims[1];
    if (len <= 0) return 0;
    Scratch<double> work(static_cast<size_t>(2 * n * n));
    Scratch<intptr_t> order(static_cast<size_t>(n));
    StopPoll poll(ctx);
    const char* x = args[0];
    char* values = args[1];
    char* vectors = args[2];
    for (intptr_t l = 0; l < len; ++l, x += steps[0], values += steps[1], vectors += steps[2]) {
      const SliceResult r = eigen_slice(x, steps, values, vectors, n, work.get(),
                                        work.get() + n * n, order.get(), &poll);
      if (r == SliceResult::Stopped) return gufunc_stopped(ctx);
      if (r == SliceResult::NotFinite) {
        return gufunc_error_at(ctx, l, "the matrix has infinite or missing values");
      }
    }
    return 0;
  });
}

}  // namespace

void register_linalg_eigen_kernels(Table& table) {
  table.add_kernel(
      linalg_init("eigen_symmetric", "double(n,n) -> double(n), double(n,n)", eigen_loop));
}

}  // namespace gufunc
