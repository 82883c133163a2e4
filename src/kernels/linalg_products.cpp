// Products over core dimensions: matmul "(m,n),(n,p)->(m,p)" and inner "(n),(n)->()".
//
// matmul sums each element's products in index order in double, as the reference
// BLAS dgemm behind `%*%` does; a big product asks whether to stop after each column
// (kernels/stop_poll.hpp). inner sums in long double, in index order, so that
// inner(a, b) on matrices is identical() to colSums(a * b).
// clang-format off
#include "kernels/loop_options.hpp"  // first: covers everything below
// clang-format on
#include <cmath>
#include <cstdint>

#include "dispatch/table.hpp"
#include "kernels/builtins.hpp"
#include "kernels/linalg_common.hpp"
#include "kernels/r_semantics.hpp"
#include "kernels/stop_poll.hpp"

namespace gufunc {
namespace {

using linalg::at;
using linalg::StopPoll;

const intptr_t kD = static_cast<intptr_t>(sizeof(double));

// One slice of a contiguous product with sizes known at compile time: the operands
// are loaded into locals first, so the compiler keeps them in registers and unrolls.
// True when some product is NaN (checked in registers: no second pass).
template <int M, int N, int P>
GUFUNC_SIMD_CLONES bool matmul_fixed(intptr_t len, const char* a, const char* b, char* c,
                                     intptr_t la, intptr_t lb, intptr_t lc) {
  bool nan = false;
  for (intptr_t l = 0; l < len; ++l, a += la, b += lb, c += lc) {
    double A[M * N], B[N * P], C[M * P];
    for (int e = 0; e < M * N; ++e) A[e] = reinterpret_cast<const double*>(a)[e];
    for (int e = 0; e < N * P; ++e) B[e] = reinterpret_cast<const double*>(b)[e];
    for (int k = 0; k < P; ++k) {
      for (int i = 0; i < M; ++i) {
        double s = 0.0;  // as dgemm: 0 + x keeps -0 products from giving -0
        for (int j = 0; j < N; ++j) s += A[i + j * M] * B[j + k * N];
        C[i + k * M] = s;
      }
    }
    for (int e = 0; e < M * P; ++e) {
      reinterpret_cast<double*>(c)[e] = C[e];
      nan |= C[e] != C[e];
    }
  }
  return nan;
}

// Contiguous slices of any size: column k of C accumulates B[j, k] * A[, j] for
// j = 1..n, in that order (dgemm's loop), vectorized over the rows. False when
// `poll` said stop; *nan: some product is NaN (checked while the column is in cache).
GUFUNC_SIMD_CLONES bool matmul_contiguous(intptr_t len, intptr_t m, intptr_t n, intptr_t p,
                                          const char* a, const char* b, char* c, intptr_t la,
                                          intptr_t lb, intptr_t lc, StopPoll* poll, bool* nan) {
  for (intptr_t l = 0; l < len; ++l, a += la, b += lb, c += lc) {
    const double* __restrict A = reinterpret_cast<const double*>(a);
    const double* __restrict B = reinterpret_cast<const double*>(b);
    double* __restrict C = reinterpret_cast<double*>(c);
    for (intptr_t k = 0; k < p; ++k) {
      double* __restrict Ck = C + k * m;
      for (intptr_t i = 0; i < m; ++i) Ck[i] = 0.0;
      for (intptr_t j = 0; j < n; ++j) {
        const double bjk = B[j + k * n];
        const double* __restrict Aj = A + j * m;
        for (intptr_t i = 0; i < m; ++i) Ck[i] += Aj[i] * bjk;
      }
      bool column_nan = false;
      for (intptr_t i = 0; i < m; ++i) column_nan |= Ck[i] != Ck[i];
      *nan = *nan || column_nan;
      if (poll->stop_after(static_cast<double>(m) * static_cast<double>(n))) return false;
    }
  }
  return true;
}

// The products through any strides (kernels requested through the C ABI may see
// views), element by element in index order. With NansOnly, only the elements that
// are NaN now, recomputed with the first NaN kept, as %*% gives it (NA %*% NaN is
// NA, NaN %*% NA is NaN); the others stay. False when `poll` said stop.
template <bool NansOnly>
bool strided_products(intptr_t len, intptr_t m, intptr_t n, intptr_t p, const char* a,
                      const char* b, char* c, const intptr_t* steps, StopPoll* poll) {
  const intptr_t la = steps[0], lb = steps[1], lc = steps[2];
  const intptr_t am = steps[3], an = steps[4], bn = steps[5], bp = steps[6], cm = steps[7],
                 cp = steps[8];
  for (intptr_t l = 0; l < len; ++l, a += la, b += lb, c += lc) {
    for (intptr_t k = 0; k < p; ++k) {
      for (intptr_t i = 0; i < m; ++i) {
        if (NansOnly && !std::isnan(at(c, i, k, cm, cp))) continue;
        double s = 0.0;
        for (intptr_t j = 0; j < n; ++j) {
          const double x = at(a, i, j, am, an), y = at(b, j, k, bn, bp);
          // The first operand's NaN, as base R's compiled loop gives it (the fast
          // loops may have swapped the operands of * and +).
          s = NansOnly ? rsem::plus_r(s, rsem::times_r(x, y)) : s + x * y;
        }
        at(c, i, k, cm, cp) = s;
      }
      if (!NansOnly && poll->stop_after(static_cast<double>(m) * static_cast<double>(n))) {
        return false;
      }
    }
  }
  return true;
}

// Column-major without gaps (a dim of size 1 may have any stride).
bool contiguous(intptr_t rows, intptr_t cols, intptr_t si, intptr_t sj) {
  return (rows <= 1 || si == kD) && (cols <= 1 || sj == rows * kD);
}

// "double(m,n), double(n,p) -> double(m,p)"
int matmul_loop(char** args, const intptr_t* dims, const intptr_t* steps, void* data) {
  const intptr_t len = dims[0], m = dims[1], n = dims[2], p = dims[3];
  if (len <= 0) return 0;
  gufunc_context* ctx = linalg::context_of(data);
  StopPoll poll(ctx);
  const char* a = args[0];
  const char* b = args[1];
  char* c = args[2];
  const bool flat = contiguous(m, n, steps[3], steps[4]) && contiguous(n, p, steps[5], steps[6]) &&
                    contiguous(m, p, steps[7], steps[8]);
  const intptr_t la = steps[0], lb = steps[1], lc = steps[2];
  bool nan = true;  // some product may be NaN: recomputed in index order below
  if (!flat) {
    if (!strided_products<false>(len, m, n, p, a, b, c, steps, &poll)) return gufunc_stopped(ctx);
  } else if (m == n && n == p && m >= 2 && m <= 4) {
    if (m == 2) nan = matmul_fixed<2, 2, 2>(len, a, b, c, la, lb, lc);
    if (m == 3) nan = matmul_fixed<3, 3, 3>(len, a, b, c, la, lb, lc);
    if (m == 4) nan = matmul_fixed<4, 4, 4>(len, a, b, c, la, lb, lc);
  } else if (m == n && p == 1 && m >= 2 && m <= 4) {
    if (m == 2) nan = matmul_fixed<2, 2, 1>(len, a, b, c, la, lb, lc);
    if (m == 3) nan = matmul_fixed<3, 3, 1>(len, a, b, c, la, lb, lc);
    if (m == 4) nan = matmul_fixed<4, 4, 1>(len, a, b, c, la, lb, lc);
  } else {
    nan = false;
    if (!matmul_contiguous(len, m, n, p, a, b, c, la, lb, lc, &poll, &nan)) {
      return gufunc_stopped(ctx);
    }
  }
  if (nan) strided_products<true>(len, m, n, p, a, b, c, steps, &poll);
  return 0;
}

// "double(n), double(n) -> double()": each product is rounded to double (as a * b
// is), then added to a long double sum in index order (as colSums does).
int inner_loop(char** args, const intptr_t* dims, const intptr_t* steps, void*) {
  const intptr_t len = dims[0], n = dims[1];
  const intptr_t lx = steps[0], ly = steps[1], lo = steps[2], sx = steps[3], sy = steps[4];
  const char* x = args[0];
  const char* y = args[1];
  char* out = args[2];
  const bool flat = n <= 1 || (sx == kD && sy == kD);
  for (intptr_t l = 0; l < len; ++l, x += lx, y += ly, out += lo) {
    long double s = 0.0L;
    if (flat) {
      const double* X = reinterpret_cast<const double*>(x);
      const double* Y = reinterpret_cast<const double*>(y);
      for (intptr_t k = 0; k < n; ++k) {
        const double prod = X[k] * Y[k];
        s += prod;
      }
    } else {
      for (intptr_t k = 0; k < n; ++k) {
        const double prod = at(x, k, 0, sx, 0) * at(y, k, 0, sy, 0);
        s += prod;
      }
    }
    *reinterpret_cast<double*>(out) = static_cast<double>(s);
  }
  return 0;
}

}  // namespace

void register_linalg_product_kernels(Table& table) {
  table.add_kernel(
      linalg::linalg_init("matmul", "double(m,n), double(n,p) -> double(m,p)", matmul_loop));
  // Each element sums its row's products in index order, from 0.0, whatever the
  // other rows: every loop above adds them one at a time into a double.
  Function& matmul = *table.find("matmul");
  matmul.add_set_flags(matmul.size() - 1, kRowsIndependent | kSumsInIndexOrder);
  table.add_kernel(linalg::linalg_init("inner", "double(n), double(n) -> double()", inner_loop));
}

}  // namespace gufunc
