// Registers every builtin family into the "base" table.
#include "kernels/builtins.hpp"

#include "dispatch/table.hpp"

namespace gufunc {

void register_builtin_kernels(Table& base) {
  register_arithmetic_kernels(base);
  register_comparison_kernels(base);
  register_logic_kernels(base);
  register_math_kernels(base);
  register_linalg_product_kernels(base);
  register_linalg_solve_kernels(base);
  register_linalg_eigen_kernels(base);
  register_cumulative_kernels(base);
  register_dim_reduction_kernels(base);
  base.add_alias("add", "+");
  base.add_alias("subtract", "-");
  base.add_alias("multiply", "*");
  base.add_alias("divide", "/");
}

}  // namespace gufunc
