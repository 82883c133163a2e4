// Cumulative sums and products along the leading core dim, "double(n) -> double(n)",
// as base R's cumsum/cumprod on doubles (src/main/cum.c): one long double
// accumulator per slice, so NA and NaN propagate from where they occur on (which
// of the two wins follows R's x87 rules, kernels/r_summary.hpp).
// clang-format off
#include "kernels/loop_options.hpp"  // first: covers everything below
// clang-format on
#include <cmath>
#include <cstring>

#include "dispatch/table.hpp"
#include "kernels/builtins.hpp"
#include "kernels/r_summary.hpp"
#include "kernels/strided_loop.hpp"

namespace gufunc {
namespace {

struct CumSum {
  static constexpr long double kStart = 0;
  static long double step(long double acc, double x) { return acc + x; }
};
struct CumProd {
  static constexpr long double kStart = 1;
  static long double step(long double acc, double x) { return acc * x; }
};

// dimensions = {loops, n}; steps = {input and output loop steps, their core strides}.
template <class Op>
int cumulative_loop(char** args, const intptr_t* dimensions, const intptr_t* steps, void*) {
  const intptr_t loops = dimensions[0], n = dimensions[1];
  const intptr_t in_stride = steps[2], out_stride = steps[3];
  for (intptr_t i = 0; i < loops; ++i) {
    const char* in = args[0] + i * steps[0];
    char* out = args[1] + i * steps[1];
    long double acc = Op::kStart;
    for (intptr_t k = 0; k < n; ++k) {
      double x;
      std::memcpy(&x, in + k * in_stride, sizeof x);
      acc = std::isnan(x) && std::isnan(acc) ? rsem::cumulative_nan(acc, x) : Op::step(acc, x);
      const double y = static_cast<double>(acc);
      std::memcpy(out + k * out_stride, &y, sizeof y);
    }
  }
  return 0;
}

}  // namespace

void register_cumulative_kernels(Table& table) {
  const char* sig = "double(n) -> double(n)";
  table.add_kernel(strided_init("cumsum", sig, cumulative_loop<CumSum>));
  table.add_kernel(strided_init("cumprod", sig, cumulative_loop<CumProd>));
}

}  // namespace gufunc
