// x[...] of a lazy array whose subscripts pick one block (array_region.hpp): the
// view in one call, with base R's dim, dimnames and names worked out here from the
// runs (R's drop rules), so no stand-in of the picked positions is made and no R
// code runs (for a large block a stand-in cost about half of copying it).
#include <vector>

#include "r/array_region.hpp"
#include "r/call_registry.hpp"
#include "r/guard.hpp"
#include "r/r_arrays.hpp"
#include "r/subscript_pick.hpp"
#include "r/view_pushdown.hpp"

namespace gufunc {
namespace r {

namespace {

// The names dimension k's run picks of `names` (a character vector, or NULL).
SEXP picked_names(SEXP names, const Run& run) {
  if (names == R_NilValue) return R_NilValue;
  const R_xlen_t n = static_cast<R_xlen_t>(run.n);
  SEXP out = alloc_vector(STRSXP, n);
  for (R_xlen_t i = 0; i < n; ++i) {
    const R_xlen_t at = run.roll != 0 ? (i + static_cast<R_xlen_t>(run.roll)) % n
                                      : static_cast<R_xlen_t>(run.first + i * run.by);
    SET_STRING_ELT(out, i, STRING_ELT(names, at));
  }
  return out;
}

// A named list of attributes, as new_lazy_vector() takes them.
SEXP attribute_list(const std::vector<const char*>& tags, const std::vector<SEXP>& values) {
  SEXP out = PROTECT(alloc_vector(VECSXP, static_cast<R_xlen_t>(tags.size())));
  SEXP names = alloc_vector(STRSXP, static_cast<R_xlen_t>(tags.size()));
  Rf_setAttrib(out, R_NamesSymbol, names);
  for (size_t k = 0; k < tags.size(); ++k) {
    SET_VECTOR_ELT(out, static_cast<R_xlen_t>(k), values[k]);
    SET_STRING_ELT(names, static_cast<R_xlen_t>(k), Rf_mkChar(tags[k]));
  }
  UNPROTECT(1);
  return out;
}

// Base R's attributes of x[...] picking `region` of array x: dim (and dimnames) of
// the dimensions kept; with drop, a result of one dimension or less is a vector
// whose names come from the one dimension left, or for a single element from the
// only dimension that has names (R's DropDims). The caller protects the result.
SEXP view_attributes(SEXP x, const ArrayRegion& region) {
  const std::vector<Run>& runs = region.runs;
  const size_t rank = runs.size();
  SEXP dn = Rf_getAttrib(x, R_DimNamesSymbol);
  SEXP picked = R_NilValue;  // dimnames of every dimension, picked
  if (dn != R_NilValue) {
    picked = PROTECT(alloc_vector(VECSXP, static_cast<R_xlen_t>(rank)));
    for (size_t k = 0; k < rank; ++k) {
      SET_VECTOR_ELT(picked, k, picked_names(VECTOR_ELT(dn, k), runs[k]));
    }
  } else {
    PROTECT(picked);
  }
  std::vector<size_t> kept;
  for (size_t k = 0; k < rank; ++k) {
    if (!region.drop || runs[k].n != 1) kept.push_back(k);
  }
  SEXP out = R_NilValue;
  if (region.drop && kept.size() <= 1) {
    std::vector<size_t> named = kept;
    if (kept.empty() && picked != R_NilValue) {
      for (size_t k = 0; k < rank; ++k) {
        if (VECTOR_ELT(picked, k) != R_NilValue) named.push_back(k);
      }
    }
    if (picked != R_NilValue && named.size() == 1 && VECTOR_ELT(picked, named[0]) != R_NilValue) {
      out = attribute_list({"names"}, {VECTOR_ELT(picked, named[0])});
    }
    UNPROTECT(1);
    return out;
  }
  SEXP dim = PROTECT(alloc_vector(INTSXP, static_cast<R_xlen_t>(kept.size())));
  for (size_t k = 0; k < kept.size(); ++k) INTEGER(dim)[k] = static_cast<int>(runs[kept[k]].n);
  // Names of x's dim stay with the dimensions kept (R's ArraySubset and DropDims).
  SEXP dim_tags = Rf_getAttrib(Rf_getAttrib(x, R_DimSymbol), R_NamesSymbol);
  if (dim_tags != R_NilValue) {
    SEXP kept_dim_tags = alloc_vector(STRSXP, static_cast<R_xlen_t>(kept.size()));
    for (size_t k = 0; k < kept.size(); ++k) {
      SET_STRING_ELT(kept_dim_tags, k, STRING_ELT(dim_tags, kept[k]));
    }
    Rf_setAttrib(dim, R_NamesSymbol, kept_dim_tags);  // protects it while it attaches it
  }
  SEXP dimnames = R_NilValue;
  bool any_names = false;
  if (picked != R_NilValue) {
    dimnames = PROTECT(alloc_vector(VECSXP, static_cast<R_xlen_t>(kept.size())));
    SEXP tags = Rf_getAttrib(dn, R_NamesSymbol);
    SEXP kept_tags = tags == R_NilValue ? R_NilValue : alloc_vector(STRSXP, kept.size());
    if (kept_tags != R_NilValue) Rf_setAttrib(dimnames, R_NamesSymbol, kept_tags);
    for (size_t k = 0; k < kept.size(); ++k) {
      SET_VECTOR_ELT(dimnames, k, VECTOR_ELT(picked, kept[k]));
      any_names = any_names || VECTOR_ELT(picked, kept[k]) != R_NilValue;
      if (kept_tags != R_NilValue) SET_STRING_ELT(kept_tags, k, STRING_ELT(tags, kept[k]));
    }
  } else {
    PROTECT(dimnames);
  }
  // Dimnames of only NULLs stay when they are named (list(R = NULL, C = NULL)) and
  // no dimension is dropped, as in base R (whose DropDims keeps dimnames only when
  // one of the dimensions kept has names).
  const bool keep_dimnames =
      any_names || (kept.size() == rank && Rf_getAttrib(dn, R_NamesSymbol) != R_NilValue);
  out = keep_dimnames ? attribute_list({"dim", "dimnames"}, {dim, dimnames})
                      : attribute_list({"dim"}, {dim});
  UNPROTECT(3);
  return out;
}

// .Call(C_lazy_array_view, x, frame): x[...] of lazy array x, from the `...` of the
// method whose environment is `frame`: the view of the block its subscripts pick
// (short of gufunc.lazy_min_length elements, its values: view_of()); the symbol
// `no_view` for numeric subscripts that pick something else, or a block no view
// reads (values at hand in R's compact form: R subsets them); NULL where x is not
// a viewable array (lazy_viewable_entry) or for other subscripts, which R's rules
// are to read.
SEXP lazy_array_view_entry(SEXP x, SEXP frame) {
  static const SEXP no_view = Rf_install("no_view");
  return with_warnings([&](unsigned* warnings) -> SEXP {
    if (!viewable(x) || Rf_length(Rf_getAttrib(x, R_DimSymbol)) < 2) return R_NilValue;
    ArrayRegion region;
    const ArraySubscripts what = read_array_subscripts(x, frame, &region);
    if (what == ArraySubscripts::kOther) return R_NilValue;
    if (what == ArraySubscripts::kIrregular) return no_view;
    Pick pick;
    pick.first = static_cast<R_xlen_t>(region.pick[0]);
    pick.rows = static_cast<R_xlen_t>(region.pick[1]);
    pick.columns = static_cast<R_xlen_t>(region.pick[2]);
    pick.step = static_cast<R_xlen_t>(region.pick[3]);
    pick.row_roll = static_cast<R_xlen_t>(region.runs[0].roll);
    pick.column_roll = static_cast<R_xlen_t>(region.runs[1].roll);
    pick.planes = static_cast<R_xlen_t>(region.pick[4]);
    pick.plane_step = static_cast<R_xlen_t>(region.pick[5]);
    pick.row_step = static_cast<R_xlen_t>(region.row_step);
    pick.rows_backward = region.rows_backward;
    pick.columns_backward = region.columns_backward;
    pick.planes_backward = region.planes_backward;
    SEXP attributes = PROTECT(view_attributes(x, region));
    SEXP view = picked_view(x, pick, lazy_min_length(), attributes, warnings);
    UNPROTECT(1);
    return view == R_NilValue ? no_view : view;
  });
}

}  // namespace

}  // namespace r
}  // namespace gufunc

GUFUNC_CALL_ENTRY(lazy_array_view, gufunc::r::lazy_array_view_entry, 2);
