# x[i] and m[i, j] of one position read the element alone (src/r/element_reads.cpp);
# every other subscript takes the `[` method's general path. Either way the outcome
# (value, attributes, warnings, error message) is base R's.

element_read_outcome <- function(x, ...) differential_outcome(function() x[...], every_warning = TRUE)

expect_reads_like_base <- function(plain, lazy_value, subscripts) {
  for (s in subscripts) {
    base <- do.call(element_read_outcome, c(list(plain), s))
    ours <- do.call(element_read_outcome, c(list(lazy_value), s))
    expect_identical(ours, base, label = paste0("x[", paste(vapply(s, deparse, ""), collapse = ", "), "]"))
  }
}

test_that("x[i] of one position is base R's for every type, kept or deferred", {
  n <- 3000L
  doubles <- c(-1.5, NA, NaN, Inf, seq_len(n - 4L) / 7)
  integers <- c(NA, seq_len(n - 1L))
  logicals <- rep(c(TRUE, NA, FALSE), length.out = n)
  positions <- list(1L, n, 2, 2.5, n + 0.5, n + 1, n + 1L, 0, 0L, -1, -1L, NA, NA_integer_,
                    NaN, Inf, -Inf, 1e300, c(1, 2), TRUE, "a", 3i, structure(2, names = "b"))
  subscripts <- lapply(positions, list)
  for (plain in list(doubles, integers, logicals)) {
    expect_reads_like_base(plain, lazy(plain), subscripts)
  }
  # Deferred values: the element is computed alone, its warnings with it.
  expect_reads_like_base(doubles * 2, lazy(doubles) * 2, subscripts)
  expect_reads_like_base(integers + 1L, lazy(integers) + 1L, subscripts)
  # A deferred value warns for the elements it computes (?lazy), base R's for the
  # whole vector: the values are compared here.
  with_sqrt <- suppressWarnings(sqrt(doubles))
  lazy_sqrt <- suppressWarnings(sqrt(lazy(doubles)))
  for (s in subscripts) {
    expect_identical(element_read_outcome(lazy_sqrt, s[[1]])$value,
                     element_read_outcome(with_sqrt, s[[1]])$value)
  }
  expect_reads_like_base(!logicals, !lazy(logicals), subscripts)
})

test_that("x[i] keeps names, and other attributes go as base R drops them", {
  n <- 2500L
  plain <- stats::setNames(seq_len(n) / 3, paste0("e", seq_len(n)))
  expect_reads_like_base(plain, lazy(plain), list(list(1), list(n), list(n + 1), list("e7")))
  tagged <- structure(seq_len(n) / 3, units = "m")
  expect_reads_like_base(tagged, lazy(tagged), list(list(1), list(5L), list(0)))
  # A 1-d array keeps its dimnames as names, and its dim for several positions.
  one_d <- array(seq_len(n) / 3, n)
  one_d_named <- array(seq_len(n) / 3, n, list(paste0("e", seq_len(n))))
  for (a in list(one_d, one_d_named)) {
    expect_reads_like_base(a, lazy(a), list(list(1), list(n), list(2:3), list(2:2400), list(-1)))
  }
})

test_that("m[i, j] of one row and column is base R's, dimnames or not", {
  plain <- matrix(seq_len(60 * 50) / 9, 60, 50)
  named <- plain
  dimnames(named) <- list(paste0("r", 1:60), paste0("c", 1:50))
  pairs <- list(list(1, 1), list(60L, 50L), list(2.7, 3.2), list(61, 1), list(1, 51L),
                list(0, 1), list(-1, 1), list(NA, 1), list(1, NA_integer_), list(c(1, 2), 1),
                list(TRUE, 1), list(1), list(3000), list(3001))
  for (m in list(plain, named)) {
    expect_reads_like_base(m, lazy(m), pairs)
    expect_reads_like_base(m - 1, lazy(m) - 1, pairs)
  }
  expect_reads_like_base(named, lazy(named), list(list("r2", "c3"), list("r2", 3)))
  # drop = FALSE keeps the 1 x 1 matrix; an array of three dims takes three.
  expect_reads_like_base(plain, lazy(plain), list(list(2, 3, drop = FALSE)))
  cube <- array(seq_len(24 * 20 * 10) / 5, c(24, 20, 10))
  expect_reads_like_base(cube, lazy(cube), list(list(2, 3), list(2, 3, 4), list(7)))
})

test_that("an element read does not compute or copy the whole deferred value", {
  x <- lazy(seq_len(5e5) / 3)
  y <- x * 2 + 1
  expect_identical(y[12345], (12345 / 3) * 2 + 1)
  expect_false(gufunc:::is_materialized(y))
  m <- lazy(matrix(seq_len(1e6) / 3, 1000))
  z <- m - 1
  expect_identical(z[7, 9], (7 + 8 * 1000) / 3 - 1)
  expect_false(gufunc:::is_materialized(z))
})

test_that("a vector subscript of a matrix is a view with base R's values", {
  withr::local_options(gufunc.lazy_min_length = 100)
  m <- matrix(seq_len(60 * 50) / 9, 60, 50)
  named <- m
  dimnames(named) <- list(paste0("r", 1:60), paste0("c", 1:50))
  for (x in list(m, named)) {
    for (i in list(5:2000, seq(1, 2999, by = 2), -1, -(1:7))) {
      got <- lazy(x)[i]
      expect_true(is_lazy(got))
      expect_identical(materialize(got), x[i])
      expect_identical(materialize(lazy(x)[i] * 2), x[i] * 2)
    }
    # Masks, decreasing runs and irregular positions still give base R's values.
    expect_identical(materialize(lazy(x)[c(TRUE, FALSE, FALSE)]), x[c(TRUE, FALSE, FALSE)])
    expect_identical(materialize(lazy(x)[2000:5]), x[2000:5])
    expect_identical(materialize(lazy(x)[c(7, 3, 900)]), x[c(7, 3, 900)])
  }
})

test_that("a subscript that fails to evaluate gives base R's error, not naming the method", {
  m <- matrix(seq_len(3000) / 7, 60)
  f <- function(a) a[no_such_variable, 2]
  e <- tryCatch(f(lazy(m)), error = function(e) e)
  expect_identical(conditionMessage(e), tryCatch(f(m), error = conditionMessage))
  expect_false(identical(conditionCall(e)[[1L]], as.name("[.gufunc_lazy")))
})
