// A product whose first operand is a long file (t(m) %*% v of a 10000 x 10000 .npy):
// one loop iteration reads all of that operand, through the mapping, so the whole
// file would become resident at once. Its kernel set declares kRowsIndependent
// (dispatch/builtin_traits.hpp: output row i reads only row i of the first operand),
// so the engine computes it a block of rows at a time instead: each block's rows of
// the first operand are read with pread() into memory of their own, and the bits are
// those of the whole product. Blocks of the shared dim (contraction_blocks.hpp) come
// first where they apply: they read a plain file's columns, runs of the file, where
// blocks of rows read one short run per column; blocks of rows suit a transposed
// file (its rows are the runs), or a sum that blocks of columns cannot carry.
#pragma once

#include "engine/evaluate.hpp"
#include "engine/graph.hpp"

namespace gufunc {
namespace engine {

// Whether `g` is one loop iteration of a gufunc over two matrices ("(m,n),(n,p)")
// whose kernel set declares `flag` (dispatch/builtin_traits.hpp).
bool one_matrix_product(const Node& g, unsigned flag);

// Whether gufunc node `g` is computed by blocks of rows: one loop iteration of a
// kRowsIndependent kernel, a first operand of more than 64 MB viewed in a file and
// a second of at most that.
bool splits_by_rows(const Node& g);

// The values of `g` (one loop iteration: m x p, column-major) into `out`, a block
// of rows at a time; returns the warning bits.
unsigned evaluate_by_rows(const NodePtr& g, char* out, const EvalOptions& options);

}  // namespace engine
}  // namespace gufunc
