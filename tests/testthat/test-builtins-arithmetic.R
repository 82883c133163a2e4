# The arithmetic builtins against base R over the value grid: every type
# combination, NA vs NaN, integer overflow, %% and %/% rules, ^ special cases.

test_that("+ - * / ^ %% %/% match base R on every pair of grid values", {
  for_threads({
    for (op in builtin_arithmetic) expect_binary_grid_matches_base(op)
  })
})

test_that("arithmetic on NaNs with a sign or payload matches base R bit for bit", {
  for (op in c(builtin_arithmetic, builtin_comparison, builtin_logic)) {
    for (other in value_grid) {
      cases <- binary_grid_cases(grid_nan_bits, other)
      expect_identical(base_mismatches(op, cases, bitwise = TRUE), character(),
                       label = sprintf("`%s` on NaN bit patterns, %s", op, typeof(other)))
    }
  }
  expect_unary_grid_matches_base("-", extra = grid_nan_bits)
})

test_that("unary - and + match base R, types included", {
  for_threads({
    expect_unary_grid_matches_base("-")
    expect_unary_grid_matches_base("+")
  })
  expect_type(gufunc_call("-", TRUE), "integer")
  expect_type(gufunc_call("+", c(TRUE, NA)), "integer")
  expect_identical(gufunc_call("-", c(0L, NA, -.Machine$integer.max)),
                   -c(0L, NA, -.Machine$integer.max))
})

test_that("aliases give the same results as the operators", {
  g <- grid_pairs(grid_double, grid_integer)
  expect_identical(gufunc_call("add", g$x, g$y), g$x + g$y)
  expect_identical(gufunc_call("subtract", g$y, g$x), g$y - g$x)
  expect_identical(gufunc_call("multiply", g$x, g$y), g$x * g$y)
  expect_identical(gufunc_call("divide", g$y, g$x), g$y / g$x)
  expect_identical(gufunc_call("subtract", 1:3), -(1:3))
})

test_that("integer overflow gives NA with base R's warning", {
  big <- .Machine$integer.max
  expect_warning(r <- gufunc_call("+", big, 1L), "NAs produced by integer overflow", fixed = TRUE)
  expect_identical(r, NA_integer_)
  expect_warning(r <- gufunc_call("-", -big, 1L), "NAs produced by integer overflow")
  expect_identical(r, NA_integer_)
  expect_warning(r <- gufunc_call("*", 46341L, 46341L), "NAs produced by integer overflow")
  expect_identical(r, NA_integer_)
  expect_no_warning(r <- gufunc_call("+", c(big, NA), c(0L, 1L)))
  expect_identical(r, c(big, NA))
  expect_no_warning(gufunc_call("*", NA_integer_, big))
})

test_that("integer / and ^ give double, with base R's NA rules", {
  expect_type(gufunc_call("/", 7L, 2L), "double")
  expect_type(gufunc_call("^", 2L, 3L), "double")
  expect_identical(gufunc_call("^", 1L, NA_integer_), 1)
  expect_identical(gufunc_call("^", NA_integer_, 0L), 1)
  expect_identical(gufunc_call("^", 0L, NA_integer_), NA_real_)
  expect_identical(gufunc_call("^", NA_integer_, 2L), NA_real_)
  expect_identical(gufunc_call("/", NA_integer_, 0L), NA_real_)
  # NA_real_ itself (integer_binary), not the quieted NaN double arithmetic gives.
  expect_true(identical_bits(gufunc_call("/", c(NA, 1L), c(2L, NA)), c(NA_real_, NA_real_)))
  expect_true(identical_bits(gufunc_call("^", c(NA, 2L, NA), c(2L, NA, TRUE)), rep(NA_real_, 3)))
  expect_true(identical_bits(gufunc_call("/", NA, TRUE), NA_real_))
  expect_true(identical_bits(gufunc_call("/", NA_integer_, 2), NA_integer_ / 2))
  expect_identical(gufunc_call("^", c(1, NA, NaN), c(NA, 0, 0)), c(1, 1, 1))
  expect_identical(gufunc_call("^", -8, 1 / 3), NaN)
  expect_identical(gufunc_call("^", -Inf, c(3, 4, -3, 0.5)), (-Inf)^c(3, 4, -3, 0.5))
})

test_that("%% and %/% follow base R for zero divisors, signs and huge operands", {
  expect_identical(gufunc_call("%%", c(5L, -5L, 5L, -5L, 1L), c(3L, 3L, -3L, -3L, 0L)),
                   c(5L, -5L, 5L, -5L, 1L) %% c(3L, 3L, -3L, -3L, 0L))
  expect_identical(gufunc_call("%/%", c(5L, -5L, 5L, -5L, 1L), c(3L, 3L, -3L, -3L, 0L)),
                   c(5L, -5L, 5L, -5L, 1L) %/% c(3L, 3L, -3L, -3L, 0L))
  expect_identical(gufunc_call("%%", -5, 1e300), -5 %% 1e300)
  expect_identical(gufunc_call("%/%", -1e-300, 1), -1e-300 %/% 1)
  expect_identical(gufunc_call("%%", c(5.5, -5.5, 1, Inf), c(2, 2, 0, 2)),
                   c(5.5, -5.5, 1, Inf) %% c(2, 2, 0, 2))
  expect_warning(r <- gufunc_call("%%", 1e20, 3),
                 "probable complete loss of accuracy in modulus", fixed = TRUE)
  expect_identical(r, suppressWarnings(1e20 %% 3))
  expect_no_warning(gufunc_call("%%", 1e17, 3))
})

test_that("lengths 0, 1, equal and recycled behave as in base R", {
  x <- c(1.5, NA, -2)
  for (op in builtin_arithmetic) {
    expect_identical(gufunc_call(op, x, numeric(0)), do.call(op, list(x, numeric(0))))
    expect_identical(gufunc_call(op, integer(0), 2L), do.call(op, list(integer(0), 2L)))
    expect_identical(gufunc_call(op, 1:6, c(2L, NA)), do.call(op, list(1:6, c(2L, NA))))
    w <- "longer object length is not a multiple of shorter object length"
    expect_warning(r <- gufunc_call(op, 1:5, c(2, 3)), w, fixed = TRUE)
    expect_identical(r, suppressWarnings(do.call(op, list(1:5, c(2, 3)))))
  }
})

test_that("long vectors give the same results and one warning per kind on 2 threads", {
  set.seed(20)
  n <- 1e5
  x <- sample(c(grid_double, rnorm(50)), n, replace = TRUE)
  y <- sample(c(grid_double, rnorm(50)), n, replace = TRUE)
  xi <- sample(c(grid_integer, -100:100), n, replace = TRUE)
  yi <- sample(c(grid_integer, -100:100), n, replace = TRUE)
  for_threads({
    for (op in builtin_arithmetic) {
      expect_identical(call_outcome(function(...) gufunc_call(op, ...), list(x, y)),
                       call_outcome(op, list(x, y)))
      expect_identical(call_outcome(function(...) gufunc_call(op, ...), list(xi, yi)),
                       call_outcome(op, list(xi, yi)))
      expect_identical(call_outcome(function(...) gufunc_call(op, ...), list(x[1], yi)),
                       call_outcome(op, list(x[1], yi)))
    }
    warnings <- 0L
    withCallingHandlers(
      gufunc_call("*", xi, yi),
      warning = function(w) {
        warnings <<- warnings + 1L
        invokeRestart("muffleWarning")
      }
    )
    expect_identical(warnings, 1L)
  })
})

test_that("division by a power of two (a product by its reciprocal) is base R's, bit for bit", {
  bits <- function(x) writeBin(x, raw())
  x <- c(1, -3, 0, -0, Inf, -Inf, NA, NaN, 5e-324, 2.2250738585072014e-308, .Machine$double.xmax,
         runif(2000, -1e300, 1e300), runif(2000), 2^-1070 * runif(200), -2^1020 * runif(200))
  divisors <- c(2, 0.5, -2, 4, 1, -1, 1024, 2^-1022, 2^1022, 2^1023, 2^-1023, 2^-1074, 3, 0, -0,
                Inf, NaN, NA)
  for_threads({
    for (d in divisors) {
      expect_identical(bits(gufunc_call("/", x, d)), bits(x / d), label = format(d))
      lazy_quotient <- with_options(list(gufunc.lazy_min_length = 0), materialize(lazy(x) / d))
      expect_identical(bits(lazy_quotient), bits(x / d), label = format(d))
    }
  })
})
