// Reductions over the leading core dim, "double(n) -> double()": sum, mean, prod,
// min and max, each also as <name>_na_rm. Every slice gives exactly what base R's
// summary of that slice as a double vector gives (kernels/r_summary.hpp).
// clang-format off
#include "kernels/loop_options.hpp"  // first: covers everything below
// clang-format on
#include "dispatch/table.hpp"
#include "kernels/builtins.hpp"
#include "kernels/r_summary.hpp"
#include "kernels/strided_loop.hpp"

namespace gufunc {
namespace {

using rsem::DoubleSlice;

struct Sum {
  static double apply(const DoubleSlice& x, bool na_rm, unsigned&) { return rsem::sum_r(x, na_rm); }
};
struct Prod {
  static double apply(const DoubleSlice& x, bool na_rm, unsigned&) {
    return rsem::prod_r(x, na_rm);
  }
};
struct Mean {
  static double apply(const DoubleSlice& x, bool na_rm, unsigned&) {
    return rsem::mean_r(x, na_rm);
  }
};
struct Min {
  static double apply(const DoubleSlice& x, bool na_rm, unsigned& w) {
    return rsem::minmax_r<true>(x, na_rm, w);
  }
};
struct Max {
  static double apply(const DoubleSlice& x, bool na_rm, unsigned& w) {
    return rsem::minmax_r<false>(x, na_rm, w);
  }
};

// dimensions = {loops, n}; steps = {input loop step, output loop step, input core stride}.
template <class Op, bool NaRm>
int reduce_loop(char** args, const intptr_t* dimensions, const intptr_t* steps, void* data) {
  const intptr_t loops = dimensions[0], n = dimensions[1];
  unsigned warn = 0;
  for (intptr_t i = 0; i < loops; ++i) {
    const DoubleSlice x = {args[0] + i * steps[0], n, steps[2]};
    *reinterpret_cast<double*>(args[1] + i * steps[1]) = Op::apply(x, NaRm, warn);
  }
  report_warnings(data, warn);
  return 0;
}

}  // namespace

void register_dim_reduction_kernels(Table& table) {
  const char* sig = "double(n) -> double()";
  const gufunc_kernel_init inits[] = {
      strided_init("sum", sig, reduce_loop<Sum, false>),
      strided_init("sum_na_rm", sig, reduce_loop<Sum, true>),
      strided_init("mean", sig, reduce_loop<Mean, false>),
      strided_init("mean_na_rm", sig, reduce_loop<Mean, true>),
      strided_init("prod", sig, reduce_loop<Prod, false>),
      strided_init("prod_na_rm", sig, reduce_loop<Prod, true>),
      strided_init("min", sig, reduce_loop<Min, false>),
      strided_init("min_na_rm", sig, reduce_loop<Min, true>),
      strided_init("max", sig, reduce_loop<Max, false>),
      strided_init("max_na_rm", sig, reduce_loop<Max, true>),
  };
  for (const gufunc_kernel_init& init : inits) table.add_kernel(init);
}

}  // namespace gufunc
