# Quasicrystal (benchpress quasicrystal): k plane waves in polar coordinates, the
# image at each phase the sum over the waves (an N x N x k array summed over its
# third dimension).
quasicrystal <- list(
  setup = function(scale) {
    n <- round(600 * sqrt(scale))
    d <- seq(-n / 2, by = 1, length.out = n)
    list(xv = matrix(d, n, n, byrow = TRUE), yv = matrix(d, n, n))
  },
  run = function(xv, yv, k = 7, stripes = 5, phases = 12) {
    theta <- atan2(yv, xv)
    r <- log(sqrt(xv * xv + yv * yv))
    r[is.infinite(r)] <- 0
    angles <- seq(0, by = pi / k, length.out = k)
    inner <- (outer(theta, cos(angles)) - outer(r, sin(angles))) * stripes
    cinner <- cos(inner)
    sinner <- sin(inner)
    image <- NULL
    for (phase in seq(0, by = 2 * pi / phases, length.out = phases)) {
      image <- rowSums(cinner * cos(phase) - sinner * sin(phase), dims = 2) + k
    }
    image
  }
)
