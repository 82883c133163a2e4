# Heat equation (benchpress heat_equation): Jacobi iteration on a grid with fixed
# borders, as base R code writes it. Returns the final grid and the last delta.
heat_equation <- list(
  setup = function(scale) {
    n <- round(1000 * sqrt(scale))
    grid <- matrix(0, n + 2, n + 2)
    grid[1, ] <- 40
    grid[, 1] <- -273.15
    grid[, n + 2] <- -273.15
    grid[n + 2, ] <- -273.15
    list(grid = grid)
  },
  run = function(grid, iterations = 20) {
    h <- nrow(grid) - 2
    w <- ncol(grid) - 2
    for (i in seq_len(iterations)) {
      center <- grid[2:(h + 1), 2:(w + 1)]
      work <- 0.2 * (center + grid[1:h, 2:(w + 1)] + grid[3:(h + 2), 2:(w + 1)] +
        grid[2:(h + 1), 1:w] + grid[2:(h + 1), 3:(w + 2)])
      delta <- sum(abs(work - center))
      grid[2:(h + 1), 2:(w + 1)] <- work
    }
    list(grid = grid, delta = delta)
  }
)
