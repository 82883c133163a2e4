# Shared by the end-to-end benchmark scripts: the packages they time, and one timer.
suppressMessages({
  library(gufunc)
  library(Rcpp)
  library(RcppParallel)
})

# Medians over `reps` measurements in milliseconds, one per function of `fs`, after
# one warm-up call of each. The functions take turns within each round (the first
# moving by one each round), so noise from other work on the machine falls on all
# of them alike and their ratios are steadier than from back-to-back medians. Each
# measurement repeats a function until it lasts at least 50 ms, so the clock's
# resolution does not matter, and starts after a gc().
medians_ms <- function(fs, reps = 7) {
  inner_reps <- vapply(fs, function(f) {
    once <- system.time(f())[["elapsed"]]
    max(1, ceiling(0.05 / max(once, 1e-4)))
  }, 0)
  k <- length(fs)
  times <- matrix(NA_real_, reps, k)
  for (rep in seq_len(reps)) {
    for (j in (seq_len(k) + rep - 2) %% k + 1) {
      f <- fs[[j]]
      gc(FALSE)
      times[rep, j] <- system.time(for (r in seq_len(inner_reps[j])) f())[["elapsed"]] /
        inner_reps[j]
    }
  }
  apply(times, 2, stats::median) * 1e3
}

median_ms <- function(f, reps = 7) medians_ms(list(f), reps)
