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

}  // namespace engine
}  // namespace gufunc
