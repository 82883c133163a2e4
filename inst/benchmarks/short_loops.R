# Loops over short subsets of lazy matrices: what a lazy input costs R code that
# works column by column. Short subsets (fewer than gufunc.lazy_min_length
# elements) of 256 elements or more are lazy values with their values at hand
# (?lazy), so every operation on them dispatches to gufunc's methods; this prints
# microseconds an iteration, base R against lazy() inputs, measured in the same
# process, medians of `runs` runs, and their ratio.
# Usage: Rscript inst/benchmarks/short_loops.R [runs]
suppressMessages(library(gufunc))
args <- commandArgs(TRUE)
runs <- if (length(args) >= 1) as.integer(args[1]) else 15L

set.seed(1)
wide <- matrix(runif(1000 * 500), 1000)
square <- matrix(runif(300 * 300), 300)
w <- runif(1000)

loops <- list(
  "s <- s + sum(m[, j] * w)" = list(data = wide, iterations = 500, run = function(m) {
    s <- 0
    for (j in 1:500) s <- s + sum(m[, j] * w)
    s
  }),
  "s <- s + max(m[i, ] - m[, i])" = list(data = square, iterations = 300, run = function(m) {
    s <- 0
    for (i in 1:300) s <- s + max(m[i, ] - m[, i])
    s
  }),
  "m[, j] <- (v - min(v)) / (max(v) - min(v))" = list(data = wide, iterations = 500,
                                                       run = function(m) {
    for (j in 1:500) {
      v <- m[, j]
      m[, j] <- (v - min(v)) / (max(v) - min(v))
    }
    materialize(m)
  })
)

# Each timed sample runs the loop as many times as take about 50 ms: R's timer
# counts milliseconds, and one loop takes a few.
per_iteration <- function(run, x, iterations) {
  once <- max(system.time(run(x))[["elapsed"]], 0.001)
  times <- max(1L, ceiling(0.05 / once))
  seconds <- replicate(runs, system.time(for (k in seq_len(times)) run(x))[["elapsed"]])
  median(seconds) / (times * iterations) * 1e6
}

cat(sprintf("loops over short subsets: microseconds an iteration, medians of %d runs\n", runs))
rows <- lapply(names(loops), function(name) {
  loop <- loops[[name]]
  run <- compiler::cmpfun(loop$run)
  lazy_data <- lazy(loop$data)
  stopifnot(identical(run(loop$data), materialize(run(lazy_data))))
  base <- per_iteration(run, loop$data, loop$iterations)
  gufunc <- per_iteration(run, lazy_data, loop$iterations)
  data.frame(loop = name, base_us = round(base, 1), gufunc_us = round(gufunc, 1),
             ratio = round(gufunc / base, 2))
})
print(do.call(rbind, rows), row.names = FALSE)
