// .Call entries that read a whole lazy graph without materializing it: fused
// reductions (sum, prod, min, max, range, mean, any, all; rowSums, colSums,
// rowMeans, colMeans) and the plan lazy_plan() prints.
#include <string>

#include "engine/evaluate.hpp"
#include "engine/reduce_margin.hpp"
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

SEXP strings(const std::vector<std::string>& texts) {
  SEXP out = PROTECT(alloc_vector(STRSXP, static_cast<R_xlen_t>(texts.size())));
  for (size_t i = 0; i < texts.size(); ++i) {
    SET_STRING_ELT(out, static_cast<R_xlen_t>(i), Rf_mkCharCE(texts[i].c_str(), CE_UTF8));
  }
  UNPROTECT(1);
  return out;
}

// list(value, warnings) for the reduction `op` of x in one pass over its graph.
SEXP lazy_reduce_entry(SEXP x, SEXP op, SEXP na_rm) {
  return guarded([&]() -> SEXP {
    const engine::Reduction r = reduction_named(CHAR(STRING_ELT(op, 0)));
    engine::NodePtr node = engine::make_reduce(r, Rf_asLogical(na_rm) == TRUE, operand_node(x));
    EvalSettings settings;
    engine::ReduceResult result;
    try {
      result = engine::reduce(node, settings.options);
    } catch (const engine::Interrupted&) {
      stop_interrupted();
    }
    SEXP out = PROTECT(alloc_vector(VECSXP, 2));
    SET_VECTOR_ELT(out, 0, value_of(result));
    SET_VECTOR_ELT(out, 1, warning_texts(result.warnings));
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

// What engine::describe() says about evaluating x now, as a named list.
SEXP lazy_plan_data_entry(SEXP x) {
  return guarded([&]() -> SEXP {
    EvalSettings settings;
    const engine::Plan plan = engine::describe(operand_node(x), settings.options);
    SEXP kernels = PROTECT(alloc_vector(VECSXP, static_cast<R_xlen_t>(plan.kernels.size())));
    for (size_t k = 0; k < plan.kernels.size(); ++k) {
      SEXP kernel = PROTECT(alloc_vector(VECSXP, 3));
      SET_VECTOR_ELT(kernel, 0, strings(plan.kernels[k].instructions));
      SET_VECTOR_ELT(kernel, 1, strings({plan.kernels[k].split_reason}));
      SET_VECTOR_ELT(kernel, 2, strings(plan.kernels[k].notes));
      SET_VECTOR_ELT(kernels, static_cast<R_xlen_t>(k), kernel);
      UNPROTECT(1);
    }
    const char* names[] = {"kernels",    "inputs",        "block_size",   "threads",
                           "bytes_read", "bytes_written", "base_r_bytes", "state"};
    const int n = sizeof names / sizeof names[0];
    SEXP out = PROTECT(alloc_vector(VECSXP, n));
    SET_VECTOR_ELT(out, 0, kernels);
    SET_VECTOR_ELT(out, 1, strings(plan.inputs));
    SET_VECTOR_ELT(out, 2, Rf_ScalarReal(static_cast<double>(plan.block_size)));
    SET_VECTOR_ELT(out, 3, Rf_ScalarInteger(plan.threads));
    SET_VECTOR_ELT(out, 4, Rf_ScalarReal(plan.bytes_read));
    SET_VECTOR_ELT(out, 5, Rf_ScalarReal(plan.bytes_written));
    SET_VECTOR_ELT(out, 6, Rf_ScalarReal(plan.base_r_bytes));
    SEXP lazy = lazy_inside(x);
    SET_VECTOR_ELT(out, 7, strings({lazy != nullptr ? describe_lazy(lazy) : "plain"}));
    SEXP out_names = PROTECT(alloc_vector(STRSXP, n));
    for (int i = 0; i < n; ++i) SET_STRING_ELT(out_names, i, Rf_mkChar(names[i]));
    Rf_setAttrib(out, R_NamesSymbol, out_names);
    UNPROTECT(3);
    return out;
  });
}

}  // namespace

}  // namespace r
}  // namespace gufunc

GUFUNC_CALL_ENTRY(lazy_reduce, gufunc::r::lazy_reduce_entry, 3);
GUFUNC_CALL_ENTRY(lazy_reduce_margin, gufunc::r::lazy_reduce_margin_entry, 5);
GUFUNC_CALL_ENTRY(lazy_plan_data, gufunc::r::lazy_plan_data_entry, 1);
