# 27-point stencil (benchpress point27): each interior cell of a cube becomes the
# mean of the 3 x 3 x 3 block around it, the 27 neighbours read as shifted slices.
point27 <- list(
  setup = function(scale) {
    n <- round(100 * scale^(1 / 3))
    data <- array(0, c(n, n, n))
    mid <- n %/% 2
    data[(mid - 7):(mid + 8), (mid - 7):(mid + 8), ] <- 100
    list(data = data)
  },
  run = function(data, iterations = 10) {
    n <- dim(data)[1]
    m <- n - 2
    inner <- 2:(n - 1)
    for (it in seq_len(iterations)) {
      total <- 0
      for (i in 0:2) for (j in 0:2) for (k in 0:2) {
        total <- total + data[(1:m) + i, (1:m) + j, (1:m) + k]
      }
      data[inner, inner, inner] <- total / 27
    }
    data
  }
)
