# Shallow water (benchpress shallow_water): Lax-Wendroff steps on a grid with
# reflecting borders; half steps at cell faces from slices of H, U and V.
shallow_water <- list(
  setup = function(scale) {
    n <- round(600 * sqrt(scale))
    h <- matrix(1, n + 2, n + 2)
    h[(n %/% 4):(n %/% 2), (n %/% 4):(n %/% 2)] <- 1.1
    list(h = h, u = matrix(0, n + 2, n + 2), v = matrix(0, n + 2, n + 2))
  },
  run = function(h, u, v, iterations = 10) {
    n <- nrow(h) - 2
    g <- 9.8
    dt <- 0.02
    dx <- 1
    i1 <- 1:(n + 1)
    i2 <- 2:(n + 2)
    j <- 2:(n + 1)
    for (it in seq_len(iterations)) {
      h[, 1] <- h[, 2]; u[, 1] <- u[, 2]; v[, 1] <- -v[, 2]
      h[, n + 2] <- h[, n + 1]; u[, n + 2] <- u[, n + 1]; v[, n + 2] <- -v[, n + 1]
      h[1, ] <- h[2, ]; u[1, ] <- -u[2, ]; v[1, ] <- v[2, ]
      h[n + 2, ] <- h[n + 1, ]; u[n + 2, ] <- -u[n + 1, ]; v[n + 2, ] <- v[n + 1, ]
      # Half step in x (faces between rows i1 and i2, interior columns).
      hx <- (h[i2, j] + h[i1, j]) / 2 - dt / (2 * dx) * (u[i2, j] - u[i1, j])
      ux <- (u[i2, j] + u[i1, j]) / 2 - dt / (2 * dx) *
        (u[i2, j]^2 / h[i2, j] + g / 2 * h[i2, j]^2 - u[i1, j]^2 / h[i1, j] - g / 2 * h[i1, j]^2)
      vx <- (v[i2, j] + v[i1, j]) / 2 - dt / (2 * dx) *
        (u[i2, j] * v[i2, j] / h[i2, j] - u[i1, j] * v[i1, j] / h[i1, j])
      # Half step in y (faces between columns i1 and i2, interior rows).
      hy <- (h[j, i2] + h[j, i1]) / 2 - dt / (2 * dx) * (v[j, i2] - v[j, i1])
      uy <- (u[j, i2] + u[j, i1]) / 2 - dt / (2 * dx) *
        (v[j, i2] * u[j, i2] / h[j, i2] - v[j, i1] * u[j, i1] / h[j, i1])
      vy <- (v[j, i2] + v[j, i1]) / 2 - dt / (2 * dx) *
        (v[j, i2]^2 / h[j, i2] + g / 2 * h[j, i2]^2 - v[j, i1]^2 / h[j, i1] - g / 2 * h[j, i1]^2)
      # Full step on the interior from the face values.
      a <- 2:(n + 1)
      b <- 1:n
      h[a, a] <- h[a, a] - (dt / dx) * (ux[a, ] - ux[b, ]) - (dt / dx) * (vy[, a] - vy[, b])
      u[a, a] <- u[a, a] - (dt / dx) * (ux[a, ]^2 / hx[a, ] + g / 2 * hx[a, ]^2 -
        ux[b, ]^2 / hx[b, ] - g / 2 * hx[b, ]^2) -
        (dt / dx) * (vy[, a] * uy[, a] / hy[, a] - vy[, b] * uy[, b] / hy[, b])
      v[a, a] <- v[a, a] - (dt / dx) * (ux[a, ] * vx[a, ] / hx[a, ] - ux[b, ] * vx[b, ] / hx[b, ]) -
        (dt / dx) * (vy[, a]^2 / hy[, a] + g / 2 * hy[, a]^2 -
          vy[, b]^2 / hy[, b] - g / 2 * hy[, b]^2)
    }
    list(h = h, u = u, v = v)
  }
)
