// The builtin kernels of the "base" namespace: one registration call per family.
#pragma once

#include "gufunc/kernel_set.h"

namespace gufunc {

class Table;

void register_arithmetic_kernels(Table& table);      // kernels/arithmetic.cpp
void register_comparison_kernels(Table& table);      // kernels/comparison.cpp
void register_logic_kernels(Table& table);           // kernels/logic.cpp
void register_math_kernels(Table& table);            // kernels/math.cpp
void register_linalg_product_kernels(Table& table);  // kernels/linalg_products.cpp
void register_linalg_solve_kernels(Table& table);    // kernels/linalg_solve.cpp
void register_linalg_eigen_kernels(Table& table);    // kernels/linalg_eigen.cpp
void register_cumulative_kernels(Table& table);      // kernels/cumulative.cpp
void register_dim_reduction_kernels(Table& table);   // kernels/dim_reductions.cpp

// The loop of the builtin double `*`: the engine folds `sum(x * y)` into one pass
// when a product node runs this loop (and not a kernel registered over it).
gufunc_strided_kernel_t builtin_double_times_loop();

// All families, under base R's names, plus the aliases add, subtract, multiply
// and divide for + - * /.
void register_builtin_kernels(Table& base);

}  // namespace gufunc
