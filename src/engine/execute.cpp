// Blocked, threaded execution of batches (see evaluate.hpp).
#include <algorithm>
#include <atomic>
#include <cfloat>
#include <chrono>
#include <climits>
#include <cstring>
#include <memory>
#include <mutex>

#include "dispatch/apply.hpp"
#include "engine/batch.hpp"
#include "engine/block_size.hpp"
#include "engine/evaluate.hpp"
#include "engine/gufunc_step.hpp"
#include "engine/reduce_ops.hpp"
#include "kernels/r_summary.hpp"

namespace gufunc {
namespace engine {

namespace {

// Blocks are spread over threads in rounds with an interrupt check between them.
// The first round gives each thread 2^20 elements (at least 16 blocks); a round
// that ends within kQuickRound makes the next four times larger. Cheap kernels so
// run in a few rounds (each round is a barrier where a thread may wait for the
// other), and expensive ones still stop well within half a second of Ctrl-C.
const size_t kElementsPerRound = size_t(1) << 20;
const size_t kMinBlocksPerRound = 16;
const std::chrono::milliseconds kQuickRound(20);

// This thread's block scratch, grown as needed and kept between calls: tasks are
// small, so allocating (and zeroing) registers per task would cost more than them.
char* thread_scratch(size_t bytes) {
  thread_local std::unique_ptr<double[]> buffer;
  thread_local size_t capacity = 0;
  if (capacity < bytes) {
    buffer.reset(new double[(bytes + sizeof(double) - 1) / sizeof(double)]);
    capacity = bytes;
  }
  return reinterpret_cast<char*>(buffer.get());
}

// Everything a worker needs to run instructions on a block of iterations.
class BlockRunner {
 public:
  BlockRunner(const Batch& b, intptr_t begin, char* out, std::vector<std::vector<char>>* temps,
              size_t block)
      : b_(b), begin_(begin), out_(out), temps_(*temps), block_(block) {
    register_elements_ = block * static_cast<size_t>(std::max<intptr_t>(b.max_width, 1));
    for (const Instruction& ins : b.code) {
      steps_.push_back(ins.op == Op::Gufunc ? std::make_unique<GufuncStep>(*ins.node) : nullptr);
    }
  }

  size_t block() const { return block_; }
  size_t register_bytes() const { return register_elements_ * sizeof(double); }

  // Runs instructions [first, last) on iterations [pos, pos + n) with `scratch` as
  // this thread's registers. Returns 0, or -1 with ctx set and *failed the failing
  // instruction.
  int run(size_t first, size_t last, intptr_t pos, intptr_t n, char* scratch, gufunc_context* ctx,
          size_t* failed) const {
    for (size_t i = first; i < last; ++i) {
      const Instruction& ins = b_.code[i];
      if (ins.op == Op::Reduce) continue;  // reductions are folded by the caller
      *failed = i;
      if (ins.op == Op::Gufunc) {
        if (run_gufunc(i, pos, n, scratch, ctx) != 0) return -1;
        continue;
      }
      // Element-wise: `width` elements per iteration.
      const intptr_t at = pos * ins.width, count = n * ins.width;
      char* args[GUFUNC_MAX_ARGS + 1];
      intptr_t steps[GUFUNC_MAX_ARGS + 1];
      size_t k = 0;
      for (int a : ins.args) {
        args[k] = pointer(a, at, scratch, &steps[k]);
        ++k;
      }
      args[k] = pointer(ins.out, at, scratch, &steps[k]);
      if (ins.op == Op::Cast) {
        cast_to_double(args[0], steps[0], reinterpret_cast<double*>(args[1]), count);
        continue;
      }
      if (call_kernel(*ins.node, args, steps, count, ctx) != 0) return -1;
    }
    return 0;
  }

  // The error a failure of instruction i becomes.
  std::string failure(size_t i, const gufunc_context& ctx) const {
    if (i < steps_.size() && steps_[i]) return steps_[i]->failure(ctx);
    return std::string("kernel failed: ") + ctx.msg;
  }

  // Where value v's elements [pos, ...) are, and their step.
  char* pointer(int v, intptr_t pos, char* scratch, intptr_t* step) const {
    const Value& val = b_.values[v];
    const intptr_t es = static_cast<intptr_t>(dtype_size(val.dtype));
    *step = es;
    switch (val.kind) {
      case ValueKind::Constant:
      case ValueKind::Reduced:
        *step = 0;
        return const_cast<char*>(val.dtype == GUFUNC_DOUBLE
                                     ? reinterpret_cast<const char*>(&val.c_double)
                                     : reinterpret_cast<const char*>(&val.c_int));
      case ValueKind::Input: {
        const View& view = val.node->view;
        if (view.length == 1) {
          *step = 0;
          return const_cast<char*>(view.data);
        }
        return const_cast<char*>(view.data) + pos * es;
      }
      case ValueKind::Staged:
        if (val.node->length == 1) {
          *step = 0;
          return const_cast<char*>(val.staged);
        }
        return const_cast<char*>(val.staged) + (pos - val.stage_begin) * es;
      case ValueKind::Computed:
        break;
    }
    switch (val.storage) {
      case Storage::Output:
        return out_ + (pos - begin_ * val.width) * es;
      case Storage::Temp:
        return temps_[val.slot].data() + (pos - begin_ * val.width) * es;
      default:
        return scratch + static_cast<size_t>(val.slot) * register_bytes();
    }
  }

 private:
  // Gufunc instruction i on iterations [pos, pos + n): values computed in this
  // batch are contiguous from the block's start, the others are read in place.
  int run_gufunc(size_t i, intptr_t pos, intptr_t n, char* scratch, gufunc_context* ctx) const {
    const Instruction& ins = b_.code[i];
    char* base[GUFUNC_MAX_ARGS + 1];
    bool contiguous[GUFUNC_MAX_ARGS + 1];
    intptr_t step;
    size_t k = 0;
    for (int a : ins.args) {
      const Value& val = b_.values[a];
      contiguous[k] = val.kind == ValueKind::Computed;
      if (contiguous[k]) {
        base[k] = pointer(a, pos * val.width, scratch, &step);
      } else if (val.kind == ValueKind::Input) {
        base[k] = const_cast<char*>(val.node->view.data);
      } else if (val.kind == ValueKind::Staged) {
        base[k] = const_cast<char*>(val.staged);
      } else {
        base[k] = pointer(a, 0, scratch, &step);  // a constant
      }
      ++k;
    }
    contiguous[k] = true;
    base[k] = pointer(ins.out, pos * ins.width, scratch, &step);
    return steps_[i]->run(base, contiguous, pos, n, ctx);
  }

  static void cast_to_double(const char* src, intptr_t step, double* dst, intptr_t n) {
    for (intptr_t i = 0; i < n; ++i) {
      int x;
      std::memcpy(&x, src + i * step, sizeof x);
      dst[i] = x == INT_MIN ? rsem::na_real() : static_cast<double>(x);
    }
  }

  static int call_kernel(const Node& node, char** args, const intptr_t* steps, intptr_t n,
                         gufunc_context* ctx) {
    const gufunc_kernel_set& set = node.function->set(node.match.index);
    const int nargs = static_cast<int>(node.children.size()) + 1;
    int status;
    if (set.Strided != nullptr) {
      gufunc_loop_data data = {set.state, ctx};
      status = set.Strided(args, &n, steps, &data);
    } else {
      // Element-wise nd kernels: each argument is one loop dimension.
      gufunc_ndarray stack[GUFUNC_MAX_ARGS + 1];
      intptr_t shape[GUFUNC_MAX_ARGS + 1];
      for (int a = 0; a < nargs; ++a) {
        shape[a] = n;
        const gufunc_dtype t = a + 1 < nargs ? node.match.types[a] : node.dtype;
        stack[a] = {args[a], t, 1, &shape[a], &steps[a]};
      }
      gufunc_nd_kernel_t fn = set.C ? set.C : set.Fortran ? set.Fortran : set.Xnd;
      status = fn(stack, set.state, ctx);
    }
    if (status != 0 && ctx->status == 0) gufunc_error(ctx, "kernel returned %d", status);
    return status;
  }

  const Batch& b_;
  intptr_t begin_;
  char* out_;
  std::vector<std::vector<char>>& temps_;
  size_t block_;                                    // iterations per block
  size_t register_elements_;                        // elements a register holds: block * max_width
  std::vector<std::unique_ptr<GufuncStep>> steps_;  // per instruction (Gufunc only)
};

// Runs every kernel of `b` over iterations [begin, end): blocks spread over threads
// in rounds, with an interrupt check between rounds. A trailing Reduce instruction
// folds each block into partials[block].
void run_batch(const Batch& b, intptr_t begin, intptr_t end, char* out, const EvalOptions& options,
               std::vector<Partial>* partials, WorkerOutcome* outcome) {
  // Blocks are sized in elements; a block of a gufunc batch holds whole iterations.
  const size_t width = static_cast<size_t>(std::max<intptr_t>(b.max_width, 1));
  const size_t block =
      std::max<size_t>(1, block_elements(batch_streams(b), options.block_size) / width);
  const intptr_t n = end - begin;
  std::vector<std::vector<char>> temps(b.temps);
  for (auto& t : temps) {
    t.resize(static_cast<size_t>(n) * width * sizeof(double));
    note_buffer(t.size());
  }
  const BlockRunner runner(b, begin, out, &temps, block);
  const size_t nblocks = n <= 0 ? 0 : (static_cast<size_t>(n) + block - 1) / block;
  const Instruction* reduce =
      !b.code.empty() && b.code.back().op == Op::Reduce ? &b.code.back() : nullptr;
  if (partials != nullptr) partials->assign(nblocks, Partial());
  Runner* threads = options.runner;
  const int nthreads = threads ? threads->threads() : 1;

  for (size_t k = 0; k < b.kernel_starts.size(); ++k) {
    const size_t first = b.kernel_starts[k];
    const size_t last = k + 1 < b.kernel_starts.size() ? b.kernel_starts[k + 1] : b.code.size();
    // A product the reduction computes itself is not run as an instruction.
    const bool fuse = b.fused_product >= 0 && last == b.code.size();
    const size_t run_last = fuse ? static_cast<size_t>(b.fused_product) : last;
    const Instruction* product = fuse ? &b.code[run_last] : nullptr;
    auto body = [&](size_t from, size_t to) {
      char* regs =
          thread_scratch(static_cast<size_t>(std::max(b.registers, 1)) * runner.register_bytes());
      gufunc_context ctx;
      gufunc_context_init(&ctx);
      std::string failure;
      try {
        size_t failed = 0;
        for (size_t blk = from; blk < to && !outcome->failed.load(std::memory_order_relaxed);
             ++blk) {
          const intptr_t pos = begin + static_cast<intptr_t>(blk * block);
          const intptr_t len = std::min<intptr_t>(static_cast<intptr_t>(block), end - pos);
          if (runner.run(first, run_last, pos, len, regs, &ctx, &failed) != 0) {
            failure = runner.failure(failed, ctx);
            break;
          }
          if (reduce != nullptr && last == b.code.size()) {
            const Node& r = *reduce->node;
            intptr_t step, step2;
            if (product != nullptr) {
              const char* x = runner.pointer(product->args[0], pos, regs, &step);
              const char* y = runner.pointer(product->args[1], pos, regs, &step2);
              accumulate_products(r.na_rm, x, step, y, step2, len, &(*partials)[blk]);
            } else {
              const char* data = runner.pointer(reduce->args[0], pos, regs, &step);
              accumulate(r.reduction, r.na_rm, b.values[reduce->args[0]].dtype, data, len, step,
                         &(*partials)[blk]);
            }
          }
        }
      } catch (const std::exception& e) {
        gufunc_error(&ctx, "%s", e.what());
        failure = std::string("kernel failed: ") + ctx.msg;
      }
      outcome->warnings.fetch_or(ctx.warnings);
      if (ctx.status != 0) outcome->fail(failure);
    };
    size_t round = std::max(kMinBlocksPerRound, kElementsPerRound / (block * width)) *
                   static_cast<size_t>(nthreads);
    for (size_t b0 = 0, count = 0; b0 < nblocks && !outcome->failed; b0 += count) {
      const auto started = std::chrono::steady_clock::now();
      count = std::min(round, nblocks - b0);
      if (nthreads <= 1 || count == 1 || threads == nullptr) {
        body(b0, b0 + count);
      } else {
        threads->parallel_for(count, 1, [&](size_t s, size_t e) { body(b0 + s, b0 + e); });
      }
      if (options.interrupted && options.interrupted()) throw Interrupted();
      if (std::chrono::steady_clock::now() - started < kQuickRound) round *= 4;
    }
  }
}

void check(WorkerOutcome& outcome) {
  if (outcome.failed) throw Error("gufunc_kernel_error", outcome.message);
}

// Computes the nested reductions a batch reads, storing their values in it.
unsigned resolve_reductions(Batch* b, const EvalOptions& options) {
  unsigned warnings = 0;
  for (Value& v : b->values) {
    if (v.kind != ValueKind::Reduced) continue;
    NodePtr shared(std::shared_ptr<const Node>(), v.node);  // non-owning: the graph owns it
    const ReduceResult r = reduce(shared, options);
    warnings |= r.warnings;
    if (r.dtype != v.dtype) {
      throw Error("gufunc_kernel_error", std::string(reduction_name(v.node->reduction)) +
                                             "() of no values cannot be used in an expression");
    }
    v.c_double = r.value[0];
    v.c_int = r.int_value[0];
  }
  return warnings;
}

// Computes the staged values a batch over iterations [begin, end) reads: whole (an
// operand a gufunc reads in place), or the elements [begin * w, end * w) its width-w
// instructions read. Integer values staged as double are converted as R does.
// Staged values are evaluated recursively (one level per nested gufunc): deeper
// graphs stop with an error instead of overflowing the C stack.
const int kMaxStageDepth = 1000;

unsigned resolve_staged(Batch* b, intptr_t begin, intptr_t end, const EvalOptions& options) {
  if (b->staged.empty()) return 0;
  thread_local int depth = 0;
  if (depth >= kMaxStageDepth) {
    throw Error("gufunc_depth_error", "the lazy value nests more than " +
                                          std::to_string(kMaxStageDepth) +
                                          " gufunc calls: materialize() an intermediate value");
  }
  struct Level {
    Level() { ++depth; }
    ~Level() { --depth; }
  } level;
  unsigned warnings = 0;
  b->staged_buffers.resize(b->staged.size());
  for (size_t k = 0; k < b->staged.size(); ++k) {
    Value& v = b->values[b->staged[k]];
    const Node& node = *v.node;
    intptr_t from = 0, to = node.length;
    if (v.width > 0 && node.length != 1) {
      from = begin * v.width;
      to = end * v.width;
    }
    const size_t count = static_cast<size_t>(to - from);
    std::vector<char>& buffer = b->staged_buffers[k];
    buffer.resize(std::max<size_t>(count, 1) * dtype_size(v.dtype));
    note_buffer(count * dtype_size(v.dtype));
    NodePtr shared(std::shared_ptr<const Node>(), v.node);  // non-owning: the graph owns it
    if (count > 0 && dtype_size(node.dtype) == dtype_size(v.dtype)) {
      warnings |= evaluate(shared, from, to, buffer.data(), options);
    } else if (count > 0) {
      std::vector<int> ints(count);
      warnings |= evaluate(shared, from, to, reinterpret_cast<char*>(ints.data()), options);
      double* d = reinterpret_cast<double*>(buffer.data());
      for (size_t i = 0; i < count; ++i) d[i] = ints[i] == INT_MIN ? rsem::na_real() : ints[i];
    }
    v.staged = buffer.data();
    v.stage_begin = from;
  }
  return warnings;
}

// Runs the batch of `root` over positions [from, to) into `out` (elements, or loop
// iterations when `root` is a gufunc); returns the warning bits.
unsigned run_root(const NodePtr& root, intptr_t from, intptr_t to, char* out,
                  const EvalOptions& options) {
  Batch b = build_batch(*root, out);
  unsigned warnings = resolve_reductions(&b, options);
  warnings |= resolve_staged(&b, from, to, options);
  WorkerOutcome outcome;
  run_batch(b, from, to, out, options, nullptr, &outcome);
  check(outcome);
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
  std::vector<char> whole;
  char* target = out;
  if (begin != i0 * core || end != i1 * core) {
    whole.resize(static_cast<size_t>((i1 - i0) * core) * es);
    target = whole.data();
  }
  const unsigned warnings = run_root(root, i0, i1, target, options);
  if (target != out) {
    std::memcpy(out, target + static_cast<size_t>(begin - i0 * core) * es,
                static_cast<size_t>(end - begin) * es);
  }
  return warnings;
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
  if (root->kind == NodeKind::Input) {
    const View& v = root->view;
    if (v.length == 1) {
      for (intptr_t i = begin; i < end; ++i) std::memcpy(out + (i - begin) * es, v.data, es);
    } else if (end > begin) {  // an empty input may have no data pointer at all
      std::memcpy(out, v.data + begin * es, static_cast<size_t>(end - begin) * es);
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
  return run_root(root, begin, end, out, options);
}

unsigned evaluate_runs(const NodePtr& root, const std::vector<Run>& runs, char* out,
                       const EvalOptions& options) {
  for (const Run& r : runs) {
    if (r.begin < 0 || r.end > root->length || r.begin > r.end) {
      throw Error("gufunc_internal_error", "evaluation range outside the value");
    }
  }
  const size_t es = dtype_size(root->dtype);
  unsigned warnings = 0;
  // Staged values (nested gufuncs) are computed for one range: go run by run.
  Batch b;
  const bool one_batch =
      root->kind == NodeKind::Map && (b = build_batch(*root, out)).staged.empty();
  if (one_batch) warnings |= resolve_reductions(&b, options);
  for (const Run& r : runs) {
    if (one_batch) {
      WorkerOutcome outcome;
      run_batch(b, r.begin, r.end, out, options, nullptr, &outcome);
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
  Batch b = build_batch(*node, nullptr);
  unsigned warnings = resolve_reductions(&b, options);
  if (child.kind != NodeKind::Scalar) warnings |= resolve_staged(&b, 0, child.length, options);
  std::vector<Partial> partials;
  WorkerOutcome outcome;
  if (child.kind != NodeKind::Scalar) {
    run_batch(b, 0, child.length, nullptr, options, &partials, &outcome);
    check(outcome);
  } else {
    Partial p;
    const char* data = child.dtype == GUFUNC_DOUBLE
                           ? reinterpret_cast<const char*>(&child.scalar_double)
                           : reinterpret_cast<const char*>(&child.scalar_int);
    accumulate(node->reduction, node->na_rm, child.dtype, data, 1, 0, &p);
    partials.push_back(p);
  }
  Partial total;
  for (const Partial& p : partials) combine(node->reduction, node->na_rm, child.dtype, p, &total);
  ReduceResult r = finish_reduction(*node, child.dtype, total);
  r.warnings |= warnings | outcome.warnings.load();
  return r;
}

}  // namespace engine
}  // namespace gufunc
