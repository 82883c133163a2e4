# options(gufunc.verbose = TRUE): messages when a deferred value is computed whole
# for code that is not the engine's.

test_that("verbose mode says what is materialized and why", {
  withr::local_options(list(gufunc.verbose = TRUE))
  x <- lazy(runif(5000))
  expect_message(anyNA(x * 2), "gufunc: materializing double\\[5,000\\] \\(40 kB\\) for anyNA\\(\\)",
                 class = "gufunc_verbose_message")
  # (Positive arguments: R warns once per negative one, 5000 warnings in the log.)
  expect_message(besselJ(x + 1, 1), "for besselJ\\(\\)")
  a <- lazy(array(runif(6000), c(30, 100, 2)))
  expect_message(aperm(a + 1, c(2, 1, 3)),
                 "materializing double\\[30 x 100 x 2\\] \\(48 kB\\) for aperm\\(\\) with a permutation")
  y <- x + 3
  expect_message(sort(y), "for sort\\(\\)")
  y <- x + 4
  expect_message(order(y), "for base R code \\(in order\\)")
  # Values at hand, and values computed already, are not materialized again.
  expect_silent(anyNA(x))
  z <- x * 5
  invisible(materialize(z))
  expect_silent(anyNA(z))
  # Values that stay in the engine say nothing.
  expect_silent(s <- sum(x * 2 + 1))
})

test_that("verbose messages are off by default and can be suppressed", {
  x <- lazy(runif(5000))
  expect_silent(anyNA(x * 2))
  withr::local_options(list(gufunc.verbose = TRUE))
  expect_silent(suppressMessages(anyNA(x * 3)))
})
