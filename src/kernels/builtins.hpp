// The builtin kernels of the "base" namespace: one registration call per family.
#pragma once

namespace gufunc {

class Table;

void register_arithmetic_kernels(Table& table);  // kernels/arithmetic.cpp
void register_comparison_kernels(Table& table);  // kernels/comparison.cpp
void register_logic_kernels(Table& table);       // kernels/logic.cpp
void register_math_kernels(Table& table);        // kernels/math.cpp

// All families, under base R's names, plus the aliases add, subtract, multiply
// and divide for + - * /.
void register_builtin_kernels(Table& base);

}  // namespace gufunc
