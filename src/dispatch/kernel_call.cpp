// Invocation of the C, Fortran, Xnd or Strided variant (see kernel_call.hpp).
#include "dispatch/kernel_call.hpp"

#include <algorithm>

namespace gufunc {

namespace {
// Elements touched per task, so that a task is worth the scheduling cost.
const size_t kElementsPerTask = 16384;
}  // namespace

KernelCall::KernelCall(const ApplyPlan& plan) : plan_(plan), variant_(plan.variant) {
  const Signature& sig = plan.sig();
  nargs_ = sig.nargs();
  if (nargs_ > GUFUNC_MAX_ARGS) {
    throw Error("gufunc_dispatch_error", "`" + plan.function->name() + "` has more than " +
                                             std::to_string(GUFUNC_MAX_ARGS) + " arguments");
  }
  size_t work = 0;
  if (!plan.elementwise) {
    const ResolvedShape& shape = plan.shape;
    dim_sizes_ = shape.dim_sizes;
    core_sizes_.resize(nargs_);
    core_strides_.resize(nargs_);
    loop_strides_.resize(nargs_);
    inner_steps_.resize(nargs_);
    for (int a = 0; a < nargs_; ++a) {
      const intptr_t es = static_cast<intptr_t>(dtype_size(plan.match.types[a]));
      if (static_cast<int>(sig.args[a].dims.size()) > kMaxCoreDims) {
        throw Error("gufunc_dispatch_error", "too many core dimensions in \"" + sig.text + "\"");
      }
      // In bytes; strides in elements fit (resolve_shape checked the lengths), so
      // times the element size of at most 8 they do too.
      const ArgStrides strides = arg_strides(shape, a);
      size_t k = 0;
      for (int d : sig.args[a].dims) {
        if (shape.dim_missing[d]) {
          core_steps_.push_back(0);
          continue;
        }
        core_steps_.push_back(strides.core[k] * es);
        core_sizes_[a].push_back(shape.dim_sizes[d]);
        core_strides_[a].push_back(strides.core[k] * es);
        ++k;
      }
      work += static_cast<size_t>(shape.arg_core_lengths[a]);
      for (intptr_t s : strides.loop) loop_strides_[a].push_back(s * es);
      inner_steps_[a] = loop_strides_[a].empty() ? 0 : loop_strides_[a][0];
    }
  }
  grain_ = std::max<size_t>(1, kElementsPerTask / std::max<size_t>(1, work));
}

int KernelCall::run(char** args, intptr_t n, const intptr_t* loop_steps,
                    gufunc_context* ctx) const {
  const gufunc_kernel_set& set = plan_.set();
  switch (variant_) {
    case Variant::C:
      return run_nd(set.C, args, n, loop_steps, ctx);
    case Variant::Fortran:
      return run_nd(set.Fortran, args, n, loop_steps, ctx);
    case Variant::Xnd:
      return run_nd(set.Xnd, args, n, loop_steps, ctx);
    default:
      break;
  }
  // NumPy layout: dimensions = {n, core dim sizes}, steps = {loop steps, core steps}.
  intptr_t dims[1 + GUFUNC_MAX_ARGS * kMaxCoreDims];
  intptr_t steps[GUFUNC_MAX_ARGS * (1 + kMaxCoreDims)];
  dims[0] = n;
  std::copy(dim_sizes_.begin(), dim_sizes_.end(), dims + 1);
  std::copy(loop_steps, loop_steps + nargs_, steps);
  std::copy(core_steps_.begin(), core_steps_.end(), steps + nargs_);
  gufunc_loop_data data = {set.state, ctx};
  int status = set.Strided(args, dims, steps, &data);
  if (status != 0 && ctx->status == 0) gufunc_error(ctx, "kernel returned %d", status);
  return status;
}

int KernelCall::run_nd(gufunc_nd_kernel_t fn, char** args, intptr_t n, const intptr_t* loop_steps,
                       gufunc_context* ctx) const {
  gufunc_ndarray stack[GUFUNC_MAX_ARGS];
  intptr_t shapes[GUFUNC_MAX_ARGS][kMaxCoreDims + 1];
  intptr_t strides[GUFUNC_MAX_ARGS][kMaxCoreDims + 1];
  for (int a = 0; a < nargs_; ++a) {
    int nd = 0;
    if (!plan_.elementwise) {
      for (size_t j = 0; j < core_sizes_[a].size(); ++j, ++nd) {
        shapes[a][nd] = core_sizes_[a][j];
        strides[a][nd] = core_strides_[a][j];
      }
    }
    shapes[a][nd] = n;
    strides[a][nd] = loop_steps[a];
    stack[a] = {args[a], plan_.match.types[a], nd + 1, shapes[a], strides[a]};
  }
  int status = fn(stack, plan_.set().state, ctx);
  if (status != 0 && ctx->status == 0) gufunc_error(ctx, "kernel returned %d", status);
  return status;
}

}  // namespace gufunc
