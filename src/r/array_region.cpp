// Array subscripts read in C (array_region.hpp). Stencil loops subset and write
// small pieces of large lazy arrays many times per step; working this out in R code
// (substitute(), eval() of each subscript, the run arithmetic, the attributes) cost
// 50-80 us a call where base R's own subset of a matrix column takes 5.
#include "r/array_region.hpp"

#include <Rversion.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "r/call_registry.hpp"
#include "r/guard.hpp"
#include "r/r_arrays.hpp"
#include "r/subscript_pick.hpp"

namespace gufunc {
namespace r {

namespace {

struct Forcing {
  SEXP value, frame;
};

SEXP force_value(void* data) {
  const Forcing* f = static_cast<const Forcing*>(data);
  return Rf_eval(f->value, f->frame);
}

// The value of one element of `...`: a promise is forced (once, as R would) in
// `frame`; R_MissingArg stays as it is (an empty subscript).
SEXP dots_value(SEXP cell, SEXP frame) {
  SEXP v = CAR(cell);
  if (TYPEOF(v) != PROMSXP) return v;
  Forcing f{v, frame};
  return unwind_protect(force_value, &f);
}

struct MissingQuestion {
  int k;
  SEXP frame;
};

// missing(..k) evaluated in the frame, with base R's missing() itself as the function
// (the call is made inside the unwind guard: allocating it may fail).
SEXP ask_missing(void* data) {
  const MissingQuestion* q = static_cast<const MissingQuestion*>(data);
  char name[24];
  snprintf(name, sizeof name, "..%d", q->k);
  const SEXP fn = Rf_findFun(Rf_install("missing"), R_BaseEnv);
  const SEXP call = PROTECT(Rf_lang2(fn, Rf_install(name)));
  const SEXP answer = Rf_eval(call, q->frame);
  UNPROTECT(1);
  return answer;
}

// Whether the k-th element (from 1) of `...` in `frame`, `cell`, is missing as R's
// missing(..k) says: an empty subscript, or a promise of a missing argument passed
// on (f <- function(x, i, j) x[i, j]; f(m, 2) picks all of dimension 2, as in base
// R). A promise of a symbol asks R's missing() itself (a missing argument with a
// default is missing too); values and other promises are not missing. R's missing()
// looks the symbol up in the promise's own frame only: a symbol not bound there (a
// loop's subscript variable of an enclosing frame) is not missing, which saves a
// call of missing() per subscript (0.4 us of the 3.5 of m[i, 7] in a loop).
bool dots_missing(SEXP cell, int k, SEXP frame) {
  const SEXP v = CAR(cell);
  if (v == R_MissingArg) return true;
  if (TYPEOF(v) != PROMSXP || PRVALUE(v) != R_UnboundValue) return false;
  SEXP promise = v;
  while (TYPEOF(PRCODE(promise)) == PROMSXP) promise = PRCODE(promise);
  const SEXP code = PRCODE(promise);
  if (TYPEOF(code) != SYMSXP) return false;
#if R_VERSION >= R_Version(4, 2, 0)
  // (R_existsVarInFrame() reads no active binding. The empty symbol and ..1, ..2
  // are missing() by other rules.)
  const SEXP env = PRENV(promise);
  if (code != R_MissingArg && std::strncmp(CHAR(PRINTNAME(code)), "..", 2) != 0 &&
      TYPEOF(env) == ENVSXP && !R_existsVarInFrame(env, code)) {
    return false;
  }
#endif
  MissingQuestion q{k, frame};
  return Rf_asLogical(unwind_protect(ask_missing, &q)) == TRUE;
}

// Whether some dimension picks no index (an empty subscript, or a dimension of
// extent 0): then no element is picked, whatever the others pick.
bool picks_nothing(const std::vector<Run>& runs) {
  for (const Run& r : runs) {
    if (r.n == 0) return true;
  }
  return false;
}

// c(first, rows, columns, step, planes, plane_step) in storage order of the runs of
// every dimension of an array of dims `d`: full dimensions first, then the inner one
// (runs of consecutive indices are one run of elements), then the later dimensions
// that pick several indices, each a level of runs at a regular step. A level whose
// step is the length of the run below it lengthens that run, and one whose step is
// the span of the level below it joins that level (a[2:5, , , ] of a 4-D array is
// runs of 4 at one step): at most two levels may remain, columns and planes of them
// (a[i:j, k:l, m:n]). Equally spaced indices of the inner dimension are such runs
// themselves (with at most one more level, as planes or, for the first dimension, as
// columns of spaced runs). A dimension counting down is read backwards (region's
// flags): the first dimension's run, or a level of runs that joins no other.
// False when the picked elements have another shape; region->pick receives the
// block.
bool block_pick(const std::vector<double>& d, const std::vector<Run>& runs, ArrayRegion* region) {
  double* pick = region->pick;
  const size_t rank = d.size();
  pick[4] = 1, pick[5] = 0;
  if (picks_nothing(runs)) {
    pick[0] = 0, pick[1] = 0, pick[2] = 1, pick[3] = 0;
    return true;
  }
  std::vector<double> stride(rank, 1);
  for (size_t k = 1; k < rank; ++k) stride[k] = stride[k - 1] * d[k - 1];
  // A run counting down picks what the same run counting up picks, read backwards.
  double first = 0;
  for (size_t k = 0; k < rank; ++k) {
    const Run& r = runs[k];
    first += (r.by < 0 ? r.first + (r.n - 1) * r.by : r.first) * stride[k];
  }
  size_t inner = 0;
  while (inner < rank && runs[inner].n == d[inner] && runs[inner].by > 0) ++inner;
  if (inner == rank) {
    pick[0] = 0, pick[1] = stride[rank - 1] * d[rank - 1], pick[2] = 1, pick[3] = 0;
    return true;
  }
  struct Level {
    double count, step;
    bool backward;
  };
  std::vector<Level> levels;
  for (size_t k = inner + 1; k < rank; ++k) {
    const Run& r = runs[k];
    if (r.n > 1) levels.push_back({r.n, stride[k] * std::fabs(r.by), r.by < 0});
  }
  // Equally spaced indices of the inner dimension, or consecutive ones counting down
  // past full dimensions (m[, n:1]: whole columns, last to first), are runs of
  // stride[inner] elements of their own.
  const Run& in = runs[inner];
  const double in_by = std::fabs(in.by);
  if ((in_by > 1 || (in.by < 0 && inner > 0)) && in.n > 1) {
    if (levels.size() > 1) return false;
    if (levels.size() == 1 && inner == 0) {  // the first dimension's indices, row_step apart
      pick[0] = first, pick[1] = in.n, pick[2] = levels[0].count, pick[3] = levels[0].step;
      region->row_step = in_by;
      region->rows_backward = in.by < 0;
      region->columns_backward = levels[0].backward;
      return true;
    }
    pick[0] = first, pick[1] = stride[inner], pick[2] = in.n, pick[3] = stride[inner] * in_by;
    region->columns_backward = in.by < 0;
    if (levels.size() == 1) {  // planes of those runs at one level's step
      pick[4] = levels[0].count, pick[5] = levels[0].step;
      region->planes_backward = levels[0].backward;
    }
    return true;
  }
  double rows = stride[inner] * in.n;
  std::vector<Level> kept;
  for (const Level& l : levels) {
    const bool joins = !l.backward && (kept.empty() || !kept.back().backward);
    if (joins && in.by > 0 && kept.empty() && l.step == rows) {
      rows *= l.count;
    } else if (joins && !kept.empty() && l.step == kept.back().count * kept.back().step) {
      kept.back().count *= l.count;
    } else {
      kept.push_back(l);
    }
  }
  // (A view in planes reads its runs' elements forwards only: picked_from() in
  // lazy_view.cpp refuses rows counting down with planes; a write takes them.)
  if (kept.size() > 2) return false;
  pick[0] = first, pick[1] = rows, pick[2] = 1, pick[3] = 0;
  if (kept.size() >= 1) pick[2] = kept[0].count, pick[3] = kept[0].step;
  if (kept.size() == 2) pick[4] = kept[1].count, pick[5] = kept[1].step;
  region->rows_backward = in.by < 0;
  region->columns_backward = !kept.empty() && kept[0].backward;
  region->planes_backward = kept.size() == 2 && kept[1].backward;
  return true;
}

// A circular shift of the first two dimensions (the streaming step of a lattice
// Boltzmann code, f[c(n, 1:(n - 1)), c(2:m, 1), k]): the block of d[0] rows it
// rolls. All of dimension 1 is picked, all of dimension 2 when it is shifted (else
// consecutive indices), and one index of each later dimension.
bool rolled_pick(const std::vector<double>& d, const std::vector<Run>& runs, double pick[6]) {
  if (runs[0].n != d[0] || runs[0].by != 1 || runs[1].by != 1 || picks_nothing(runs)) {
    return false;
  }
  double first = 0, stride = 1;
  for (size_t k = 0; k < d.size(); ++k) {
    if (k >= 2 && (runs[k].roll != 0 || runs[k].n != 1)) return false;
    first += runs[k].first * stride;
    stride *= d[k];
  }
  pick[0] = first, pick[1] = d[0], pick[2] = runs[1].n, pick[3] = d[0];
  pick[4] = 1, pick[5] = 0;
  return true;
}

}  // namespace

ArraySubscripts read_array_subscripts(SEXP x, SEXP frame, ArrayRegion* region) {
  SEXP dim = Rf_getAttrib(x, R_DimSymbol);
  if (TYPEOF(dim) != INTSXP || XLENGTH(dim) < 2) return ArraySubscripts::kOther;
  std::vector<double> d(static_cast<size_t>(XLENGTH(dim)));
  for (size_t k = 0; k < d.size(); ++k) d[k] = INTEGER(dim)[k];
  SEXP dots = Rf_findVarInFrame3(frame, R_DotsSymbol, TRUE);
  if (TYPEOF(dots) != DOTSXP) return ArraySubscripts::kOther;
  bool drop_seen = false, numbers = true;
  std::vector<Run>& runs = region->runs;
  runs.clear();
  region->drop = TRUE;
  int k = 0;
  for (SEXP cell = dots; cell != R_NilValue; cell = CDR(cell)) {
    ++k;
    const SEXP tag = TAG(cell);
    if (tag != R_NilValue) {
      if (drop_seen || strcmp(CHAR(PRINTNAME(tag)), "drop") != 0) return ArraySubscripts::kOther;
      drop_seen = true;
      const SEXP v = dots_value(cell, frame);
      if (TYPEOF(v) != LGLSXP || XLENGTH(v) != 1 || LOGICAL(v)[0] == NA_LOGICAL) {
        return ArraySubscripts::kOther;
      }
      region->drop = LOGICAL(v)[0];
      continue;
    }
    if (runs.size() == d.size()) return ArraySubscripts::kOther;
    Run run;
    run.n = d[runs.size()];
    const SEXP s = dots_missing(cell, k, frame) ? R_MissingArg : dots_value(cell, frame);
    if (s != R_MissingArg) {
      if ((TYPEOF(s) != INTSXP && TYPEOF(s) != REALSXP) || ATTRIB(s) != R_NilValue) {
        return ArraySubscripts::kOther;
      }
      Pick p;
      if (numbers && pick_of(s, static_cast<R_xlen_t>(run.n), &p)) {
        if (p.columns == 1) {
          run.first = static_cast<double>(p.first), run.n = static_cast<double>(p.rows);
          run.roll = static_cast<double>(p.row_roll);
        } else if (p.rows == 1) {
          run.first = static_cast<double>(p.first), run.n = static_cast<double>(p.columns);
          run.by = static_cast<double>(p.step);
        } else {
          numbers = false;
        }
      } else if (numbers && backward_pick_of(s, static_cast<R_xlen_t>(run.n), &p)) {
        // Counting down (m[n:1, ]): the first index is the highest.
        const double count = static_cast<double>(p.rows * p.columns);
        const double by = p.rows_backward ? -1 : -static_cast<double>(p.step);
        run.first = static_cast<double>(p.first) - (count - 1) * by, run.n = count;
        run.by = by;
      } else {
        numbers = false;  // still read the rest: they must be numbers too
      }
    }
    runs.push_back(run);
  }
  if (runs.size() != d.size()) return ArraySubscripts::kOther;
  bool rolled = false;
  for (const Run& r : runs) rolled = rolled || r.roll != 0;
  if (!numbers || !(rolled ? rolled_pick(d, runs, region->pick) : block_pick(d, runs, region))) {
    return ArraySubscripts::kIrregular;
  }
  return ArraySubscripts::kBlock;
}

bool two_subscripts(SEXP frame, SEXP* i, SEXP* j) {
  const SEXP dots = Rf_findVarInFrame3(frame, R_DotsSymbol, TRUE);
  if (TYPEOF(dots) != DOTSXP || Rf_length(dots) != 2) return false;
  const SEXP second = CDR(dots);
  if (TAG(dots) != R_NilValue || TAG(second) != R_NilValue) return false;
  *i = dots_value(dots, frame);
  *j = dots_value(second, frame);
  return true;
}

namespace {

// .Call(C_array_region, x, frame): what a subassignment x[...] <- value of array x
// writes (read_array_subscripts()): c(first, rows, columns, step) of one block
// (first 0-based), followed by c(planes, plane_step) for planes of blocks, and by
// a seventh number where subscripts count down (m[n:1, ] <- v): the block's levels
// the value fills last to first, 1 its runs' elements, 2 its runs, 4 its planes
// (summed); or NULL for anything else (other subscripts, other numbers, a circular
// shift), which base R's subassignment handles.
SEXP array_region_entry(SEXP x, SEXP frame) {
  return guarded([&]() -> SEXP {
    ArrayRegion region;
    if (read_array_subscripts(x, frame, &region) != ArraySubscripts::kBlock) return R_NilValue;
    for (const Run& r : region.runs) {
      if (r.roll != 0) return R_NilValue;  // (values written in another order)
    }
    double pick[6];
    std::copy(region.pick, region.pick + 6, pick);
    int backward = (region.rows_backward ? 1 : 0) + (region.columns_backward ? 2 : 0) +
                   (region.planes_backward ? 4 : 0);
    if (region.row_step != 1) {
      // Equally spaced rows of several columns (m[seq(1, n, 2), j:k]) are runs of
      // one element row_step apart, in planes (the columns).
      const double spaced[6] = {pick[0], 1, pick[1], region.row_step, pick[2], pick[3]};
      std::copy(spaced, spaced + 6, pick);
      backward = (region.rows_backward ? 2 : 0) + (region.columns_backward ? 4 : 0);
    }
    const int n = backward != 0 ? 7 : pick[4] > 1 ? 6 : 4;
    SEXP where = alloc_vector(REALSXP, n);
    for (int k = 0; k < std::min(n, 6); ++k) REAL(where)[k] = pick[k];
    if (backward != 0) REAL(where)[6] = backward;
    return where;
  });
}

// .Call(C_force_subscripts, frame): forces the subscripts `...` of a subassignment
// method's frame from left to right, as base R evaluates the arguments of `[<-`(x,
// i, value = v), except those dots_missing() finds missing: the R loop over
// missing(..k) and ...elt(k), in one call.
SEXP force_subscripts_entry(SEXP frame) {
  return guarded([&]() -> SEXP {
    const SEXP dots = Rf_findVarInFrame3(frame, R_DotsSymbol, TRUE);
    if (TYPEOF(dots) != DOTSXP) return R_NilValue;
    int k = 0;
    for (SEXP cell = dots; cell != R_NilValue; cell = CDR(cell)) {
      if (!dots_missing(cell, ++k, frame)) dots_value(cell, frame);
    }
    return R_NilValue;
  });
}

}  // namespace

}  // namespace r
}  // namespace gufunc

GUFUNC_CALL_ENTRY(array_region, gufunc::r::array_region_entry, 2);
GUFUNC_CALL_ENTRY(force_subscripts, gufunc::r::force_subscripts_entry, 1);
