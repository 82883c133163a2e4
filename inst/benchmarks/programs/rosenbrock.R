# Rosenbrock function (benchpress rosenbrock): the sum over consecutive pairs,
# evaluated on a sequence of points.
rosenbrock <- list(
  setup = function(scale) {
    set.seed(3)
    list(x = runif(round(4e6 * scale), -2, 2))
  },
  run = function(x, iterations = 10) {
    n <- length(x)
    total <- 0
    for (i in seq_len(iterations)) {
      y <- x * (1 + i / 100)
      total <- total + sum(100 * (y[-1] - y[-n]^2)^2 + (1 - y[-n])^2)
    }
    total
  }
)
