// Loop iterations per block (see block_iterations.hpp).
#include "engine/block_iterations.hpp"

#include <algorithm>

namespace gufunc {
namespace engine {

size_t block_iterations(const Batch& b, const Node& root, size_t block_elements) {
  intptr_t width = std::max<intptr_t>(b.max_width, 1);
  if (root.kind == NodeKind::Gufunc) {
    intptr_t touched = 0;
    for (int k = 0; k <= static_cast<int>(root.children.size()); ++k) {
      touched += core_length(root, k);
    }
    width = std::max(width, touched);
  }
  return std::max<size_t>(1, block_elements / static_cast<size_t>(width));
}

}  // namespace engine
}  // namespace gufunc
