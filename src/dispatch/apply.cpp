// The apply algorithm (see apply.hpp).
#include "dispatch/apply.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <string>

#include "dispatch/kernel_call.hpp"
#include "dispatch/stop_check.hpp"
#include "types/checked_size.hpp"

namespace gufunc {

size_t dtype_size(gufunc_dtype t) { return t == GUFUNC_DOUBLE ? sizeof(double) : sizeof(int); }

bool is_elementwise(const Function& f, int nin) {
  bool any = false;
  for (int i = 0; i < f.size(); ++i) {
    const Signature& sig = f.signature(i);
    if (sig.nin != nin) continue;
    any = true;
    if (!sig.dims.empty()) return false;
  }
  return any;
}

intptr_t ApplyPlan::out_length(int o) const {
  return elementwise ? loop_length : shape.out_lengths[o];
}

const std::vector<intptr_t>& ApplyPlan::out_dims(int o) const {
  static const std::vector<intptr_t> none;
  return elementwise ? none : shape.out_dims[o];
}

namespace {

// Step 7's preference order. R data is column-major, so core dims are always
// Fortran-contiguous; they are C-contiguous too when at most one has size > 1.
Variant plan_variant(const ApplyPlan& plan) {
  const gufunc_kernel_set& set = plan.set();
  bool c_contiguous = true;
  if (!plan.elementwise) {
    for (const auto& core : plan.shape.arg_core_sizes) {
      int big = 0;
      for (intptr_t s : core) big += s > 1 ? 1 : 0;
      c_contiguous = c_contiguous && big <= 1;
    }
  }
  const Variant v = choose_variant(set, c_contiguous, true);
  if (v != Variant::None) return v;
  throw Error("gufunc_dispatch_error",
              "kernel set \"" + plan.sig().text + "\" of `" + plan.function->name() +
                  "` has only a C variant and the core dimensions of this call are not "
                  "C-contiguous");
}

// The kernel set's own check of the resolved core dim sizes.
void check_constraint(const ApplyPlan& plan) {
  const gufunc_kernel_set& set = plan.set();
  if (set.constraint == nullptr) return;
  gufunc_context ctx;
  gufunc_context_init(&ctx);
  const intptr_t* sizes = plan.shape.dim_sizes.empty() ? nullptr : plan.shape.dim_sizes.data();
  if (set.constraint(sizes, set.state, &ctx) != 0) {
    throw Error("gufunc_shape_error", "`" + plan.function->name() + "` (\"" + plan.sig().text +
                                          "\"): " + (ctx.msg[0] ? ctx.msg : "constraint failed"));
  }
}

}  // namespace

ApplyPlan plan_apply(const Function& f, const std::vector<ArgShape>& in) {
  ApplyPlan plan;
  plan.function = &f;
  std::vector<gufunc_dtype> types;
  for (const ArgShape& a : in) types.push_back(a.dtype);
  plan.match = typecheck_with_hook(f, types);
  const Signature& sig = plan.sig();
  plan.elementwise = sig.dims.empty();
  for (size_t k = 0; k < in.size(); ++k) {
    plan.in_lengths.push_back(
        checked_product(in[k].dims, [&] { return "argument " + std::to_string(k + 1); }));
  }
  if (plan.elementwise) {
    // Base R recycling: a zero-length operand gives a zero-length result. No
    // operands at all give one iteration (the broadcast of no loop dims is a scalar).
    intptr_t n = in.empty() ? 1 : 0;
    bool empty = false;
    for (intptr_t len : plan.in_lengths) {
      n = std::max(n, len);
      empty = empty || len == 0;
    }
    plan.loop_length = empty ? 0 : n;
  } else {
    std::vector<std::vector<intptr_t>> dims;
    for (const ArgShape& a : in) dims.push_back(a.dims);
    plan.shape = resolve_shape(sig, dims);
    plan.loop_length = plan.shape.loop_length;
  }
  check_constraint(plan);
  plan.variant = plan_variant(plan);
  return plan;
}

namespace {

// Element-wise: base R recycling. Runs are cut where any operand wraps around.
void elementwise_range(const ApplyPlan& plan, const KernelCall& call,
                       const std::vector<const char*>& in, const std::vector<char*>& out,
                       size_t begin, size_t end, gufunc_context* ctx, WorkerOutcome& outcome) {
  const int nin = plan.nin(), nargs = nin + plan.nout();
  std::vector<char*> ptrs(nargs);
  std::vector<intptr_t> steps(nargs);
  intptr_t pos = static_cast<intptr_t>(begin);
  const intptr_t stop = static_cast<intptr_t>(end);
  while (pos < stop && !outcome.stops_at(pos)) {
    intptr_t run = stop - pos;
    for (int k = 0; k < nargs; ++k) {
      const intptr_t es = static_cast<intptr_t>(dtype_size(plan.match.types[k]));
      if (k >= nin) {
        ptrs[k] = out[k - nin] + pos * es;
        steps[k] = es;
      } else if (plan.in_lengths[k] == 1) {
        ptrs[k] = const_cast<char*>(in[k]);
        steps[k] = 0;
      } else {
        const intptr_t off = pos % plan.in_lengths[k];
        run = std::min(run, plan.in_lengths[k] - off);
        ptrs[k] = const_cast<char*>(in[k]) + off * es;
        steps[k] = es;
      }
    }
    if (call.run(ptrs.data(), run, steps.data(), ctx) != 0) {
      if (ctx->failed_at >= 0) ctx->failed_at += pos;
      return;
    }
    pos += run;
  }
}

// Core dims: loop dims broadcast; runs follow the first loop dim.
void broadcast_range(const ApplyPlan& plan, const KernelCall& call,
                     const std::vector<const char*>& in, const std::vector<char*>& out,
                     size_t begin, size_t end, gufunc_context* ctx, WorkerOutcome& outcome) {
  const int nin = plan.nin(), nargs = nin + plan.nout();
  const auto& loop = plan.shape.loop_shape;
  const size_t rank = loop.size();
  std::vector<char*> ptrs(nargs);
  std::vector<intptr_t> idx(rank);
  intptr_t pos = static_cast<intptr_t>(begin);
  const intptr_t stop = static_cast<intptr_t>(end);
  const intptr_t n0 = rank ? loop[0] : 1;
  while (pos < stop && !outcome.stops_at(pos)) {
    intptr_t rest = pos;
    for (size_t j = 0; j < rank; ++j) {
      idx[j] = rest % loop[j];
      rest /= loop[j];
    }
    const intptr_t run = std::min(n0 - (rank ? idx[0] : 0), stop - pos);
    for (int k = 0; k < nargs; ++k) {
      char* base = k < nin ? const_cast<char*>(in[k]) : out[k - nin];
      intptr_t off = 0;
      for (size_t j = 0; j < rank; ++j) off += idx[j] * call.loop_strides()[k][j];
      ptrs[k] = base + off;
    }
    if (call.run(ptrs.data(), run, call.inner_steps(), ctx) != 0) {
      if (ctx->failed_at >= 0) ctx->failed_at += pos;
      return;
    }
    pos += run;
  }
}

// Loop iteration `at` as an R index: "element 5" for element-wise calls, else
// "slice [, , 2, 3]": the position in the broadcast loop dims (those of the
// outputs), after as many empty indexes as the first input has core dims.
std::string slice_text(const ApplyPlan& plan, intptr_t at) {
  if (plan.elementwise) return "element " + std::to_string(at + 1);
  std::string text = "slice [";
  for (size_t j = 0; j < plan.shape.arg_core_sizes[0].size(); ++j) text += ", ";
  const auto& loop = plan.shape.loop_shape;
  for (size_t j = 0; j < loop.size(); ++j) {
    text += std::to_string(at % loop[j] + 1) + (j + 1 < loop.size() ? ", " : "");
    at /= loop[j];
  }
  return text + "]";
}

}  // namespace

unsigned run_apply(const ApplyPlan& plan, const std::vector<const char*>& in,
                   const std::vector<char*>& out, Runner& runner, const RoundHooks& hooks) {
  const size_t n = static_cast<size_t>(plan.loop_length);
  if (n == 0) return 0;
  const KernelCall call(plan);
  WorkerOutcome outcome;
  auto body = [&](size_t begin, size_t end) {
    gufunc_context ctx;
    gufunc_context_init(&ctx);
    attach_stop_check(&ctx);
    try {
      if (plan.elementwise) {
        elementwise_range(plan, call, in, out, begin, end, &ctx, outcome);
      } else {
        broadcast_range(plan, call, in, out, begin, end, &ctx, outcome);
      }
    } catch (const std::exception& e) {
      gufunc_error(&ctx, "%s", e.what());
    }
    outcome.warnings.fetch_or(ctx.warnings);
    if (ctx.status != 0) outcome.fail(ctx.msg, ctx.failed_at);
  };
  // Rounds start with a grain per thread and are then sized by time, down to an
  // iteration per thread when iterations are slow (the grain counts elements, not
  // cost); a later round smaller than a grain per thread splits finer.
  const size_t grain = call.grain();
  const size_t threads = static_cast<size_t>(std::max(runner.threads(), 1));
  run_in_rounds(
      n, grain * threads, threads, hooks, [&] { return outcome.failed.load(); },
      [&](size_t from, size_t to) {
        const size_t round_grain =
            from == 0 ? grain : std::min(grain, (to - from + threads - 1) / threads);
        if (threads == 1 || to - from <= round_grain) {
          body(from, to);
        } else {
          runner.parallel_for(to - from, round_grain,
                              [&](size_t b, size_t e) { body(from + b, from + e); });
        }
      });
  if (outcome.failed) {
    const bool known =
        outcome.failed_at >= 0 && (plan.elementwise || !plan.shape.loop_shape.empty());
    const std::string where = known ? " for " + slice_text(plan, outcome.failed_at) : "";
    throw Error("gufunc_kernel_error", "kernel of `" + plan.function->name() + "` failed" + where +
                                           ": " + outcome.message);
  }
  return outcome.warnings.load();
}

}  // namespace gufunc
