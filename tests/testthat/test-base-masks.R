# gufunc's versions of base R functions that would copy the class "gufunc_lazy"
# onto a plain result (R/base_masks.R): base R's plain result for lazy arguments,
# base R's behaviour (values, warnings, errors and the call they name) otherwise.

w <- c(0.25, NA, 3, -1.5, NaN, 7, 2.5, 0)
v <- c(1, 2, NA, -4, 5, NaN, 0.5, 3)
m <- matrix(w, 2, dimnames = list(c("r1", "r2"), NULL))

expect_same_as_base <- function(gufunc_expr, base_expr) {
  expect_identical(gufunc_expr, base_expr)
  expect_false(inherits(gufunc_expr, "gufunc_lazy"))
}

test_that("pmax() and pmin() give base R's plain result for lazy arguments", {
  for (f in c("pmax", "pmin")) {
    g <- get(f, asNamespace("gufunc"))
    b <- get(f, baseenv())
    expect_same_as_base(g(lazy(w), v), b(w, v))
    expect_same_as_base(g(v, lazy(w)), b(v, w))
    expect_same_as_base(g(lazy(w), lazy(v), 1, na.rm = TRUE), b(w, v, 1, na.rm = TRUE))
    expect_same_as_base(g(lazy(m), 0.5), b(m, 0.5))
    expect_same_as_base(g(lazy(w) * 2, 1), b(w * 2, 1))
    expect_same_as_base(g(lazy(1:8), 4L), b(1:8, 4L))
  }
})

test_that("ifelse() gives base R's plain result and evaluates only what it needs", {
  expect_same_as_base(ifelse(lazy(w) > 0.5, v, 0), base::ifelse(w > 0.5, v, 0))
  expect_same_as_base(ifelse(w > 0.5, lazy(v), lazy(w) * 2), base::ifelse(w > 0.5, v, w * 2))
  expect_same_as_base(ifelse(lazy(m) > 1, "big", "small"), base::ifelse(m > 1, "big", "small"))
  expect_identical(ifelse(TRUE, 1, stop("not needed")), 1)
  expect_identical(ifelse(lazy(c(TRUE, TRUE)), 1, stop("not needed")), c(1, 1))
})

test_that("ifelse() with a lazy logical test is deferred, with base R's values and type", {
  withr::local_options(gufunc.lazy_min_length = 1)
  x <- c(w, 0.5, -0.25, Inf, -Inf)
  lx <- lazy(x)
  m2 <- matrix(x, 3, dimnames = list(letters[1:3], NULL))
  xi <- as.integer(c(3, -2, NA, 7, 0, -9))
  cases <- list(
    list(ifelse(lx > 0, lx * 2, -1), ifelse(x > 0, x * 2, -1)),
    list(ifelse(lx > 0, 1, x), ifelse(x > 0, 1, x)),
    list(ifelse(lazy(m2) > 0, lazy(m2), 0), ifelse(m2 > 0, m2, 0)),
    list(ifelse(lazy(xi) > 0L, xi, NA_integer_), ifelse(xi > 0L, xi, NA_integer_)),
    list(ifelse(lx > 0, TRUE, NA), ifelse(x > 0, TRUE, NA)),
    list(ifelse(!is.na(x) & lx < 1, lx, 0), ifelse(!is.na(x) & x < 1, x, 0))
  )
  for (case in cases) {
    expect_true(is_lazy(case[[1]]))
    expect_identical(materialize(case[[1]]), case[[2]])
  }
  # Base R's type rules the engine does not follow: base R's code.
  expect_identical(ifelse(lazy(c(NA, NA)) > 0, 1, 2), ifelse(c(NA, NA) > 0, 1, 2))
  expect_identical(ifelse(lx > 0, 1L, 2.5), ifelse(x > 0, 1L, 2.5))
  expect_identical(ifelse(lx > 0, "a", "b"), ifelse(x > 0, "a", "b"))
  expect_identical(ifelse(lx > 0, 1:2, 0), suppressWarnings(ifelse(x > 0, 1:2, 0)))
  # The normal CDF of the Black-Scholes program, fused.
  cnd <- function(d) {
    k <- 1 / (1 + 0.2316419 * abs(d))
    p <- 1 - exp(-d * d / 2) * k
    ifelse(d < 0, 1 - p, p)
  }
  d <- c(w, -3, 3, 0)
  expect_identical(materialize(cnd(lazy(d))), cnd(d))
})

test_that("the two-argument math functions give base R's plain result", {
  n <- c(5, 6, 10, 0.5, NA)
  k <- c(2, 3, 0, 1, 1)
  expect_same_as_base(choose(lazy(n), 2), base::choose(n, 2))
  expect_same_as_base(choose(n, lazy(k)), base::choose(n, k))
  expect_same_as_base(lchoose(lazy(n), k), base::lchoose(n, k))
  expect_same_as_base(beta(lazy(abs(w) + 1), 2), base::beta(abs(w) + 1, 2))
  expect_same_as_base(lbeta(2, lazy(abs(w) + 1)), base::lbeta(2, abs(w) + 1))
  expect_same_as_base(atan2(lazy(w), v), base::atan2(w, v))
  expect_same_as_base(atan2(1, lazy(m)), base::atan2(1, m))
  x <- c(0.5, 1, 2.5, 10)
  expect_same_as_base(besselJ(lazy(x), 1), base::besselJ(x, 1))
  expect_same_as_base(besselY(lazy(x), 0), base::besselY(x, 0))
  expect_same_as_base(besselI(lazy(x), 1, TRUE), base::besselI(x, 1, TRUE))
  expect_same_as_base(besselK(lazy(x), 2), base::besselK(x, 2))
})

test_that("plain data that a base R function gave the class counts as plain", {
  stray <- structure(w, class = "gufunc_lazy")
  expect_same_as_base(pmax(stray, 1), base::pmax(w, 1))
  expect_same_as_base(choose(stray, 2), base::choose(w, 2))
})

test_that("without lazy arguments they are base R's functions, conditions included", {
  expect_identical(pmax(w, v), base::pmax(w, v))
  expect_identical(pmin(as.Date("2024-01-02"), as.Date("2023-05-06")),
                   base::pmin(as.Date("2024-01-02"), as.Date("2023-05-06")))

  base_warning <- tryCatch(base::pmax(1:3, 1:2), warning = function(w) w)
  masked_warning <- tryCatch(pmax(1:3, 1:2), warning = function(w) w)
  expect_identical(conditionMessage(masked_warning), conditionMessage(base_warning))
  expect_identical(conditionCall(masked_warning), quote(pmax(1:3, 1:2)))

  masked_warning <- tryCatch(choose(lazy(c(5, 6)), 2.5), warning = function(w) w)
  expect_identical(conditionCall(masked_warning), quote(choose(lazy(c(5, 6)), 2.5)))
  expect_warning(b <- beta(-1, 2), "NaNs produced")
  expect_identical(b, suppressWarnings(base::beta(-1, 2)))

  masked_error <- tryCatch(atan2("a", 1), error = function(e) e)
  base_error <- tryCatch(base::atan2("a", 1), error = function(e) e)
  expect_identical(conditionMessage(masked_error), conditionMessage(base_error))
  expect_identical(conditionCall(masked_error), quote(atan2("a", 1)))
  expect_error(pmax(), "no arguments")
  expect_error(choose(5), "missing")
})

test_that("ifelse() with a lazy test evaluates only the branches some element takes", {
  n <- 70000
  x <- rep(c(-1, 4), n / 2)
  all_true <- rep(TRUE, n)
  expect_identical(materialize(ifelse(lazy(all_true), lazy(x), stop("never needed"))), x)
  expect_identical(materialize(ifelse(lazy(x) > -5, lazy(x))), ifelse(x > -5, x)) # no `no`
  expect_no_warning(s <- sum(ifelse(lazy(x) > 5, sqrt(lazy(x)), 0)))
  expect_identical(s, 0)
  na_false <- c(rep(NA, 2000), rep(FALSE, n)) # no TRUE in the first elements
  expect_identical(materialize(ifelse(lazy(na_false), stop("never needed"), 2L)),
                   ifelse(na_false, stop("never needed"), 2L))
  na_true <- c(NA, rep(TRUE, n))
  expect_identical(materialize(ifelse(lazy(na_true), 1.5, "never a character")),
                   ifelse(na_true, 1.5, "never a character"))
  expect_identical(materialize(ifelse(lazy(x) > 0, x, -x)), ifelse(x > 0, x, -x))
  all_na <- rep(NA, n)
  expect_identical(ifelse(lazy(all_na), 1, 2), ifelse(all_na, 1, 2))
  # A NULL branch that is taken: base R's warning and error.
  expect_warning(expect_error(ifelse(lazy(all_true), NULL, lazy(x)), "replacement has length zero"),
                 "'x' is NULL")
  # A test that warns: once, as base R's.
  count <- 0L
  withCallingHandlers(
    materialize(ifelse(sqrt(lazy(x)) > 0, lazy(x), -x)),
    warning = function(w) {
      count <<- count + 1L
      invokeRestart("muffleWarning")
    }
  )
  expect_identical(count, 1L)
})
