// Deferred subassignment: x[i] <- value on a lazy x records a new version of x (an
// Assign node, engine/graph.hpp) instead of copying it. Other references to the
// old x are unchanged (R's value semantics); the new version is computed when it is
// needed, in one pass straight into its own memory (engine/assign.hpp): the old
// values where no write reaches, the written values (themselves possibly deferred)
// where they go.
#include <vector>

#include "r/call_registry.hpp"
#include "r/guard.hpp"
#include "r/lazy_altrep.hpp"
#include "r/lazy_operands.hpp"
#include "r/lazy_state.hpp"
#include "r/r_arrays.hpp"

namespace gufunc {
namespace r {

namespace {

// Writes waiting on one vector before the next is made by base R on the computed
// values: a loop of many small writes runs fastest as base R's writes in place, and
// a chain this long is a loop, not the border updates of one step.
const int kMaxPendingWrites = 16;

// .Call(C_lazy_assign, x, c(first, rows, columns, step), value, attributes): lazy
// vector x with the positions the region picks (first 0-based) set to `value` (of
// x's type; as many elements as the region has, or one), with `attributes`; NULL
// when the engine does not take it (R's subassignment runs instead).
SEXP lazy_assign_entry(SEXP x, SEXP where, SEXP value, SEXP attributes) {
  return guarded([&]() -> SEXP {
    SEXP lazy = lazy_inside(x);
    if (lazy == nullptr || TYPEOF(where) != REALSXP || XLENGTH(where) != 4) return R_NilValue;
    const LazyState& s = state_of(lazy);
    if (s.failed || TYPEOF(value) != TYPEOF(x)) return R_NilValue;
    engine::Region region;
    region.first = static_cast<intptr_t>(REAL(where)[0]);
    region.rows = static_cast<intptr_t>(REAL(where)[1]);
    region.columns = static_cast<intptr_t>(REAL(where)[2]);
    region.step = static_cast<intptr_t>(REAL(where)[3]);
    GraphOperands operands;
    engine::NodePtr base = operands.add(x, 1);
    if (engine::pending_assigns(*base) >= kMaxPendingWrites) return R_NilValue;
    engine::NodePtr written = operands.add(value, 2);
    if (base->kind == engine::NodeKind::Reduce || written->kind == engine::NodeKind::Reduce) {
      return R_NilValue;
    }
    engine::NodePtr node = engine::make_assign(std::move(base), std::move(written), region);
    return new_lazy_vector(std::move(node), operands.leaves(), attributes);
  });
}

}  // namespace

}  // namespace r
}  // namespace gufunc

GUFUNC_CALL_ENTRY(lazy_assign, gufunc::r::lazy_assign_entry, 4);
