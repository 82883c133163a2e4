// .Call entries that build lazy vectors from R values: lazy(x), element-wise maps
// over lazy and plain operands, materialization, region reads and test hooks.
#include <algorithm>
#include <string>
#include <vector>

#include "r/call_registry.hpp"
#include "r/guard.hpp"
#include "r/lazy_altrep.hpp"
#include "r/lazy_state.hpp"
#include "r/r_arrays.hpp"
#include "r/warning_texts.hpp"

namespace gufunc {
namespace r {

namespace {

// The nodes of a new graph's operands and the R vectors they read. A plain operand
// of length 1 becomes a scalar (its value is copied, nothing is kept alive); a
// longer one is viewed in place; a lazy operand brings its own node and leaves.
class GraphOperands {
 public:
  ~GraphOperands() { UNPROTECT(nprotect_); }

  engine::NodePtr add(SEXP x, int position) {
    if (is_lazy_vector(x)) {
      NodeUse use = lazy_node_use(x);
      if (use.leaves != R_NilValue) {
        PROTECT(use.leaves);  // may be new (an input over cached values)
        ++nprotect_;
        leaf_lists_.push_back(use.leaves);
      }
      return use.node;
    }
    const gufunc_dtype t = dtype_of(x, position);
    if (XLENGTH(x) == 1) {
      if (t == GUFUNC_DOUBLE) return engine::make_scalar_double(REAL_ELT(x, 0));
      return engine::make_scalar_int(t == GUFUNC_INTEGER ? INTEGER_ELT(x, 0) : LOGICAL_ELT(x, 0),
                                     t);
    }
    plain_.push_back(x);
    return input_node(x, position);
  }

  // One list of every distinct leaf; an operand's own list when it has them all,
  // so chains such as `x <- x * 0.5 + 1` share one list.
  SEXP leaves() {
    std::vector<SEXP> all;
    const SEXP* widest = nullptr;
    for (const SEXP& list : leaf_lists_) {
      if (widest == nullptr || XLENGTH(list) > XLENGTH(*widest)) widest = &list;
    }
    if (widest != nullptr) {
      for (R_xlen_t i = 0; i < XLENGTH(*widest); ++i) all.push_back(VECTOR_ELT(*widest, i));
    }
    const size_t from_widest = all.size();
    for (const SEXP& list : leaf_lists_) {
      for (R_xlen_t i = 0; i < XLENGTH(list); ++i) add_distinct(&all, VECTOR_ELT(list, i));
    }
    for (SEXP x : plain_) add_distinct(&all, x);
    if (all.empty()) return R_NilValue;
    if (widest != nullptr && all.size() == from_widest) return *widest;
    SEXP out = PROTECT(alloc_vector(VECSXP, static_cast<R_xlen_t>(all.size())));
    ++nprotect_;
    for (size_t i = 0; i < all.size(); ++i) SET_VECTOR_ELT(out, static_cast<R_xlen_t>(i), all[i]);
    return out;
  }

 private:
  static void add_distinct(std::vector<SEXP>* all, SEXP x) {
    if (std::find(all->begin(), all->end(), x) == all->end()) all->push_back(x);
  }

  int nprotect_ = 0;
  std::vector<SEXP> leaf_lists_;
  std::vector<SEXP> plain_;
};

// lazy(x): x is a double, integer or logical vector without a class (checked in R)
// or a lazy vector that lost its class;
// the result keeps its attributes and adds class "gufunc_lazy".
SEXP lazy_wrap_entry(SEXP x) {
  return guarded([&]() -> SEXP {
    engine::NodePtr node;
    SEXP leaves = R_NilValue;
    if (is_lazy_vector(x)) {  // a lazy vector without the class: the same node
      NodeUse use = lazy_node_use(x);
      node = use.node;
      leaves = PROTECT(use.leaves);
    } else {
      node = input_node(x, 1);
      leaves = PROTECT(alloc_vector(VECSXP, 1));
      SET_VECTOR_ELT(leaves, 0, x);
    }
    SEXP out = PROTECT(new_lazy_vector(std::move(node), leaves));
    r_call([&] {
      for (SEXP a = ATTRIB(x); a != R_NilValue; a = CDR(a)) {
        if (TAG(a) != R_ClassSymbol) Rf_setAttrib(out, TAG(a), CAR(a));
      }
      return R_NilValue;
    });
    UNPROTECT(2);
    return out;
  });
}

// A lazy vector of the element-wise function `name` of namespace `ns` over the list
// `args`, with class "gufunc_lazy" and no other attribute; NULL when the engine
// cannot map it (no kernel for the types, lengths other than n and 1), so the
// caller computes it with base R.
SEXP lazy_map_entry(SEXP name, SEXP args, SEXP ns) {
  return guarded([&]() -> SEXP {
    const Function& f = lookup(CHAR(STRING_ELT(ns, 0)), CHAR(STRING_ELT(name, 0)));
    GraphOperands operands;
    std::vector<engine::NodePtr> nodes;
    for (R_xlen_t i = 0; i < XLENGTH(args); ++i) {
      nodes.push_back(operands.add(VECTOR_ELT(args, i), static_cast<int>(i + 1)));
    }
    engine::NodePtr node;
    try {
      node = engine::make_map(f, std::move(nodes));
    } catch (const Error& e) {
      const std::string& cls = e.condition_class();
      if (cls == "gufunc_dispatch_error" || cls == "gufunc_shape_error") return R_NilValue;
      throw;
    }
    return new_lazy_vector(std::move(node), operands.leaves());
  });
}

// list(values, warnings): the plain values of x with its attributes but the
// gufunc_lazy class. The values are x's cache itself (no copy; R copies on change).
SEXP lazy_materialize_entry(SEXP x) {
  return guarded([&]() -> SEXP {
    unsigned warnings = 0;
    SEXP values = materialize_lazy(x, &warnings);
    if (ATTRIB(values) == R_NilValue && ATTRIB(x) != R_NilValue) {
      // x's attributes never change (it is not mutable), so setting them once is right.
      r_call([&] {
        for (SEXP a = ATTRIB(x); a != R_NilValue; a = CDR(a)) {
          if (TAG(a) != R_ClassSymbol) Rf_setAttrib(values, TAG(a), CAR(a));
        }
        return R_NilValue;
      });
    }
    SEXP out = PROTECT(alloc_vector(VECSXP, 2));
    SET_VECTOR_ELT(out, 0, values);
    SET_VECTOR_ELT(out, 1, warning_texts(warnings));
    UNPROTECT(1);
    return out;
  });
}

// Elements [begin, end) (0-based) as a plain vector without attributes.
SEXP lazy_region_entry(SEXP x, SEXP begin, SEXP end) {
  return guarded([&]() -> SEXP {
    const LazyState& s = state_of(x);
    const R_xlen_t b = std::max<R_xlen_t>(0, static_cast<R_xlen_t>(Rf_asReal(begin)));
    const R_xlen_t e = std::min<R_xlen_t>(s.length, static_cast<R_xlen_t>(Rf_asReal(end)));
    SEXP out = PROTECT(alloc_vector(sexptype_of(s.dtype), e > b ? e - b : 0));
    read_lazy_region(x, b, e, data_of(out));
    UNPROTECT(1);
    return out;
  });
}

SEXP lazy_is_vector_entry(SEXP x) {
  return guarded([&]() -> SEXP { return Rf_ScalarLogical(is_lazy_vector(x)); });
}

// Test hook: TRUE once the values of x are cached (and for plain vectors).
SEXP lazy_is_materialized_entry(SEXP x) {
  return guarded(
      [&]() -> SEXP { return Rf_ScalarLogical(!is_lazy_vector(x) || lazy_is_materialized(x)); });
}

SEXP lazy_describe_entry(SEXP x) {
  return guarded([&]() -> SEXP {
    if (!is_lazy_vector(x)) return Rf_mkString("plain");
    return Rf_mkString(describe_lazy(x).c_str());
  });
}

}  // namespace

}  // namespace r
}  // namespace gufunc

GUFUNC_CALL_ENTRY(lazy_wrap, gufunc::r::lazy_wrap_entry, 1);
GUFUNC_CALL_ENTRY(lazy_map, gufunc::r::lazy_map_entry, 3);
GUFUNC_CALL_ENTRY(lazy_materialize, gufunc::r::lazy_materialize_entry, 1);
GUFUNC_CALL_ENTRY(lazy_region, gufunc::r::lazy_region_entry, 3);
GUFUNC_CALL_ENTRY(lazy_is_vector, gufunc::r::lazy_is_vector_entry, 1);
GUFUNC_CALL_ENTRY(lazy_is_materialized, gufunc::r::lazy_is_materialized_entry, 1);
GUFUNC_CALL_ENTRY(lazy_describe, gufunc::r::lazy_describe_entry, 1);
