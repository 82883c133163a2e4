# Subassignments whose subscripts count down (x[n:1] <- v, m[n:1, ] <- v,
# m[, k:1] <- v, a[, , k:1] <- v, a[n:1, j:k, l:m] <- v, x[seq(b, a, by = -k)] <- v)
# and equally spaced rows of several columns (m[seq(1, n, 2), j:k] <- v) are deferred writes
# of the same block counting up, with the value in that order (a view of a lazy
# value: R/lazy_assign.R in_block_order()): lazy results with base R's values and
# attributes, other references unchanged.

set.seed(47)
n <- 3000
v <- c(runif(n - 4), NA, NaN, -Inf, 0)
vi <- sample(c(-50:50, NA), n, replace = TRUE)
m <- matrix(v, 60)
a <- array(v[1:2400], c(12, 10, 20))

# f(x, value) on base R's values and on lazy ones (x lazy; the value as given, and
# lazy too when it is a vector): the result lazy, identical to base R's.
expect_backward_write <- function(f, x, value, what) {
  want <- f(x, value)
  values <- list(value)
  if (length(value) > 1L) values <- c(values, list(lazy(value), lazy(value) * 1L))
  for (k in seq_along(values)) {
    if (typeof(values[[k]]) != typeof(value)) next  # (x * 1L of a logical value)
    got <- f(lazy(x), values[[k]])
    info <- paste(what, c("plain value", "lazy value", "deferred value")[k])
    expect_true(is_lazy(got), info = info)
    expect_identical(materialize(got), want, info = info)
  }
}

test_that("a vector subscript counting down writes a lazy new version", {
  withr::local_options(gufunc.lazy_min_length = 1)
  for (x in list(v, vi, vi > 0L)) {
    for (i in list(quote(n:1), quote(2500:3), quote(c(9L, 8L)), quote(seq(2999, 1, by = -7)),
                   quote(seq(n, 2, by = -2)))) {
      idx <- eval(i)
      value <- x[sample(length(x), length(idx))]
      f <- function(z, value) { z[idx] <- value; z }
      expect_backward_write(f, x, value, deparse(i))
      expect_backward_write(f, x, value[1], paste(deparse(i), "one value"))
    }
  }
  named <- stats::setNames(v[1:26], letters)
  f <- function(z, value) { z[26:1] <- value; z }
  expect_backward_write(f, named, v[101:126], "names")
})

test_that("matrix and array subscripts counting down write lazy new versions", {
  withr::local_options(gufunc.lazy_min_length = 1)
  dm <- m
  dimnames(dm) <- list(paste0("r", 1:60), paste0("c", 1:50))
  for (x in list(m, dm, matrix(vi, 60))) {
    for (s in list(quote(z[60:1, ]), quote(z[, 50:1]), quote(z[60:1, 50:1]),
                   quote(z[55:2, 3:40]), quote(z[2:55, 40:3]), quote(z[55:2, 40:3]),
                   quote(z[55:2, 7]), quote(z[7, 40:3]), quote(z[seq(60, 2, by = -2), 9]),
                   quote(z[, seq(49, 1, by = -3)]), quote(z[60:1]),
                   quote(z[seq(1, 59, by = 2), 3:5]), quote(z[seq(59, 1, by = -2), 3:5]),
                   quote(z[seq(2, 60, by = 3), 40:3]), quote(z[seq(58, 4, by = -6), 50:1]),
                   quote(z[seq(1, 60, by = 4), ]))) {
      idx_call <- s
      f <- function(z, value) {
        eval(call("<-", idx_call, quote(value)))
        z
      }
      count <- length(eval(s, list(z = x)))
      value <- as.vector(x)[sample(length(x), count)]
      expect_backward_write(f, x, value, deparse(s))
    }
  }
  for (s in list(quote(z[, , 20:1]), quote(z[, 10:1, ]), quote(z[, 9:2, 3:17]),
                 quote(z[2:11, 9:2, 17:3]), quote(z[2:11, 2:9, 17:3]), quote(z[, , 20:2]),
                 quote(z[11:2, 4:7, 5]), quote(z[3, 9:2, 5:6]), quote(z[, seq(10, 2, by = -2), 4]),
                 quote(z[12:1, 2:3, 4:5]), quote(z[11:2, 9:2, 17:3]), quote(z[12:1, , 5:6]),
                 quote(z[9:3, 2:4, 20:18]), quote(z[seq(1, 11, by = 2), 2:7, 3]),
                 quote(z[seq(12, 2, by = -5), 4, 20:1]))) {
    idx_call <- s
    f <- function(z, value) {
      eval(call("<-", idx_call, quote(value)))
      z
    }
    count <- length(eval(s, list(z = a)))
    value <- runif(count)
    expect_backward_write(f, a, value, deparse(s))
    expect_backward_write(f, a, -1, paste(deparse(s), "one value"))
  }
})

test_that("values of another type are converted as base R converts them", {
  withr::local_options(gufunc.lazy_min_length = 1)
  mi <- matrix(vi, 60)
  flags <- sample(c(TRUE, FALSE, NA), length(mi), replace = TRUE)
  f <- function(z, value) { z[60:1, ] <- value; z }
  expect_backward_write(f, mi, flags, "logical into integer")
  expect_backward_write(f, m, vi, "integer into double")
  expect_backward_write(f, m, flags, "logical into double")
})

test_that("a write counting down leaves other references to x as they were", {
  withr::local_options(gufunc.lazy_min_length = 1)
  x <- lazy(m)
  y <- x
  x[60:1, ] <- m * 2
  expect_identical(materialize(y), m)
  w <- m
  w[60:1, ] <- m * 2
  expect_identical(materialize(x), w)
  value <- lazy(v)
  z <- lazy(rev(v))
  z[n:1] <- value
  expect_identical(materialize(value), v)
  expect_identical(materialize(z), v[n:1])
})

test_that("values that read x itself are computed from x before the write", {
  withr::local_options(gufunc.lazy_min_length = 1)
  cases <- list(
    function(z) { z[length(z):1] <- z; z },
    function(z) { z[(length(z) - 1):1] <- z[2:length(z)] * 2; z },
    function(z) { z[length(z):2] <- z[1:(length(z) - 1)] + z[2:length(z)]; z },
    function(z) { for (i in 1:4) z[length(z):2] <- z[1:(length(z) - 1)] / 2 + i; z }
  )
  matrix_cases <- list(
    function(M) { M[60:1, ] <- M * 2; M },
    function(M) { M[, 50:1] <- M; M },
    function(M) { M[60:2, 49:1] <- M[1:59, 2:50] - M[2:60, 1:49]; M },
    function(M) { for (i in 1:3) M[60:1, 50:1] <- M + i; M },
    function(M) { M[seq(1, 59, 2), 2:50] <- M[seq(2, 60, 2), 1:49] * 2; M },
    function(M) { M[seq(59, 1, by = -2), 50:2] <- M[seq(1, 59, 2), 1:49]; M },
    function(M) { for (i in 1:3) M[seq(3, 60, 3), ] <- M[seq(1, 58, 3), ] + i; M }
  )
  array_cases <- list(
    function(A) { A[, , 20:1] <- A; A },
    function(A) { A[, 10:2, 19:1] <- A[, 1:9, 2:20] * 0.5; A },
    function(A) { A[12:1, 2:9, 3:19] <- A[, 1:8, 2:18] + 1; A },
    function(A) { A[12:2, 9:2, 20:4] <- A[1:11, 2:9, 1:17]; A }
  )
  for (threads in 1:2) {
    for (block in list(NULL, 7L)) {
      withr::local_options(gufunc.threads = threads, gufunc.block_size = block)
      for (f in cases) expect_identical(materialize(f(lazy(v))), f(v))
      for (f in matrix_cases) expect_identical(materialize(f(lazy(m))), f(m))
      for (f in array_cases) expect_identical(materialize(f(lazy(a))), f(a))
    }
  }
})

test_that("a loop of writes counting down on a value nothing else refers to goes in place", {
  withr::local_options(gufunc.lazy_min_length = 1)
  big <- matrix(runif(40000), 200)
  step <- function(M, k) {
    for (i in seq_len(k)) M[200:1, 200:101] <- M[, 100:1] * 0.5 + i
    M
  }
  invisible(in_place_counters())
  got <- step(lazy(big), 30)
  counters <- in_place_counters()
  expect_identical(materialize(got), step(big, 30))
  expect_gt(counters[1], 0)
  spaced <- function(M, k) {
    for (i in seq_len(k)) M[seq(199, 1, by = -2), 3:50] <- M[seq(2, 200, 2), 50:3] / 2 + i
    M
  }
  invisible(in_place_counters())
  got <- spaced(lazy(big), 30)
  counters <- in_place_counters()
  expect_identical(materialize(got), spaced(big, 30))
  expect_gt(counters[1], 0)
})

test_that("writes counting down that the engine does not take stay base R's", {
  withr::local_options(gufunc.lazy_min_length = 1)
  # A value R recycles, spaced rows of several columns and planes: base R's
  # subassignment (a plain result).
  cases <- list(
    list(v, function(z) { z[n:1] <- c(1, 2, 3); z }),
    list(a, function(z) { z[seq(11, 1, by = -2), 2:3, 4:5] <- 1; z }),
    list(a, function(z) { z[seq(1, 11, by = 2), 2:3, 4:5] <- 1; z }),
    list(m, function(z) { z[60:1, 50:1] <- 1:2; z })
  )
  for (case in cases) {
    expect_identical(materialize(case[[2]](lazy(case[[1]]))), case[[2]](case[[1]]))
  }
})

test_that("a value's warnings are raised once, as base R raises them", {
  withr::local_options(gufunc.lazy_min_length = 1)
  negative <- matrix(c(-1, v[-1]), 60)
  # Every warning, as often as raised (helper-differential.R).
  want <- differential_outcome(function() {
    z <- m
    z[60:1, ] <- log(negative)
    z
  }, every_warning = TRUE)
  got <- differential_outcome(function() {
    z <- lazy(m)
    z[60:1, ] <- log(lazy(negative))
    z
  }, every_warning = TRUE)
  expect_identical(got, want)
})
