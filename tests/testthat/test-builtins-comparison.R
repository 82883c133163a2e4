# The comparison builtins against base R over the value grid.

test_that("== != < <= > >= match base R on every pair of grid values", {
  for_threads({
    for (op in builtin_comparison) expect_binary_grid_matches_base(op)
  })
})

test_that("comparisons give logical, NA for NA or NaN operands", {
  expect_identical(gufunc_call("==", c(1, NA, NaN, 0), c(1, 1, 1, -0)), c(TRUE, NA, NA, TRUE))
  expect_identical(gufunc_call("<", c(1L, NA), 2L), c(TRUE, NA))
  expect_identical(gufunc_call(">=", TRUE, c(FALSE, NA, TRUE)), TRUE >= c(FALSE, NA, TRUE))
  expect_identical(gufunc_call("!=", 2^53, 2^53 + 1L), 2^53 != 2^53 + 1L)
  expect_type(gufunc_call("<=", 1:3, 2L), "logical")
})

test_that("comparisons recycle like base R, with its warning", {
  for (op in builtin_comparison) {
    expect_identical(gufunc_call(op, 1:6, c(2, NA)), do.call(op, list(1:6, c(2, NA))))
    expect_identical(gufunc_call(op, numeric(0), 1L), do.call(op, list(numeric(0), 1L)))
    expect_warning(r <- gufunc_call(op, 1:3, 1:2),
                   "longer object length is not a multiple of shorter object length")
    expect_identical(r, suppressWarnings(do.call(op, list(1:3, 1:2))))
  }
})

test_that("long vectors compare the same on 1 and 2 threads", {
  set.seed(21)
  n <- 1e5
  x <- sample(c(grid_double, rnorm(20)), n, replace = TRUE)
  y <- sample(c(grid_double, rnorm(20)), n, replace = TRUE)
  xi <- sample(grid_integer, n, replace = TRUE)
  for_threads({
    for (op in builtin_comparison) {
      expect_identical(gufunc_call(op, x, y), do.call(op, list(x, y)))
      expect_identical(gufunc_call(op, xi, y[1]), do.call(op, list(xi, y[1])))
      expect_identical(gufunc_call(op, xi, rev(xi)), do.call(op, list(xi, rev(xi))))
    }
  })
})
