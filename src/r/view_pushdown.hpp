// Views pushed down a deferred graph: a view of an element-wise expression is the
// same expression over the same view of each operand (x[-1] of x * 2 is x[-1] * 2,
// t(x + y) is t(x) + t(y)), so expressions on the view fuse with everything else.
// Used by subsets (lazy_view.cpp) and by t(), aperm() and rev() (lazy_reorder_view.cpp).
#pragma once

#include <unordered_map>
#include <vector>

#include "engine/graph.hpp"
#include "engine/reused_values.hpp"
#include "r/lazy_altrep.hpp"
#include "r/subscript_pick.hpp"

namespace gufunc {
namespace r {

using NodeMemo = std::unordered_map<const engine::Node*, engine::NodePtr>;

// Recursion on the C stack: graphs deeper than this are not pushed through (as
// staging's limit).
const int kMaxPushdownDepth = 1000;

// `node` with `change` (bool(engine::View*): false when the view cannot be changed
// so) applied to every input, through element-wise maps (a length-1 operand is
// broadcast as before); other kinds of nodes go to `other` (NodePtr(node, depth):
// nullptr when the view does not pass them). nullptr when it does not hold.
template <class Change, class Other>
engine::NodePtr pushed_down(const engine::NodePtr& node, Change& change, Other& other,
                            NodeMemo* done, int depth) {
  if (node->length == 1) return node;  // broadcast: the same for every element
  const auto seen = done->find(node.get());
  if (seen != done->end()) return seen->second;
  engine::NodePtr out;
  if (node->kind == engine::NodeKind::Input || node->kept) {
    // A kept node: its values, computed whole (engine/reused_values.hpp).
    engine::View view = node->kept ? engine::kept_view(*node) : node->view;
    if (change(&view)) out = engine::make_input(view);
  } else if (depth >= kMaxPushdownDepth) {
    return nullptr;
  } else if (node->kind == engine::NodeKind::Map) {
    std::vector<engine::NodePtr> args;
    for (const engine::NodePtr& child : node->children) {
      args.push_back(pushed_down(child, change, other, done, depth + 1));
      if (!args.back()) return nullptr;
    }
    try {
      out = engine::make_map(node->function, std::move(args));
    } catch (const std::exception&) {
      return nullptr;  // R's own code, on the computed values
    }
  } else {
    out = other(node, depth);
  }
  if (!out) return nullptr;
  (*done)[node.get()] = out;
  return out;
}

// Whether x is a lazy vector (not R's wrapper around one) whose elements a view can
// read: values at hand, memory it views, a deferred element-wise map, or a pending
// subassignment (computed when a view asks for it).
bool viewable(SEXP x);

// `view` (a block of columns, or one run) read with its runs' elements last to
// first (rows_backward) and/or its runs last to first (columns_backward), in place;
// false for a view a stride cannot reorder (a repetition, a circular shift, planes,
// a file of bytes). rev(x) reads both backwards. (lazy_reorder_view.cpp)
bool read_backwards(engine::View* view, bool rows_backward, bool columns_backward);

// `view` (a block in planes of columns) read with the columns of each plane last to
// first and/or its planes last to first, in place; false for another view.
bool planes_backwards(engine::View* view, bool columns_backward, bool planes_backward);

// rep(x, times = k) (e == 1) or rep(x, each = e) (k == 1) of `x` (of length >= 2)
// as a lazy view of its memory: outer(x, y, f) reads x and y this way, so f(x, y)
// fuses without the two n * m copies. `x` is a plain vector, or a lazy one whose
// values are a plain view (its cached values, a slice of a file: not read into
// memory first); R_NilValue for another lazy x.
SEXP rep_view(SEXP x, double k, double e);

// The lazy vector of `length` elements that `build` (NodePtr(const NodePtr&): the
// view's graph from x's, or nullptr) makes of lazy vector x, with `attributes`, or
// R_NilValue where it makes none. When it makes none of x's graph and x is a
// pending subassignment, or `compute` holds, x is computed (once: its values are
// cached) and `build` asked again, now of an input over those values. Fewer than
// min_length elements of a deferred x without another class give their values,
// computed now, as a plain vector with `attributes` (kept a lazy value over it from
// kKeepLazyLength elements on: short_result()). Warnings of the evaluations
// go to *warnings.
SEXP view_of(SEXP x, R_xlen_t length, bool compute, double min_length, SEXP attributes,
             unsigned* warnings,
             const std::function<engine::NodePtr(const engine::NodePtr&)>& build);

// The view of lazy vector x (viewable()) that `pick` picks, with `attributes`
// (view_of).
SEXP picked_view(SEXP x, const Pick& pick, double min_length, SEXP attributes, unsigned* warnings);

// Runs `make` (which builds a view; unsigned*: warnings) in guarded() and raises
// the warnings of the evaluation it made, if any, after it.
SEXP with_warnings(const std::function<SEXP(unsigned*)>& make);

}  // namespace r
}  // namespace gufunc
