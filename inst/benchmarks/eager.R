# End-to-end timings of eager gufunc_call() against base R and a hand-written
# RcppParallel loop, measured in the same run (medians, milliseconds).
# Usage: Rscript inst/benchmarks/eager.R [n]   (default n = 1e7)
# The packages and medians_ms(), from common.R beside this script.
source(file.path(dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)[1])),
                 "common.R"))
args <- commandArgs(TRUE)
n <- if (length(args)) as.numeric(args[1]) else 1e7
set.seed(1)
a <- runif(n)
b <- runif(n)
ai <- sample.int(1000L, n, replace = TRUE)
bi <- sample.int(1000L, n, replace = TRUE)

# The hand-written baseline: one parallel loop per expression, no dispatch, no NA
# rules beyond what IEEE doubles and R's integer NA check need.
sourceCpp(code = '
// [[Rcpp::depends(RcppParallel)]]
#include <Rcpp.h>
#include <RcppParallel.h>
#include <cmath>
using namespace RcppParallel;
template <class F> struct Map2 : Worker {
  const double *a, *b; double* o; F f;
  Map2(const double* a, const double* b, double* o, F f) : a(a), b(b), o(o), f(f) {}
  void operator()(std::size_t s, std::size_t e) { for (std::size_t i = s; i < e; i++) o[i] = f(a[i], b[i]); }
};
struct Mul { double operator()(double x, double y) const { return x * y; } };
struct Sqrt { double operator()(double x, double) const { return std::sqrt(x); } };
// The exponent arrives at run time, as in R: a constant one lets the compiler rewrite pow.
struct Pow { double y; double operator()(double x, double) const { return std::pow(x, y); } };
struct IntAdd : Worker {
  const int *a, *b; int* o;
  IntAdd(const int* a, const int* b, int* o) : a(a), b(b), o(o) {}
  void operator()(std::size_t s, std::size_t e) {
    for (std::size_t i = s; i < e; i++) {
      long long z = (long long)a[i] + b[i];
      o[i] = (a[i] == NA_INTEGER || b[i] == NA_INTEGER || z > INT_MAX || z < -INT_MAX) ? NA_INTEGER : (int)z;
    }
  }
};
// [[Rcpp::export]]
Rcpp::NumericVector hand_mul(Rcpp::NumericVector a, Rcpp::NumericVector b, int threads) {
  Rcpp::NumericVector o(Rcpp::no_init(a.size()));
  Map2<Mul> w(a.begin(), b.begin(), o.begin(), Mul()); parallelFor(0, a.size(), w, 16384, threads); return o;
}
// [[Rcpp::export]]
Rcpp::NumericVector hand_sqrt(Rcpp::NumericVector a, int threads) {
  Rcpp::NumericVector o(Rcpp::no_init(a.size()));
  Map2<Sqrt> w(a.begin(), a.begin(), o.begin(), Sqrt()); parallelFor(0, a.size(), w, 16384, threads); return o;
}
// [[Rcpp::export]]
Rcpp::NumericVector hand_pow(Rcpp::NumericVector a, double y, int threads) {
  Rcpp::NumericVector o(Rcpp::no_init(a.size()));
  Map2<Pow> w(a.begin(), a.begin(), o.begin(), Pow{y}); parallelFor(0, a.size(), w, 16384, threads); return o;
}
// [[Rcpp::export]]
Rcpp::IntegerVector hand_int_add(Rcpp::IntegerVector a, Rcpp::IntegerVector b, int threads) {
  Rcpp::IntegerVector o(Rcpp::no_init(a.size()));
  IntAdd w(a.begin(), b.begin(), o.begin()); parallelFor(0, a.size(), w, 16384, threads); return o;
}
')

cases <- list(
  list("a * b (double)", function() a * b, function() gufunc_call("*", a, b),
       function(t) hand_mul(a, b, t)),
  list("sqrt(a)", function() sqrt(a), function() gufunc_call("sqrt", a),
       function(t) hand_sqrt(a, t)),
  list("a ^ 3", function() a^3, function() gufunc_call("^", a, 3),
       function(t) hand_pow(a, 3, t)),
  list("ai + bi (integer)", function() ai + bi, function() gufunc_call("+", ai, bi),
       function(t) hand_int_add(ai, bi, t))
)
cat(sprintf("n = %.0f, cores available: %d\n", n, RcppParallel::defaultNumThreads()))
cat(sprintf("%-20s %7s %9s %9s %9s %11s %11s\n", "expression", "threads", "base_ms",
            "gufunc_ms", "hand_ms", "base/gufunc", "gufunc/hand"))
for (cs in cases) {
  stopifnot(identical(cs[[2]](), cs[[3]]()))
  for (threads in 1:2) {
    old <- options(gufunc.threads = threads)
    ms <- medians_ms(list(cs[[2]], cs[[3]], function() cs[[4]](threads)), reps = 9)
    base <- ms[1]
    g <- ms[2]
    h <- ms[3]
    options(old)
    cat(sprintf("%-20s %7d %9.1f %9.1f %9.1f %11.2f %11.2f\n", cs[[1]], threads, base, g, h,
                base / g, g / h))
  }
}
