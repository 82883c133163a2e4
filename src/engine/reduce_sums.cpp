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

// Fast order (see reduce_sums.hpp): a chunk's sum from its double lanes `d`, or, when
// one of them is not finite, from its long double lanes `l`.
long double chunk_sum(const double* d, const long double* l) {
  bool finite = true;
  for (int j = 0; j < 16; ++j) finite = finite && std::isfinite(d[j]);
  if (!finite) return (l[0] + l[1]) + (l[2] + l[3]);
  long double pair[8];
  for (int j = 0; j < 8; ++j) pair[j] = static_cast<long double>(d[2 * j]) + d[2 * j + 1];
  return ((pair[0] + pair[1]) + (pair[2] + pair[3])) + ((pair[4] + pair[5]) + (pair[6] + pair[7]));
}

// Fast order: value(i) for i in [from, to) (indices index + i, within the open
// chunk) added into both of s's lane sets where keep(value) says; a value left out
// adds 0 to its double lane, as in whole_chunk().
template <class ValueAt, class Keep>
[[gnu::always_inline]] inline void add_to_open_chunk(ValueAt value, intptr_t from, intptr_t to,
                                                     intptr_t index, Keep keep, ReduceState* s) {
  for (intptr_t i = from; i < to; ++i) {
    const double x = value(i);
    const bool kept = keep(x);
    s->fast_lanes[(index + i) & 15] += kept ? x : 0.0;
    if (kept) s->lanes[(index + i) & 3] += loaded(x);
  }
}

// Fast order: the open chunk's sum added to the total, its lanes emptied.
void close_chunk(ReduceState* s) {
  s->total += chunk_sum(s->fast_lanes, s->lanes);
  for (double& d : s->fast_lanes) d = 0;
  for (long double& l : s->lanes) l = 0;
}

// Fast order: whole(i) for each whole chunk [i, i + kFastChunk) of indices [index,
// index + n) (i at a chunk's start), part(i, end) for each piece [i, end) of a chunk
// cut by the ends, in index order: the one place that says where chunks lie.
template <class Whole, class Part>
[[gnu::always_inline]] inline void for_fast_chunks(intptr_t index, intptr_t n, Whole whole,
                                                   Part part) {
  for (intptr_t i = 0; i < n;) {
    const intptr_t at = index + i;
    const intptr_t end = std::min(n, i + (kFastChunk - at % kFastChunk));
    if (at % kFastChunk == 0 && end - i == kFastChunk) {
      whole(i);
    } else {
      part(i, end);
    }
    i = end;
  }
}

// Fast order: the sum of the whole chunk value(from), ..., value(from + kFastChunk -
// 1) (`from` at a chunk's start), the same as add_to_open_chunk() and
// close_chunk() would give, in vector adds; *skipped receives how many NaNs na_rm
// left out.
template <class ValueAt>
[[gnu::always_inline]] inline long double whole_chunk(ValueAt value, intptr_t from, bool na_rm,
                                                      int64_t* skipped) {
  double d[16] = {};
  int64_t nans = 0;
  if (na_rm) {
    for (intptr_t i = from; i < from + kFastChunk; i += 16) {
      for (int j = 0; j < 16; ++j) {
        const double x = value(i + j);
        const bool nan = x != x;
        nans += nan;
        d[j] += nan ? 0.0 : x;
      }
    }
  } else {
    // The 16 lanes in eight named pairs, so that they stay in registers (as an
    // array the compiler kept them in memory: a store and a load per add).
    typedef double Pair __attribute__((vector_size(16)));
    Pair a0 = {}, a1 = {}, a2 = {}, a3 = {}, a4 = {}, a5 = {}, a6 = {}, a7 = {};
    for (intptr_t i = from; i < from + kFastChunk; i += 16) {
      a0 += Pair{value(i), value(i + 1)};
      a1 += Pair{value(i + 2), value(i + 3)};
      a2 += Pair{value(i + 4), value(i + 5)};
      a3 += Pair{value(i + 6), value(i + 7)};
      a4 += Pair{value(i + 8), value(i + 9)};
      a5 += Pair{value(i + 10), value(i + 11)};
      a6 += Pair{value(i + 12), value(i + 13)};
      a7 += Pair{value(i + 14), value(i + 15)};
    }
    const Pair lanes[8] = {a0, a1, a2, a3, a4, a5, a6, a7};
    std::memcpy(d, lanes, sizeof lanes);
  }
  *skipped = nans;
  long double l[4] = {0, 0, 0, 0};
  bool finite = true;
  for (int j = 0; j < 16; ++j) finite = finite && std::isfinite(d[j]);
  if (!finite) {  // the long double lanes, which only such chunks need
    for (intptr_t i = from; i < from + kFastChunk; ++i) {
      const double x = value(i);
      if (!(na_rm && std::isnan(x))) l[(i - from) & 3] += loaded(x);
    }
  }
  return chunk_sum(d, l);
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
  if (order == SumOrder::Exact) {
    // The values a chunk at a time (products formed in vector registers), added in
    // order by add_in_order(): base R's bits, without waiting on each addition.
    intptr_t i = 0;
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
    for_fast_chunks(
        index, n,
        [&](intptr_t i) {
          int64_t skipped = 0;
          s->total += whole_chunk(value, i, na_rm, &skipped);
          used -= skipped;
        },
        [&](intptr_t i, intptr_t end) {
          add_to_open_chunk(value, i, end, index, keep, s);
          if ((index + end) % kFastChunk == 0) close_chunk(s);
        });
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

size_t prepare_fast_chunks(const double* v, intptr_t n, intptr_t index, bool na_rm,
                           FastChunk* out) {
  auto at = [v](intptr_t k) { return v[k]; };
  size_t count = 0;
  for_fast_chunks(
      index, n,
      [&](intptr_t i) {
        int64_t skipped = 0;
        out[count].sum = whole_chunk(at, i, na_rm, &skipped);
        out[count].used = kFastChunk - skipped;
        ++count;
      },
      [](intptr_t, intptr_t) {});
  return count;
}

void fold_fast_prepared(const double* v, intptr_t n, intptr_t index, bool na_rm,
                        const FastChunk* chunks, ReduceState* s) {
  for_fast_chunks(
      index, n,
      [&](intptr_t) {  // summed already
        s->total += chunks->sum;
        s->count += chunks->used;
        ++chunks;
      },
      [&](intptr_t i, intptr_t end) {
        sum_doubles(reinterpret_cast<const char*>(v + i), end - i, sizeof(double), index + i, na_rm,
                    SumOrder::Fast, s);
      });
}

long double fast_total(const ReduceState& s) { return s.total + chunk_sum(s.fast_lanes, s.lanes); }

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
