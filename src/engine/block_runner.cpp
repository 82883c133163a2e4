// Running a batch's instructions on one block (see block_runner.hpp).
#include "engine/block_runner.hpp"

#include <algorithm>
#include <cstring>

#include "abi/error.hpp"
#include "dispatch/apply.hpp"
#include "dispatch/stop_check.hpp"
#include "engine/fresh_pages.hpp"
#include "engine/mapped_file.hpp"
#include "kernels/r_summary.hpp"

namespace gufunc {
namespace engine {

char* thread_scratch(size_t bytes) {
  thread_local std::unique_ptr<double[]> buffer;
  thread_local size_t capacity = 0;
  if (capacity < bytes) {
    buffer.reset(new double[(bytes + sizeof(double) - 1) / sizeof(double)]);
    capacity = bytes;
  }
  return reinterpret_cast<char*>(buffer.get());
}

BlockRunner::BlockRunner(const Batch& b, intptr_t begin, char* out,
                         std::vector<ScratchBuffer>* temps, size_t block)
    : b_(b), begin_(begin), out_(out), temps_(*temps), block_(block) {
  register_elements_ = block * static_cast<size_t>(std::max<intptr_t>(b.max_width, 1));
  const int first_free = b.registers > 1 ? b.registers : 1;
  gather_slot_.assign(b.values.size(), -1);
  for (size_t v = 0; v < b.values.size(); ++v) {
    const Value& val = b.values[v];
    const View* view = val.kind == ValueKind::Input ? &val.node->view : nullptr;
    const bool gathered =
        view != nullptr &&
        (view->copied_only() ||
         (val.node->length > 1 && (view->is_block() || view->each > 1 || view->file_fd >= 0)));
    if (gathered) {
      gather_slot_[v] = first_free + static_cast<int>(gathered_++);
    }
  }
  for (const Instruction& ins : b.code) {
    steps_.push_back(ins.op == Op::Gufunc ? std::make_unique<GufuncStep>(*ins.node) : nullptr);
  }
  for (size_t i = 0; i < b.code.size(); ++i) {
    const int v = b.code[i].out;
    if (v >= 0 && b.values[v].storage == Storage::Output) output_instruction_ = i;
  }
}

int BlockRunner::run(size_t first, size_t last, intptr_t pos, intptr_t n, char* scratch,
                     gufunc_context* ctx, size_t* failed, int redirected, char* redirect_to) const {
  if (out_ != nullptr && output_instruction_ >= first && output_instruction_ < last) {
    const Value& v = b_.values[b_.code[output_instruction_].out];
    const size_t bytes = static_cast<size_t>(v.width) * dtype_size(v.dtype);
    prefault_for_writing(out_ + static_cast<size_t>(pos - begin_) * bytes,
                         static_cast<size_t>(n) * bytes);
  }
  thread_local std::vector<Gathered> gathered;
  gathered.assign(b_.values.size(), Gathered());
  // The next fused run (b.fused is in instruction order). A block of a few elements
  // costs less one instruction after another.
  auto run_from = std::lower_bound(b_.fused.begin(), b_.fused.end(), first,
                                   [](const FusedRun& r, size_t i) { return r.first < i; });
  const bool fuse = n >= kFusedRow / 4;
  for (size_t i = first; i < last; ++i) {
    const Instruction& ins = b_.code[i];
    if (ins.op == Op::Reduce || ins.op == Op::Scan) continue;  // folded by the caller
    *failed = i;
    while (run_from != b_.fused.end() && run_from->first < i) ++run_from;
    if (fuse && run_from != b_.fused.end() && run_from->first == i && run_from->last <= last) {
      run_fused_at(*run_from, pos, n, scratch, ctx, &gathered, redirected, redirect_to);
      i = run_from->last - 1;
      continue;
    }
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
      args[k] = operand(a, at, count, scratch, &steps[k], &gathered, redirected, redirect_to);
      ++k;
    }
    args[k] = operand(ins.out, at, count, scratch, &steps[k], nullptr, redirected, redirect_to);
    if (ins.op == Op::Cast) {
      rsem::ints_to_doubles(args[0], steps[0], count, reinterpret_cast<double*>(args[1]));
      continue;
    }
    if (ins.op == Op::Patch) {
      patch(ins.node->region, args, steps, at, count, dtype_size(ins.node->dtype));
      continue;
    }
    if (call_kernel(*ins.node, args, steps, count, ctx) != 0) return -1;
  }
  return 0;
}

std::string BlockRunner::failure(size_t i, const gufunc_context& ctx) const {
  if (i < steps_.size() && steps_[i]) return steps_[i]->failure(ctx);
  return std::string("kernel failed: ") + ctx.msg;
}

bool BlockRunner::in_registers(int v) const {
  const Value& val = b_.values[v];
  return val.kind == ValueKind::Computed && val.storage == Storage::Register;
}

char* BlockRunner::operand(int v, intptr_t pos, intptr_t count, char* scratch, intptr_t* step,
                           std::vector<Gathered>* gathered, int redirected,
                           char* redirect_to) const {
  if (v != redirected) return pointer(v, pos, count, scratch, step, gathered);
  *step = static_cast<intptr_t>(dtype_size(b_.values[v].dtype));
  return redirect_to;
}

char* BlockRunner::pointer(int v, intptr_t pos, intptr_t count, char* scratch, intptr_t* step,
                           std::vector<Gathered>* gathered) const {
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
      if (view.length == 1 && !view.copied_only() && view.file_fd < 0) {
        *step = 0;
        return const_cast<char*>(view.data);
      }
      bool repeated = false;
      if (view.in_place(pos, count, &repeated)) {
        if (view.file_fd >= 0) note_mapped_read(static_cast<size_t>(count * es));
        if (repeated) *step = 0;
        return const_cast<char*>(view_element(view, pos, static_cast<size_t>(es)));
      }
      char* slot = scratch + static_cast<size_t>(gather_slot_[v]) * register_bytes();
      if (gathered != nullptr) {
        Gathered& g = (*gathered)[static_cast<size_t>(v)];
        if (g.pos == pos && g.count == count) return slot;
        g = {pos, count};
      }
      read_view(view, pos, pos + count, slot);
      return slot;
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

// Gufunc instruction i on iterations [pos, pos + n): values computed in this
// batch are contiguous from the block's start, the others are read in place.
int BlockRunner::run_gufunc(size_t i, intptr_t pos, intptr_t n, char* scratch,
                            gufunc_context* ctx) const {
  const Instruction& ins = b_.code[i];
  char* base[GUFUNC_MAX_ARGS + 1];
  bool contiguous[GUFUNC_MAX_ARGS + 1];
  intptr_t step;
  size_t k = 0;
  for (int a : ins.args) {
    const Value& val = b_.values[a];
    contiguous[k] = val.kind == ValueKind::Computed;
    if (contiguous[k]) {
      base[k] = pointer(a, pos * val.width, n * val.width, scratch, &step);
    } else if (val.kind == ValueKind::Input) {
      base[k] = const_cast<char*>(val.node->view.data);
    } else if (val.kind == ValueKind::Staged) {
      base[k] = const_cast<char*>(val.staged);
    } else {
      base[k] = pointer(a, 0, 1, scratch, &step);  // a constant
    }
    ++k;
  }
  contiguous[k] = true;
  base[k] = pointer(ins.out, pos * ins.width, n * ins.width, scratch, &step);
  return steps_[i]->run(base, contiguous, pos, n, ctx);
}

// Fused run `run` on iterations [pos, pos + n) (of width 1): its operands and
// results where the instructions' own would be.
void BlockRunner::run_fused_at(const FusedRun& run, intptr_t pos, intptr_t n, char* scratch,
                               gufunc_context* ctx, std::vector<Gathered>* gathered, int redirected,
                               char* redirect_to) const {
  char* places[kMaxFusedSlots];
  intptr_t steps[kMaxFusedSlots];
  size_t k = 0;
  for (int v : run.outside) {
    places[k] = operand(v, pos, n, scratch, &steps[k], gathered, redirected, redirect_to);
    ++k;
  }
  for (int v : run.written) {
    places[k] = operand(v, pos, n, scratch, &steps[k], nullptr, redirected, redirect_to);
    ++k;
  }
  const unsigned warnings = run_fused(run, places, steps, n);
  if (warnings != 0) ctx->warnings |= warnings;
}

// Elements [pos, pos + n) of the base (args[0]) into the output (args[2]), then the
// value (args[1]) into those of the region's positions among them.
void BlockRunner::patch(const Region& r, char** args, const intptr_t* steps, intptr_t pos,
                        intptr_t n, size_t es) {
  char* out = args[2];
  const intptr_t w = static_cast<intptr_t>(es);
  if (steps[0] == 0) {
    for (intptr_t i = 0; i < n; ++i) std::memcpy(out + i * w, args[0], es);
  } else if (args[0] != out) {
    std::memmove(out, args[0], static_cast<size_t>(n) * es);
  }
  r.runs_within(pos, pos + n, [&](intptr_t, intptr_t a, intptr_t b) {
    for (intptr_t q = a; q < b; ++q) std::memcpy(out + (q - pos) * w, args[1], es);
  });
}

int BlockRunner::call_kernel(const Node& node, char** args, const intptr_t* steps, intptr_t n,
                             gufunc_context* ctx) {
  const gufunc_kernel_set& set = node.function->set(node.match.index);
  const int nargs = static_cast<int>(node.children.size()) + 1;
  const Variant variant = choose_variant(set, true, true);  // element-wise: no core dims
  int status;
  if (variant == Variant::Strided) {
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
    status = nd_kernel(set, variant)(stack, set.state, ctx);
  }
  if (status != 0 && ctx->status == 0) gufunc_error(ctx, "kernel returned %d", status);
  return status;
}

char* run_block(const BlockRunner& runner, size_t first, size_t last, intptr_t pos, intptr_t n,
                WorkerOutcome* outcome, int redirected, char* redirect_to) {
  char* registers = thread_scratch(runner.scratch_bytes());
  gufunc_context ctx;
  gufunc_context_init(&ctx);
  attach_stop_check(&ctx);
  std::string failure, condition_class;
  try {
    size_t failed = 0;
    if (runner.run(first, last, pos, n, registers, &ctx, &failed, redirected, redirect_to) != 0) {
      failure = runner.failure(failed, ctx);
    }
  } catch (const Error& e) {  // gufunc's own (a file cut short): its class and message
    gufunc_error(&ctx, "%s", e.what());
    failure = ctx.msg;
    condition_class = e.condition_class();
  } catch (const std::exception& e) {
    gufunc_error(&ctx, "%s", e.what());
    failure = std::string("kernel failed: ") + ctx.msg;
  }
  if (ctx.warnings != 0) outcome->warnings.fetch_or(ctx.warnings);
  if (ctx.status == 0) return registers;
  outcome->fail(failure, -1, condition_class);
  return nullptr;
}

}  // namespace engine
}  // namespace gufunc
