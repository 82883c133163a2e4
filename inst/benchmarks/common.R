# Shared by the end-to-end benchmark scripts: the packages they time, and one timer.
suppressMessages({
  library(gufunc)
  library(Rcpp)
  library(RcppParallel)
})

# Median over `reps` measurements in milliseconds, after one warm-up call; each
# measurement repeats f() until it lasts at least 50 ms, so the clock's resolution
# does not matter, and starts after a gc().
median_ms <- function(f, reps = 7) {
  once <- system.time(f())[["elapsed"]]
  inner_reps <- max(1, ceiling(0.05 / max(once, 1e-4)))
  median(vapply(seq_len(reps), function(i) {
    gc(FALSE)
    system.time(for (r in seq_len(inner_reps)) f())[["elapsed"]] / inner_reps
  }, 0)) * 1e3
}
