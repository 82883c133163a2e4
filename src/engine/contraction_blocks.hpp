// A product whose shared dim is long and read from a file (matmul(t(x), x) of a tall
// .npy: X'X; m %*% v of a square one): one loop iteration reads both operands whole,
// through the mapping, so the whole file would become resident at once. For X'X,
// blocks of output rows (row_blocks.hpp) do not help, since every output element
// sums over all rows; for m %*% v, they read one short run of each column.
//
// Its kernel set declares kSumsInIndexOrder (dispatch/builtin_traits.hpp: each
// output element is 0.0 plus its products in the shared dim's order, rounded to
// double at each step). The engine then computes it a block of the shared dim at a
// time, each block read with pread() into memory of its own, and carries the sums
// from one block into the next by prepending them as terms whose products are exact:
// block b computes [C | A_b] %*% [I ; B_b], whose first p terms leave each element at
// C[i, k] (C[i, j] * 0 adds a zero, C[i, k] * 1 is C[i, k]) before its own products
// are added, in order. So the bits are those of the whole product. A sum so far that
// is not finite (its product by 0 is NaN) would spoil the other elements of its row:
// the product is then computed whole instead.
#pragma once

#include "engine/evaluate.hpp"
#include "engine/graph.hpp"

namespace gufunc {
namespace engine {

// Whether gufunc node `g` is computed by blocks of its shared dim: one loop iteration
// of a kSumsInIndexOrder kernel over two input operands (doubles, or integers or
// logicals read as doubles), at least one of them viewed in a file, together over
// 64 MB, whose blocks (with the sums carried) fit in 256 MB; unless the first
// operand is a transposed file that blocks of rows read better (row_blocks.hpp).
bool splits_by_contraction(const Node& g);

// The values of `g` (one loop iteration: m x p, column-major) into `out`, a block of
// the shared dim at a time, adding their warning bits to *warnings; false when a sum
// so far was not finite (`out` then holds no values: the caller computes g whole).
bool evaluate_by_contraction(const NodePtr& g, char* out, const EvalOptions& options,
                             unsigned* warnings);

}  // namespace engine
}  // namespace gufunc
