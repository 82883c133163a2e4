# The Math builtins against base R: the C function R calls, NaN propagation of
# the input's NA/NaN, and the "NaNs produced" warning exactly where R gives it.

math_extra <- c(seq(-10, 10, by = 0.25), 10^(-20:20), -10^(-20:20), 709.5, 710, -745, -746,
                1e6, -1e6, 1 - 1e-12, -1 + 1e-12, 1e-310)

test_that("every Math builtin matches base R on the value grid, value by value", {
  for_threads({
    for (fn in builtin_math) {
      expect_unary_grid_matches_base(fn, extra = c(math_extra, grid_nan_bits))
    }
  })
})

test_that("abs, log2 and log10 give base R's NaN bits: no sign, NA as NA_real_", {
  x <- c(-NaN, -NA_real_, NA_real_ + 0, NaN, -1)
  expect_true(identical_bits(gufunc_call("abs", x), abs(x)))
  expect_true(identical_bits(suppressWarnings(gufunc_call("log2", x)), c(NaN, NA, NA, NaN, NaN)))
  expect_true(identical_bits(suppressWarnings(gufunc_call("log10", x)), suppressWarnings(log10(x))))
  expect_false(identical_bits(gufunc_call("sqrt", -NaN), NaN))  # math1 keeps the input NaN
})

test_that("types: abs keeps integers, the others give double", {
  expect_identical(gufunc_call("abs", c(-3L, NA, .Machine$integer.max)),
                   abs(c(-3L, NA, .Machine$integer.max)))
  expect_type(gufunc_call("abs", c(TRUE, NA)), "integer")
  # Warnings (acos(4) is NaN) are checked in the grid tests; here only the types.
  for (fn in setdiff(builtin_math, "abs")) {
    expect_type(suppressWarnings(gufunc_call(fn, 1:3)), "double")
    expect_identical(suppressWarnings(gufunc_call(fn, c(1L, NA, 4L))),
                     suppressWarnings(do.call(fn, list(c(1L, NA, 4L)))))
  }
})

test_that("NA stays NA, NaN stays NaN, new NaNs warn", {
  expect_identical(gufunc_call("sqrt", c(NA, NaN, 4)), c(NA, NaN, 2))
  expect_no_warning(gufunc_call("log", c(NA, NaN, 0)))
  expect_identical(gufunc_call("log", c(0, -0)), c(-Inf, -Inf))
  expect_warning(r <- gufunc_call("log", -1), "NaNs produced", fixed = TRUE)
  expect_identical(r, NaN)
  expect_warning(gufunc_call("sqrt", c(4, -1)), "NaNs produced")
  expect_warning(gufunc_call("sin", Inf), "NaNs produced")
  expect_warning(gufunc_call("acos", 2), "NaNs produced")
  expect_warning(gufunc_call("log2", -1), "NaNs produced")
  expect_no_warning(gufunc_call("sign", c(NaN, NA, -0, -2)))
})

test_that("long vectors give the same results and one warning on 2 threads", {
  set.seed(23)
  x <- sample(c(grid_double, math_extra, rnorm(100)), 1e5, replace = TRUE)
  for_threads({
    for (fn in builtin_math) {
      expect_identical(call_outcome(function(...) gufunc_call(fn, ...), list(x)),
                       call_outcome(fn, list(x)))
    }
    warnings <- 0L
    withCallingHandlers(
      gufunc_call("sqrt", x),
      warning = function(w) {
        warnings <<- warnings + 1L
        invokeRestart("muffleWarning")
      }
    )
    expect_identical(warnings, 1L)
  })
})
