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

size_t column_block(const Batch& b, const Node& root, intptr_t begin, size_t block_elements) {
  if (root.kind == NodeKind::Gufunc || b.max_width != 1) return 0;
  intptr_t rows = 0;
  for (const Value& v : b.values) {
    if (v.kind != ValueKind::Input || v.node->length <= 1) continue;
    const View& view = v.node->view;
    // (Repetitions, outer()'s rep(x, times = k), are left as they were: their
    // copies are short, and n-body's blocks of them measured no faster.)
    const bool plain_block = view.is_block() && view.column_step != 0 && view.each == 1 &&
                             !view.is_rolled() && !view.is_strided() && view.file_fd < 0 &&
                             !view.copied_only();
    if (!plain_block) continue;  // read in place anyway, or copied whatever the blocks
    if (rows != 0 && view.rows != rows) return 0;
    rows = view.rows;
  }
  const bool fits = rows >= static_cast<intptr_t>(kMinColumnBlock) &&
                    rows <= static_cast<intptr_t>(block_elements);
  return fits && begin % rows == 0 ? static_cast<size_t>(rows) : 0;
}

}  // namespace engine
}  // namespace gufunc
