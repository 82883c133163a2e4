# Leibniz series for pi (benchpress leibnitz_pi): the sum of 1/(4n+1) - 1/(4n+3)
# over a vector of n, taken again in each iteration, as base R code writes it.
leibnitz_pi <- list(
  setup = function(scale) list(n = as.numeric(seq_len(round(1e7 * scale)) - 1)),
  run = function(n, iterations = 5) {
    total <- 0
    for (i in seq_len(iterations)) total <- total + 4 * sum(1 / (4 * n + 1) - 1 / (4 * n + 3))
    total
  }
)
