// Scan rules (see scan_ops.hpp). Each rule is a loop templated on whether it
// stores, so the carry over a prefix that is not wanted costs no stores.
#include "engine/scan_ops.hpp"

#include <climits>
#include <cmath>
#include <cstring>

#include "gufunc/context.h"
#include "kernels/r_summary.hpp"  // na_real()

namespace gufunc {
namespace engine {

namespace {

template <class T>
T load(const char* in, intptr_t step, intptr_t i) {
  T v;
  std::memcpy(&v, in + i * step, sizeof v);
  return v;
}

// cumsum, cumprod of doubles (Multiply: cumprod), or of integers read as doubles
// (cumprod only): R's `sum += rx[i]; rs[i] = (double) sum;` in a long double.
template <bool Write, bool Multiply, bool FromInt>
void carry_long_double(const char* in, intptr_t step, intptr_t n, double* out, long double* t) {
  long double total = *t;
  for (intptr_t i = 0; i < n; ++i) {
    const double x =
        FromInt ? rsem::int_to_double(load<int>(in, step, i)) : load<double>(in, step, i);
    if (std::isnan(x) && std::isnan(total)) {
      // Which NaN stays is the x87 unit's rule, not the compiler's operand order
      // (r_summary.hpp): at -O1 it loaded x first and NA replaced a running NaN.
      total = rsem::cumulative_nan(total, x);
    } else if (Multiply) {
      total *= x;
    } else {
      total += x;
    }
    if (Write) out[i] = static_cast<double>(total);
  }
  *t = total;
}

// R's `m = m + x` once m or x is a NaN, as the processor adds two doubles: the
// first NaN operand, made quiet (the result of an SSE2 addition).
double nan_sum(double m, double x) {
  if (std::isnan(m)) return m;
  uint64_t bits;
  std::memcpy(&bits, &x, sizeof bits);
  bits |= uint64_t(1) << 51;
  std::memcpy(&x, &bits, sizeof bits);
  return x;
}

// cummax (Max) or cummin of doubles.
template <bool Write, bool Max>
void carry_extreme(const char* in, intptr_t step, intptr_t n, double* out, double* e) {
  double m = *e;
  for (intptr_t i = 0; i < n; ++i) {
    const double x = load<double>(in, step, i);
    if (std::isnan(x) || std::isnan(m)) {
      m = nan_sum(m, x);
    } else if (Max) {
      m = m > x ? m : x;
    } else {
      m = m < x ? m : x;
    }
    if (Write) out[i] = m;
  }
  *e = m;
}

// Integers: R's icumsum (Sum) or icummax / icummin. Returns the values done before
// the carry stopped (an NA, or an overflow); the rest are NA.
template <bool Write, ScanOp Op>
intptr_t carry_ints(const char* in, intptr_t step, intptr_t n, int* out, ScanState* s) {
  for (intptr_t i = 0; i < n; ++i) {
    const int x = load<int>(in, step, i);
    if (x == INT_MIN) {
      s->stopped = true;
      return i;
    }
    int v;
    if (Op == ScanOp::Cumsum) {
      s->int_total += x;
      if (s->int_total > INT_MAX || s->int_total < 1 + INT_MIN) {
        s->warnings |= GUFUNC_WARN_CUMSUM_OVERFLOW;
        s->stopped = true;
        return i;
      }
      v = static_cast<int>(s->int_total);
    } else if (!s->started) {
      s->started = true;
      v = s->int_extreme = x;
    } else if (Op == ScanOp::Cummax) {
      v = s->int_extreme = s->int_extreme > x ? s->int_extreme : x;
    } else {
      v = s->int_extreme = s->int_extreme < x ? s->int_extreme : x;
    }
    if (Write) out[i] = v;
  }
  return n;
}

template <bool Write>
void scan_values(ScanOp op, bool integers, const char* in, intptr_t step, intptr_t n, char* out,
                 ScanState* s) {
  double* d = reinterpret_cast<double*>(out);
  if (integers && op != ScanOp::Cumprod) {
    intptr_t done = 0;
    if (!s->stopped) {
      int* o = reinterpret_cast<int*>(out);
      done = op == ScanOp::Cumsum   ? carry_ints<Write, ScanOp::Cumsum>(in, step, n, o, s)
             : op == ScanOp::Cummax ? carry_ints<Write, ScanOp::Cummax>(in, step, n, o, s)
                                    : carry_ints<Write, ScanOp::Cummin>(in, step, n, o, s);
    }
    if (Write) {
      int* o = reinterpret_cast<int*>(out);
      for (intptr_t i = done; i < n; ++i) o[i] = INT_MIN;
    }
    return;
  }
  switch (op) {
    case ScanOp::Cumsum:
      return carry_long_double<Write, false, false>(in, step, n, d, &s->total);
    case ScanOp::Cumprod:
      return integers ? carry_long_double<Write, true, true>(in, step, n, d, &s->total)
                      : carry_long_double<Write, true, false>(in, step, n, d, &s->total);
    case ScanOp::Cummax:
      return carry_extreme<Write, true>(in, step, n, d, &s->extreme);
    default:
      return carry_extreme<Write, false>(in, step, n, d, &s->extreme);
  }
}

}  // namespace

Scanner::Scanner(ScanOp op, gufunc_dtype input)
    : op_(op), integers_(input == GUFUNC_INTEGER || input == GUFUNC_LOGICAL) {}

ScanState Scanner::start() const {
  ScanState s;
  s.total = op_ == ScanOp::Cumprod ? 1.0L : 0.0L;
  s.extreme = op_ == ScanOp::Cummax ? -HUGE_VAL : HUGE_VAL;
  return s;
}

size_t Scanner::input_bytes() const { return integers_ ? sizeof(int) : sizeof(double); }

void Scanner::scan(const char* in, intptr_t step, intptr_t n, char* out, ScanState* s) const {
  if (out != nullptr) {
    scan_values<true>(op_, integers_, in, step, n, out, s);
  } else {
    scan_values<false>(op_, integers_, in, step, n, out, s);
  }
}

}  // namespace engine
}  // namespace gufunc
