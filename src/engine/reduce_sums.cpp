// The long double loops of sums and means (see reduce_sums.hpp).
// clang-format off
#include "kernels/loop_options.hpp"  // first: the sum loops are kernel loops
// clang-format on
#include "engine/reduce_sums.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "engine/ordered_sum.hpp"
#include "kernels/r_semantics.hpp"

namespace gufunc {
namespace engine {

namespace {

// Values per call of add_in_order(): one of its chunks.
const int kChunk = kPreparedChunk;

double at(const char* data, intptr_t i, intptr_t step) {
  double v;
  std::memcpy(&v, data + i * step, sizeof v);
  return v;
}

// Calls add(v) with v = value(i), ..., value(i + 3) for each four of [i, n) and
// returns where it stopped. Four values are formed before they are added, so the
// vectorizer computes them (products, say) in vector registers and the loop is left
// with loads and the long double additions.
template <class ValueAt, class Add>
[[gnu::always_inline]] inline intptr_t by_fours(ValueAt value, intptr_t i, intptr_t n, Add add) {
  for (; i + 4 <= n; i += 4) {
    double v[4];
    for (int j = 0; j < 4; ++j) v[j] = value(i + j);
    add(v);
  }
  return i;
}

// Folds value(0), ..., value(n - 1), at indices [index, index + n), into s. Always
// inlined, so a caller compiled for AVX2 (sum_flat_products) vectorizes it for AVX2.
template <class ValueAt>
[[gnu::always_inline]] inline void sum_values(ValueAt value, intptr_t n, intptr_t index, bool na_rm,
                                              SumOrder order, ReduceState* s) {
  intptr_t used = n;
  auto keep = [&](double x) {
    if (na_rm && std::isnan(x)) {
      --used;
      return false;
    }
    return true;
  };
  if (s->pass != ReduceState::Pass::Sum) {  // base R's mean: a further pass, in index order
    using Pass = ReduceState::Pass;
    const long double m = s->mean;
    const int64_t count = s->count;
    if (s->pass == Pass::Scaled) {
      long double t = s->scaled;
      // x / count in double, as R's dx[k]/n: both operands are doubles there.
      for (intptr_t i = 0; i < n; ++i) {
        const double x = value(i);
        if (keep(x)) t += x / static_cast<double>(count);
      }
      s->scaled = t;
    } else if (s->pass == Pass::ScaledDeviations) {
      long double t = s->deviations;
      for (intptr_t i = 0; i < n; ++i) {
        const double x = value(i);
        if (keep(x)) t += (x - m) / count;
      }
      s->deviations = t;
    } else {
      long double t = s->deviations;
      for (intptr_t i = 0; i < n; ++i) {
        const double x = value(i);
        if (keep(x)) t += x - m;
      }
      s->deviations = t;
    }
    return;
  }
  intptr_t i = 0;
  if (order == SumOrder::Exact) {
    // The values a chunk at a time (products formed in vector registers), added in
    // order by add_in_order(): base R's bits, without waiting on each addition.
    long double t = s->total;
    double chunk[kChunk];
    while (i < n) {
      int len = 0;
      if (na_rm) {
        for (; i < n && len < kChunk; ++i) {
          const double x = value(i);
          if (keep(x)) chunk[len++] = x;
        }
      } else {
        len = static_cast<int>(std::min<intptr_t>(kChunk, n - i));
        for (int j = 0; j < len; ++j) chunk[j] = value(i + j);
        i += len;
      }
      t = add_in_order(t, chunk, len, &s->in_order_hint);
    }
    s->total = t;
  } else {
    long double* lane = s->lanes;
    for (; i < n && ((index + i) & 3) != 0; ++i) {
      const double x = value(i);
      if (keep(x)) lane[(index + i) & 3] += loaded(x);
    }
    if (!na_rm) {
      long double l0 = lane[0], l1 = lane[1], l2 = lane[2], l3 = lane[3];
      i = by_fours(value, i, n, [&](const double* v) {
        l0 += loaded(v[0]);
        l1 += loaded(v[1]);
        l2 += loaded(v[2]);
        l3 += loaded(v[3]);
      });
      lane[0] = l0, lane[1] = l1, lane[2] = l2, lane[3] = l3;
    }
    for (; i < n; ++i) {
      const double x = value(i);
      if (keep(x)) lane[(index + i) & 3] += loaded(x);
    }
  }
  s->count += used;
}

const intptr_t kFlat = sizeof(double);

// sum_values of a[i] * b[i] over contiguous arrays, also compiled for AVX2: four
// products from one vector multiply. Streaming and adding stay in one loop, so
// memory and arithmetic overlap.
GUFUNC_SIMD_CLONES void sum_flat_products(const double* a, const double* b, intptr_t n,
                                          intptr_t index, bool na_rm, SumOrder order,
                                          ReduceState* s) {
  sum_values([a, b](intptr_t i) { return rsem::times_r(a[i], b[i]); }, n, index, na_rm, order, s);
}

}  // namespace

GUFUNC_SIMD_CLONES void store_products(const double* x, const double* y, intptr_t n, double* out) {
  for (intptr_t i = 0; i < n; ++i) out[i] = rsem::times_r(x[i], y[i]);
}

void sum_doubles(const char* data, intptr_t n, intptr_t step, intptr_t index, bool na_rm,
                 SumOrder order, ReduceState* s) {
  if (step == kFlat) {
    const double* x = reinterpret_cast<const double*>(data);
    sum_values([x](intptr_t i) { return x[i]; }, n, index, na_rm, order, s);
  } else {
    sum_values([=](intptr_t i) { return at(data, i, step); }, n, index, na_rm, order, s);
  }
}

void sum_products(const char* x, intptr_t x_step, const char* y, intptr_t y_step, intptr_t n,
                  intptr_t index, bool na_rm, SumOrder order, ReduceState* s) {
  if (x_step == kFlat && y_step == kFlat) {
    sum_flat_products(reinterpret_cast<const double*>(x), reinterpret_cast<const double*>(y), n,
                      index, na_rm, order, s);
    return;
  }
  sum_values([=](intptr_t i) { return rsem::times_r(at(x, i, x_step), at(y, i, y_step)); }, n,
             index, na_rm, order, s);
}

}  // namespace engine
}  // namespace gufunc
