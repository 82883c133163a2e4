// LU factorization with partial pivoting of one small column-major matrix, the
// solves with it, and an estimate of its reciprocal condition number: what det and
// solve (linalg_solve.cpp) need per slice. Same pivot choice as LAPACK's dgetrf
// (the first row of largest absolute value), so singular pivots are reported at
// the same position as base R's solve().
#pragma once

#include <cmath>
#include <cstdint>

#include "kernels/stop_poll.hpp"

namespace gufunc {
namespace linalg {

// lu_factor() stopped because `poll` said so.
const intptr_t kLuStopped = -1;

// Factors the n x n matrix `a` in place into P A = L U (L unit lower, U upper, both
// stored in `a`); piv[j] is the row swapped with row j at step j. Returns 0, or
// j + 1 for the first column j whose pivot is exactly zero (then `a` is only
// partly factored), or kLuStopped. `sign` receives the permutation's sign.
inline intptr_t lu_factor(double* a, intptr_t n, intptr_t* piv, int* sign, StopPoll* poll) {
  *sign = 1;
  for (intptr_t j = 0; j < n; ++j) {
    double* col = a + j * n;
    intptr_t p = j;
    double big = std::fabs(col[j]);
    for (intptr_t i = j + 1; i < n; ++i) {
      const double v = std::fabs(col[i]);
      if (v > big) {
        big = v;
        p = i;
      }
    }
    piv[j] = p;
    if (big == 0.0) return j + 1;
    if (p != j) {
      for (intptr_t k = 0; k < n; ++k) {
        const double t = a[j + k * n];
        a[j + k * n] = a[p + k * n];
        a[p + k * n] = t;
      }
      *sign = -*sign;
    }
    const double pivot = col[j];
    for (intptr_t i = j + 1; i < n; ++i) col[i] /= pivot;
    for (intptr_t k = j + 1; k < n; ++k) {
      double* ck = a + k * n;
      const double f = ck[j];
      for (intptr_t i = j + 1; i < n; ++i) ck[i] -= col[i] * f;
    }
    const double rest = static_cast<double>(n - j - 1);
    if (poll->stop_after(rest * rest)) return kLuStopped;
  }
  return 0;
}

// Solves A x = b in place (b: n values) with the factors of lu_factor(). With
// `rdiag` (the reciprocals of U's diagonal) it multiplies instead of dividing:
// faster, for the condition estimate, where the last bit does not matter.
inline void lu_solve(const double* lu, const intptr_t* piv, intptr_t n, double* b,
                     const double* rdiag = nullptr) {
  for (intptr_t j = 0; j < n; ++j) {
    const intptr_t p = piv[j];
    if (p != j) {
      const double t = b[j];
      b[j] = b[p];
      b[p] = t;
    }
  }
  for (intptr_t j = 0; j < n; ++j) {  // L y = P b, column by column
    const double bj = b[j];
    for (intptr_t i = j + 1; i < n; ++i) b[i] -= lu[i + j * n] * bj;
  }
  for (intptr_t j = n - 1; j >= 0; --j) {  // U x = y
    b[j] = rdiag ? b[j] * rdiag[j] : b[j] / lu[j + j * n];
    const double bj = b[j];
    for (intptr_t i = 0; i < j; ++i) b[i] -= lu[i + j * n] * bj;
  }
}

// Solves A' x = b in place: U' w = b, L' v = w, x = P' v (`rdiag` as above).
inline void lu_solve_transposed(const double* lu, const intptr_t* piv, intptr_t n, double* b,
                                const double* rdiag) {
  for (intptr_t j = 0; j < n; ++j) {
    double s = b[j];
    for (intptr_t i = 0; i < j; ++i) s -= lu[i + j * n] * b[i];
    b[j] = s * rdiag[j];
  }
  for (intptr_t j = n - 1; j >= 0; --j) {
    double s = b[j];
    for (intptr_t i = j + 1; i < n; ++i) s -= lu[i + j * n] * b[i];
    b[j] = s;
  }
  for (intptr_t j = n - 1; j >= 0; --j) {
    const intptr_t p = piv[j];
    if (p != j) {
      const double t = b[j];
      b[j] = b[p];
      b[p] = t;
    }
  }
}

// The 1-norm of the n x n matrix `a` (largest column sum of absolute values).
inline double norm1(const double* a, intptr_t n) {
  double best = 0.0;
  for (intptr_t j = 0; j < n; ++j) {
    double s = 0.0;
    for (intptr_t i = 0; i < n; ++i) s += std::fabs(a[i + j * n]);
    if (s > best) best = s;
  }
  return best;
}

// Reciprocal condition number in the 1-norm, 1 / (|A|_1 |A^-1|_1), as LAPACK's
// dgecon (used by base R's solve()) estimates it: |A^-1|_1 by Hager's method with
// Higham's extra test vector, a few O(n^2) solves with the factors. `work` holds
// 3n doubles.
inline double lu_rcond(const double* lu, const intptr_t* piv, intptr_t n, double anorm,
                       double* work) {
  if (n == 0) return 1.0;
  if (anorm == 0.0) return 0.0;
  double* x = work;
  double* z = work + n;
  double* rdiag = work + 2 * n;
  for (intptr_t j = 0; j < n; ++j) rdiag[j] = 1.0 / lu[j + j * n];
  for (intptr_t i = 0; i < n; ++i) x[i] = 1.0 / static_cast<double>(n);
  double est = 0.0;
  intptr_t prev = -1;  // x is the unit vector e_prev after the first step
  for (int iter = 0; iter < 5; ++iter) {
    lu_solve(lu, piv, n, x, rdiag);  // x = A^-1 x
    double norm = 0.0;
    for (intptr_t i = 0; i < n; ++i) norm += std::fabs(x[i]);
    if (iter > 0 && norm <= est) break;
    est = norm;
    for (intptr_t i = 0; i < n; ++i) z[i] = x[i] >= 0.0 ? 1.0 : -1.0;
    lu_solve_transposed(lu, piv, n, z, rdiag);  // the gradient A^-T sign(A^-1 x)
    intptr_t jmax = 0;
    double zsum = 0.0;
    for (intptr_t i = 0; i < n; ++i) {
      if (std::fabs(z[i]) > std::fabs(z[jmax])) jmax = i;
      zsum += z[i];
    }
    const double zx = prev < 0 ? zsum / static_cast<double>(n) : z[prev];
    if (std::fabs(z[jmax]) <= zx || jmax == prev) break;  // a local maximum
    for (intptr_t i = 0; i < n; ++i) x[i] = i == jmax ? 1.0 : 0.0;
    prev = jmax;
  }
  // Higham's alternating vector catches matrices where the iteration stalls.
  for (intptr_t i = 0; i < n; ++i) {
    const double mag = 1.0 + (n > 1 ? static_cast<double>(i) / static_cast<double>(n - 1) : 0.0);
    x[i] = i % 2 == 0 ? mag : -mag;
  }
  lu_solve(lu, piv, n, x, rdiag);
  double alt = 0.0;
  for (intptr_t i = 0; i < n; ++i) alt += std::fabs(x[i]);
  alt = 2.0 * alt / (3.0 * static_cast<double>(n));
  if (alt > est) est = alt;
  if (!(est > 0.0)) return est == 0.0 ? 1.0 / anorm : 0.0;
  return (1.0 / anorm) / est;
}

}  // namespace linalg
}  // namespace gufunc
