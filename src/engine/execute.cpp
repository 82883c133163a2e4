// Blocked, threaded execution of batches (see evaluate.hpp).
#include <algorithm>
#include <climits>
#include <cstring>

#include "dispatch/apply.hpp"
#include "engine/assign.hpp"
#include "engine/batch.hpp"
#include "engine/block_iterations.hpp"
#include "engine/block_runner.hpp"
#include "engine/block_size.hpp"
#include "engine/contraction_blocks.hpp"
#include "engine/evaluate.hpp"
#include "engine/mapped_file.hpp"
#include "engine/mapped_guard.hpp"
#include "engine/mirrored_writes.hpp"
#include "engine/reduce_kernel.hpp"
#include "engine/row_blocks.hpp"
#include "engine/scan_kernel.hpp"
#include "engine/shared_views.hpp"
#include "engine/staged_values.hpp"
#include "kernels/r_summary.hpp"

namespace gufunc {
namespace engine {

namespace {

// Elements per thread in the first round of blocks: small enough that a long chain
// of operations still ends it in tens of milliseconds, large enough that a cheap
// evaluation of this size is one round.
const size_t kFirstRoundElements = size_t(1) << 17;
// Elements each thread reads from files between two releases of their pages, over
// all the files it reads (32 MB of doubles): bounds what the mappings keep resident.
const intptr_t kMappedPieceElements = intptr_t(1) << 22;

// Calls run_round(from, to) for rounds of blocks (each touching `block_touched`
// elements) covering [0, nblocks), sized by time (dispatch/rounds.hpp) from a first
// round of at least a block per thread, with the interrupt check and progress report
// between rounds. While files are mapped, a round runs in pieces in which each
// thread reads about kMappedPieceElements elements of the `file_streams` files, each
// followed by release_mapped_pages(): the pages the blocks touched leave the
// process, so resident memory does not grow with the files.
template <class RunRound>
void in_rounds(size_t nblocks, size_t block_touched, size_t file_streams, int threads,
               const EvalOptions& options, const WorkerOutcome& outcome, RunRound run_round) {
  const size_t first =
      std::max<size_t>(1, kFirstRoundElements / block_touched) * static_cast<size_t>(threads);
  const bool mapped = any_mapped_file();
  const uint64_t faults = mapped_read_faults();  // a file cut short: moves (mapped_guard.hpp)
  auto cut = [&] { return mapped && mapped_read_faults() != faults; };
  const size_t piece = std::max<size_t>(1, static_cast<size_t>(kMappedPieceElements) /
                                               std::max<size_t>(file_streams, 1) / block_touched) *
                       static_cast<size_t>(threads);
  run_in_rounds(
      nblocks, first, static_cast<size_t>(threads), options.hooks,
      [&] { return outcome.failed.load() || cut(); },
      [&](size_t from, size_t to) {
        if (!mapped) return run_round(from, to);
        for (size_t a = from; a < to && !outcome.failed.load() && !cut(); a += piece) {
          run_round(a, std::min(to, a + piece));
          release_mapped_pages();
        }
      });
  if (cut()) file_cut_short();  // what was read past the cut were zeros
}

// Runs every kernel of `b` over iterations [begin, end): blocks spread over threads
// in rounds, with an interrupt check between rounds. A trailing Reduce instruction
// is folded into `fold` (twice for base R's mean, unless `one_pass`: the caller
// runs the second pass), a trailing Scan into `scan`.
void run_batch(const Batch& b, const Node& root, intptr_t begin, intptr_t end, char* out,
               const EvalOptions& options, Fold* fold, ScanTarget* scan, WorkerOutcome* outcome,
               bool one_pass = false) {
  // Blocks are sized in elements; a block of a gufunc batch holds whole iterations.
  const size_t width = static_cast<size_t>(std::max<intptr_t>(b.max_width, 1));
  const size_t elements = batch_block_elements(b, options.block_size);
  const size_t column = column_block(b, root, begin, elements);
  const size_t block = column > 0 ? column : block_iterations(b, root, elements);
  // Elements a block touches, for the first round's size: about `elements`, more
  // when one iteration alone is larger.
  const size_t touched = std::max(elements, block * width);
  const size_t files = batch_file_streams(b);
  const intptr_t n = end - begin;
  std::vector<ScratchBuffer> temps(static_cast<size_t>(b.temps));
  for (auto& t : temps) {
    t.resize(static_cast<size_t>(n) * width * sizeof(double));
    note_buffer(t.size());
  }
  const BlockRunner runner(b, begin, out, &temps, block);
  const size_t nblocks = n <= 0 ? 0 : (static_cast<size_t>(n) + block - 1) / block;
  Runner* threads = options.runner;
  const int nthreads = threads ? threads->threads() : 1;

  for (size_t k = 0; k < b.kernel_starts.size(); ++k) {
    const size_t first = b.kernel_starts[k];
    const size_t last = k + 1 < b.kernel_starts.size() ? b.kernel_starts[k + 1] : b.code.size();
    if (fold != nullptr && last == b.code.size()) {
      ReduceKernel kernel(b, runner, first, begin, end, nthreads, fold, !one_pass);
      do {
        in_rounds(nblocks, touched, files, nthreads, options, *outcome,
                  [&](size_t from, size_t to) { kernel.run_blocks(threads, from, to, outcome); });
      } while (!one_pass && !outcome->failed && fold->reducer.start_next_pass(&fold->state));
      continue;
    }
    if (scan != nullptr && last == b.code.size()) {
      ScanKernel kernel(b, runner, first, begin, end, nthreads, scan);
      in_rounds(nblocks, touched, files, nthreads, options, *outcome,
                [&](size_t from, size_t to) { kernel.run_blocks(threads, from, to, outcome); });
      continue;
    }
    // The root's blocks, once computed by the last kernel, stored a second time.
    MirroredWrites* mirror =
        last == b.code.size() && root.kind == NodeKind::Map ? mirror_of(root) : nullptr;
    const size_t es = dtype_size(root.dtype);
    auto body = [&](size_t from, size_t to) {
      for (size_t blk = from; blk < to && !outcome->failed.load(std::memory_order_relaxed); ++blk) {
        const intptr_t pos = begin + static_cast<intptr_t>(blk * block);
        const intptr_t len = std::min<intptr_t>(static_cast<intptr_t>(block), end - pos);
        if (run_block(runner, first, last, pos, len, outcome) == nullptr) break;
        if (mirror != nullptr)
          mirror->store(pos, pos + len, out + static_cast<size_t>(pos - begin) * es);
      }
    };
    in_rounds(nblocks, touched, files, nthreads, options, *outcome, [&](size_t from, size_t to) {
      if (nthreads <= 1 || to - from == 1 || threads == nullptr) {
        body(from, to);
      } else {
        threads->parallel_for(to - from, 1, [&](size_t s, size_t e) { body(from + s, from + e); });
      }
    });
  }
}

// `options` without the checks between rounds where `root`'s blocks are stored into
// a vector as they are computed (mirrored_writes.hpp): an interrupt, or R code of a
// progress report that jumps, would leave the vector half written.
EvalOptions unstoppable_if_mirrored(const Node& root, const EvalOptions& options) {
  EvalOptions out = options;
  if (mirror_of(root) != nullptr) out.hooks = RoundHooks();
  return out;
}

void check(WorkerOutcome& outcome) {
  if (!outcome.failed) return;
  const std::string& cls = outcome.condition_class;
  throw Error(cls.empty() ? "gufunc_kernel_error" : cls, outcome.message);
}

// Runs the batch of `root` over positions [from, to) into `out` (elements, or loop
// iterations when `root` is a gufunc); returns the warning bits.
unsigned run_root(const NodePtr& root, intptr_t from, intptr_t to, char* out,
                  const EvalOptions& given) {
  const EvalOptions options = unstoppable_if_mirrored(*root, given);
  keep_reused(*root, options);
  Batch b = build_batch(*root, out);
  unsigned warnings = resolve_reductions(&b, options);
  WorkerOutcome outcome;
  warnings |= run_staged_in_chunks(&b, from, to, options, [&](intptr_t c0, intptr_t c1) {
    // (A chunk writes its part of `out`: a gufunc's output is iterations * width.)
    const intptr_t width = b.result >= 0 ? std::max<intptr_t>(b.values[b.result].width, 1) : 1;
    const size_t skip = static_cast<size_t>((c0 - from) * width) * dtype_size(root->dtype);
    run_batch(b, *root, c0, c1, out + skip, options, nullptr, nullptr, &outcome);
    check(outcome);
  });
  return warnings | outcome.warnings.load();
}

// Elements [begin, end) of gufunc node `root`: the loop iterations holding them run,
// straight into `out` when the range is whole iterations.
unsigned evaluate_gufunc(const NodePtr& root, intptr_t begin, intptr_t end, char* out,
                         const EvalOptions& options) {
  if (begin == end) return 0;
  const intptr_t core = core_length(*root, static_cast<int>(root->children.size()));
  const intptr_t i0 = begin / core, i1 = (end + core - 1) / core;
  const size_t es = dtype_size(root->dtype);
  ScratchBuffer whole;
  char* target = out;
  if (begin != i0 * core || end != i1 * core) {
    whole.resize(static_cast<size_t>((i1 - i0) * core) * es);
    target = whole.data();
  }
  unsigned warnings = 0;
  const bool one = i0 == 0 && i1 == 1;
  // A long file: a block of the shared dim at a time; else (a transposed file, or a
  // sum so far that is not finite) a block of rows at a time.
  const bool by_shared_dim = one && splits_by_contraction(*root) &&
                             evaluate_by_contraction(root, target, options, &warnings);
  if (!by_shared_dim && one && splits_by_rows(*root)) {
    warnings |= evaluate_by_rows(root, target, options);
  } else if (!by_shared_dim) {
    warnings |= run_root(root, i0, i1, target, options);
  }
  if (target != out) {
    std::memcpy(out, target + static_cast<size_t>(begin - i0 * core) * es,
                static_cast<size_t>(end - begin) * es);
  }
  return warnings;
}

// Elements [begin, end) of scan node `root`: its input is computed and carried
// through from the first element (each value depends on all before it), or from
// where the last evaluation ended when that is not after `begin`, and the values
// from `begin` on are written.
unsigned evaluate_scan(const NodePtr& root, intptr_t begin, intptr_t end, char* out,
                       const EvalOptions& options) {
  if (begin == end) return 0;
  const Scanner scanner(root->scan, root->children[0]->dtype);
  ScanTarget target{scanner, scanner.start(), out, begin};
  intptr_t from = 0;
  const std::shared_ptr<ScanCheckpoint> saved = root->checkpoint;
  if (saved && saved->end <= begin) {
    from = saved->end;
    target.state = saved->state;
    target.state.warnings = 0;  // raised by the evaluation that met them
  }
  keep_reused(*root, options);
  Batch b = build_batch(*root, nullptr);
  unsigned warnings = resolve_reductions(&b, options);
  warnings |= resolve_staged(&b, from, end, options);
  WorkerOutcome outcome;
  run_batch(b, *root, from, end, nullptr, options, nullptr, &target, &outcome);
  check(outcome);
  auto reached = std::make_shared<ScanCheckpoint>();
  reached->end = end;
  reached->state = target.state;
  root->checkpoint = std::move(reached);
  return warnings | outcome.warnings.load() | target.state.warnings;
}

// A copy of at least this many bytes of values in memory is split between the
// threads: one thread's memcpy reaches about half the machine's bandwidth, and
// copying the values whole is what a fallback's subassignment costs (a chain of
// writes on an input, computed into base R's copy).
const size_t kThreadedCopyBytes = size_t(1) << 20;

// Copies elements [begin, end) of in-memory `view` to `out` on the runner's threads;
// false (nothing copied) when the copy is too small or there is one thread.
bool copy_on_threads(const View& view, intptr_t begin, intptr_t end, char* out,
                     const EvalOptions& options) {
  const size_t es = dtype_size(view.dtype);
  const int threads = options.runner != nullptr ? options.runner->threads() : 1;
  if (threads < 2 || static_cast<size_t>(end - begin) * es < kThreadedCopyBytes) return false;
  const size_t parts = static_cast<size_t>(threads);
  const intptr_t each =
      (end - begin + static_cast<intptr_t>(parts) - 1) / static_cast<intptr_t>(parts);
  options.runner->parallel_for(parts, 1, [&](size_t from, size_t to) {
    for (size_t k = from; k < to; ++k) {
      const intptr_t a = begin + static_cast<intptr_t>(k) * each;
      const intptr_t b = std::min(end, a + each);
      if (a < b) read_view(view, a, b, out + static_cast<size_t>(a - begin) * es);
    }
  });
  return true;
}

}  // namespace

unsigned evaluate(const NodePtr& root, intptr_t begin, intptr_t end, char* out,
                  const EvalOptions& options) {
  if (root->kind == NodeKind::Reduce) {
    throw Error("gufunc_internal_error", "evaluate() of a reduction: use reduce()");
  }
  if (begin < 0 || end > root->length || begin > end) {
    throw Error("gufunc_internal_error", "evaluation range outside the value");
  }
  const size_t es = dtype_size(root->dtype);
  if (root->kept) {
    std::memcpy(out, root->kept->data + begin * static_cast<intptr_t>(es),
                static_cast<size_t>(end - begin) * es);
    return root->kept->warnings;
  }
  if (root->kind == NodeKind::Input) {
    if (root->view.file_fd < 0 && copy_on_threads(root->view, begin, end, out, options)) return 0;
    // From a file: in pieces, whose pages leave the process once copied.
    const intptr_t piece = any_mapped_file() ? kMappedPieceElements : end - begin;
    for (intptr_t a = begin; a < end; a += piece) {
      const intptr_t b = std::min(end, a + piece);
      read_view(root->view, a, b, out + static_cast<size_t>(a - begin) * es);
      if (b < end) release_mapped_pages();
    }
    return 0;
  }
  if (root->kind == NodeKind::Scalar) {
    const void* src = root->dtype == GUFUNC_DOUBLE ? static_cast<const void*>(&root->scalar_double)
                                                   : static_cast<const void*>(&root->scalar_int);
    for (intptr_t i = begin; i < end; ++i) std::memcpy(out + (i - begin) * es, src, es);
    return 0;
  }
  if (root->kind == NodeKind::Gufunc) return evaluate_gufunc(root, begin, end, out, options);
  if (root->kind == NodeKind::Assign) return evaluate_assign(root, {{begin, end}}, out, options);
  if (root->kind == NodeKind::Scan) return evaluate_scan(root, begin, end, out, options);
  return run_root(root, begin, end, out, options);
}

unsigned evaluate_runs(const NodePtr& root, const std::vector<Run>& runs, char* out,
                       const EvalOptions& given) {
  const EvalOptions options = unstoppable_if_mirrored(*root, given);
  for (const Run& r : runs) {
    if (r.begin < 0 || r.end > root->length || r.begin > r.end) {
      throw Error("gufunc_internal_error", "evaluation range outside the value");
    }
  }
  const size_t es = dtype_size(root->dtype);
  if (root->kept) {
    for (const Run& r : runs) {
      std::memcpy(out, root->kept->data + r.begin * static_cast<intptr_t>(es),
                  static_cast<size_t>(r.end - r.begin) * es);
      out += static_cast<size_t>(r.end - r.begin) * es;
    }
    return root->kept->warnings;
  }
  if (root->kind == NodeKind::Assign) return evaluate_assign(root, runs, out, options);
  unsigned warnings = 0;
  if (root->kind == NodeKind::Map) keep_reused(*root, options);
  // Staged values (nested gufuncs) are computed for one range: go run by run.
  Batch b;
  const bool one_batch =
      root->kind == NodeKind::Map && (b = build_batch(*root, out)).staged.empty();
  if (one_batch) warnings |= resolve_reductions(&b, options);
  for (const Run& r : runs) {
    if (one_batch) {
      WorkerOutcome outcome;
      run_batch(b, *root, r.begin, r.end, out, options, nullptr, nullptr, &outcome);
      check(outcome);
      warnings |= outcome.warnings.load();
    } else {
      warnings |= evaluate(root, r.begin, r.end, out, options);
    }
    out += static_cast<size_t>(r.end - r.begin) * es;
  }
  return warnings;
}

ReduceResult reduce(const NodePtr& node, const EvalOptions& options) {
  if (node->kind != NodeKind::Reduce) {
    throw Error("gufunc_internal_error", "reduce() of a node that is not a reduction");
  }
  const Node& child = *node->children[0];
  keep_reused(*node, options);
  Batch b = build_batch(*node, nullptr);
  unsigned warnings = resolve_reductions(&b, options);
  const Reducer reducer(node->reduction, node->na_rm, child.dtype, options.sum_order);
  Fold fold{reducer, reducer.start()};
  WorkerOutcome outcome;
  if (child.kind != NodeKind::Scalar) {
    // In chunks, each pass goes over all of them (base R's mean makes two); in one
    // range, the kernel makes both passes and may keep the values in between.
    const bool chunked = staged_chunk(b, child.length) > 0;
    do {
      warnings |= run_staged_in_chunks(&b, 0, child.length, options, [&](intptr_t c0, intptr_t c1) {
        run_batch(b, *node, c0, c1, nullptr, options, &fold, nullptr, &outcome, chunked);
        check(outcome);
      });
    } while (chunked && fold.reducer.start_next_pass(&fold.state));
  } else {
    const char* data = child.dtype == GUFUNC_DOUBLE
                           ? reinterpret_cast<const char*>(&child.scalar_double)
                           : reinterpret_cast<const char*>(&child.scalar_int);
    do {
      reducer.fold(data, 1, 0, 0, &fold.state);
    } while (reducer.start_next_pass(&fold.state));
  }
  ReduceResult r = reducer.finish(*node, fold.state);
  r.warnings |= warnings | outcome.warnings.load();
  return r;
}

}  // namespace engine
}  // namespace gufunc
