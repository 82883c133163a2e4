// Linearizing a graph: the first step of build_batch() (batch.hpp).
//
// Each node becomes a value computed by an instruction, at the width it is read
// with (gufunc operands at their core length), shared where nodes, input views or
// casts repeat. Nested reductions, gufuncs and scans, and subassignments that are
// not one constant over a base, are staged (computed whole first) with the reason
// plans show; views of an expression several views read are staged once.
#pragma once

#include "engine/batch.hpp"
#include "engine/graph.hpp"

namespace gufunc {
namespace engine {

// Fills b's values and instructions (code), length and result for `root`; the
// kernel split, storage and product fusion are build_batch()'s.
void linearize(const Node& root, Batch* b);

}  // namespace engine
}  // namespace gufunc
