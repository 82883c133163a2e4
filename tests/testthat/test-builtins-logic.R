# The logic builtins against base R: three-valued & | !, numbers as logical.

test_that("& and | match base R on every pair of grid values", {
  for_threads({
    for (op in builtin_logic) expect_binary_grid_matches_base(op)
  })
})

test_that("! matches base R on every grid value", {
  for_threads(expect_unary_grid_matches_base("!"))
})

test_that("NA rules: FALSE wins in &, TRUE wins in |, NaN and NA are NA", {
  x <- c(TRUE, TRUE, TRUE, FALSE, FALSE, FALSE, NA, NA, NA)
  y <- c(TRUE, FALSE, NA, TRUE, FALSE, NA, TRUE, FALSE, NA)
  expect_identical(gufunc_call("&", x, y), x & y)
  expect_identical(gufunc_call("|", x, y), x | y)
  expect_identical(gufunc_call("&", c(NaN, 0, 2, NA), FALSE), c(FALSE, FALSE, FALSE, FALSE))
  expect_identical(gufunc_call("|", c(NaN, 0, -2, NA), FALSE), c(NA, FALSE, TRUE, NA))
  expect_identical(gufunc_call("!", c(NaN, 0, -0, 0.5, NA)), !c(NaN, 0, -0, 0.5, NA))
  expect_identical(gufunc_call("!", c(0L, 3L, NA)), c(TRUE, FALSE, NA))
})

test_that("logic recycles like base R, with its warning", {
  for (op in builtin_logic) {
    x <- c(TRUE, NA, FALSE, TRUE)
    expect_identical(gufunc_call(op, x, NA), do.call(op, list(x, NA)))
    expect_identical(gufunc_call(op, logical(0), TRUE), do.call(op, list(logical(0), TRUE)))
    expect_warning(r <- gufunc_call(op, c(1, 0, NA), c(TRUE, FALSE)),
                   "longer object length is not a multiple of shorter object length")
    expect_identical(r, suppressWarnings(do.call(op, list(c(1, 0, NA), c(TRUE, FALSE)))))
  }
})

test_that("long vectors give the same logic on 1 and 2 threads", {
  set.seed(22)
  n <- 1e5
  x <- sample(c(TRUE, FALSE, NA), n, replace = TRUE)
  y <- sample(c(TRUE, FALSE, NA), n, replace = TRUE)
  d <- sample(grid_double, n, replace = TRUE)
  for_threads({
    for (op in builtin_logic) {
      expect_identical(gufunc_call(op, x, y), do.call(op, list(x, y)))
      expect_identical(gufunc_call(op, d, y), do.call(op, list(d, y)))
    }
    expect_identical(gufunc_call("!", d), !d)
    expect_identical(gufunc_call("!", x), !x)
  })
})
