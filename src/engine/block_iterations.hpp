// How many loop iterations a block of a batch holds. Blocks are cache-sized in the
// elements an iteration touches: for a gufunc root, the elements of its cores read and
// written (a gufunc reducing a long core to one value would otherwise run tens of
// thousands of iterations, seconds of work, as one block that no interrupt check or
// round boundary can split); else the widest instruction's.
#pragma once

#include <cstddef>

#include "engine/batch.hpp"

namespace gufunc {
namespace engine {

size_t block_iterations(const Batch& b, const Node& root, size_t block_elements);

// Blocks of one column: an element-wise batch whose block views (m[i:j, k:l]:
// columns of R consecutive elements; rep(x, times = k)) and runs of repeated
// elements (rep(x, each = R)) all have the same R reads them in place when each
// block is one such column (a run then reads as a scalar), where blocks of another
// size cross columns and copy each view's elements into scratch first (a pass over
// memory per view: outer(x, y)'s operands cost n-body a third of its time). Returns
// R when that holds, the iterations start at a column, and R is between
// kMinColumnBlock and `block_elements` (longer columns are crossed by few blocks);
// else 0.
const size_t kMinColumnBlock = 256;
size_t column_block(const Batch& b, const Node& root, intptr_t begin, size_t block_elements);

}  // namespace engine
}  // namespace gufunc
