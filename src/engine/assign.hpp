// Evaluation of subassignments (Assign nodes, graph.hpp). A chain of writes on a
// base is computed over a range of positions in one pass into the output: the base
// (a base in memory: only where no write reaches), then each write's value straight
// into its positions, in the order R made them. A value is computed from the nodes
// it was built from (nodes never change), not from the output, so
// x[2:n] <- x[1:(n - 1)] + 1 gives R's shifted copy, not a running update.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/evaluate.hpp"
#include "engine/graph.hpp"

namespace gufunc {
namespace engine {

// The elements of Assign node `root` in each of `runs`, one run after another into
// `out` (as evaluate_runs); returns the warning bits of the base and values it
// computed. Each value is computed in one evaluation for all runs.
unsigned evaluate_assign(const NodePtr& root, const std::vector<Run>& runs, char* out,
                         const EvalOptions& options);

// Whether computing `value` can neither warn nor fail: memory inputs (not files,
// which may change), constants, and builtin kernels flagged kNeverFails. Such a
// value may be computed straight into the memory it replaces (x[i, j] <- v in
// place, src/r/lazy_assign.cpp): the write cannot stop half way.
bool writes_without_failing(const Node& value);

// Evaluates `value` (region.count() elements) into the positions of `region` in
// `out`, the memory of the vector the region is of: element k to position k of the
// region. `value` must not read those positions of `out`.
unsigned evaluate_into_region(const NodePtr& value, const Region& region, char* out,
                              const EvalOptions& options);

}  // namespace engine
}  // namespace gufunc
