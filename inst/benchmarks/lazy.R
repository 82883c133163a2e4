# The reference expressions of the project's anchors (and a mean): base R, gufunc's lazy
# engine (materialized result, or the reduction's value) and a hand-written fused
# RcppParallel loop, measured in the same run, for 1 and 2 threads.
# Usage: Rscript inst/benchmarks/lazy.R [n] [case ...]   (default n = 1e7, all cases)
# The packages and medians_ms(), from common.R beside this script.
source(file.path(dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)[1])),
                 "common.R"))
args <- commandArgs(TRUE)
n <- if (length(args)) as.numeric(args[1]) else 1e7
chosen <- args[-1]  # case ids (E1 ... E6); none: all
set.seed(1)
a <- runif(n)
b <- runif(n)
c <- runif(n)
d <- runif(n)

# Hand-written fused loops: one parallel pass per expression, no temporaries.
sourceCpp(code = '
// [[Rcpp::depends(RcppParallel)]]
#include <Rcpp.h>
#include <RcppParallel.h>
#include <cmath>
using namespace RcppParallel;
struct Fused : Worker {
  int e; const double *a, *b, *c, *d; double* o;
  Fused(int e, const double* a, const double* b, const double* c, const double* d, double* o)
    : e(e), a(a), b(b), c(c), d(d), o(o) {}
  void operator()(std::size_t s, std::size_t t) {
    switch (e) {
      case 1: for (std::size_t i = s; i < t; i++) o[i] = a[i] * b[i] + c[i]; break;
      case 2: for (std::size_t i = s; i < t; i++) o[i] = std::sqrt(a[i] * a[i] + b[i] * b[i]); break;
      case 3: for (std::size_t i = s; i < t; i++) o[i] = std::exp(-a[i] * a[i] / 2) * std::sin(b[i]) + c[i]; break;
      default: for (std::size_t i = s; i < t; i++) o[i] = 2 * a[i] + 3 * b[i] - 4 * c[i] + 5 * d[i];
    }
  }
};
struct Dot : Worker {
  const double *a, *b; double v;
  Dot(const double* a, const double* b) : a(a), b(b), v(0) {}
  Dot(Dot& o, Split) : a(o.a), b(o.b), v(0) {}
  void operator()(std::size_t s, std::size_t t) { double x = 0; for (std::size_t i = s; i < t; i++) x += a[i] * b[i]; v += x; }
  void join(const Dot& o) { v += o.v; }
};
// [[Rcpp::export]]
Rcpp::NumericVector hand_fused(int e, Rcpp::NumericVector a, Rcpp::NumericVector b,
                               Rcpp::NumericVector c, Rcpp::NumericVector d, int threads) {
  Rcpp::NumericVector o(Rcpp::no_init(a.size()));
  Fused w(e, a.begin(), b.begin(), c.begin(), d.begin(), o.begin());
  parallelFor(0, a.size(), w, 16384, threads);
  return o;
}
// The exact mean() of base R of (a - 0.5) * 1.8 + 32 - b / 10, fused by hand: two passes
// in long double in index order (real_mean of R), on one thread, as that order needs.
// [[Rcpp::export]]
double hand_mean(Rcpp::NumericVector a, Rcpp::NumericVector b) {
  const double *x = a.begin(), *y = b.begin();
  const R_xlen_t n = a.size();
  long double s = 0, t = 0;
  for (R_xlen_t i = 0; i < n; i++) s += (x[i] - 0.5) * 1.8 + 32 - y[i] / 10;
  s /= n;
  for (R_xlen_t i = 0; i < n; i++) t += ((x[i] - 0.5) * 1.8 + 32 - y[i] / 10) - s;
  return (double) (s + t / n);
}
// [[Rcpp::export]]
double hand_dot(Rcpp::NumericVector a, Rcpp::NumericVector b, int threads) {
  Dot w(a.begin(), b.begin()); parallelReduce(0, a.size(), w, 16384, threads); return w.v;
}
')

# Peak memory (MB) while computing f once, above what was resident before: the
# process's peak resident set on Linux (reset through /proc/self/clear_refs, so it
# also counts memory R's gc() does not see); elsewhere R's own heap peak. gufunc's
# kept result buffers are freed first, so a result counts in full.
rss_mb <- function(field) {
  line <- grep(paste0("^", field, ":"), readLines("/proc/self/status"), value = TRUE)
  as.numeric(gsub("[^0-9]", "", line)) / 1024
}
peak_mb <- function(f) {
  gc()
  gufunc_buffer_pool(release = TRUE)
  if (file.exists("/proc/self/clear_refs")) {
    cat("5", file = "/proc/self/clear_refs")
    before <- rss_mb("VmRSS")
    f()
    return(rss_mb("VmHWM") - before)
  }
  before <- sum(gc(reset = TRUE)[, 2])
  f()
  sum(gc()[, 6]) - before
}

with_fast_sums <- function(expr) {
  old <- options(gufunc.sum_order = "fast")
  on.exit(options(old))
  expr
}

la <- lazy(a)
lb <- lazy(b)
lc <- lazy(c)
ld <- lazy(d)
cases <- list(
  E1 = list("a*b+c", function() a * b + c, function() materialize(la * lb + lc),
            function(t) hand_fused(1L, a, b, c, d, t)),
  E2 = list("sqrt(a*a+b*b)", function() sqrt(a * a + b * b),
            function() materialize(sqrt(la * la + lb * lb)),
            function(t) hand_fused(2L, a, b, c, d, t)),
  E3 = list("exp(-a*a/2)*sin(b)+c", function() exp(-a * a / 2) * sin(b) + c,
            function() materialize(exp(-la * la / 2) * sin(lb) + lc),
            function(t) hand_fused(3L, a, b, c, d, t)),
  E4 = list("sum(a*b)", function() sum(a * b), function() sum(la * lb),
            function(t) hand_dot(a, b, t)),
  # The same with option gufunc.sum_order = "fast": not base R's last bits (?lazy).
  E4f = list("sum(a*b), fast order", function() sum(a * b),
             function() with_fast_sums(sum(la * lb)), function(t) hand_dot(a, b, t)),
  # Base R's mean() passes over the values twice; the lazy one computes cheap values
  # again for the second pass (kernel sets flagged kCheapToRecompute).
  E6 = list("mean((a-.5)*1.8+32-b/10)", function() mean((a - 0.5) * 1.8 + 32 - b / 10),
            function() mean((la - 0.5) * 1.8 + 32 - lb / 10), function(t) hand_mean(a, b)),
  E5 = list("2*a+3*b-4*c+5*d", function() 2 * a + 3 * b - 4 * c + 5 * d,
            function() materialize(2 * la + 3 * lb - 4 * lc + 5 * ld),
            function(t) hand_fused(4L, a, b, c, d, t))
)

cat(sprintf("n = %.0f; cores: %d; block size: %s\n", n, RcppParallel::defaultNumThreads(),
            format(getOption("gufunc.block_size", Sys.getenv("GUFUNC_BLOCK_SIZE", "auto")))))
# exp, sin and cos take a fast path with the C library's exact values where it runs.
cat(sprintf("fast exp/sin/cos (glibc, AVX2 + FMA): %s\n",
            .Call(gufunc:::C_matched_libm_available)))
# Freed results' memory is reused by the next large result (?gufunc_buffer_pool).
cat(sprintf("result buffer pool: %g MB\n", gufunc_buffer_pool()$limit_megabytes))
cat(sprintf("%-4s %-24s %3s %9s %9s %9s %11s %9s %8s %8s\n", "", "expression", "thr", "base_ms",
            "gufunc_ms", "hand_ms", "base/gufunc", "gufunc/hand", "base_MB", "gufunc_MB"))
for (id in if (length(chosen)) intersect(names(cases), chosen) else names(cases)) {
  cs <- cases[[id]]
  ref <- cs[[2]]()
  got <- cs[[3]]()
  same <- if (id == "E4f") abs(got - ref) <= 1e-14 * abs(ref) else identical(got, ref)
  if (!same) stop(id, ": gufunc's result differs from base R")
  base_mb <- peak_mb(cs[[2]])
  for (threads in 1:2) {
    old <- options(gufunc.threads = threads)
    ms <- medians_ms(list(cs[[2]], cs[[3]], function() cs[[4]](threads)))
    base <- ms[1]
    g <- ms[2]
    h <- ms[3]
    g_mb <- peak_mb(cs[[3]])
    options(old)
    cat(sprintf("%-4s %-24s %3d %9.1f %9.1f %9.1f %11.2f %9.2f %8.0f %8.0f\n", id, cs[[1]],
                threads, base, g, h, base / g, g / h, base_mb, g_mb))
  }
}
