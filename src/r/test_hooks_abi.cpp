// Test-only .Call entries for the kernel builder and requested kernels
// (tests/testthat/test-abi.R). Each builds kernel blocks the way a library would,
// moves them with memcpy, calls them from several threads and checks destruction.
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "abi/kernel_builder.hpp"
#include "dispatch/request.hpp"
#include "r/call_registry.hpp"
#include "r/guard.hpp"
#include "r/r_arrays.hpp"
#include "r/rcpp_parallel_runner.hpp"

namespace gufunc {
namespace r {
namespace {

// States built here count their destructions, so a test sees each ran exactly once.
std::atomic<int> states_alive{0};
std::atomic<int> states_destroyed{0};

struct Counted {
  using relocatable = std::true_type;
  Counted() { ++states_alive; }
  Counted(const Counted&) = delete;
  ~Counted() {
    --states_alive;
    ++states_destroyed;
  }
};

// Binary child: out = x + y, a stateful kernel whose state is only counted.
struct AddState {
  using relocatable = std::true_type;
  Counted counted;
};

int add_fn(char** args, const intptr_t* dims, const intptr_t* steps, gufunc_kernel_prefix*,
           gufunc_context*) {
  for (intptr_t i = 0; i < dims[0]; ++i) {
    *reinterpret_cast<double*>(args[2] + i * steps[2]) =
        *reinterpret_cast<const double*>(args[0] + i * steps[0]) +
        *reinterpret_cast<const double*>(args[1] + i * steps[1]);
  }
  return 0;
}

// Unary parent over a binary child: out = child(x, y) * scale. The scale lives on the
// heap (closure-like state released by the destructor); the child is in the block.
struct ScaleOfState {
  using relocatable = std::true_type;
  explicit ScaleOfState(double scale) : scale(new double(scale)) {}
  Counted counted;
  std::unique_ptr<double> scale;
  ChildKernel binary;
};

int scale_of_fn(char** args, const intptr_t* dims, const intptr_t* steps,
                gufunc_kernel_prefix* self, gufunc_context* ctx) {
  const ScaleOfState& s = *kernel_state<ScaleOfState>(self);
  auto child = s.binary.function<gufunc_instance_fn>();
  const intptr_t kBlock = 128;  // the child's output goes to a stack scratch block
  double scratch[kBlock];
  const intptr_t child_steps[3] = {steps[0], steps[1], sizeof(double)};
  for (intptr_t start = 0; start < dims[0]; start += kBlock) {
    const intptr_t m = std::min(kBlock, dims[0] - start);
    char* child_args[3] = {args[0] + start * steps[0], args[1] + start * steps[1],
                           reinterpret_cast<char*>(scratch)};
    if (child(child_args, &m, child_steps, s.binary.get(), ctx) != 0) return -1;
    for (intptr_t i = 0; i < m; ++i) {
      *reinterpret_cast<double*>(args[2] + (start + i) * steps[2]) = scratch[i] * *s.scale;
    }
  }
  return 0;
}

// Moves a released block with memcpy to an address that is a pointer's alignment but
// not twice that, frees the old memory without destructing, and returns the new
// home (to be freed through `raw`).
gufunc_kernel_prefix* relocate(gufunc_dynamic_kernel* k, std::unique_ptr<char[]>* raw) {
  raw->reset(new char[k->kernel_size + 2 * kKernelAlign]);
  char* at = raw->get();
  while (reinterpret_cast<uintptr_t>(at) % (2 * kKernelAlign) != kKernelAlign) ++at;
  std::memcpy(at, k->kernel, k->kernel_size);
  std::memset(static_cast<void*>(k->kernel), 0xA5, k->kernel_size);  // old copy unusable
  k->free_func(k->kernel);
  k->kernel = nullptr;
  return reinterpret_cast<gufunc_kernel_prefix*>(at);
}

// Runs a binary gufunc_instance_fn kernel over n iterations split into `nthreads`
// slices that run at once on RcppParallel's workers (each slice on its own context).
// Returns the warning bits; a failure message goes to *error.
unsigned call_sliced(gufunc_kernel_prefix* k, char* const base[3], const intptr_t steps[3],
                     intptr_t n, int nthreads, std::string* error) {
  auto fn = reinterpret_cast<gufunc_instance_fn>(k->function);
  std::vector<gufunc_context> ctx(nthreads);
  std::vector<int> status(nthreads, 0);
  const intptr_t per = (n + nthreads - 1) / nthreads;
  RcppParallelRunner runner(nthreads);
  runner.parallel_for(nthreads, 1, [&](size_t begin, size_t end) {
    for (size_t t = begin; t < end; ++t) {
      gufunc_context_init(&ctx[t]);
      const intptr_t lo = std::min(n, static_cast<intptr_t>(t) * per);
      const intptr_t len = std::min(n, lo + per) - lo;
      char* args[3] = {base[0] + lo * steps[0], base[1] + lo * steps[1], base[2] + lo * steps[2]};
      status[t] = fn(args, &len, steps, k, &ctx[t]);
    }
  });
  unsigned warnings = 0;
  for (int t = 0; t < nthreads; ++t) {
    if (status[t] != 0 && error->empty()) *error = ctx[t].msg;
    warnings |= ctx[t].warnings;
  }
  return warnings;
}

// The same on doubles (x, y) -> out; a length-1 input is recycled with step 0.
void call_threaded(gufunc_kernel_prefix* k, const double* x, intptr_t nx, const double* y,
                   intptr_t ny, double* out, intptr_t n, int nthreads) {
  char* const base[3] = {(char*)x, (char*)y, (char*)out};
  const intptr_t steps[3] = {nx == 1 ? 0 : 8, ny == 1 ? 0 : 8, 8};
  std::string error;
  call_sliced(k, base, steps, n, nthreads, &error);
  if (!error.empty()) throw Error("gufunc_kernel_error", error);
}

// A list with the given names; the caller fills it with set_item() and protects it.
SEXP named_list(const std::vector<const char*>& names) {
  SEXP out = PROTECT(alloc_vector(VECSXP, static_cast<R_xlen_t>(names.size())));
  SEXP nms = PROTECT(alloc_vector(STRSXP, static_cast<R_xlen_t>(names.size())));
  for (size_t i = 0; i < names.size(); ++i) SET_STRING_ELT(nms, i, Rf_mkChar(names[i]));
  Rf_setAttrib(out, R_NamesSymbol, nms);
  UNPROTECT(2);
  return out;
}

SEXP scalar_real(double v) {
  SEXP x = alloc_vector(REALSXP, 1);
  REAL(x)[0] = v;
  return x;
}

SEXP scalar_int(int v) {
  SEXP x = alloc_vector(INTSXP, 1);
  INTEGER(x)[0] = v;
  return x;
}

int thread_count(SEXP threads) {
  const int n = Rf_asInteger(threads);
  if (n == NA_INTEGER || n < 1) throw Error("gufunc_argument_error", "threads must be >= 1");
  return n;
}

intptr_t check_lengths(SEXP x, SEXP y) {
  const intptr_t nx = XLENGTH(x), ny = XLENGTH(y);
  if (nx != ny && nx != 1 && ny != 1) {
    throw Error("gufunc_argument_error", "lengths must match or be 1");
  }
  return (nx == 0 || ny == 0) ? 0 : std::max(nx, ny);
}

// Builds scale_of(add) with the kernel builder, relocates it, calls it from
// `threads` threads on doubles x and y, destroys it; returns the result and counts.
// The add child is built in the block (child = "built") or is gufunc's "+" requested
// as an instance and adopted into the block (child = "adopted").
SEXP kernel_builder_composite(SEXP x, SEXP y, SEXP scale, SEXP threads, SEXP child_kind) {
  return guarded([&]() -> SEXP {
    if (TYPEOF(x) != REALSXP || TYPEOF(y) != REALSXP) {
      throw Error("gufunc_argument_error", "x and y must be double vectors");
    }
    const intptr_t n = check_lengths(x, y);
    const int nthreads = thread_count(threads);
    const bool adopted = std::string(CHAR(STRING_ELT(child_kind, 0))) == "adopted";
    SEXP out = PROTECT(named_list(
        {"result", "kernel_size", "child_offset", "aligned", "states_alive_while_built",
         "states_destroyed", "states_alive_after", "live_before", "live_built", "live_after"}));
    SEXP result = alloc_vector(REALSXP, n);
    SET_VECTOR_ELT(out, 0, result);
    const int destroyed_before = states_destroyed.load();
    const long live_before = live_kernel_instances();

    KernelBuilder builder;
    const size_t parent =
        builder.add<ScaleOfState>(kernel_function(&scale_of_fn), Rf_asReal(scale));
    size_t child;
    if (adopted) {
      gufunc_dynamic_kernel plus;
      request_kernel("base", "+", {GUFUNC_DOUBLE, GUFUNC_DOUBLE}, &plus, nullptr);
      DynamicKernel owner(plus);  // released if adopting fails
      child = builder.adopt(owner.get());
    } else {
      child = builder.add<AddState>(kernel_function(&add_fn));
    }
    builder.link(builder.state<ScaleOfState>(parent).binary, child);
    gufunc_dynamic_kernel k = builder.release();
    const bool aligned = k.kernel_size % kKernelAlign == 0 &&
                         reinterpret_cast<uintptr_t>(k.kernel) % kKernelAlign == 0;
    const size_t block_size = k.kernel_size;
    const int alive = states_alive.load();
    const long live_built = live_kernel_instances();

    std::unique_ptr<char[]> raw;
    gufunc_kernel_prefix* moved = relocate(&k, &raw);
    try {
      call_threaded(moved, REAL(x), XLENGTH(x), REAL(y), XLENGTH(y), REAL(result), n, nthreads);
    } catch (...) {
      moved->destructor(moved);
      throw;
    }
    moved->destructor(moved);
    raw.reset();
    SET_VECTOR_ELT(out, 1, scalar_real(static_cast<double>(block_size)));
    SET_VECTOR_ELT(out, 2, scalar_real(static_cast<double>(child)));
    SET_VECTOR_ELT(out, 3, Rf_ScalarLogical(aligned));
    SET_VECTOR_ELT(out, 4, scalar_int(alive));
    SET_VECTOR_ELT(out, 5, scalar_int(states_destroyed.load() - destroyed_before));
    SET_VECTOR_ELT(out, 6, scalar_int(states_alive.load()));
    SET_VECTOR_ELT(out, 7, scalar_real(static_cast<double>(live_before)));
    SET_VECTOR_ELT(out, 8, scalar_real(static_cast<double>(live_built)));
    SET_VECTOR_ELT(out, 9, scalar_real(static_cast<double>(live_kernel_instances())));
    UNPROTECT(1);
    return out;
  });
}

struct Throwing {
  Throwing() { throw Error("gufunc_test_error", "state constructor failed"); }
};

// Misuses the builder as named by `what`; every case must throw gufunc_kernel_error
// (or the state's own error) and leave no state alive.
SEXP kernel_builder_misuse(SEXP what) {
  return guarded([&]() -> SEXP {
    const std::string w = CHAR(STRING_ELT(what, 0));
    KernelBuilder b;
    const size_t parent = b.add<ScaleOfState>(kernel_function(&scale_of_fn), 2.0);
    if (w == "release_empty") {
      KernelBuilder empty;
      empty.release();
    } else if (w == "unowned_child") {
      b.add<AddState>(kernel_function(&add_fn));
      b.release();
    } else if (w == "child_before_parent") {
      b.link(b.state<ScaleOfState>(parent).binary, parent);
    } else if (w == "link_twice") {
      const size_t c1 = b.add<AddState>(kernel_function(&add_fn));
      const size_t c2 = b.add<AddState>(kernel_function(&add_fn));
      b.link(b.state<ScaleOfState>(parent).binary, c1);
      b.link(b.state<ScaleOfState>(parent).binary, c2);
    } else if (w == "throwing_state") {
      b.add<AddState>(kernel_function(&add_fn));
      b.add<Throwing>(kernel_function(&add_fn));
    }
    throw Error("gufunc_test_error", "no misuse named " + w);
  });
}

SEXP states_alive_now() {
  return guarded([&]() -> SEXP { return Rf_ScalarInteger(states_alive.load()); });
}

// Requests `name` from namespace "base" for the types of x and y, relocates the
// instance, calls it with `threads` threads, releases it; returns the result, the
// argument types the kernel announced, and the live instance counts.
SEXP request_kernel_call(SEXP name, SEXP x, SEXP y, SEXP threads) {
  return guarded([&]() -> SEXP {
    const intptr_t n = check_lengths(x, y);
    const int nthreads = thread_count(threads);
    const long live_before = live_kernel_instances();
    gufunc_dynamic_kernel k;
    gufunc_kernel_info info;
    request_kernel("base", CHAR(STRING_ELT(name, 0)), {dtype_of(x, 1), dtype_of(y, 2)}, &k, &info);
    DynamicKernel owner(k);  // released on any error before the block moves
    const long live_during = live_kernel_instances();
    if (info.nin != 2 || info.nout != 1 || info.ndims != 0) {
      throw Error("gufunc_test_error", "not a binary element-wise kernel");
    }
    int nprotect = 0;
    SEXP out = PROTECT(
        named_list({"result", "types", "warnings", "live_before", "live_during", "live_after"}));
    ++nprotect;
    SEXP px = promote(x, dtype_of(x, 1), info.types[0], &nprotect);
    SEXP py = promote(y, dtype_of(y, 2), info.types[1], &nprotect);
    SEXP result = alloc_vector(sexptype_of(info.types[2]), n);
    SET_VECTOR_ELT(out, 0, result);
    SEXP types = alloc_vector(STRSXP, 3);
    SET_VECTOR_ELT(out, 1, types);
    for (int a = 0; a < 3; ++a) SET_STRING_ELT(types, a, Rf_mkChar(dtype_name(info.types[a])));

    std::unique_ptr<char[]> raw;
    gufunc_kernel_prefix* moved = relocate(owner.get(), &raw);  // owner is now empty
    const intptr_t size[3] = {static_cast<intptr_t>(dtype_size(info.types[0])),
                              static_cast<intptr_t>(dtype_size(info.types[1])),
                              static_cast<intptr_t>(dtype_size(info.types[2]))};
    const intptr_t nx = XLENGTH(px), ny = XLENGTH(py);
    const intptr_t steps[3] = {nx == 1 ? 0 : size[0], ny == 1 ? 0 : size[1], size[2]};
    char* const base[3] = {data_of(px), data_of(py), data_of(result)};
    std::string error;
    const unsigned warnings = call_sliced(moved, base, steps, n, nthreads, &error);
    moved->destructor(moved);
    raw.reset();
    if (!error.empty()) throw Error("gufunc_kernel_error", error);
    SET_VECTOR_ELT(out, 2, scalar_int(static_cast<int>(warnings)));
    SET_VECTOR_ELT(out, 3, scalar_real(static_cast<double>(live_before)));
    SET_VECTOR_ELT(out, 4, scalar_real(static_cast<double>(live_during)));
    SET_VECTOR_ELT(out, 5, scalar_real(static_cast<double>(live_kernel_instances())));
    UNPROTECT(nprotect);
    return out;
  });
}

}  // namespace
}  // namespace r
}  // namespace gufunc

GUFUNC_CALL_ENTRY(test_kernel_builder_composite, gufunc::r::kernel_builder_composite, 5);
GUFUNC_CALL_ENTRY(test_kernel_builder_misuse, gufunc::r::kernel_builder_misuse, 1);
GUFUNC_CALL_ENTRY(test_kernel_states_alive, gufunc::r::states_alive_now, 0);
GUFUNC_CALL_ENTRY(test_request_kernel_call, gufunc::r::request_kernel_call, 4);
