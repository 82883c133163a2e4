// Products computed a block of rows at a time (see row_blocks.hpp).
#include "engine/row_blocks.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "dispatch/builtin_traits.hpp"

namespace gufunc {
namespace engine {

namespace {
const intptr_t kSplitBytes = intptr_t(64) << 20;     // a first operand larger than this
const intptr_t kRowBlockBytes = intptr_t(32) << 20;  // rows of it read at a time
}  // namespace

bool one_matrix_product(const Node& g, unsigned flag) {
  if (g.kind != NodeKind::Gufunc || g.children.size() != 2 || !g.apply) return false;
  if ((g.function->set_flags(g.match.index) & flag) == 0) return false;
  const ResolvedShape& s = g.apply->shape;
  return s.loop_length == 1 && s.arg_core_sizes.size() >= 3 && s.arg_core_sizes[0].size() == 2 &&
         s.arg_core_sizes[1].size() == 2;
}

bool splits_by_rows(const Node& g) {
  if (!one_matrix_product(g, kRowsIndependent)) return false;
  const Node& a = *g.children[0];
  const Node& b = *g.children[1];
  const View& v = a.view;
  const bool file_view =
      a.kind == NodeKind::Input && v.file_fd >= 0 && v.each == 1 && !v.is_rolled() && a.length > 1;
  const intptr_t stored = v.bytes ? 1 : static_cast<intptr_t>(dtype_size(v.dtype));
  return file_view && a.length > kSplitBytes / stored && b.length <= kSplitBytes / 8;
}

unsigned evaluate_by_rows(const NodePtr& g, char* out, const EvalOptions& options) {
  const ResolvedShape& s = g->apply->shape;
  const intptr_t m = s.arg_core_sizes[0][0], n = s.arg_core_sizes[0][1];
  const intptr_t p = s.arg_core_sizes[1][1];
  const View& a = g->children[0]->view;
  const intptr_t stored = a.bytes ? 1 : static_cast<intptr_t>(dtype_size(a.dtype));
  const size_t es = dtype_size(g->dtype);
  const intptr_t per = std::max<intptr_t>(1, kRowBlockBytes / (std::max<intptr_t>(n, 1) * 8));
  std::vector<char> block;
  unsigned warnings = 0;
  for (intptr_t r0 = 0; r0 < m; r0 += per) {
    const intptr_t rows = std::min(per, m - r0);
    // Rows [r0, r0 + rows) of the first operand: a block view of the same file.
    View v = a;
    const intptr_t first = view_offset(a, r0) * stored;
    v.data += first;
    v.offset += first;
    v.rows = rows;
    v.row_stride = a.is_block() ? a.row_stride : 1;
    v.column_step = a.is_block() ? a.column_step : m;
    v.length = rows * n;
    const NodePtr part =
        make_gufunc(g->function, {make_input(v), g->children[1]}, {{rows, n}, {n, p}}, g->origin);
    block.resize(static_cast<size_t>(rows * p) * es);
    warnings |= evaluate(part, 0, rows * p, block.data(),
                         options_for_part(options, static_cast<double>(r0),
                                          static_cast<double>(rows), static_cast<double>(m)));
    for (intptr_t k = 0; k < p; ++k) {
      std::memcpy(out + static_cast<size_t>(k * m + r0) * es,
                  block.data() + static_cast<size_t>(k * rows) * es,
                  static_cast<size_t>(rows) * es);
    }
  }
  return warnings;
}

}  // namespace engine
}  // namespace gufunc
