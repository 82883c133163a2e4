# exp, sin, cos, sqrt and x ^ y run a fast path that must return the C library's
# exact bits (src/kernels/matched_libm.hpp). These inputs aim at where it could go
# wrong: results next to a power of two, arguments next to multiples of pi/2, the
# edges of the fast range, every rounding case over many random inputs, and the
# lanes left over when a slice is not a multiple of 4 long.

matched_fns <- c("exp", "sin", "cos", "sqrt")

# Doubles next to each of `x`: up to `k` ulps either way.
ulp_neighbours <- function(x, k = 3L) {
  steps <- c(-k:-1, 1:k)
  as.vector(outer(x, steps, function(v, s) v * (1 + s * .Machine$double.eps)))
}

matched_inputs <- function() {
  set.seed(2026)
  pow2_args <- log(2) * (-1009:1009) / 8  # exp near 2^(j/8): the table points
  half_pi_multiples <- (-40:40) * pi / 2
  c(
    runif(2e5, -0.5, 0), runif(2e5, -1, 1), runif(1e5, -745, 710),
    runif(2e5, 0, 1), runif(1e5, -1e5, 1e5), runif(5e4, -2e5, 2e5),
    sign(rnorm(1e5)) * 2^runif(1e5, -40, 25),
    ulp_neighbours(pow2_args), ulp_neighbours(half_pi_multiples),
    ulp_neighbours(c(700, -700, 2^17, -2^17, 2^-26, -2^-26, 0.125 * (1:8))),
    (-64:64) / 8, 2^(-30:30), -2^(-30:30),
    NA, NaN, Inf, -Inf, 0, -0, 1e-310, -1e-310, .Machine$double.xmax
  )
}

test_that("exp, sin, cos and sqrt return the C library's bits on 1.4 million chosen inputs", {
  x <- matched_inputs()
  for_threads({
    for (fn in matched_fns) {
      expect_identical(suppressWarnings(gufunc_call(fn, x)), suppressWarnings(match.fun(fn)(x)),
                       label = fn)
    }
  })
})

test_that("slices of every length and offset: the 4-lane path and its leftovers agree", {
  x <- c(0.3, 1.7, -2.5, 700.5, NaN, 2, -0.75, 1e6, 3, -1, 0.5)
  for (fn in matched_fns) {
    f <- match.fun(fn)
    for (from in 1:4) {
      for (to in from:length(x)) {
        part <- x[from:to]
        expect_identical(suppressWarnings(gufunc_call(fn, part)), suppressWarnings(f(part)))
      }
    }
  }
})

test_that("lazy exp, sin and cos (written in place in block scratch) match base R", {
  set.seed(7)
  a <- c(runif(5003, -3, 3), NA, NaN, Inf, -Inf)
  for_engine_settings({
    la <- lazy(a)
    expect_identical(suppressWarnings(materialize(exp(-la * la / 2) * sin(la) + cos(la))),
                     suppressWarnings(exp(-a * a / 2) * sin(a) + cos(a)))
  })
})

test_that("NaN rules and warnings are base R's through the fast path", {
  expect_warning(r <- gufunc_call("sin", c(1, 2, Inf, 3, 4)), "NaNs produced")
  expect_identical(r, suppressWarnings(sin(c(1, 2, Inf, 3, 4))))
  expect_no_warning(r <- gufunc_call("cos", c(NA, 1, NaN, 2, 3)))
  expect_identical(r, cos(c(NA, 1, NaN, 2, 3)))
  expect_identical(gufunc_call("exp", c(NA, 1, 2, 3, 4)), exp(c(NA, 1, 2, 3, 4)))
})

# x ^ y for y a whole number or a half up to 32 in size (the fast path; not 0, 1,
# 2) where the exact power lies on or next to a rounding edge: powers of numbers
# with few significant bits and perfect squares (exact results, or exact ties
# between two doubles), and the edges of the fast range (x and |x|^|y| near 2^-900
# and 2^900) and of overflow and underflow.
power_inputs <- function(y) {
  k <- max(abs(y), 1)
  set.seed(2027 + round(2 * y))
  few_bits <- unlist(lapply(8:20, function(b) (2^b + seq(0, 2^b, by = 7 + b)) / 2^b))
  edge <- 2^(min(900 %/% k, 900))
  edges <- c(edge, 1 / edge, 2 * edge, 0.5 / edge, 2^(1023 / k), 2^(-1074 / k), 1, 2, 0.5)
  c(runif(5e4), runif(5e4, -10, 10), sign(rnorm(5e4)) * 2^runif(5e4, -1100 / k, 1100 / k),
    few_bits, -few_bits, 1:5000, (1:5000) + 0.5, (1:3000)^2, ulp_neighbours(c(edges, -edges)),
    NA, NaN, Inf, -Inf, 0, -0, 1e-310, -1e-310, .Machine$double.xmax)
}

test_that("x ^ y returns the C library's pow(x, y) bits, eager and lazy", {
  for (y in c(3, 4, 5, 7, 8, 13, 32, 33, 0.5, 1.5, 2.5, 31.5, 32.5, -0.5, -1, -1.5, -3, -32, -33,
              1, 2, 0, 2.25)) {
    x <- power_inputs(y)
    expect_identical(gufunc_call("^", x, y), x^y, label = paste("x ^", y))
  }
  x <- power_inputs(3)
  for_threads({
    expect_identical(gufunc_call("^", x, 3), x^3)
  })
  for_engine_settings({
    expect_identical(materialize(lazy(x)^3), x^3)
    expect_identical(materialize((lazy(x) * 2)^5 - 1), (x * 2)^5 - 1)
    expect_identical(materialize(abs(lazy(x))^-1.5), abs(x)^-1.5)
  })
  for (from in 1:4) {
    part <- x[from:(from + 9)]
    expect_identical(gufunc_call("^", part, 4), part^4)
  }
})

test_that("the fast path's availability is reported", {
  available <- .Call(gufunc:::C_matched_libm_available)
  expect_type(available, "logical")
  expect_length(available, 1L)
})
