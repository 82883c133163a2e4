# Monte Carlo estimate of pi (benchpress montecarlo_pi): in each iteration, the
# share of random points of the unit square inside the quarter circle. The random
# points are the program's input (columns of two matrices), so base R and gufunc
# read the same numbers.
montecarlo_pi <- list(
  setup = function(scale) {
    set.seed(5)
    samples <- round(1e6 * scale)
    iterations <- 10
    points <- function() {
      v <- runif(samples * iterations)
      dim(v) <- c(samples, iterations)  # no copy: the setup's peak is not the program's
      v
    }
    list(xs = points(), ys = points())
  },
  run = function(xs, ys) {
    total <- 0
    for (i in seq_len(ncol(xs))) {
      x <- xs[, i]
      y <- ys[, i]
      inside <- sqrt(x * x + y * y) <= 1
      total <- total + sum(inside) * 4 / length(x)
    }
    total / ncol(xs)
  }
)
