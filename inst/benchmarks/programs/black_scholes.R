# Black-Scholes (benchpress black_scholes): call prices of many options for a
# sequence of days, with the polynomial approximation of the normal CDF.
black_scholes <- list(
  setup = function(scale) {
    set.seed(4)
    n <- round(2e6 * scale)
    list(s = runif(n, 58, 62), x = runif(n, 55, 65), t = runif(n, 0.1, 2))
  },
  run = function(s, x, t, iterations = 5) {
    cnd <- function(d) {
      k <- 1 / (1 + 0.2316419 * abs(d))
      w <- 1 - 1 / sqrt(2 * pi) * exp(-d * d / 2) *
        (0.31938153 * k - 0.356563782 * k^2 + 1.781477937 * k^3 -
           1.821255978 * k^4 + 1.330274429 * k^5)
      ifelse(d < 0, 1 - w, w)
    }
    r <- 0.08
    v <- 0.3
    prices <- numeric(iterations)
    for (i in seq_len(iterations)) {
      tt <- t + i / 365
      d1 <- (log(s / x) + (r + v * v / 2) * tt) / (v * sqrt(tt))
      d2 <- d1 - v * sqrt(tt)
      call <- s * cnd(d1) - x * exp(-r * tt) * cnd(d2)
      prices[i] <- mean(call)
    }
    prices
  }
)
