// Registers every builtin family into the "base" table.
#include "kernels/builtins.hpp"

#include "dispatch/table.hpp"

namespace gufunc {

void add_builtin(Table& table, Family family, const gufunc_kernel_init& init, unsigned set_flags,
                 RowKernel row) {
  table.add_kernel(init);
  Function& f = *table.find(init.name);
  f.set_traits(BuiltinTraits{family, kDeferred});
  f.add_set_flags(f.size() - 1, set_flags);
  f.set_row_kernel(f.size() - 1, row);
}

void add_builtins(Table& table, Family family, std::initializer_list<gufunc_kernel_init> inits,
                  unsigned set_flags) {
  for (const gufunc_kernel_init& init : inits) add_builtin(table, family, init, set_flags);
}

void register_builtin_kernels(Table& base) {
  register_arithmetic_kernels(base);
  register_comparison_kernels(base);
  register_logic_kernels(base);
  register_math_kernels(base);
  register_predicate_kernels(base);
  register_linalg_product_kernels(base);
  register_linalg_solve_kernels(base);
  register_linalg_eigen_kernels(base);
  register_cumulative_kernels(base);
  register_dim_reduction_kernels(base);
  register_extreme_kernels(base);
  base.add_alias("add", "+");
  base.add_alias("subtract", "-");
  base.add_alias("multiply", "*");
  base.add_alias("divide", "/");
}

}  // namespace gufunc
