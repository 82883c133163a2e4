// Products computed a block of their shared dim at a time (see contraction_blocks.hpp).
#include "engine/contraction_blocks.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "dispatch/builtin_traits.hpp"
#include "engine/gufunc_step.hpp"
#include "engine/row_blocks.hpp"
#include "engine/scratch_buffer.hpp"
#include "kernels/r_summary.hpp"

namespace gufunc {
namespace engine {

namespace {
const intptr_t kSplitBytes = intptr_t(64) << 20;      // operands larger than this together
const intptr_t kBlockBytes = intptr_t(32) << 20;      // of them read at a time
const intptr_t kMaxBlockBytes = intptr_t(256) << 20;  // a block with the sums carried
// Blocks of at least this many times the p prepended terms: those cost at most an
// eighth more work.
const intptr_t kMinTermsPerCarried = 8;

// Terms of the shared dim per block for an m x p product.
double block_terms(double m, double p) {
  return std::max(std::floor(static_cast<double>(kBlockBytes) / ((m + p) * 8)),
                  kMinTermsPerCarried * p);
}

// An operand read from memory or a file: doubles, or integers and logicals that
// matmul reads as doubles (as R's as.double()).
bool input_operand(const Node& a) {
  return a.kind == NodeKind::Input &&
         (a.dtype == GUFUNC_DOUBLE || a.dtype == GUFUNC_INTEGER || a.dtype == GUFUNC_LOGICAL);
}

// Elements [begin, end) of input `a` as doubles into `out`.
void read_doubles(const Node& a, intptr_t begin, intptr_t end, double* out) {
  if (a.dtype == GUFUNC_DOUBLE) {
    read_view(a.view, begin, end, reinterpret_cast<char*>(out));
    return;
  }
  std::vector<int> values(static_cast<size_t>(end - begin));
  read_view(a.view, begin, end, reinterpret_cast<char*>(values.data()));
  rsem::ints_to_doubles(reinterpret_cast<const char*>(values.data()), sizeof(int), end - begin,
                        out);
}

// A view of `length` doubles at `data`, in memory of the evaluation's own.
NodePtr memory_input(const double* data, intptr_t length) {
  View v;
  v.data = reinterpret_cast<const char*>(data);
  v.dtype = GUFUNC_DOUBLE;
  v.length = length;
  v.buffer = data;
  return make_input(v);
}

bool all_finite(const double* x, intptr_t n) {
  for (intptr_t i = 0; i < n; ++i) {
    if (!std::isfinite(x[i])) return false;
  }
  return true;
}
}  // namespace

bool splits_by_contraction(const Node& g) {
  if (!one_matrix_product(g, kSumsInIndexOrder)) return false;
  const ResolvedShape& s = g.apply->shape;
  const Node& a = *g.children[0];
  const Node& b = *g.children[1];
  if (!input_operand(a) || !input_operand(b) || (a.view.file_fd < 0 && b.view.file_fd < 0)) {
    return false;
  }
  const double m = static_cast<double>(s.arg_core_sizes[0][0]);
  const double n = static_cast<double>(s.arg_core_sizes[0][1]);
  const double p = static_cast<double>(s.arg_core_sizes[1][1]);
  // (In doubles, so that no size computed here overflows.)
  const bool fits = n * (m + p) * 8 > static_cast<double>(kSplitBytes) && n > block_terms(m, p) &&
                    (m + p) * (p + block_terms(m, p)) * 8 <= static_cast<double>(kMaxBlockBytes);
  // Blocks of a first operand's columns are runs of its file, read in one pread()
  // each; blocks of its rows are one short run per column (one read per column, far
  // apart on a disk: matmul(m, v) of a cold 763 MB file took 18 s by rows). A
  // transposed one (t(x)) is the other way round: blocks of rows (row_blocks.hpp).
  return fits && (a.view.row_stride == 1 || !splits_by_rows(g));
}

bool evaluate_by_contraction(const NodePtr& g, char* out, const EvalOptions& options,
                             unsigned* warnings) {
  const ResolvedShape& s = g->apply->shape;
  const intptr_t m = s.arg_core_sizes[0][0], n = s.arg_core_sizes[0][1];
  const intptr_t p = s.arg_core_sizes[1][1];
  const Node& a = *g->children[0];
  const Node& b = *g->children[1];
  const intptr_t per =
      static_cast<intptr_t>(block_terms(static_cast<double>(m), static_cast<double>(p)));
  double* sums = reinterpret_cast<double*>(out);
  ScratchBuffer left, right;  // [C | A_b] (m x (q + k)) and [I ; B_b] ((q + k) x p)
  for (intptr_t j0 = 0; j0 < n; j0 += per) {
    const intptr_t k = std::min(per, n - j0);
    const intptr_t q = j0 == 0 ? 0 : p;  // the sums so far, from the second block on
    if (q > 0 && !all_finite(sums, m * p)) return false;
    left.resize(static_cast<size_t>(m * (q + k)) * sizeof(double));
    right.resize(static_cast<size_t>((q + k) * p) * sizeof(double));
    note_buffer(left.size());
    note_buffer(right.size());
    double* l = reinterpret_cast<double*>(left.data());
    double* r = reinterpret_cast<double*>(right.data());
    std::memcpy(l, sums, static_cast<size_t>(m * q) * sizeof(double));
    // Columns j0 .. j0 + k - 1 of A are its elements j0 * m onwards.
    read_doubles(a, j0 * m, (j0 + k) * m, l + m * q);
    for (intptr_t c = 0; c < p; ++c) {
      double* column = r + c * (q + k);
      for (intptr_t i = 0; i < q; ++i) column[i] = i == c ? 1.0 : 0.0;
      read_doubles(b, c * n + j0, c * n + j0 + k, column + q);
    }
    // The right operand's p columns as p loop iterations (its layout is the same): the
    // threads share them, each column summed in the same order as in one iteration.
    const NodePtr part =
        make_gufunc(g->function, {memory_input(l, m * (q + k)), memory_input(r, (q + k) * p)},
                    {{m, q + k}, {q + k, 1, p}}, g->origin);
    *warnings |= evaluate(part, 0, m * p, out,
                          options_for_part(options, static_cast<double>(j0), static_cast<double>(k),
                                           static_cast<double>(n)));
  }
  return true;
}

}  // namespace engine
}  // namespace gufunc
