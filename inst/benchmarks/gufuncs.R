# gufuncs with core dimensions against base R and hand-written RcppParallel loops,
# measured in the same run, for 1 and 2 threads:
#   matmul   a stack of k 3x3 products vs a loop over slices with %*%
#   inner    L pairs of length-8 vectors vs colSums(a * b)
#   gufunc_cpp: a compiled user kernel vs the equivalent builtin (inner), with its
#            first compile time and the time of a second, cached gufunc_cpp() call
#   reduce_dims over rows / columns vs colSums() / rowSums() (base R's C loops)
# Usage: Rscript inst/benchmarks/gufuncs.R [k] [L]   (defaults k = 1e5, L = 1e6)
# The packages and medians_ms(), from common.R beside this script.
source(file.path(dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)[1])),
                 "common.R"))
args <- commandArgs(TRUE)
k <- if (length(args) >= 1) as.numeric(args[1]) else 1e5
L <- if (length(args) >= 2) as.numeric(args[2]) else 1e6
set.seed(1)

# Hand-written loops: one parallel pass over the stack, same accumulation as the
# builtins (matmul in double, inner in long double like colSums).
sourceCpp(code = '
// [[Rcpp::depends(RcppParallel)]]
#include <Rcpp.h>
#include <RcppParallel.h>
using namespace RcppParallel;
struct StackMatmul : Worker {
  const double *a, *b; double* c; int m, n, p;
  StackMatmul(const double* a, const double* b, double* c, int m, int n, int p)
    : a(a), b(b), c(c), m(m), n(n), p(p) {}
  void operator()(std::size_t s, std::size_t t) {
    for (std::size_t l = s; l < t; l++) {
      const double* A = a + l * m * n; const double* B = b + l * n * p; double* C = c + l * m * p;
      for (int j = 0; j < p; j++)
        for (int i = 0; i < m; i++) {
          double v = 0;
          for (int q = 0; q < n; q++) v += A[i + q * m] * B[q + j * n];
          C[i + j * m] = v;
        }
    }
  }
};
struct StackInner : Worker {
  const double *a, *b; double* o; int n;
  StackInner(const double* a, const double* b, double* o, int n) : a(a), b(b), o(o), n(n) {}
  void operator()(std::size_t s, std::size_t t) {
    for (std::size_t l = s; l < t; l++) {
      long double v = 0;
      for (int q = 0; q < n; q++) v += a[l * n + q] * b[l * n + q];
      o[l] = (double)v;
    }
  }
};
// [[Rcpp::export]]
Rcpp::NumericVector hand_matmul(Rcpp::NumericVector a, Rcpp::NumericVector b, int threads) {
  Rcpp::IntegerVector d = a.attr("dim");
  Rcpp::NumericVector c(Rcpp::no_init(a.size()));
  StackMatmul w(a.begin(), b.begin(), c.begin(), d[0], d[1], d[1]);
  parallelFor(0, d[2], w, 1024, threads);
  c.attr("dim") = d;
  return c;
}
// [[Rcpp::export]]
Rcpp::NumericVector hand_inner(Rcpp::NumericMatrix a, Rcpp::NumericMatrix b, int threads) {
  Rcpp::NumericVector o(Rcpp::no_init(a.ncol()));
  StackInner w(a.begin(), b.begin(), o.begin(), a.nrow());
  parallelFor(0, a.ncol(), w, 4096, threads);
  return o;
}
')

A <- array(runif(9 * k), c(3, 3, k))
B <- array(runif(9 * k), c(3, 3, k))
base_matmul <- function() {
  C <- array(0, dim(A))
  for (s in seq_len(k)) C[, , s] <- A[, , s] %*% B[, , s]
  C
}
a8 <- matrix(runif(8 * L), 8)
b8 <- matrix(runif(8 * L), 8)
base_inner <- function() colSums(a8 * b8)

# The user kernel: the same computation as the builtin inner, written as a body.
cache <- tempfile("gufunc-bench-cache-")
options(gufunc.cache_dir = cache)
inner_body <- "long double s = 0; for (R_xlen_t q = 0; q < n; ++q) s += x0[q] * x1[q]; out0[0] = (double)s;"
compile_s <- system.time(
  user_inner <- gufunc_cpp("double(n), double(n) -> double()", inner_body)
)[["elapsed"]]
cached_ms <- 1e3 * system.time(
  gufunc_cpp("double(n), double(n) -> double()", inner_body)
)[["elapsed"]]
# A fresh R process finds the shared object in the disk cache.
child <- sprintf(
  "options(gufunc.cache_dir = %s); suppressMessages(library(gufunc)); t <- system.time(gufunc_cpp(%s, %s)); cat(t[['elapsed']])",
  deparse(cache), deparse("double(n), double(n) -> double()"), deparse(inner_body))
disk_ms <- 1e3 * as.numeric(system2(file.path(R.home("bin"), "Rscript"), c("-e", shQuote(child)),
                                    stdout = TRUE))

stopifnot(
  isTRUE(all.equal(matmul(A, B), base_matmul(), tolerance = 1e-12)),
  identical(inner(a8, b8), base_inner()),
  identical(as.vector(user_inner(a8, b8)), as.vector(inner(a8, b8)))
)

cases <- list(
  list("matmul 3x3 stack", sprintf("k = %.0f", k), base_matmul, function() matmul(A, B),
       function(t) hand_matmul(A, B, t), "loop over slices with %*%"),
  list("inner length 8", sprintf("L = %.0f", L), base_inner, function() inner(a8, b8),
       function(t) hand_inner(a8, b8, t), "colSums(a * b)")
)
cat(sprintf("cores: %d\n", RcppParallel::defaultNumThreads()))
cat(sprintf("%-17s %-9s %3s %9s %9s %9s %11s %11s  %s\n", "gufunc", "size", "thr", "base_ms",
            "gufunc_ms", "hand_ms", "base/gufunc", "gufunc/hand", "base R"))
for (cs in cases) {
  base <- median_ms(cs[[3]], reps = 3)
  for (threads in 1:2) {
    old <- options(gufunc.threads = threads)
    ms <- medians_ms(list(cs[[4]], function() cs[[5]](threads)))
    g <- ms[1]
    h <- ms[2]
    options(old)
    cat(sprintf("%-17s %-9s %3d %9.1f %9.1f %9.1f %11.2f %11.2f  %s\n", cs[[1]], cs[[2]], threads,
                base, g, h, base / g, g / h, cs[[6]]))
  }
}

cat("\ngufunc_cpp kernel (inner written as a body) vs the builtin inner, L =", L, "\n")
cat(sprintf("%3s %10s %9s %12s\n", "thr", "builtin_ms", "user_ms", "user/builtin"))
for (threads in 1:2) {
  old <- options(gufunc.threads = threads)
  ms <- medians_ms(list(function() inner(a8, b8), function() user_inner(a8, b8)))
  b <- ms[1]
  u <- ms[2]
  options(old)
  cat(sprintf("%3d %10.1f %9.1f %12.2f\n", threads, b, u, u / b))
}
cat(sprintf("first compile: %.1f s; second call in the session: %.1f ms; from the disk cache in a new session: %.1f ms\n",
            compile_s, cached_ms, disk_ms))
unlink(cache, recursive = TRUE)

cat("\nreduce_dims on a 1000 x 10000 matrix vs colSums / rowSums\n")
m <- matrix(runif(1e7), 1000)
stopifnot(identical(reduce_dims(m, "sum", 1), colSums(m)))
cat(sprintf("%3s %12s %10s %12s %12s %10s %12s\n", "thr", "dims=1 ms", "colSums", "ratio",
            "dims=2 ms", "rowSums", "ratio"))
for (threads in 1:2) {
  old <- options(gufunc.threads = threads)
  ms <- medians_ms(list(function() reduce_dims(m, "sum", 1), function() colSums(m),
                        function() reduce_dims(m, "sum", 2), function() rowSums(m)))
  g1 <- ms[1]
  col_ms <- ms[2]
  g2 <- ms[3]
  row_ms <- ms[4]
  options(old)
  cat(sprintf("%3d %12.1f %10.1f %12.2f %12.1f %10.1f %12.2f\n", threads, g1, col_ms,
              col_ms / g1, g2, row_ms, row_ms / g2))
}
