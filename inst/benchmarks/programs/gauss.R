# Gaussian elimination without pivoting (benchpress gauss): each step subtracts a
# multiple of the pivot row from the rows below it (an outer product), on the
# shrinking lower right block; then each row is divided by its diagonal element.
gauss <- list(
  setup = function(scale) {
    set.seed(11)
    n <- round(600 * sqrt(scale))
    list(a = matrix(runif(n * n), n, n) + diag(n, n))
  },
  run = function(a) {
    n <- nrow(a)
    for (c in 2:n) {
      rows <- c:n
      cols <- (c - 1):n
      a[rows, cols] <- a[rows, cols] - outer(a[rows, c - 1] / a[c - 1, c - 1], a[c - 1, cols])
    }
    a / diag(a)
  }
)
