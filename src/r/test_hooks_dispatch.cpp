// Test-only kernels for the dispatch tests: core dims, variant preference, kernel
// failures on worker threads and a typecheck hook. Registered on request only, into
// namespaces whose names start with "gufunc_test".
#include <string>

#include "dispatch/table.hpp"
#include "dispatch/typecheck.hpp"
#include "kernels/matched_libm.hpp"
#include "r/call_registry.hpp"
#include "r/guard.hpp"

namespace gufunc {
namespace r {

namespace {

// "double(m,n) -> integer()": writes which variant ran (1 C, 2 Fortran, 3 Xnd, 4 Strided).
template <int Code>
int probe_nd(const gufunc_ndarray* stack, void*, gufunc_context*) {
  const gufunc_ndarray& out = stack[1];
  const int ndim = out.ndim;
  for (intptr_t i = 0; i < out.shape[ndim - 1]; ++i) {
    *reinterpret_cast<int*>(out.data + i * out.strides[ndim - 1]) = Code;
  }
  return 0;
}

int probe_strided(char** args, const intptr_t* dims, const intptr_t* steps, void*) {
  for (intptr_t i = 0; i < dims[0]; ++i) *reinterpret_cast<int*>(args[1] + i * steps[1]) = 4;
  return 0;
}

// "double(n), double(n) -> double()" as a NumPy strided loop.
int inner_strided(char** args, const intptr_t* dims, const intptr_t* steps, void*) {
  const intptr_t n = dims[0], len = dims[1];
  for (intptr_t i = 0; i < n; ++i) {
    const char* x = args[0] + i * steps[0];
    const char* y = args[1] + i * steps[1];
    double s = 0;
    for (intptr_t k = 0; k < len; ++k) {
      s += *reinterpret_cast<const double*>(x + k * steps[3]) *
           *reinterpret_cast<const double*>(y + k * steps[4]);
    }
    *reinterpret_cast<double*>(args[2] + i * steps[2]) = s;
  }
  return 0;
}

// "double(m,n), double(n) -> double(m)" as a Fortran nd kernel.
int matvec_fortran(const gufunc_ndarray* stack, void*, gufunc_context*) {
  const gufunc_ndarray &a = stack[0], &x = stack[1], &y = stack[2];
  const intptr_t m = a.shape[0], n = a.shape[1], loops = a.shape[2];
  for (intptr_t l = 0; l < loops; ++l) {
    const double* A = reinterpret_cast<const double*>(a.data + l * a.strides[2]);
    const double* X = reinterpret_cast<const double*>(x.data + l * x.strides[1]);
    double* Y = reinterpret_cast<double*>(y.data + l * y.strides[1]);
    for (intptr_t i = 0; i < m; ++i) {
      double s = 0;
      for (intptr_t j = 0; j < n; ++j) s += A[i + j * m] * X[j];
      Y[i] = s;
    }
  }
  return 0;
}

// "double -> double": fails on a negative input, as a kernel on any thread may.
int fail_negative(char** args, const intptr_t* dims, const intptr_t* steps, void* data) {
  auto* loop = static_cast<gufunc_loop_data*>(data);
  for (intptr_t i = 0; i < dims[0]; ++i) {
    const double v = *reinterpret_cast<const double*>(args[0] + i * steps[0]);
    if (v < 0) return gufunc_error(loop->ctx, "negative input %g", v);
    *reinterpret_cast<double*>(args[1] + i * steps[1]) = v;
  }
  return 0;
}

// "(n) -> (3)" requires n >= 2: exercises constraints and frozen output dims.
int spread_constraint(const intptr_t* sizes, void*, gufunc_context* ctx) {
  return sizes[0] >= 2 ? 0 : gufunc_error(ctx, "n must be at least 2, not %ld", (long)sizes[0]);
}
int spread_strided(char** args, const intptr_t* dims, const intptr_t* steps, void*) {
  const intptr_t n = dims[0], len = dims[1];
  for (intptr_t i = 0; i < n; ++i) {
    const char* x = args[0] + i * steps[0];
    double lo = *reinterpret_cast<const double*>(x), hi = lo, sum = 0;
    for (intptr_t k = 0; k < len; ++k) {
      const double v = *reinterpret_cast<const double*>(x + k * steps[2]);
      lo = v < lo ? v : lo;
      hi = v > hi ? v : hi;
      sum += v;
    }
    char* out = args[1] + i * steps[1];
    const double res[3] = {lo, hi, sum};
    for (int k = 0; k < 3; ++k) *reinterpret_cast<double*>(out + k * steps[3]) = res[k];
  }
  return 0;
}

// A typecheck hook that must agree with the generic check: it delegates to the
// same rule through the public multimethod view.
const gufunc_kernel_set* hook_typecheck(const gufunc_func* f, const gufunc_dtype* in, int nin,
                                        gufunc_context* ctx) {
  int best = -1;
  for (int i = 0; i < f->nkernels && best < 0; ++i) {
    const std::string sig = f->kernels[i].signature;
    const std::string want = nin == 1 && in[0] != GUFUNC_DOUBLE ? "integer" : "double";
    if (sig.compare(0, want.size(), want) == 0) best = i;
  }
  if (best < 0) {
    gufunc_error(ctx, "hook found no kernel");
    return nullptr;
  }
  return &f->kernels[best];
}
int copy_int(char** args, const intptr_t* dims, const intptr_t* steps, void*) {
  for (intptr_t i = 0; i < dims[0]; ++i) {
    *reinterpret_cast<int*>(args[1] + i * steps[1]) =
        *reinterpret_cast<const int*>(args[0] + i * steps[0]);
  }
  return 0;
}
int copy_double(char** args, const intptr_t* dims, const intptr_t* steps, void*) {
  for (intptr_t i = 0; i < dims[0]; ++i) {
    *reinterpret_cast<double*>(args[1] + i * steps[1]) =
        *reinterpret_cast<const double*>(args[0] + i * steps[0]);
  }
  return 0;
}

void register_probes(const std::string& ns, bool c, bool f, bool x, bool s) {
  Table& t = table(ns);
  gufunc_kernel_init init = {"probe",
                             "double(m,n) -> integer()",
                             nullptr,
                             c ? probe_nd<1> : nullptr,
                             f ? probe_nd<2> : nullptr,
                             x ? probe_nd<3> : nullptr,
                             s ? probe_strided : nullptr,
                             nullptr};
  t.add_kernel(init);
  // The same probe element-wise: eager calls and lazy evaluation must agree.
  init.name = "probe1";
  init.signature = "double -> integer";
  t.add_kernel(init);
}

SEXP register_test_kernels() {
  return guarded([&]() -> SEXP {
    if (find_table("gufunc_test") != nullptr) return R_NilValue;
    register_probes("gufunc_test_CFXS", true, true, true, true);
    register_probes("gufunc_test_FXS", false, true, true, true);
    register_probes("gufunc_test_XS", false, false, true, true);
    register_probes("gufunc_test_S", false, false, false, true);
    register_probes("gufunc_test_C", true, false, false, false);
    Table& t = table("gufunc_test");
    t.add_kernel({"inner", "double(n), double(n) -> double()", nullptr, nullptr, nullptr, nullptr,
                  inner_strided, nullptr});
    t.add_kernel({"matvec", "double(m,n), double(n) -> double(m)", nullptr, nullptr, matvec_fortran,
                  nullptr, nullptr, nullptr});
    t.add_kernel({"fail_negative", "double -> double", nullptr, nullptr, nullptr, nullptr,
                  fail_negative, nullptr});
    t.add_kernel({"spread", "double(n) -> double(3)", spread_constraint, nullptr, nullptr, nullptr,
                  spread_strided, nullptr});
    t.add_kernel(
        {"hooked", "integer -> integer", nullptr, nullptr, nullptr, nullptr, copy_int, nullptr});
    t.add_kernel(
        {"hooked", "double -> double", nullptr, nullptr, nullptr, nullptr, copy_double, nullptr});
    t.find("hooked")->set_typecheck(hook_typecheck);
    return R_NilValue;
  });
}

}  // namespace

// Whether exp, sin and cos run their fast path here (tests and benchmarks report it).
SEXP matched_libm_available() { return Rf_ScalarLogical(matched::fast_path_available()); }

}  // namespace r
}  // namespace gufunc

GUFUNC_CALL_ENTRY(register_test_kernels, gufunc::r::register_test_kernels, 0);
GUFUNC_CALL_ENTRY(matched_libm_available, gufunc::r::matched_libm_available, 0);
