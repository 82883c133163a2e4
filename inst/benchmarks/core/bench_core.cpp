// Benchmarks of gufunc's R-free core: the cost of calling a kernel through the ABI,
// of choosing a kernel (dispatch), and the throughput of the builtin `+` strided loop.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "abi/kernel_builder.hpp"
#include "dispatch/request.hpp"
#include "dispatch/table.hpp"
#include "dispatch/typecheck.hpp"
#include "kernels/builtins.hpp"
#include "kernels/matched_libm.hpp"

namespace {

using gufunc::DynamicKernel;

// A requested "+" for (double, double): the kernel another package would get.
DynamicKernel request_plus() {
  gufunc_dynamic_kernel k;
  gufunc_kernel_info info;
  gufunc::request_kernel("base", "+", {GUFUNC_DOUBLE, GUFUNC_DOUBLE}, &k, &info);
  return DynamicKernel(k);
}

// The kernel set behind it, for calls that bypass the ABI wrapper.
const gufunc_kernel_set& plus_set() {
  const gufunc::Function& f = *gufunc::table("base").find("+");
  return f.set(gufunc::typecheck(f, {GUFUNC_DOUBLE, GUFUNC_DOUBLE}).index);
}

struct Vectors {
  explicit Vectors(size_t n) : x(n), y(n), out(n) {
    for (size_t i = 0; i < n; ++i) {
      x[i] = 0.5 * static_cast<double>(i);
      y[i] = 1.0 / static_cast<double>(i + 1);
    }
  }
  std::vector<double> x, y, out;
  char* args[3] = {reinterpret_cast<char*>(x.data()), reinterpret_cast<char*>(y.data()),
                   reinterpret_cast<char*>(out.data())};
};

const intptr_t kSteps[3] = {sizeof(double), sizeof(double), sizeof(double)};

// ns per call of a requested kernel instance: the gufunc_instance_fn indirection,
// the core-dim checks, then the strided loop.
void BM_InstanceCall(benchmark::State& state) {
  const intptr_t n = state.range(0);
  DynamicKernel k = request_plus();
  Vectors v(static_cast<size_t>(n));
  gufunc_context ctx;
  gufunc_context_init(&ctx);
  for (auto _ : state) {
    gufunc_instance_call(k.get(), v.args, &n, kSteps, &ctx);
    benchmark::DoNotOptimize(v.out.data());
  }
}
BENCHMARK(BM_InstanceCall)->Arg(1)->Arg(8)->Arg(64);

// The builtin double `+` loop called directly, as the dispatcher does, `state`'s
// iterations over n = state.range(0) elements; `Sink` keeps the work observable.
template <class Sink>
void run_direct_add(benchmark::State& state, Sink sink) {
  const intptr_t n = state.range(0);
  const gufunc_kernel_set& set = plus_set();
  Vectors v(static_cast<size_t>(n));
  gufunc_context ctx;
  gufunc_context_init(&ctx);
  gufunc_loop_data data = {set.state, &ctx};
  for (auto _ : state) {
    set.Strided(v.args, &n, kSteps, &data);
    sink(v);
  }
}

// The baseline of BM_InstanceCall.
void BM_DirectStridedCall(benchmark::State& state) {
  run_direct_add(state, [](Vectors& v) { benchmark::DoNotOptimize(v.out.data()); });
}
BENCHMARK(BM_DirectStridedCall)->Arg(1)->Arg(8)->Arg(64);

// Dispatch: the type check for "+" with (integer, double), which needs a promotion.
void BM_TypecheckPlusIntegerDouble(benchmark::State& state) {
  const gufunc::Function& f = *gufunc::table("base").find("+");
  const std::vector<gufunc_dtype> in = {GUFUNC_INTEGER, GUFUNC_DOUBLE};
  for (auto _ : state) benchmark::DoNotOptimize(gufunc::typecheck_with_hook(f, in));
}
BENCHMARK(BM_TypecheckPlusIntegerDouble);

// Dispatch from a name: table lookup of the alias "add", then the type check.
void BM_LookupAndTypecheck(benchmark::State& state) {
  gufunc::Table& base = gufunc::table("base");
  const std::string name = "add";
  const std::vector<gufunc_dtype> in = {GUFUNC_INTEGER, GUFUNC_DOUBLE};
  for (auto _ : state) {
    benchmark::DoNotOptimize(gufunc::typecheck_with_hook(*base.find(name), in));
  }
}
BENCHMARK(BM_LookupAndTypecheck);

// What another package pays to obtain and release a kernel instance.
void BM_RequestAndRelease(benchmark::State& state) {
  for (auto _ : state) {
    DynamicKernel k = request_plus();
    benchmark::DoNotOptimize(k.kernel());
  }
}
BENCHMARK(BM_RequestAndRelease);

// Throughput of the builtin double `+` loop, bytes read and written (24 per
// element), in and out of cache; one thread.
void BM_AddThroughput(benchmark::State& state) {
  run_direct_add(state, [](Vectors&) { benchmark::ClobberMemory(); });
  const double bytes = 3.0 * sizeof(double) * static_cast<double>(state.range(0));
  // Shown as e.g. "bytes=13.2G/s": decimal gigabytes per second, as STREAM reports.
  state.counters["bytes"] =
      benchmark::Counter(bytes * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate, benchmark::Counter::OneK::kIs1000);
  state.counters["KiB"] = bytes / 1024.0;
}
// 24 KiB (L1) up to 384 MiB (far beyond the last-level cache).
BENCHMARK(BM_AddThroughput)->RangeMultiplier(8)->Range(1 << 10, 1 << 24);

// exp, sin and cos over 4096 doubles at a time (in L1), taken in turn from 2^16
// pseudo-random inputs: the matched array functions, which give the C library's
// bits, against calling the C library per element. Inputs are those of the E3
// reference expression: exp on [-0.5, 0], sin and cos on [0, 1). The pool is larger
// than a branch predictor can learn, as 1e7 distinct values would be.
double libm_exp(double x, unsigned&) { return std::exp(x); }
double libm_sin(double x, unsigned&) { return std::sin(x); }
double libm_cos(double x, unsigned&) { return std::cos(x); }

using ArrayFn = void (*)(const double*, double*, intptr_t, gufunc::matched::ScalarFn, unsigned&);

void run_elementwise(benchmark::State& state, double lo, double width, ArrayFn array_fn,
                     gufunc::matched::ScalarFn scalar_fn, bool matched) {
  const intptr_t n = 4096, pool = intptr_t(1) << 16;
  std::vector<double> x(pool), y(n);
  std::mt19937_64 random(42);
  std::uniform_real_distribution<double> uniform(lo, lo + width);
  for (double& v : x) v = uniform(random);
  unsigned warn = 0;
  intptr_t offset = 0;
  for (auto _ : state) {
    const double* in = x.data() + offset;
    if (matched) {
      array_fn(in, y.data(), n, scalar_fn, warn);
    } else {
      for (intptr_t i = 0; i < n; ++i) y[i] = scalar_fn(in[i], warn);
    }
    offset = (offset + n) % pool;
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  state.counters["ns_per_element"] =
      benchmark::Counter(static_cast<double>(n) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["fast_path"] = gufunc::matched::fast_path_available() ? 1 : 0;
}

void BM_ExpMatched(benchmark::State& s) {
  run_elementwise(s, -0.5, 0.5, gufunc::matched::exp_array, libm_exp, true);
}
void BM_ExpLibm(benchmark::State& s) {
  run_elementwise(s, -0.5, 0.5, gufunc::matched::exp_array, libm_exp, false);
}
void BM_SinMatched(benchmark::State& s) {
  run_elementwise(s, 0.0, 1.0, gufunc::matched::sin_array, libm_sin, true);
}
void BM_SinLibm(benchmark::State& s) {
  run_elementwise(s, 0.0, 1.0, gufunc::matched::sin_array, libm_sin, false);
}
void BM_CosMatched(benchmark::State& s) {
  run_elementwise(s, 0.0, 1.0, gufunc::matched::cos_array, libm_cos, true);
}
void BM_CosLibm(benchmark::State& s) {
  run_elementwise(s, 0.0, 1.0, gufunc::matched::cos_array, libm_cos, false);
}
BENCHMARK(BM_ExpMatched);
BENCHMARK(BM_ExpLibm);
BENCHMARK(BM_SinMatched);
BENCHMARK(BM_SinLibm);
BENCHMARK(BM_CosMatched);
BENCHMARK(BM_CosLibm);

}  // namespace

int main(int argc, char** argv) {
  gufunc::register_builtin_kernels(gufunc::table("base"));
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
