# Galton's bean machine (benchpress galton_bean_machine): each bean falls through
# `height` rows of pins, going left or right at random at each; its bin is the sum
# of its steps (the row sums of the signs of a beans x height random matrix).
galton_bean_machine <- list(
  setup = function(scale) {
    set.seed(7)
    beans <- round(1e5 * scale)
    coins <- runif(beans * 100)
    dim(coins) <- c(beans, 100)  # no copy: the setup's peak is not the program's
    list(coins = coins)
  },
  run = function(coins) {
    bins <- rowSums(sign(coins - 0.5))
    tabulate(bins + ncol(coins) + 1, nbins = 2 * ncol(coins) + 1)
  }
)
