// Kept values held by the lazy values that read them (kept_holders.cpp).
#pragma once

#define R_NO_REMAP
#include <Rinternals.h>

#include "engine/graph.hpp"

namespace gufunc {
namespace r {

// The leaves of a new lazy value of `node`: `leaves` (a list or R_NilValue), with a
// holder for the node's kept values where the engine may keep them and nothing
// else holds the node yet (node->kept_holder is set to it).
SEXP leaves_with_holder(const engine::NodePtr& node, SEXP leaves);

// Whether the leaves list `leaves` holds `v`, at its top or one list down.
bool holds_leaf(SEXP leaves, SEXP v);

// Makes the engine keep reused values in R vectors, whose size R's garbage
// collector counts: in the node's holder where it has one. Called once at load.
void install_kept_memory();

}  // namespace r
}  // namespace gufunc
