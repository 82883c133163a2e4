// .Call entries for eager gufunc calls: gufunc_call() and its element-wise test.
#include <string>

#include "dispatch/apply.hpp"
#include "r/call_registry.hpp"
#include "r/eval_settings.hpp"
#include "r/guard.hpp"
#include "r/lookup.hpp"
#include "r/output_alloc.hpp"
#include "r/r_arrays.hpp"
#include "r/rcpp_parallel_runner.hpp"
#include "r/warning_texts.hpp"

namespace gufunc {
namespace r {

Function& lookup_function(SEXP name, SEXP ns) {
  return lookup(CHAR(STRING_ELT(ns, 0)), CHAR(STRING_ELT(name, 0)));
}

namespace {

SEXP set_dims(SEXP x, const std::vector<intptr_t>& dims) {
  if (dims.size() < 2) return x;
  SEXP dim = PROTECT(alloc_vector(INTSXP, static_cast<R_xlen_t>(dims.size())));
  for (size_t i = 0; i < dims.size(); ++i) INTEGER(dim)[i] = static_cast<int>(dims[i]);
  Rf_setAttrib(x, R_DimSymbol, dim);
  UNPROTECT(1);
  return x;
}

// Returns list(outputs, warnings): the outputs as plain R vectors (dims set for
// core-dim calls) and the texts of the warnings the kernels raised.
SEXP call(SEXP name, SEXP args, SEXP ns, SEXP threads) {
  return guarded([&]() -> SEXP {
    Function& f = lookup_function(name, ns);
    const int nin = static_cast<int>(XLENGTH(args));
    std::vector<ArgShape> shapes;
    for (int i = 0; i < nin; ++i) {
      SEXP x = VECTOR_ELT(args, i);
      shapes.push_back({dtype_of(x, i + 1), dims_of(x)});
    }
    const ApplyPlan plan = plan_apply(f, shapes);

    int nprotect = 0;
    std::vector<const char*> in;
    for (int i = 0; i < nin; ++i) {
      SEXP x = promote(VECTOR_ELT(args, i), shapes[i].dtype, plan.match.types[i], &nprotect);
      in.push_back(data_of(x));
    }
    SEXP outputs = PROTECT(alloc_vector(VECSXP, plan.nout()));
    ++nprotect;
    std::vector<char*> out;
    for (int o = 0; o < plan.nout(); ++o) {
      SEXP y = alloc_output(sexptype_of(plan.match.types[nin + o]), plan.out_length(o));
      SET_VECTOR_ELT(outputs, o, y);
      set_dims(y, plan.out_dims(o));
      out.push_back(data_of(y));
    }
    RcppParallelRunner runner(Rf_asInteger(threads));
    unsigned warnings = 0;
    try {
      warnings = run_apply(plan, in, out, runner, round_hooks());
    } catch (const Interrupted&) {
      stop_interrupted();  // the outputs are garbage, never seen by R
    }

    SEXP result = PROTECT(alloc_vector(VECSXP, 2));
    ++nprotect;
    SET_VECTOR_ELT(result, 0, outputs);
    SET_VECTOR_ELT(result, 1, warning_texts(warnings));
    UNPROTECT(nprotect);
    return result;
  });
}

SEXP elementwise(SEXP name, SEXP ns, SEXP nin) {
  return guarded([&]() -> SEXP {
    return Rf_ScalarLogical(is_elementwise(lookup_function(name, ns), Rf_asInteger(nin)));
  });
}

}  // namespace

}  // namespace r
}  // namespace gufunc

GUFUNC_CALL_ENTRY(gufunc_call, gufunc::r::call, 4);
GUFUNC_CALL_ENTRY(is_elementwise, gufunc::r::elementwise, 3);
