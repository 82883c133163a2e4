// exp, sin, cos and x ^ y for y a small whole number or half (pow(x, y)) over
// arrays that return exactly the C library's values (the functions base R calls), several times
// faster than calling them per element.
//
// Why this is exact: a fast path evaluates the function to about 2^-60 relative
// error (table + short polynomial + double-double sums) and so knows the unrounded
// value to within a hundredth of an ulp. glibc's exp is documented within 0.511 ulp
// and its sin/cos within about 0.55 ulp (measured here: 0.507 and 0.516). Where the
// fast value lies clearly inside one rounding interval (further from its edge than
// our error plus the library's excess over 0.5 ulp), the library cannot have
// returned any other double, so the fast value is the library's. Every other
// element (near an interval edge, outside the fast range, NaN, Inf) is computed by
// the scalar function itself. The fast path is used only with glibc on x86-64 CPUs
// with AVX2 and FMA; anywhere else every element goes to the scalar function.
#pragma once

#include <cstdint>

namespace gufunc {
namespace matched {

// The scalar function an element falls back to: it must return the C library's
// exp (sin, cos) for every finite input; it may add R's NaN rules and warnings.
using ScalarFn = double (*)(double x, unsigned& warn);

// y[i] = fn(x[i]) for i < n; x and y may be the same array.
void exp_array(const double* x, double* y, intptr_t n, ScalarFn fn, unsigned& warn);
void sin_array(const double* x, double* y, intptr_t n, ScalarFn fn, unsigned& warn);
void cos_array(const double* x, double* y, intptr_t n, ScalarFn fn, unsigned& warn);
// sqrt: exact everywhere; the array function only vectorizes it (matched_sqrt.cpp).
void sqrt_array(const double* x, double* y, intptr_t n, ScalarFn fn, unsigned& warn);
// The scalar power an element falls back to: the C library's pow(x, y) for every
// finite x and y, with R's rules otherwise. (y is passed at run time: a compiler may
// fold pow(x, -1.0) into 1 / x, which is not the library's value.)
using PowerFn = double (*)(double x, double y, unsigned& warn);
// y[i] = fn(x[i], halves / 2), for halves from matched_power_halves().
constexpr int kMaxMatchedPower = 32;
void power_array(const double* x, double* y, intptr_t n, int halves, PowerFn fn, unsigned& warn);
// 2 y when x ^ y has a fast path: y a whole number or a half, |y| <= kMaxMatchedPower,
// y not 0, 1 or 2 (which base R computes otherwise); 0 for other y.
int matched_power_halves(double y);

// Whether the fast path runs on this machine (for tests and benchmarks).
bool fast_path_available();

}  // namespace matched
}  // namespace gufunc
