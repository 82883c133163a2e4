// rowSums/colSums/rowMeans/colMeans of a graph (see reduce_margin.hpp).
#include "engine/reduce_margin.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <vector>

#include "dispatch/apply.hpp"
#include "engine/mapped_file.hpp"
#include "engine/ordered_sum.hpp"
#include "engine/scratch_buffer.hpp"
#include "kernels/r_summary.hpp"

namespace gufunc {
namespace engine {

namespace {

// Elements computed at a time: 2 MB of doubles, folded while still in cache.
const intptr_t kChunk = intptr_t(1) << 18;
// Elements a parallel task folds at least.
const intptr_t kGrainElements = 8192;
// Rows of a block of rows at least (fewer when there are more columns than
// kChunk / kMinBlockRows: then the value is read in index order).
const intptr_t kMinBlockRows = 256;
// Columns a row's total takes in one go.
const intptr_t kColumnsAtOnce = 8;

// What the results have accumulated: base R's long double totals, the counts a
// mean divides by (with na.rm; colMeans always) and, for columns of integers
// without na.rm, whether an NA ended the column (R stops adding there).
struct Totals {
  std::vector<long double> sum;
  std::vector<int64_t> count;
  std::vector<char> stopped;
};

// R's colSums loop: each value added to the long double straight from memory.
long double add_from_memory(long double s, const double* x, intptr_t m) {
  for (intptr_t i = 0; i < m; ++i) s += x[i];
  return s;
}

// Column j's elements x[0..m) in order, as R's colSums loop (by integer additions
// where they give its bits, ordered_sum.hpp).
void fold_column(const double* x, intptr_t m, bool na_rm, Totals* t, intptr_t j) {
  long double s = t->sum[j];
  if (!na_rm) {
    InOrderHint hint;
    s = add_in_order(s, x, m, &hint, add_from_memory);
    t->count[j] += m;
  } else {
    int64_t c = 0;
    for (intptr_t i = 0; i < m; ++i) {
      if (!std::isnan(x[i])) {
        ++c;
        s += x[i];
      }
    }
    t->count[j] += c;
  }
  t->sum[j] = s;
}

void fold_column(const int* x, intptr_t m, bool na_rm, Totals* t, intptr_t j) {
  if (t->stopped[j]) return;
  long double s = t->sum[j];
  int64_t c = 0;
  for (intptr_t i = 0; i < m; ++i) {
    if (x[i] != INT_MIN) {
      ++c;
      s += x[i];
    } else if (!na_rm) {
      s = rsem::na_real();
      t->stopped[j] = 1;
      break;
    }
  }
  t->count[j] += c;
  t->sum[j] = s;
}

// Rows [first, first + m) of k columns (column g's rows at x + g * step) added to
// the rows' totals column after column, as R's rowSums loop adds them; a total
// stays in a register across the k columns (the same long double additions, one
// load and store of it instead of k).
void fold_rows(const double* x, intptr_t step, intptr_t k, intptr_t first, intptr_t m, bool na_rm,
               bool counts, Totals* t) {
  long double* ra = t->sum.data() + first;
  for (intptr_t i = 0; i < m; ++i) {
    const double* xi = x + i;
    long double s = ra[i];
    if (!na_rm) {
      for (intptr_t g = 0; g < k; ++g) s += xi[g * step];
    } else {
      int64_t c = 0;
      for (intptr_t g = 0; g < k; ++g) {
        if (!std::isnan(xi[g * step])) {
          s += xi[g * step];
          ++c;
        }
      }
      if (counts) t->count[first + i] += c;
    }
    ra[i] = s;
  }
}

void fold_rows(const int* x, intptr_t step, intptr_t k, intptr_t first, intptr_t m, bool na_rm,
               bool counts, Totals* t) {
  long double* ra = t->sum.data() + first;
  for (intptr_t i = 0; i < m; ++i) {
    const int* xi = x + i;
    long double s = ra[i];
    int64_t c = 0;
    for (intptr_t g = 0; g < k; ++g) {
      const int v = xi[g * step];
      if (v != INT_MIN) {
        s += v;
        ++c;
      } else if (!na_rm) {
        s = rsem::na_real();
      }
    }
    ra[i] = s;
    if (counts) t->count[first + i] += c;
  }
}

// Folds elements [e0, e1) of the value, at `data`, into the totals: columns
// spread over the runner's threads, each folded by one of them; or, for rows,
// rows spread over them, each task adding the chunk's columns to its rows.
template <class T>
void fold_chunk(const MarginReduction& r, const T* data, intptr_t e0, intptr_t e1, Runner* runner,
                Totals* t) {
  const intptr_t j0 = e0 / r.n, j1 = (e1 - 1) / r.n + 1;  // columns met
  if (!r.rows) {
    const size_t grain = static_cast<size_t>(std::max<intptr_t>(1, kGrainElements / r.n));
    runner->parallel_for(static_cast<size_t>(j1 - j0), grain, [&](size_t a, size_t b) {
      for (intptr_t j = j0 + static_cast<intptr_t>(a); j < j0 + static_cast<intptr_t>(b); ++j) {
        const intptr_t lo = std::max(e0, j * r.n), hi = std::min(e1, (j + 1) * r.n);
        fold_column(data + (lo - e0), hi - lo, r.na_rm, t, j);
      }
    });
    return;
  }
  const size_t grain = static_cast<size_t>(std::max<intptr_t>(1, kGrainElements / (j1 - j0)));
  runner->parallel_for(static_cast<size_t>(r.n), grain, [&](size_t a, size_t b) {
    const intptr_t r0 = static_cast<intptr_t>(a), r1 = static_cast<intptr_t>(b);
    for (intptr_t j = j0; j < j1; ++j) {
      const intptr_t lo = std::max(e0, j * r.n + r0), hi = std::min(e1, j * r.n + r1);
      if (lo < hi) {
        fold_rows(data + (lo - e0), 0, 1, lo - j * r.n, hi - lo, r.na_rm, r.mean && r.na_rm, t);
      }
    }
  });
}

// Folds rows [i0, i0 + m) of every column into the totals; column j's part is at
// data + j * column_step. Rows spread over the runner's threads, so each thread's
// totals stay in its cache while it adds the columns.
template <class T>
void fold_row_block(const MarginReduction& r, const T* data, intptr_t column_step, intptr_t i0,
                    intptr_t m, Runner* runner, Totals* t) {
  const size_t grain = static_cast<size_t>(std::max<intptr_t>(1, kGrainElements / r.p));
  runner->parallel_for(static_cast<size_t>(m), grain, [&](size_t a, size_t b) {
    const intptr_t r0 = static_cast<intptr_t>(a), count = static_cast<intptr_t>(b - a);
    for (intptr_t j = 0; j < r.p; j += kColumnsAtOnce) {
      fold_rows(data + j * column_step + r0, column_step, std::min(kColumnsAtOnce, r.p - j),
                i0 + r0, count, r.na_rm, r.mean && r.na_rm, t);
    }
  });
}

// A value read where it is: memory of consecutive elements. Not a mapped file's,
// which evaluate() reads with pread(), so that a file cut short while it runs is an
// error, not a bus error.
const char* in_memory(const Node& root) {
  const View& v = root.view;
  const bool consecutive = !v.is_block() && v.each == 1 && !v.copied_only() && v.file_fd < 0;
  return root.kind == NodeKind::Input && consecutive && root.length > 1 ? v.data : nullptr;
}

}  // namespace

unsigned reduce_margin(const NodePtr& root, const MarginReduction& r, double* out,
                       const EvalOptions& options) {
  const gufunc_dtype type = root->dtype;
  if (r.n < 0 || r.p < 0 || (r.n > 0 && r.p > root->length / r.n) || r.n * r.p != root->length ||
      (type != GUFUNC_DOUBLE && type != GUFUNC_INTEGER && type != GUFUNC_LOGICAL)) {
    throw Error("gufunc_internal_error", "a margin reduction of another shape or type");
  }
  SerialRunner serial;
  Runner* runner = options.runner != nullptr ? options.runner : &serial;
  const size_t results = static_cast<size_t>(r.results());
  Totals t;
  t.sum.assign(results, 0.0L);
  if (!r.rows || (r.mean && r.na_rm)) t.count.assign(results, 0);
  if (!r.rows) t.stopped.assign(results, 0);

  const size_t es = dtype_size(type);
  const char* memory = in_memory(*root);
  ScratchBuffer scratch;
  unsigned warnings = 0;
  auto fold = [&](const char* data, auto fold_typed) {
    if (type == GUFUNC_DOUBLE) {
      fold_typed(reinterpret_cast<const double*>(data));
    } else {
      fold_typed(reinterpret_cast<const int*>(data));
    }
  };
  // Chunks are folded in order, a round of them at a time (dispatch/rounds.hpp).
  auto in_rounds = [&](intptr_t chunks, auto fold_chunk_at) {
    run_in_rounds(static_cast<size_t>(chunks), 1, 1, options.hooks, nullptr,
                  [&](size_t from, size_t to) {
                    for (size_t k = from; k < to; ++k) {
                      fold_chunk_at(static_cast<intptr_t>(k));
                      // A file's pages leave once folded (every 16 chunks: 32 MB).
                      if (k % 16 == 15) release_mapped_pages();
                    }
                  });
  };
  if (root->length == 0) {
    // Nothing to add: sums 0, means 0 / 0.
  } else if (r.rows && r.p <= kChunk / kMinBlockRows) {
    // Blocks of rows across all columns: each block's totals are added in cache.
    const intptr_t block = kChunk / std::max<intptr_t>(r.p, 1);
    in_rounds((r.n + block - 1) / block, [&](intptr_t k) {
      const intptr_t i0 = k * block;
      const intptr_t m = std::min(block, r.n - i0);
      const char* data = memory ? memory + i0 * static_cast<intptr_t>(es) : nullptr;
      intptr_t column_step = r.n;
      if (memory == nullptr) {
        std::vector<Run> runs;
        for (intptr_t j = 0; j < r.p; ++j) runs.push_back({j * r.n + i0, j * r.n + i0 + m});
        scratch.resize(static_cast<size_t>(m * r.p) * es);
        warnings |= evaluate_runs(root, runs, scratch.data(), options);
        data = scratch.data();
        column_step = m;
      }
      fold(data,
           [&](const auto* typed) { fold_row_block(r, typed, column_step, i0, m, runner, &t); });
    });
  } else {
    // In index order, a chunk at a time: whole columns where one fits, so that the
    // evaluation reads views of columns in place (outer()'s operands in rowSums(f *
    // dx); block_iterations.hpp).
    const intptr_t chunk = r.n > 0 && r.n <= kChunk ? kChunk / r.n * r.n : kChunk;
    in_rounds((root->length + chunk - 1) / chunk, [&](intptr_t k) {
      const intptr_t e0 = k * chunk;
      const intptr_t e1 = std::min(root->length, e0 + chunk);
      const char* data = memory ? memory + e0 * static_cast<intptr_t>(es) : nullptr;
      if (memory == nullptr) {
        scratch.resize(static_cast<size_t>(e1 - e0) * es);
        warnings |= evaluate(root, e0, e1, scratch.data(), options);
        data = scratch.data();
      }
      fold(data, [&](const auto* typed) { fold_chunk(r, typed, e0, e1, runner, &t); });
    });
  }

  for (size_t i = 0; i < results; ++i) {
    long double s = t.sum[i];
    if (r.mean) {
      // R divides by the count of values added (rowMeans without na.rm: by p).
      const long double divisor =
          r.rows && !r.na_rm ? static_cast<long double>(r.p) : static_cast<long double>(t.count[i]);
      s /= divisor;
    }
    out[i] = static_cast<double>(s);
  }
  return warnings;
}

}  // namespace engine
}  // namespace gufunc
