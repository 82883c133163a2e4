// Requested kernels: a kernel set wrapped as a stateful, relocatable kernel block
// (see request.hpp).
#include "dispatch/request.hpp"

#include <atomic>
#include <cstring>

#include "abi/kernel_builder.hpp"
#include "dispatch/apply.hpp"
#include "dispatch/typecheck.hpp"

namespace gufunc {

namespace {

const int kMaxDims = 32;      // distinct core dims of one signature
const int kMaxCoreRefs = 64;  // core dims of all arguments together

std::atomic<long> live_instances{0};

// Counts the instance alive from construction to destruction. Copying would count
// twice, so it cannot be copied; the block moves by memcpy, which does not count.
struct LiveInstance {
  using relocatable = std::true_type;
  LiveInstance() { ++live_instances; }
  LiveInstance(const LiveInstance&) = delete;
  LiveInstance& operator=(const LiveInstance&) = delete;
  ~LiveInstance() { --live_instances; }
};

// Everything an instance needs to call its kernel set, held by value inside the
// block so the block owns no pointer into the (growable) lookup table.
struct Instance {
  using relocatable = std::true_type;

  gufunc_kernel_set set;  // signature text and kernels live as long as the process
  int nargs = 0;
  int ndims = 0;
  gufunc_dtype types[GUFUNC_MAX_ARGS];
  intptr_t itemsize[GUFUNC_MAX_ARGS];
  int ncore[GUFUNC_MAX_ARGS];  // core dims of each argument
  int core_dim[kMaxCoreRefs];  // their indexes into the signature's dims, argument by argument
  intptr_t frozen[kMaxDims];   // size of each frozen dim, -1 for the others
  LiveInstance live;
};

int check_dims(const Instance& k, const intptr_t* dim_sizes, gufunc_context* ctx) {
  for (int d = 0; d < k.ndims; ++d) {
    if (dim_sizes[d] < 0) return gufunc_error(ctx, "core dimension %d has negative size", d + 1);
    if (k.frozen[d] >= 0 && dim_sizes[d] != k.frozen[d]) {
      return gufunc_error(ctx, "core dimension %d of \"%s\" is frozen at %ld, not %ld", d + 1,
                          k.set.signature, static_cast<long>(k.frozen[d]),
                          static_cast<long>(dim_sizes[d]));
    }
  }
  if (k.set.constraint != nullptr) return k.set.constraint(dim_sizes, k.set.state, ctx);
  return 0;
}

// Core dims laid out without gaps, first-fastest (Fortran) or last-fastest (C).
// As in NumPy, dims of size 1 have no meaningful stride and an empty core is
// contiguous either way.
bool contiguous(const gufunc_ndarray& a, int ncore, intptr_t itemsize, bool fortran) {
  for (int j = 0; j < ncore; ++j) {
    if (a.shape[j] == 0) return true;
  }
  intptr_t expect = itemsize;
  for (int j = 0; j < ncore; ++j) {
    const int d = fortran ? j : ncore - 1 - j;
    if (a.shape[d] != 1 && a.strides[d] != expect) return false;
    expect *= a.shape[d];
  }
  return true;
}

// Describes each argument as an array (its core dims, then the loop dim) and calls
// the variant choose_variant() picks for these strides.
int call_variant(const Instance& k, char** args, const intptr_t* dimensions, const intptr_t* steps,
                 gufunc_context* ctx) {
  gufunc_ndarray stack[GUFUNC_MAX_ARGS];
  intptr_t shapes[kMaxCoreRefs + GUFUNC_MAX_ARGS];
  intptr_t strides[kMaxCoreRefs + GUFUNC_MAX_ARGS];
  bool all_c = true, all_fortran = true;
  int ref = 0, slot = 0;
  for (int a = 0; a < k.nargs; ++a) {
    intptr_t* shape = shapes + slot;
    intptr_t* stride = strides + slot;
    for (int j = 0; j < k.ncore[a]; ++j, ++ref) {
      shape[j] = dimensions[1 + k.core_dim[ref]];
      stride[j] = steps[k.nargs + ref];
    }
    shape[k.ncore[a]] = dimensions[0];
    stride[k.ncore[a]] = steps[a];
    slot += k.ncore[a] + 1;
    stack[a] = gufunc_ndarray{args[a], k.types[a], k.ncore[a] + 1, shape, stride};
    all_c = all_c && contiguous(stack[a], k.ncore[a], k.itemsize[a], false);
    all_fortran = all_fortran && contiguous(stack[a], k.ncore[a], k.itemsize[a], true);
  }
  const Variant variant = choose_variant(k.set, all_c, all_fortran);
  if (variant == Variant::Strided) {
    gufunc_loop_data data = {k.set.state, ctx};
    return k.set.Strided(args, dimensions, steps, &data);
  }
  if (variant == Variant::None) {
    return gufunc_error(ctx, "the kernels of \"%s\" need contiguous core dimensions",
                        k.set.signature);
  }
  return nd_kernel(k.set, variant)(stack, k.set.state, ctx);
}

int call_kernel(const Instance& k, char** args, const intptr_t* dimensions, const intptr_t* steps,
                gufunc_context* ctx) {
  if (check_dims(k, dimensions + 1, ctx) != 0) return -1;
  int status;
  if (choose_variant(k.set, true, true) == Variant::Strided) {
    // Strided whatever the layout (no nd variant): no array descriptions needed.
    gufunc_loop_data data = {k.set.state, ctx};
    status = k.set.Strided(args, dimensions, steps, &data);
  } else {
    status = call_variant(k, args, dimensions, steps, ctx);
  }
  if (status != 0 && ctx->status == 0) gufunc_error(ctx, "kernel returned %d", status);
  return status == 0 ? 0 : -1;
}

// The gufunc_instance_fn of every requested kernel. The caller's context may come
// from a package built before the context had its stop check (a shorter struct), so
// the kernel gets a whole context of ours and the caller only the fields it knows.
int call_instance(char** args, const intptr_t* dimensions, const intptr_t* steps,
                  gufunc_kernel_prefix* self, gufunc_context* caller) {
  gufunc_context ctx;
  gufunc_context_init(&ctx);
  const int status = call_kernel(*kernel_state<Instance>(self), args, dimensions, steps, &ctx);
  caller->warnings |= ctx.warnings;
  if (status != 0) {
    caller->status = ctx.status;
    std::memcpy(caller->msg, ctx.msg, sizeof ctx.msg);
    if (ctx.failed_at >= 0) caller->failed_at = ctx.failed_at;
  }
  return status;
}

[[noreturn]] void too_large(const Signature& sig, const std::string& what) {
  throw Error("gufunc_dispatch_error",
              "\"" + sig.text + "\" has too many " + what + " for a kernel instance");
}

void describe(const Signature& sig, const TypeMatch& match, Instance* k) {
  if (sig.nargs() > GUFUNC_MAX_ARGS) too_large(sig, "arguments");
  if (static_cast<int>(sig.dims.size()) > kMaxDims) too_large(sig, "core dimensions");
  k->nargs = sig.nargs();
  k->ndims = static_cast<int>(sig.dims.size());
  int ref = 0;
  for (int a = 0; a < k->nargs; ++a) {
    k->types[a] = match.types[a];
    k->itemsize[a] = static_cast<intptr_t>(dtype_size(match.types[a]));
    k->ncore[a] = static_cast<int>(sig.args[a].dims.size());
    for (int d : sig.args[a].dims) {
      if (ref == kMaxCoreRefs) too_large(sig, "core dimensions");
      k->core_dim[ref++] = d;
    }
  }
  for (int d = 0; d < k->ndims; ++d) k->frozen[d] = sig.dims[d].frozen_size;
}

}  // namespace

void request_kernel(const std::string& ns, const std::string& name,
                    const std::vector<gufunc_dtype>& in_types, gufunc_dynamic_kernel* out,
                    gufunc_kernel_info* info) {
  for (size_t i = 0; i < in_types.size(); ++i) {
    const int t = static_cast<int>(in_types[i]);
    if (t < 0 || t >= GUFUNC_NDTYPES) {
      throw Error("gufunc_argument_error", "input type " + std::to_string(i + 1) + " (" +
                                               std::to_string(t) + ") is not a gufunc_dtype");
    }
  }
  const Function& f = lookup(ns, name);
  const TypeMatch match = typecheck_with_hook(f, in_types);
  const Signature& sig = f.signature(match.index);

  KernelBuilder builder;
  const size_t at = builder.add<Instance>(kernel_function(&call_instance));
  Instance& k = builder.state<Instance>(at);
  k.set = f.set(match.index);
  describe(sig, match, &k);

  if (info != nullptr) {
    *info = gufunc_kernel_info{};
    info->nin = sig.nin;
    info->nout = sig.nout;
    for (int a = 0; a < sig.nargs(); ++a) info->types[a] = match.types[a];
    info->ndims = k.ndims;
  }
  *out = builder.release();
}

long live_kernel_instances() { return live_instances.load(); }

}  // namespace gufunc
