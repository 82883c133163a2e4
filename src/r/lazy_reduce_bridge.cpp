// .Call entries that read a whole lazy graph without materializing it: fused
// reductions (sum, prod, min, max, range, mean, any, all; rowSums, colSums,
// rowMeans, colMeans). The plan lazy_plan() prints: lazy_plan_bridge.cpp.
#include <string>

#include "engine/evaluate.hpp"
#include "engine/mapped_file.hpp"
#include "engine/reduce_margin.hpp"
#include "gufunc/context.h"
#include "r/call_registry.hpp"
#include "r/eval_settings.hpp"
#include "r/guard.hpp"
#include "r/lazy_altrep.hpp"
#include "r/r_arrays.hpp"
#include "r/warning_texts.hpp"

namespace gufunc {
namespace r {

namespace {

engine::Reduction reduction_named(const std::string& name) {
  static const struct {
    const char* name;
    engine::Reduction r;
  } known[] = {{"sum", engine::Reduction::Sum},     {"prod", engine::Reduction::Prod},
               {"min", engine::Reduction::Min},     {"max", engine::Reduction::Max},
               {"range", engine::Reduction::Range}, {"mean", engine::Reduction::Mean},
               {"any", engine::Reduction::Any},     {"all", engine::Reduction::All}};
  for (const auto& k : known) {
    if (name == k.name) return k.r;
  }
  throw Error("gufunc_argument_error", "unknown reduction `" + name + "`");
}

// The node of a lazy vector, or an input viewing a plain one (kept alive by the
// caller's argument for the duration of the call).
engine::NodePtr operand_node(SEXP x) {
  if (SEXP lazy = lazy_inside(x)) return lazy_node_use(lazy).node;
  return input_node(x, 1);
}

// The value as base R types it: one element, or min and max for range.
SEXP value_of(const engine::ReduceResult& r) {
  const SEXPTYPE type = r.dtype == GUFUNC_DOUBLE    ? REALSXP
                        : r.dtype == GUFUNC_INTEGER ? INTSXP
                                                    : LGLSXP;
  SEXP out = alloc_vector(type, r.count);
  for (int i = 0; i < r.count; ++i) {
    if (type == REALSXP) {
      REAL(out)[i] = r.value[i];
    } else {
      INTEGER(out)[i] = r.int_value[i];
    }
  }
  return out;
}

// list(value, warnings, empty) for the reduction `op` of x in one pass over its
// graph: `empty` holds the warning of a min or max with no value to reduce apart,
// since sum(x, y) and the like combine such a part as base R does, without it.
SEXP lazy_reduce_entry(SEXP x, SEXP op, SEXP na_rm) {
  return guarded([&]() -> SEXP {
    const engine::Reduction r = reduction_named(CHAR(STRING_ELT(op, 0)));
    engine::NodePtr node = engine::make_reduce(r, Rf_asLogical(na_rm) == TRUE, operand_node(x));
    engine::check_mapped_inputs(*node);
    EvalSettings settings;
    engine::ReduceResult result;
    try {
      result = engine::reduce(node, settings.options);
    } catch (const engine::Interrupted&) {
      stop_interrupted();
    }
    SEXP out = PROTECT(alloc_vector(VECSXP, 3));
    SET_VECTOR_ELT(out, 0, value_of(result));
    const unsigned empty = GUFUNC_WARN_EMPTY_MIN | GUFUNC_WARN_EMPTY_MAX;
    SET_VECTOR_ELT(out, 1, warning_texts(result.warnings & ~empty));
    SET_VECTOR_ELT(out, 2, warning_texts(result.warnings & empty));
    UNPROTECT(1);
    return out;
  });
}

// list(values, warnings): base R's `op` ("rowSums", "colSums", "rowMeans" or
// "colMeans") of x seen as an n x p matrix, in one pass over its graph.
SEXP lazy_reduce_margin_entry(SEXP x, SEXP n, SEXP p, SEXP op, SEXP na_rm) {
  return guarded([&]() -> SEXP {
    const std::string name = CHAR(STRING_ELT(op, 0));
    engine::MarginReduction r;
    r.rows = name == "rowSums" || name == "rowMeans";
    r.mean = name == "rowMeans" || name == "colMeans";
    r.na_rm = Rf_asLogical(na_rm) == TRUE;
    r.n = static_cast<intptr_t>(Rf_asReal(n));
    r.p = static_cast<intptr_t>(Rf_asReal(p));
    engine::NodePtr node = operand_node(x);
    engine::check_mapped_inputs(*node);
    SEXP values = PROTECT(alloc_vector(REALSXP, static_cast<R_xlen_t>(r.results())));
    EvalSettings settings;
    unsigned warnings = 0;
    try {
      warnings = engine::reduce_margin(node, r, REAL(values), settings.options);
    } catch (const engine::Interrupted&) {
      stop_interrupted();
    }
    SEXP out = PROTECT(alloc_vector(VECSXP, 2));
    SET_VECTOR_ELT(out, 0, values);
    SET_VECTOR_ELT(out, 1, warning_texts(warnings));
    UNPROTECT(2);
    return out;
  });
}

}  // namespace

}  // namespace r
}  // namespace gufunc

GUFUNC_CALL_ENTRY(lazy_reduce, gufunc::r::lazy_reduce_entry, 3);
GUFUNC_CALL_ENTRY(lazy_reduce_margin, gufunc::r::lazy_reduce_margin_entry, 5);
