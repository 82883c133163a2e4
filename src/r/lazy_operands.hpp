// The operands of a new lazy graph node, as the .Call entries that build nodes
// collect them (lazy_map_bridge.cpp, lazy_gufunc_bridge.cpp).
#pragma once

#include <algorithm>
#include <vector>

#include "engine/graph.hpp"
#include "r/lazy_altrep.hpp"
#include "r/lazy_state.hpp"
#include "r/r_arrays.hpp"

namespace gufunc {
namespace r {

// The nodes of a new graph's operands and the R vectors they read. A plain operand
// of length 1 becomes a scalar (its value is copied, nothing is kept alive); a
// longer one is viewed in place; a lazy operand brings its own node and leaves.
class GraphOperands {
 public:
  GraphOperands() = default;
  GraphOperands(const GraphOperands&) = delete;
  GraphOperands& operator=(const GraphOperands&) = delete;
  ~GraphOperands() { UNPROTECT(nprotect_); }

  engine::NodePtr add(SEXP x, int position) {
    if (SEXP lazy = lazy_inside(x)) {
      NodeUse use = lazy_node_use(lazy);
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

}  // namespace r
}  // namespace gufunc
