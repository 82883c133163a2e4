# Conway's game of life (benchpress gameoflife) on a grid with a dead border:
# neighbour counts from eight shifted slices.
gameoflife <- list(
  setup = function(scale) {
    set.seed(5)
    n <- round(1000 * sqrt(scale))
    grid <- matrix(0, n + 2, n + 2)
    grid[2:(n + 1), 2:(n + 1)] <- as.numeric(runif(n * n) < 0.3)
    list(grid = grid)
  },
  run = function(grid, iterations = 10) {
    h <- nrow(grid) - 2
    w <- ncol(grid) - 2
    for (i in seq_len(iterations)) {
      rows <- 2:(h + 1)
      cols <- 2:(w + 1)
      neighbours <- grid[rows - 1, cols - 1] + grid[rows - 1, cols] + grid[rows - 1, cols + 1] +
        grid[rows, cols - 1] + grid[rows, cols + 1] +
        grid[rows + 1, cols - 1] + grid[rows + 1, cols] + grid[rows + 1, cols + 1]
      alive <- grid[rows, cols]
      grid[rows, cols] <- (neighbours == 3) + (alive == 1 & neighbours == 2)
    }
    grid
  }
)
