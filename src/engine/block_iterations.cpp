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
    if (view.is_rolled() || view.is_strided() || view.file_fd >= 0 || view.copied_only()) {
      continue;  // copied whatever the blocks
    }
    // A block (m[i:j, k:l]; rep(x, times = k), outer()'s row operand, when its
    // columns are the same) has columns of `rows` elements; rep(x, each = k),
    // outer()'s column operand, runs of k copies of one element, read as a scalar.
    intptr_t period = 0;
    if (view.is_block() && view.each == 1) {
      period = view.rows;
    } else if (!view.is_block() && view.each > 1) {
      period = view.each;
    }
    if (period == 0) continue;  // in place anyway, or copied whatever the blocks
    if (rows != 0 && period != rows) return 0;
    rows = period;
  }
  const bool fits = rows >= static_cast<intptr_t>(kMinColumnBlock) &&
                    rows <= static_cast<intptr_t>(block_elements);
  return fits && begin % rows == 0 ? static_cast<size_t>(rows) : 0;
}

}  // namespace engine
}  // namespace gufunc
