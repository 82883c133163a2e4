# Operators and summaries of short lazy values whose values are at hand go to base
# R's primitive in one call (src/r/short_operations.cpp): the same values, bits,
# types, attributes, warnings and laziness as the general path gives.

specials <- c(NA, NaN, -0, 0, Inf, -Inf, 1.5, -2.25, 1e308, 5e-324, -1, 2)

test_that("operators of short double values at hand are base R's, bit for bit", {
  withr::local_options(gufunc.lazy_min_length = 65536)
  withr::local_seed(41)
  ops <- c("+", "-", "*", "/", "^", "==", "!=", "<", ">", "<=", ">=", "&", "|", "%%", "%/%")
  for (n in c(12L, 255L, 256L, 3000L)) {
    a <- c(specials, runif(n - length(specials), -3, 3))
    b <- c(rev(specials), sample(c(a[-(1:12)])))
    la <- lazy(a) * 1  # a short result: values at hand
    lb <- lazy(b)
    for (op in ops) {
      f <- get(op, baseenv())
      cases <- list(
        list(la, lb, a, b), list(la, b, a, b), list(a, lb, a, b),
        list(la, 2.5, a, 2.5), list(-0.5, lb, -0.5, b), list(la, NA_real_, a, NA_real_)
      )
      for (k in seq_along(cases)) {
        cs <- cases[[k]]
        got <- f(cs[[1]], cs[[2]])
        want <- f(cs[[3]], cs[[4]])
        label <- paste(op, n, k)
        expect_identical(is_lazy(got), n >= 256L, label = label)
        expect_identical(if (is_lazy(got)) materialize(got) else got, want, label = label)
      }
    }
  }
})

test_that("operators of short double arrays at hand are base R's, dims and errors too", {
  withr::local_options(gufunc.lazy_min_length = 65536)
  withr::local_seed(44)
  p <- matrix(c(specials, runif(588, -2, 2)), 20)
  q <- matrix(c(runif(588, -2, 2), rev(specials)), 20)
  lp <- lazy(p) * 1
  lq <- lazy(q)
  values <- function(v) if (is_lazy(v)) materialize(v) else v
  for (op in c("+", "-", "*", "/", "^", "<", "==", "&")) {
    f <- get(op, baseenv())
    expect_identical(values(f(lp, lq)), f(p, q), label = op)
    expect_identical(values(f(lp, q)), f(p, q), label = op)
    expect_identical(values(f(p, lq)), f(p, q), label = op)
    expect_identical(values(f(lp, 0.5)), f(p, 0.5), label = op)
    expect_identical(values(f(2, lq)), f(2, q), label = op)
    expect_identical(values(f(lp, as.vector(q))), f(p, as.vector(q)), label = op)
    expect_identical(values(f(as.vector(p), lq)), f(as.vector(p), q), label = op)
  }
  expect_true(is_lazy(lp - lq))
  expect_identical(dim(lp - lq), c(20L, 30L))
  # Arrays of other dims: base R's error; a 1 x 1 array against many: its warning.
  expect_identical(tryCatch(lp + t(q), error = conditionMessage),
                   tryCatch(p + t(q), error = conditionMessage))
  one <- matrix(2, 1, 1)
  expect_identical(tryCatch(lazy(runif(300)) * 1 + one, warning = conditionMessage),
                   tryCatch(runif(300) + one, warning = conditionMessage))
  expect_identical(values(suppressWarnings(lp[, 1] + one)), suppressWarnings(p[, 1] + one))
})

test_that("short values with attributes, other types or uneven lengths take the general path", {
  withr::local_options(gufunc.lazy_min_length = 65536)
  m <- matrix(seq_len(600) / 7, 20, dimnames = list(NULL, paste0("c", 1:30)))
  lm <- lazy(m) * 1
  values <- function(v) if (is_lazy(v)) materialize(v) else v
  expect_identical(values(lm + 1), m + 1)
  expect_identical(dimnames(lm * 2), dimnames(m))
  i <- lazy(seq_len(300)) * 1L
  expect_identical(values(i + 1L), seq_len(300) + 1L)
  big <- lazy(rep(.Machine$integer.max, 300L)) * 1L
  expect_warning(s <- big + 1L, "NAs produced by integer overflow")
  expect_identical(values(s), rep(NA_integer_, 300))
  x <- lazy(runif(300)) * 1
  expect_warning(y <- x + 1:7, "longer object length is not a multiple")
  expect_identical(values(x %% 0), materialize(x) %% 0)
  expect_error(x + "a", "non-numeric argument")
})

test_that("math functions of short double values at hand are base R's, warnings too", {
  withr::local_options(gufunc.lazy_min_length = 65536)
  withr::local_seed(45)
  v <- c(specials, runif(300, -800, 800))
  m <- matrix(c(v, 0.5), 39)
  values <- function(x) if (is_lazy(x)) materialize(x) else x
  quiet <- c("abs", "sign", "floor", "ceiling", "trunc", "exp", "expm1", "sinh", "cosh", "tanh",
             "atan", "asinh")
  for (fn in c(quiet, "sqrt", "log", "sin", "cospi", "gamma", "cumsum")) {
    f <- get(fn, baseenv())
    for (x in list(v, m, v[1:100])) {
      lx <- lazy(x) * 1
      want <- tryCatch(f(x), warning = function(w) conditionMessage(w))
      got <- tryCatch(values(f(lx)), warning = function(w) conditionMessage(w))
      expect_identical(got, want, label = paste(fn, length(x)))
    }
  }
  expect_true(is_lazy(exp(lazy(v) * 1)))
  expect_identical(dim(abs(lazy(m) * 1)), dim(m))
  expect_warning(sqrt(lazy(v) * 1), "NaNs produced")
})

test_that("summaries of short double values at hand are base R's", {
  withr::local_options(gufunc.lazy_min_length = 65536)
  withr::local_seed(42)
  for (n in c(1L, 255L, 300L, 5000L)) {
    v <- c(specials, runif(max(0, n - length(specials))))[seq_len(n)]
    for (w in list(v, v[!is.na(v)], c(1, 2, 3, runif(n)))) {
      lw <- lazy(w) * 1
      for (fn in c("sum", "prod", "max", "min", "range")) {
        f <- get(fn, baseenv())
        expect_identical(f(lw), f(w), label = paste(fn, n))
        expect_identical(f(lw, na.rm = TRUE), f(w, na.rm = TRUE), label = paste(fn, n, "na.rm"))
      }
      expect_identical(mean(lw), mean(w))
    }
  }
  # Where na.rm leaves nothing, base R's warning, naming the user's call.
  na <- lazy(rep(NA_real_, 300)) * 1
  expect_warning(r <- max(na, na.rm = TRUE), "no non-missing arguments to max")
  expect_identical(r, -Inf)
  expect_identical(sum(na, na.rm = TRUE), 0)
  expect_identical(sum(na, na.rm = NA), sum(rep(NA_real_, 300), na.rm = NA))
  expect_identical(max(na * 0 + 1, na.rm = "yes"), max(rep(NA_real_, 300) * 0 + 1, na.rm = "yes"))
})

test_that("a loop over the columns of a lazy matrix gives base R's values", {
  withr::local_options(gufunc.lazy_min_length = 65536)
  withr::local_seed(43)
  p <- matrix(runif(400 * 50), 400)
  w <- runif(400)
  loop <- function(m) {
    s <- 0
    for (j in seq_len(ncol(m))) s <- s + sum(m[, j] * w) - max(m[, j] - m[, 1])
    s
  }
  expect_identical(loop(lazy(p)), loop(p))
})
