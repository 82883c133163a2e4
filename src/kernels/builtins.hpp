// The builtin kernels of the "base" namespace: one registration call per family.
#pragma once

#include <initializer_list>

#include "dispatch/builtin_traits.hpp"
#include "dispatch/row_kernel.hpp"
#include "gufunc/kernel_set.h"

namespace gufunc {

class Table;

void register_arithmetic_kernels(Table& table);      // kernels/arithmetic.cpp
void register_comparison_kernels(Table& table);      // kernels/comparison.cpp
void register_logic_kernels(Table& table);           // kernels/logic.cpp
void register_math_kernels(Table& table);            // kernels/math.cpp
void register_predicate_kernels(Table& table);       // kernels/predicates.cpp
void register_linalg_product_kernels(Table& table);  // kernels/linalg_products.cpp
void register_linalg_solve_kernels(Table& table);    // kernels/linalg_solve.cpp
void register_linalg_eigen_kernels(Table& table);    // kernels/linalg_eigen.cpp
void register_cumulative_kernels(Table& table);      // kernels/cumulative.cpp
void register_dim_reduction_kernels(Table& table);   // kernels/dim_reductions.cpp
void register_extreme_kernels(Table& table);         // kernels/extremes.cpp

// Adds a kernel set of a builtin element-wise function of `family`, which lazy
// values defer; `set_flags` are KernelSetFlag bits of this kernel set, `row` its
// row kernel (a set of double operands and result; see kernels/row_loops.hpp).
void add_builtin(Table& table, Family family, const gufunc_kernel_init& init,
                 unsigned set_flags = 0, RowKernel row = nullptr);
void add_builtins(Table& table, Family family, std::initializer_list<gufunc_kernel_init> inits,
                  unsigned set_flags = 0);

// All families, under base R's names, plus the aliases add, subtract, multiply
// and divide for + - * /.
void register_builtin_kernels(Table& base);

}  // namespace gufunc
