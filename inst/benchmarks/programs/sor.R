# Red-black successive over-relaxation (benchpress sor): the grid kept as four
# interleaved quarter grids, each updated from its neighbours in the others by
# slices, until the change is small or the iterations run out.
sor <- list(
  setup = function(scale) {
    m <- round(500 * sqrt(scale))
    r0 <- r1 <- b0 <- b1 <- matrix(0, m, m)
    r0[1, ] <- 40; b0[1, ] <- 40
    r1[m, ] <- -273.15; b1[m, ] <- -273.15
    r0[, 1] <- -273.15; b1[, 1] <- -273.15
    b0[, m] <- -273.15; r1[, m] <- -273.15
    list(r0 = r0, r1 = r1, b0 = b0, b1 = b1)
  },
  run = function(r0, r1, b0, b1, epsilon = 0.005, iterations = 20) {
    m <- nrow(r0)
    delta <- epsilon + 1
    it <- 0
    while (delta > epsilon && it < iterations) {
      it <- it + 1
      r1[-m, -m] <- (r1[-m, -m] + b0[-m, -m] + b0[-1, -m] + b1[-m, -m] + b1[-m, -1]) * 0.2
      r0[-1, -1] <- (r0[-1, -1] + b1[-m, -1] + b1[-1, -1] + b0[-1, -m] + b0[-1, -1]) * 0.2
      b1[-m, -1] <- (b1[-m, -1] + r0[-m, -1] + r0[-1, -1] + r1[-m, -m] + r1[-m, -1]) * 0.2
      b0[-1, -m] <- (b0[-1, -m] + r1[-m, -m] + r1[-1, -m] + r0[-1, -m] + r0[-1, -1]) * 0.2
      delta <- sum(abs(r0[-1, -1] - b0[-1, -m])) + sum(abs(r1[-m, -m] - b1[-m, -1])) +
        sum(abs(r0[-1, -1] - b1[-m, -1])) + sum(abs(b0[-1, -m] - r1[-m, -m]))
    }
    list(grid = r0 + r1 + b0 + b1, delta = delta, iterations = it)
  }
)
