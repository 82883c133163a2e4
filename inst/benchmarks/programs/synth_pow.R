# Powers (benchpress synth_pow): the sum of n^k over a vector of n in [0, 1), for
# a few exponents, as base R code writes it.
synth_pow <- list(
  setup = function(scale) {
    n <- round(1e7 * scale)
    list(x = (seq_len(n) - 1) / n)
  },
  run = function(x, exponents = c(10, 3, 2.5)) {
    vapply(exponents, function(k) sum(x^k), numeric(1))
  }
)
