// Deferred subassignment: x[i] <- value on a lazy x records a new version of x (an
// Assign node, engine/graph.hpp) instead of copying it. Other references to the
// old x are unchanged (R's value semantics); the new version is computed when it is
// needed, in one pass straight into its own memory (engine/assign.hpp): the old
// values where no write reaches, the written values (themselves possibly deferred)
// where they go.
#include <algorithm>
#include <cstring>
#include <vector>

#include "dispatch/apply.hpp"
#include "engine/assign.hpp"
#include "engine/mirrored_writes.hpp"
#include "engine/reused_values.hpp"
#include "r/call_registry.hpp"
#include "r/guard.hpp"
#include "r/lazy_altrep.hpp"
#include "r/lazy_operands.hpp"
#include "r/lazy_state.hpp"
#include "r/r_arrays.hpp"
#include "r/warning_texts.hpp"

namespace gufunc {
namespace r {

// Subassignments written in place so far, and of them those whose value was
// computed straight into x, and those whose value was stored into x as it was
// computed (test counters, test_hooks_memory.cpp).
double in_place_writes = 0;
double direct_writes = 0;
double mirrored_writes = 0;

namespace {

// Writes waiting on one vector at most. A chain that, with the next write, writes
// less than a quarter of the vector stops at kMaxSmallWrites, or at once when the
// next write writes a region the chain writes already: the next write is base R's,
// on the computed values, since a loop of many small writes runs fastest as base
// R's writes in place (each deferred one costs tens of microseconds of R code).
// That still defers the few border writes a stencil step makes before its large
// write. A chain that writes more (whole planes, a[, , k] <- v for every k, step
// after step) is computed once it is kMaxPendingWrites long, and the next write
// starts a new chain on the values.
const int kMaxSmallWrites = 5;
const int kMaxPendingWrites = 16;

// (The step of one column does not matter: make_assign() sets it to the rows.)
bool same_region(const engine::Region& a, const engine::Region& b) {
  return a.first == b.first && a.rows == b.rows && a.columns == b.columns &&
         (a.columns == 1 || a.step == b.step) && a.planes == b.planes &&
         (a.planes == 1 || a.plane_step == b.plane_step);
}

// Elements the writes pending on `node` write, a region written again counted once
// (a loop writing m[, 1] again and again writes one column).
double written_elements(const engine::Node& node) {
  std::vector<const engine::Region*> seen;
  double total = 0;
  for (const engine::Node* n = &node; n->kind == engine::NodeKind::Assign;
       n = n->children[0].get()) {
    const engine::Region& r = n->region;
    const bool again = std::any_of(seen.begin(), seen.end(),
                                   [&](const engine::Region* o) { return same_region(*o, r); });
    if (again) continue;
    seen.push_back(&r);
    total += static_cast<double>(r.count());
  }
  return total;
}

// Whether a write pending on `node` writes `region`.
bool writes_region(const engine::Node& node, const engine::Region& region) {
  for (const engine::Node* n = &node; n->kind == engine::NodeKind::Assign;
       n = n->children[0].get()) {
    if (same_region(n->region, region)) return true;
  }
  return false;
}

// Copies value (plain, of x's type: as many elements as the region has, or one)
// into the positions of `region` in `out`, elements of `width` bytes.
void write_region(char* out, const engine::Region& region, SEXP value, size_t width) {
  const char* from = data_of(value);
  const bool one = XLENGTH(value) == 1;
  region.runs_within(region.first, region.position(region.count() - 1) + 1,
                     [&](intptr_t i, intptr_t a, intptr_t b) {
                       char* to = out + a * width;
                       if (!one) {
                         std::memcpy(to, from + i * width, (b - a) * width);
                         return;
                       }
                       for (intptr_t k = a; k < b; ++k, to += width) std::memcpy(to, from, width);
                     });
}

// x[i] <- value written into x's own values, as base R writes a vector nothing else
// refers to: R's complex assignment hands `[<-` such an x (it duplicates a shared
// one first). The graphs made from x before, the value's own among them, still
// read x's old values: they get a copy of what they read (before_values_change).
// A deferred value that cannot stop half way (engine::writes_without_failing:
// double arithmetic) is then computed straight into x; another is computed first
// into memory of its own, since base R computes the value before it writes x.
// Returns whether it wrote; *warnings gets the value's.
bool assign_in_place(SEXP x, const engine::Region& region, SEXP value, unsigned* warnings) {
  if (!values_private(x)) return false;
  SEXP lazy = lazy_inside(value);
  if (lazy != nullptr && lazy != value) return false;  // R's wrapper around a shared value
  // Only where that leaves no more garbage than a new version would. Without
  // copies for other readers a write leaves the value's memory at most, as base
  // R's subassignment leaves its value: it is written in place. Else a value
  // takes region-sized memory (its own, or, computed straight into x, the copies
  // the graphs that read x's region keep once they are garbage: R's reference
  // counts cannot tell that they are), and readers the write reaches get copies;
  // a new version serves the writes that wait on it when it is computed (up to
  // kMaxPendingWrites: as many as waited on x's values, when they were a chain's).
  // So a stencil whose step reads x through views (center <- grid[inner]) makes
  // new versions; an elimination step on a block of at most half of x (each step
  // computing the last step's version), a loop of small writes (a[k, ] <- v) or
  // writes of planes whose values read nothing else of x write in place. (Counting
  // a direct value as no garbage made every gauss step write in place: 1.3x base R
  // instead of 1.0x, but a peak of 181 MB instead of 152 against base R's 131;
  // inst/benchmarks/README.md.)
  const LazyState& s = state_of(x);
  const double n = static_cast<double>(s.length);
  const double count = static_cast<double>(region.count());
  const intptr_t last = region.position(region.count() - 1);  // the last position written
  double copies = values_to_copy(x, region.first, last);
  bool deferred = lazy != nullptr && !lazy_is_materialized(lazy);
  const int served = s.writes_per_version > 0 ? s.writes_per_version : kMaxPendingWrites;
  // Computed into memory of its own first, the value no longer reads x through
  // the nodes its graph alone holds (the view a[i, j] in a[i, j] - b, which the
  // operation took as a temporary): those need no copy then.
  double own_after =
      deferred && copies > 0 ? values_to_copy_after(x, region.first, last, lazy) : copies;
  // Nor, where its evaluation keeps them, through the expressions an earlier
  // evaluation computed: lattice Boltzmann's ux, read by the value of every plane
  // of f[, , k] <- g(f[, , k], ux), is kept by the second, and f is written in place
  // (a peak of 144 MB at scale 1 against a new version's 182 and base R's 140).
  if (deferred && own_after > 0 && values_to_copy_once_kept(x, region.first, last, lazy) == 0) {
    const engine::KeepReusedAnyCost any_cost;
    unsigned value_warnings = 0;
    materialize_lazy(lazy, &value_warnings);
    *warnings |= value_warnings;
    if (value_warnings != 0) return false;  // base R's order: see below
    deferred = false;
    copies = own_after = values_to_copy(x, region.first, last);
  }
  // The value's memory takes the place of the copies where a version serves one
  // write (x computed between writes, as an elimination's steps). Writes that come
  // in chains and need copies (the planes of f[, , k] <- g(f[, , k]) for every k,
  // where other graphs read them) are served best by one new version, with no
  // value's memory per write (lattice Boltzmann's peak: 268 MB instead of 247).
  double after = served == 1 ? own_after : copies;
  if ((after + (deferred ? count : 0)) * served > n) {
    // Turned down so, a write whose value, computed into memory of its own first,
    // leaves no reader to copy still goes in place: it leaves that memory, as base
    // R's leaves its value (a direct write would leave copies of what the value
    // reads, which R's collector frees later: lattice Boltzmann peaked at 164 MB).
    if (own_after > 0) return false;
    after = own_after;
  }
  const bool own_memory_first = after < copies;
  // A value that fills the region and cannot stop half way may be stored into x
  // as it is computed, straight or mirrored.
  const bool unstoppable = deferred && state_of(lazy).length == region.count() &&
                           engine::writes_without_failing(*state_of(lazy).node);
  const bool direct = !own_memory_first && unstoppable;
  if (direct) {
    before_values_change(x, region.first, last);
    *warnings |= evaluate_into_region(lazy, region, data_of(values_of(x)));
    ++in_place_writes;
    ++direct_writes;
    return true;
  }
  SEXP plain = value;
  bool written = false;
  if (lazy != nullptr) {
    // A value that reads x's region element for element only, and no other graph
    // reads it once the value has its own values: each block of the value goes
    // into x as soon as it is computed (gauss's a[i, j] <- a[i, j] - outer(u, v)),
    // instead of a second pass over the value.
    const engine::Node* node = state_of(lazy).node.get();
    const bool mirrored =
        unstoppable && own_after == 0 &&
        engine::reads_region_aligned(*node, s.values_data, dtype_size(s.dtype), region);
    unsigned value_warnings = 0;
    if (mirrored) {
      engine::MirroredWrites mirror(node, region, data_of(values_of(x)), dtype_size(s.dtype));
      plain = materialize_lazy(lazy, &value_warnings);
      written = mirror.complete();
      if (written) ++mirrored_writes;
    } else {
      plain = materialize_lazy(lazy, &value_warnings);
    }
    *warnings |= value_warnings;
    // Base R warns while it computes the value, before it writes x: a warning
    // made an error (options(warn = 2), a handler that jumps) leaves x as it was.
    // So the write goes into a new version, returned after the warnings. (A
    // mirrored value cannot warn.)
    if (value_warnings != 0) return false;
  }
  before_values_change(x, region.first, last);
  if (!written) write_region(data_of(values_of(x)), region, plain, dtype_size(s.dtype));
  ++in_place_writes;
  return true;
}

// .Call(C_lazy_assign, x, c(first, rows, columns, step, planes, plane_step), value,
// attributes, in_place): lazy vector x with the positions the region picks (first
// 0-based; the last two may be left out for one plane) set to `value` (of
// x's type; as many elements as the region has, or one), with `attributes`; NULL
// when the engine does not take it (R's subassignment runs instead). With
// `in_place` (TRUE when R's complex assignment called `[<-` on `*tmp*`) x itself,
// changed, where its values are its own (assign_in_place).
SEXP lazy_assign_entry(SEXP x, SEXP where, SEXP value, SEXP attributes, SEXP in_place) {
  unsigned warnings = 0;  // of computing a full chain first
  SEXP out = PROTECT(guarded([&]() -> SEXP {
    SEXP lazy = lazy_inside(x);
    if (lazy == nullptr || TYPEOF(where) != REALSXP ||
        (XLENGTH(where) != 4 && XLENGTH(where) != 6)) {
      return R_NilValue;
    }
    const LazyState& s = state_of(lazy);
    if (s.failed || TYPEOF(value) != TYPEOF(x)) return R_NilValue;
    engine::Region region;
    region.first = static_cast<intptr_t>(REAL(where)[0]);
    region.rows = static_cast<intptr_t>(REAL(where)[1]);
    region.columns = static_cast<intptr_t>(REAL(where)[2]);
    region.step = static_cast<intptr_t>(REAL(where)[3]);
    if (XLENGTH(where) == 6) {
      region.planes = static_cast<intptr_t>(REAL(where)[4]);
      region.plane_step = static_cast<intptr_t>(REAL(where)[5]);
    }
    if (values_of(lazy) == R_NilValue) {
      const engine::NodePtr pending = lazy_node_use(lazy).node;
      const int writes = engine::pending_assigns(*pending);
      const bool small = 4 * (written_elements(*pending) + static_cast<double>(region.count())) <
                         static_cast<double>(pending->length);
      // A small chain writing a region again is a loop of small writes.
      if (small && (writes >= kMaxSmallWrites || writes_region(*pending, region))) {
        return R_NilValue;
      }
      if (writes >= kMaxPendingWrites) materialize_lazy(lazy, &warnings);
    }
    if (Rf_asLogical(in_place) == TRUE && lazy == x &&
        assign_in_place(x, region, value, &warnings)) {
      return x;
    }
    GraphOperands operands;
    engine::NodePtr base = operands.add(x, 1);
    engine::NodePtr written = operands.add(value, 2);
    if (base->kind == engine::NodeKind::Reduce || written->kind == engine::NodeKind::Reduce) {
      return R_NilValue;
    }
    engine::NodePtr node = engine::make_assign(std::move(base), std::move(written), region);
    return new_lazy_vector(std::move(node), operands.leaves(), attributes);
  }));
  raise_warnings(warnings);
  UNPROTECT(1);
  return out;
}

}  // namespace

}  // namespace r
}  // namespace gufunc

GUFUNC_CALL_ENTRY(lazy_assign, gufunc::r::lazy_assign_entry, 5);
