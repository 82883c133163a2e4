// .Call entries behind user-defined gufuncs (R/user_gufunc.R, R/gufunc_cpp.R): shape
// resolution for R kernels, which run the loop in R, and removal of user kernels.
#include <algorithm>
#include <string>
#include <vector>

#include "dispatch/table.hpp"
#include "gufunc/version.h"
#include "r/call_registry.hpp"
#include "r/guard.hpp"
#include "r/r_arrays.hpp"
#include "types/shape.hpp"

namespace gufunc {
namespace r {
namespace {

// What R needs to run a gufunc's loop itself: everything computed in C++ first, so
// building the R list below cannot throw half-way.
struct LoopLayout {
  Signature sig;
  ResolvedShape shape;
  // Per input: the 0-based element offset of its core slice in every loop iteration.
  std::vector<std::vector<double>> offsets;
  std::vector<std::vector<intptr_t>> in_core, out_core;  // core sizes of inputs, outputs
};

LoopLayout layout_of(const std::string& text, SEXP dims) {
  LoopLayout out{parse_signature(text), {}, {}};
  if (XLENGTH(dims) != out.sig.nin) {
    throw Error("gufunc_argument_error", "\"" + text + "\" takes " + std::to_string(out.sig.nin) +
                                             " input(s), not " + std::to_string(XLENGTH(dims)));
  }
  std::vector<std::vector<intptr_t>> in_dims;
  for (int a = 0; a < out.sig.nin; ++a) {
    SEXP d = VECTOR_ELT(dims, a);
    std::vector<intptr_t> v;
    for (R_xlen_t j = 0; j < XLENGTH(d); ++j) v.push_back(static_cast<intptr_t>(REAL(d)[j]));
    in_dims.push_back(v);
  }
  out.shape = resolve_shape(out.sig, in_dims);
  const auto& cores = out.shape.arg_core_sizes;
  out.in_core.assign(cores.begin(), cores.begin() + out.sig.nin);
  out.out_core.assign(cores.begin() + out.sig.nin, cores.end());
  const auto& loop = out.shape.loop_shape;
  const intptr_t n = out.shape.loop_length;
  for (int a = 0; a < out.sig.nin; ++a) {
    const std::vector<intptr_t> stride = arg_strides(out.shape, a).loop;
    std::vector<double> off(static_cast<size_t>(n));
    std::vector<intptr_t> idx(loop.size(), 0);
    intptr_t at = 0;
    for (intptr_t t = 0; t < n; ++t) {
      off[static_cast<size_t>(t)] = static_cast<double>(at);
      // Odometer over the loop dims, first-fastest.
      for (size_t j = 0; j < loop.size(); ++j) {
        at += stride[j];
        if (++idx[j] < loop[j]) break;
        at -= stride[j] * loop[j];
        idx[j] = 0;
      }
    }
    out.offsets.push_back(std::move(off));
  }
  return out;
}

SEXP real_vector(const std::vector<intptr_t>& v) {
  SEXP x = Rf_allocVector(REALSXP, static_cast<R_xlen_t>(v.size()));
  for (size_t i = 0; i < v.size(); ++i) REAL(x)[i] = static_cast<double>(v[i]);
  return x;
}

SEXP real_vectors(const std::vector<std::vector<intptr_t>>& vs) {
  SEXP x = PROTECT(Rf_allocVector(VECSXP, static_cast<R_xlen_t>(vs.size())));
  for (size_t i = 0; i < vs.size(); ++i) SET_VECTOR_ELT(x, i, real_vector(vs[i]));
  UNPROTECT(1);
  return x;
}

// Runs under unwind_protect: may longjmp (allocation), never throws.
SEXP layout_to_list(void* data) {
  const LoopLayout& l = *static_cast<const LoopLayout*>(data);
  const int nin = l.sig.nin;
  const char* names[] = {"dim_sizes",      "loop_shape", "loop_length", "in_core_sizes",
                         "out_core_sizes", "out_dims",   "in_offsets",  ""};
  SEXP out = PROTECT(Rf_mkNamed(VECSXP, names));
  SEXP sizes = real_vector(l.shape.dim_sizes);
  SET_VECTOR_ELT(out, 0, sizes);
  SEXP dim_names = Rf_allocVector(STRSXP, static_cast<R_xlen_t>(l.sig.dims.size()));
  Rf_setAttrib(sizes, R_NamesSymbol, dim_names);
  for (size_t d = 0; d < l.sig.dims.size(); ++d) {
    SET_STRING_ELT(dim_names, d, Rf_mkCharCE(l.sig.dims[d].name.c_str(), CE_UTF8));
  }
  SET_VECTOR_ELT(out, 1, real_vector(l.shape.loop_shape));
  SET_VECTOR_ELT(out, 2, Rf_ScalarReal(static_cast<double>(l.shape.loop_length)));
  SET_VECTOR_ELT(out, 3, real_vectors(l.in_core));
  SET_VECTOR_ELT(out, 4, real_vectors(l.out_core));
  SET_VECTOR_ELT(out, 5, real_vectors(l.shape.out_dims));
  SEXP offsets = Rf_allocVector(VECSXP, nin);
  SET_VECTOR_ELT(out, 6, offsets);
  for (int a = 0; a < nin; ++a) {
    const std::vector<double>& o = l.offsets[a];
    SEXP x = Rf_allocVector(REALSXP, static_cast<R_xlen_t>(o.size()));
    SET_VECTOR_ELT(offsets, a, x);
    std::copy(o.begin(), o.end(), REAL(x));
  }
  UNPROTECT(1);
  return out;
}

// sig: character(1); dims: a list with the R dims (as double) of each input.
SEXP resolve(SEXP sig, SEXP dims) {
  return guarded([&]() -> SEXP {
    LoopLayout layout = layout_of(CHAR(STRING_ELT(sig, 0)), dims);
    return unwind_protect(layout_to_list, &layout);
  });
}

// Removes function `name` of namespace `ns`, or the whole namespace when `name` is
// NULL, releasing the kernel states gufunc owns. TRUE if something was removed.
SEXP remove(SEXP ns, SEXP name) {
  return guarded([&]() -> SEXP {
    const std::string space = CHAR(STRING_ELT(ns, 0));
    if (space == "base") {
      throw Error("gufunc_registration_error",
                  "the \"base\" namespace holds gufunc's builtins; they cannot be removed");
    }
    bool removed;
    if (Rf_isNull(name)) {
      removed = remove_table(space);
    } else {
      Table* t = find_table(space);
      removed = t != nullptr && t->remove_function(CHAR(STRING_ELT(name, 0)));
    }
    return Rf_ScalarLogical(removed);
  });
}

SEXP owned_states() {
  return guarded([]() -> SEXP { return Rf_ScalarReal(static_cast<double>(live_owned_states())); });
}

SEXP abi_version() { return Rf_ScalarInteger(GUFUNC_ABI_VERSION); }

// GUFUNC_MAX_ARGS: gufunc_cpp() checks a signature against it before compiling.
SEXP max_args() { return Rf_ScalarInteger(GUFUNC_MAX_ARGS); }

}  // namespace
}  // namespace r
}  // namespace gufunc

GUFUNC_CALL_ENTRY(user_resolve_shape, gufunc::r::resolve, 2);
GUFUNC_CALL_ENTRY(user_remove, gufunc::r::remove, 2);
GUFUNC_CALL_ENTRY(user_owned_states, gufunc::r::owned_states, 0);
GUFUNC_CALL_ENTRY(user_abi_version, gufunc::r::abi_version, 0);
GUFUNC_CALL_ENTRY(user_max_args, gufunc::r::max_args, 0);
