// .Call entry that builds a gufunc node (core dims) over lazy and plain operands:
// the lazy path of gufunc_call(). Shapes and types are resolved now, so errors are
// raised at the call, as for an eager call; nothing is computed.
#include <vector>

#include "r/call_registry.hpp"
#include "r/guard.hpp"
#include "r/lazy_altrep.hpp"
#include "r/lazy_operands.hpp"
#include "r/lookup.hpp"
#include "r/r_arrays.hpp"

namespace gufunc {
namespace r {

namespace {

// list(dim = dims), or NULL: R dims are set on results of two or more dims only,
// as an eager call does.
SEXP dim_attributes(const std::vector<intptr_t>& dims) {
  if (dims.size() < 2) return R_NilValue;
  SEXP attrs = PROTECT(alloc_vector(VECSXP, 1));
  SEXP dim = alloc_vector(INTSXP, static_cast<R_xlen_t>(dims.size()));
  SET_VECTOR_ELT(attrs, 0, dim);
  for (size_t i = 0; i < dims.size(); ++i) INTEGER(dim)[i] = static_cast<int>(dims[i]);
  SEXP names = alloc_vector(STRSXP, 1);
  Rf_setAttrib(attrs, R_NamesSymbol, names);
  SET_STRING_ELT(names, 0, Rf_mkChar("dim"));
  UNPROTECT(1);
  return attrs;
}

// A lazy vector of gufunc `name` of namespace `ns` over the list `args`; NULL when
// the function has several outputs for these types (computed eagerly by the caller).
SEXP lazy_gufunc_entry(SEXP name, SEXP args, SEXP ns, SEXP origin) {
  return guarded([&]() -> SEXP {
    std::shared_ptr<const Function> f =
        lookup_shared(CHAR(STRING_ELT(ns, 0)), CHAR(STRING_ELT(name, 0)));
    GraphOperands operands;
    std::vector<engine::NodePtr> nodes;
    std::vector<std::vector<intptr_t>> dims;
    for (R_xlen_t i = 0; i < XLENGTH(args); ++i) {
      SEXP x = VECTOR_ELT(args, i);
      nodes.push_back(operands.add(x, static_cast<int>(i + 1)));
      dims.push_back(dims_of(x));
    }
    const std::string where =
        Rf_isString(origin) && XLENGTH(origin) == 1 ? CHAR(STRING_ELT(origin, 0)) : std::string();
    engine::NodePtr node = engine::make_gufunc(f, std::move(nodes), dims, where);
    if (!node) return R_NilValue;
    SEXP attrs = PROTECT(dim_attributes(node->apply->out_dims(0)));
    SEXP out = new_lazy_vector(std::move(node), operands.leaves(), attrs);
    UNPROTECT(1);
    return out;
  });
}

}  // namespace

}  // namespace r
}  // namespace gufunc

GUFUNC_CALL_ENTRY(lazy_gufunc, gufunc::r::lazy_gufunc_entry, 4);
