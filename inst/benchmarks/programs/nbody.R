# N-body (benchpress nbody): all pairwise gravitational forces from outer()
# differences, then a velocity and position update per step.
nbody <- list(
  setup = function(scale) {
    set.seed(6)
    n <- round(1500 * sqrt(scale))
    list(x = runif(n), y = runif(n), z = runif(n), m = runif(n, 0.5, 1.5))
  },
  run = function(x, y, z, m, iterations = 5) {
    g <- 6.67e-11
    dt <- 0.01
    vx <- vy <- vz <- 0 * x
    for (i in seq_len(iterations)) {
      dx <- outer(x, x, "-")
      dy <- outer(y, y, "-")
      dz <- outer(z, z, "-")
      r <- sqrt(dx * dx + dy * dy + dz * dz)
      diag(r) <- 1
      f <- g * outer(m, m) / r^3
      diag(f) <- 0
      vx <- vx - dt * rowSums(f * dx) / m
      vy <- vy - dt * rowSums(f * dy) / m
      vz <- vz - dt * rowSums(f * dz) / m
      x <- x + dt * vx
      y <- y + dt * vy
      z <- z + dt * vz
    }
    list(x = x, y = y, z = z)
  }
)
