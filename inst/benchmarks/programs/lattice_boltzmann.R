# Lattice Boltzmann D2Q9 (benchpress lattice_boltzmann_D2Q9): streaming by circular
# shifts of each direction's plane, then BGK collision towards the equilibrium.
lattice_boltzmann <- list(
  setup = function(scale) {
    set.seed(7)
    n <- round(400 * sqrt(scale))
    list(f = array(1 / 9 + runif(n * n * 9, 0, 0.01), c(n, n, 9)))
  },
  run = function(f, iterations = 10) {
    nx <- dim(f)[1]
    ny <- dim(f)[2]
    ex <- c(0, 1, 0, -1, 0, 1, -1, -1, 1)
    ey <- c(0, 0, 1, 0, -1, 1, 1, -1, -1)
    weight <- c(4 / 9, rep(1 / 9, 4), rep(1 / 36, 4))
    omega <- 1
    shift <- function(n, by) (seq_len(n) - by - 1) %% n + 1
    for (it in seq_len(iterations)) {
      for (k in 2:9) f[, , k] <- f[shift(nx, ex[k]), shift(ny, ey[k]), k]
      rho <- rowSums(f, dims = 2)
      ux <- (f[, , 2] + f[, , 6] + f[, , 9] - f[, , 4] - f[, , 7] - f[, , 8]) / rho
      uy <- (f[, , 3] + f[, , 6] + f[, , 7] - f[, , 5] - f[, , 8] - f[, , 9]) / rho
      usq <- ux * ux + uy * uy
      for (k in 1:9) {
        eu <- ex[k] * ux + ey[k] * uy
        feq <- weight[k] * rho * (1 + 3 * eu + 4.5 * eu * eu - 1.5 * usq)
        f[, , k] <- f[, , k] + omega * (feq - f[, , k])
      }
    }
    f
  }
)
