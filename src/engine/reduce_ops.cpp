// Reduction rules (see reduce_ops.hpp).
#include "engine/reduce_ops.hpp"

#include <climits>
#include <cmath>
#include <cstring>

#include "engine/reduce_sums.hpp"
#include "kernels/r_semantics.hpp"
#include "kernels/r_summary.hpp"

namespace gufunc {
namespace engine {

namespace {

// R's NA_real_ after arithmetic has quieted it: what prod() of integers with an NA
// returns (R multiplies its NA_REAL into the running product).
double quiet_na_real() {
  const uint64_t bits = 0x7FF80000000007A2ULL;
  double x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

template <class T>
T at(const char* data, intptr_t i, intptr_t step) {
  T v;
  std::memcpy(&v, data + i * step, sizeof v);
  return v;
}

void fold_extreme(int slot, bool na_rm, double x, ReduceState* s) {
  if (slot == 0) {
    rsem::minmax_step<true>(x, na_rm, s->double_extreme[0], s->has_extreme[0]);
  } else {
    rsem::minmax_step<false>(x, na_rm, s->double_extreme[1], s->has_extreme[1]);
  }
}

void fold_extreme(int slot, int x, ReduceState* s) {
  int& e = s->int_extreme[slot];
  if (!s->has_extreme[slot] || (slot == 0 ? x < e : x > e)) {
    e = x;
    s->has_extreme[slot] = true;
  }
}

// Min, max and range of doubles; prod in index order (base R's rprod).
void fold_doubles(Reduction r, bool na_rm, const char* data, intptr_t n, intptr_t step,
                  ReduceState* s) {
  for (intptr_t i = 0; i < n; ++i) {
    const double x = at<double>(data, i, step);
    if (r == Reduction::Prod) {
      if (!na_rm || !std::isnan(x)) s->total *= loaded(x);
      continue;
    }
    if (r != Reduction::Max) fold_extreme(0, na_rm, x, s);
    if (r != Reduction::Min) fold_extreme(1, na_rm, x, s);
  }
}

void fold_ints(Reduction r, bool na_rm, const char* data, intptr_t n, intptr_t step,
               ReduceState* s) {
  for (intptr_t i = 0; i < n; ++i) {
    const int x = at<int>(data, i, step);
    if (x == rsem::kNaInt) {
      if (!na_rm) s->saw_na = true;
      continue;
    }
    switch (r) {
      case Reduction::Sum:
      case Reduction::Mean:  // exact: R's long double sum of integers is exact too
        s->integer_total += x;
        s->count++;
        break;
      case Reduction::Prod:
        s->total *= x;  // in index order, as R's iprod, which gives NA once it is NaN
        if (std::isnan(s->total)) s->saw_na = true;
        break;
      case Reduction::Any:
      case Reduction::All:
        (x != 0 ? s->saw_true : s->saw_false) = true;
        break;
      default:
        if (r != Reduction::Max) fold_extreme(0, x, s);
        if (r != Reduction::Min) fold_extreme(1, x, s);
    }
  }
}

// The sum (or the first pass's mean) of doubles.
long double double_total(const ReduceState& s, SumOrder order) {
  if (order == SumOrder::Fast) return fast_total(s);
  return s.total;
}

// min, max or range: integers stay integers; no values left gives +-Inf (double)
// with base R's warning.
void finish_extremes(const Node& r, bool ints, const ReduceState& s, ReduceResult* out) {
  const bool range = r.reduction == Reduction::Range;
  out->count = range ? 2 : 1;
  const int slots[2] = {r.reduction == Reduction::Max ? 1 : 0, 1};
  for (int i = 0; i < out->count; ++i) {
    const int slot = slots[i];
    if (ints && s.saw_na) {
      out->int_value[i] = rsem::kNaInt;
    } else if (!s.has_extreme[slot]) {
      out->dtype = GUFUNC_DOUBLE;
      out->warnings |= slot == 0 ? GUFUNC_WARN_EMPTY_MIN : GUFUNC_WARN_EMPTY_MAX;
    } else if (ints) {
      out->int_value[i] = s.int_extreme[slot];
    } else {
      out->value[i] = s.double_extreme[slot];
    }
  }
  if (out->dtype != GUFUNC_DOUBLE) return;
  for (int i = 0; i < out->count; ++i) {  // an empty integer min/max is double: every slot
    const int slot = slots[i];
    if (!s.has_extreme[slot]) {
      out->value[i] = slot == 0 ? HUGE_VAL : -HUGE_VAL;
    } else if (ints) {
      out->value[i] = s.int_extreme[slot];
    }
  }
}

}  // namespace

Reducer::Reducer(Reduction reduction, bool na_rm, gufunc_dtype input, SumOrder order)
    : reduction_(reduction), na_rm_(na_rm), input_(input), order_(order) {
  const bool sum = reduction == Reduction::Sum || reduction == Reduction::Mean;
  in_order_ = reduction == Reduction::Prod || (sum && input == GUFUNC_DOUBLE);
}

ReduceState Reducer::start() const {
  ReduceState s;
  if (reduction_ == Reduction::Prod) s.total = 1;
  return s;
}

void Reducer::fold(const char* data, intptr_t n, intptr_t step, intptr_t index,
                   ReduceState* s) const {
  if (input_ != GUFUNC_DOUBLE) {
    fold_ints(reduction_, na_rm_, data, n, step, s);
  } else if (reduction_ == Reduction::Sum || reduction_ == Reduction::Mean) {
    sum_doubles(data, n, step, index, na_rm_, order_, s);
  } else {
    fold_doubles(reduction_, na_rm_, data, n, step, s);
  }
}

void Reducer::fold_products(const char* x, intptr_t x_step, const char* y, intptr_t y_step,
                            intptr_t n, intptr_t index, ReduceState* s) const {
  sum_products(x, x_step, y, y_step, n, index, na_rm_, order_, s);
}

bool Reducer::prepares(const ReduceState& s) const {
  return (reduction_ == Reduction::Sum || reduction_ == Reduction::Mean) &&
         input_ == GUFUNC_DOUBLE && order_ == SumOrder::Exact && !na_rm_ &&
         s.pass == ReduceState::Pass::Sum;
}

void Reducer::fold_prepared(const double* v, intptr_t n, const PreparedChunk* chunks,
                            ReduceState* s) const {
  s->total = add_prepared(s->total, v, n, chunks, &s->in_order_hint);
  s->count += n;
}

bool Reducer::prepares_fast() const {
  return (reduction_ == Reduction::Sum || reduction_ == Reduction::Mean) &&
         input_ == GUFUNC_DOUBLE && order_ == SumOrder::Fast;
}

size_t Reducer::prepare_fast(const double* v, intptr_t n, intptr_t index, FastChunk* out) const {
  return prepare_fast_chunks(v, n, index, na_rm_, out);
}

void Reducer::fold_fast_prepared(const double* v, intptr_t n, intptr_t index,
                                 const FastChunk* chunks, ReduceState* s) const {
  engine::fold_fast_prepared(v, n, index, na_rm_, chunks, s);
}

void Reducer::merge(const ReduceState& later, ReduceState* s) const {
  s->saw_na = s->saw_na || later.saw_na;
  s->saw_true = s->saw_true || later.saw_true;
  s->saw_false = s->saw_false || later.saw_false;
  s->integer_total += later.integer_total;
  s->count += later.count;
  for (int slot = 0; slot < 2; ++slot) {
    if (!later.has_extreme[slot]) continue;
    if (input_ == GUFUNC_DOUBLE) {
      fold_extreme(slot, na_rm_, later.double_extreme[slot], s);
    } else {
      fold_extreme(slot, later.int_extreme[slot], s);
    }
  }
}

bool Reducer::may_pass_twice() const {
  return reduction_ == Reduction::Mean && input_ == GUFUNC_DOUBLE && order_ == SumOrder::Exact;
}

bool Reducer::start_next_pass(ReduceState* s) const {
  using Pass = ReduceState::Pass;
  if (!may_pass_twice()) return false;
  switch (s->pass) {
    case Pass::Sum:
      if (!std::isfinite(static_cast<double>(s->total))) {
        // A total beyond the double range: R sums x / count instead. (A NaN or
        // infinite total, from an NA, NaN or Inf among the values, would come out
        // of that pass the same: x / count keeps each one.)
        if (!std::isfinite(s->total)) return false;
        s->pass = Pass::Scaled;
        return true;
      }
      s->mean = s->total / s->count;
      if (!std::isfinite(static_cast<double>(s->mean))) return false;  // no values: NaN
      s->pass = Pass::Deviations;
      return true;
    case Pass::Scaled:
      if (!std::isfinite(static_cast<double>(s->scaled))) return false;
      s->mean = s->scaled;
      s->pass = Pass::ScaledDeviations;
      return true;
    default:
      return false;
  }
}

ReduceResult Reducer::finish(const Node& r, const ReduceState& s) const {
  ReduceResult out;
  out.dtype = r.dtype;
  const bool ints = input_ != GUFUNC_DOUBLE;
  switch (reduction_) {
    case Reduction::Sum:
      if (!ints) {
        out.value[0] = rsem::ld_to_double(double_total(s, order_));
      } else if (s.saw_na) {
        out.int_value[0] = rsem::kNaInt;
      } else if (s.integer_total > INT_MAX || s.integer_total < -INT_MAX) {
        // R 4.x: an integer sum outside the int range is returned as a double.
        out.dtype = GUFUNC_DOUBLE;
        out.value[0] = static_cast<double>(s.integer_total);
      } else {
        out.int_value[0] = static_cast<int>(s.integer_total);
      }
      break;
    case Reduction::Mean:
      if (ints) {
        out.value[0] =
            s.saw_na ? rsem::na_real()
                     : static_cast<double>(static_cast<long double>(s.integer_total) / s.count);
      } else if (s.pass == ReduceState::Pass::Deviations) {  // R's real_mean
        out.value[0] = static_cast<double>(s.mean + s.deviations / s.count);
      } else if (s.pass == ReduceState::Pass::ScaledDeviations) {
        out.value[0] = static_cast<double>(s.mean + s.deviations);
      } else if (s.pass == ReduceState::Pass::Scaled) {  // infinite or NaN
        out.value[0] = static_cast<double>(s.scaled);
      } else {
        out.value[0] = static_cast<double>(double_total(s, order_) / s.count);
      }
      break;
    case Reduction::Prod:
      out.value[0] = ints && s.saw_na ? quiet_na_real() : rsem::ld_to_double(s.total);
      break;
    case Reduction::Any:
      out.int_value[0] = s.saw_true ? 1 : s.saw_na ? rsem::kNaInt : 0;
      break;
    case Reduction::All:
      out.int_value[0] = s.saw_false ? 0 : s.saw_na ? rsem::kNaInt : 1;
      break;
    default:
      finish_extremes(r, ints, s, &out);
  }
  return out;
}

}  // namespace engine
}  // namespace gufunc
