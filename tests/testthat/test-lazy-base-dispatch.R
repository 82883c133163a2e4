# Base R functions whose dispatch or argument rules a lazy argument reaches in
# other ways than a plain one (found by differential runs of R's own tests and
# NumPy's cases): results, errors and their classes are base R's.

test_that("seq() and seq.int() with lazy arguments give base R's sequence and type", {
  t30 <- 1073741824L
  with_options(list(gufunc.lazy_min_length = 0), {
    expect_identical(seq.int(lazy(7L), length.out = 4L), seq.int(7L, length.out = 4L))
    expect_identical(seq(lazy(1L), lazy(10L), by = 2L), seq(1L, 10L, by = 2L))
    expect_identical(seq.int(to = lazy(2L), by = 1L), seq.int(to = 2L, by = 1L))
    expect_identical(base::seq(lazy(3L)), seq(3L))
    expect_identical(seq(lazy(1.5), 4), seq(1.5, 4))
    expect_identical(seq(along.with = lazy(runif(5))), seq(along.with = 1:5))
    # seq() of the plain values overflows nothing.
    expect_no_warning(s <- seq(lazy(-t30), lazy(t30), length.out = 3L))
    expect_identical(s, seq(-t30, t30, length.out = 3L))
  })
})

test_that("rev() of a one-dimensional array of extent 1 drops it to a named vector", {
  with_options(list(gufunc.lazy_min_length = 0), {
    for (x in list(array(3, 1, list("b")), array(3, 1), array(3, 1, list(k = "b")),
                   array(1:3, 3, list(c("a", "b", "c"))))) {
      expect_identical(materialize(rev(lazy(x))), rev(x))
    }
  })
})

test_that("a comparison or logic operator with one argument is base R's error", {
  with_options(list(gufunc.lazy_min_length = 0), {
    for (op in c("==", "!=", "<", "<=", ">", ">=", "&", "|")) {
      f <- get(op)
      base <- tryCatch(f(c(a = 1.5, b = -2)), error = identity)
      lazy_error <- tryCatch(f(lazy(c(a = 1.5, b = -2))), error = identity)
      expect_identical(class(lazy_error), class(base), label = op)
      expect_identical(conditionMessage(lazy_error), conditionMessage(base), label = op)
    }
    # Unary +, - and ! still work.
    expect_identical(materialize(-lazy(c(a = 1))), -c(a = 1))
    expect_identical(materialize(!lazy(c(a = TRUE))), !c(a = TRUE))
  })
})

test_that("operands that do not fit raise a simpleError, as base R's do", {
  with_options(list(gufunc.lazy_min_length = 0), {
    caught <- function(expr) tryCatch(expr, simpleError = function(e) conditionMessage(e))
    expect_identical(caught(lazy(matrix(1:6, 2)) + lazy(matrix(1:6, 3))),
                     caught(matrix(1:6, 2) + matrix(1:6, 3)))
    expect_identical(caught(lazy(matrix(1)) & 1:2), caught(matrix(1) & 1:2))
    expect_error(lazy(matrix(1:6, 2)) + lazy(matrix(1:6, 3)), class = "gufunc_shape_error")
  })
})

test_that("as.Date() and as.POSIXct() errors quote the caller's expression", {
  for (f in list(as.Date, as.POSIXct, as.POSIXlt)) {
    e <- tryCatch(f(lazy(c(TRUE, NA))), error = identity)
    expect_match(conditionMessage(e), "'lazy(c(TRUE, NA))'", fixed = TRUE)
    expect_false(grepl("fallback_values", deparse1(conditionCall(e)), fixed = TRUE))
  }
  expect_identical(as.Date(lazy(c(1, 2e4)), origin = "1970-01-01"),
                   as.Date(c(1, 2e4), origin = "1970-01-01"))
})

test_that("diff() with a fractional lag or number of differences is base R's", {
  v <- as.numeric(1:1e5)
  expect_identical(materialize(diff(lazy(v), lag = 2.5)), diff(v, lag = 2.5))
  expect_identical(materialize(diff(lazy(1:5), lag = 1.5)), diff(1:5, lag = 1.5))
  m <- matrix(as.numeric(1:12), 6)
  expect_identical(materialize(diff(lazy(m), lag = 1.5)), diff(m, lag = 1.5))
  expect_identical(materialize(diff(lazy(v), differences = 2.7)), diff(v, differences = 2.7))
})

test_that("mean() of doubles whose sum overflows is base R's (its scaled passes)", {
  xm <- .Machine$double.xmax
  cases <- list(c(xm, rep(1e303, 2), rep(1, 69997)), rep(xm, 3), c(xm, rep(1e307, 4), 1),
                c(-xm, -xm, xm), c(xm, xm, -Inf), c(xm, NaN, xm), c(xm, NA, xm), c(Inf, -Inf),
                c(rep(c(xm, -xm / 2), 40000), 1e300))
  for (threads in 1:2) {
    with_options(list(gufunc.lazy_min_length = 0, gufunc.threads = threads), {
      for (x in cases) {
        expect_identical(mean(lazy(x)), mean(x))
        expect_identical(mean(lazy(x) * 1), mean(x * 1))  # computed values, kept between passes
        expect_identical(mean(lazy(x), na.rm = TRUE), mean(x, na.rm = TRUE))
      }
    })
  }
})

test_that("a subscript coerced to NA warns once, as base R's, naming the caller", {
  m <- matrix(as.double(1:36), 6)
  a <- array(as.double(1:60), 3:5)
  count <- function(expr) {
    n <- 0L
    withCallingHandlers(expr, warning = function(w) {
      n <<- n + 1L
      invokeRestart("muffleWarning")
    })
    n
  }
  expect_identical(count(lazy(m)[c(2, Inf), TRUE]), count(m[c(2, Inf), TRUE]))
  expect_identical(count(lazy(m)[lazy(c(2, 3)), c(1, 1e10)]), count(m[c(2, 3), c(1, 1e10)]))
  expect_identical(count(lazy(a)[c(1, Inf), , 2]), count(a[c(1, Inf), , 2]))
  expect_identical(suppressWarnings(materialize(lazy(m)[c(2, Inf), TRUE])),
                   suppressWarnings(m[c(2, Inf), TRUE]))
  in_function <- function(x) x[c(2, Inf), TRUE]
  w <- tryCatch(in_function(lazy(m)), warning = identity)
  expect_identical(conditionCall(w), quote(in_function(lazy(m))))
})

test_that("rep_len() with a bad length.out is base R's error", {
  x <- c(1.5, 2)
  for (n in list(c(2, 5), NA, -1, numeric(0))) {
    base <- tryCatch(rep_len(x, n), error = identity)
    lazy_error <- tryCatch(rep_len(lazy(x), n), error = identity)
    expect_identical(conditionMessage(lazy_error), conditionMessage(base))
    expect_identical(class(lazy_error), class(base))
  }
  expect_identical(materialize(rep_len(lazy(x), 5)), rep_len(x, 5))
  expect_identical(materialize(rep_len(lazy(x), -0.5)), rep_len(x, -0.5))
  y <- runif(3000)
  expect_identical(materialize(rep_len(lazy(y), 70001)), rep_len(y, 70001))
})
