# round/signif with digits, log(x, base), atan2 (base R's math2()) and is.na,
# is.nan, is.finite, is.infinite on lazy values: deferred and fused, identical()
# to base R in values, NaN bits, attributes and warnings. The one-argument Math
# functions are in builtin_math (helper-values.R) and checked with the others.

math2_x <- c(grid_double, grid_nan_bits, seq(-3, 3, by = 0.125), 0.15, 2.675, -1.005,
             123456.789, 1e-5 * (1:7), 10^(-8:8))

test_that("builtin traits come from the registration", {
  traits <- gufunc:::builtin_traits()
  expect_true(all(c(builtin_math, "round", "signif", "atan2") %in% traits$deferred))
  expect_identical(unname(traits$family[c("+", "add", "<", "&", "!", "sqrt", "round", "is.na")]),
                   c("arithmetic", "arithmetic", "comparison", "logic", "not", "math",
                     "math2", "predicate"))
  expect_true(is.na(gufunc:::builtin_family("matmul")))
})

test_that("round and signif with digits match base R bit for bit", {
  for_engine_settings({
    lx <- lazy(math2_x)
    for (d in c(-3, -1, 0, 1, 2, 5, 15, 400, -400, 0.6, NA, NaN, Inf)) {
      expect_true(identical_bits(materialize(round(lx, d)), round(math2_x, d)))
      expect_true(identical_bits(materialize(signif(lx, d)), signif(math2_x, d)))
    }
    expect_true(identical_bits(materialize(round(lx)), round(math2_x)))
    expect_true(identical_bits(materialize(signif(lx)), signif(math2_x)))
    expect_true(identical_bits(materialize(round(lx, digits = 2)), round(math2_x, 2)))
    xi <- c(grid_integer, -15L, 25L)
    expect_identical(materialize(round(lazy(xi), -1)), round(xi, -1))
    expect_identical(materialize(signif(lazy(c(TRUE, NA, FALSE)), 1)), signif(c(TRUE, NA, FALSE), 1))
  })
})

test_that("log(x, base) and atan2 follow math2(): NA beats NaN, new NaNs warn once", {
  for_engine_settings({
    lx <- lazy(math2_x)
    for (b in c(2, 10, 3, 0.5, exp(1), 1, 0, -1, Inf, NA, NaN)) {
      expect_identical(lazy_outcome(log(lx, b)), base_outcome(log(math2_x, b)))
      expect_identical(lazy_outcome(log(lx, base = b)), base_outcome(log(math2_x, base = b)))
    }
    expect_true(identical_bits(suppressWarnings(materialize(log(lx, 3))),
                               suppressWarnings(log(math2_x, 3))))
    y <- rev(math2_x)
    expect_identical(lazy_outcome(log(lx, lazy(abs(y)))), base_outcome(log(math2_x, abs(y))))
    expect_true(identical_bits(materialize(atan2(lx, lazy(y))), atan2(math2_x, y)))
    expect_true(identical_bits(materialize(atan2(lx, 2)), atan2(math2_x, 2)))
    expect_true(identical_bits(materialize(atan2(-1, lx)), atan2(-1, math2_x)))
  })
})

test_that("math2 results keep the attributes of the operand as long as the result", {
  m <- matrix(seq(-2, 2, length.out = 1200), 40, dimnames = list(paste0("r", 1:40), NULL))
  attr(m, "note") <- "kept"
  lm <- lazy(m)
  expect_identical(materialize(round(lm, 1)), round(m, 1))
  expect_identical(materialize(signif(lm, 2)), signif(m, 2))
  expect_identical(lazy_outcome(log(lm, 2)), base_outcome(log(m, 2)))
  v <- c(a = 1, b = 2)
  expect_identical(materialize(atan2(v, lazy(seq_len(1200) / 7))), atan2(v, seq_len(1200) / 7))
  expect_true(is_lazy(round(lm, 1)))
})

test_that("is.na, is.nan, is.finite and is.infinite are deferred with dim and names", {
  xd <- rep(c(grid_double, grid_nan_bits), 40)
  xi <- rep(grid_integer, 80)
  xl <- rep(grid_logical, 400)
  m <- matrix(xd[1:1200], 30, dimnames = list(NULL, paste0("c", 1:40)))
  attr(m, "note") <- "dropped"
  named <- stats::setNames(xd, paste0("n", seq_along(xd)))
  for_engine_settings({
    for (fn in c("is.na", "is.nan", "is.finite", "is.infinite")) {
      f <- get(fn)
      for (x in list(xd, xi, xl, m, named)) {
        r <- f(lazy(x))
        expect_true(is_lazy(r))
        expect_identical(materialize(r), f(x))
      }
    }
    expect_identical(materialize(is.na(lazy(xd) * 2)), is.na(xd * 2))
  })
})

test_that("round() and signif() pass x first: no class on plain data", {
  v <- seq(0.001, 2, length.out = 70000)
  r <- signif(digits = 2, x = lazy(v))
  expect_true(is_lazy(r))
  expect_identical(materialize(r), signif(v, 2))
  expect_identical(materialize(round(digits = 1, x = lazy(v))), round(v, 1))
  # Plain values: base R's results, conditions and the user's call.
  expect_identical(round(2.675, 2), base::round(2.675, 2))
  expect_identical(signif(123456L), base::signif(123456L))
  expect_identical(round(digits = 1, x = 2.25), base::round(2.25, 1))
  expect_identical(round(as.Date("2020-01-01") + 0.6), base::round(as.Date("2020-01-01") + 0.6))
  e <- tryCatch(round("a"), error = identity)
  expect_identical(conditionCall(e), quote(round("a")))
  expect_identical(conditionMessage(e), conditionMessage(tryCatch(base::round("a"), error = identity)))
  expect_identical(round(1 + 2i, 1), base::round(1 + 2i, 1))
})

test_that("one fused kernel for round, cospi and arithmetic", {
  lx <- lazy(seq(0, 1, length.out = 5000))
  plan <- lazy_plan(round(lx * 2, 1) + cospi(lx) + is.na(lx))
  expect_length(plan$kernels, 1L)
})

test_that("log() with its arguments named in any order takes x and base as base R does", {
  x <- c(2, 4, 8)
  big <- as.numeric(1:70000)
  expect_identical(materialize(log(base = 2, x = lazy(big))), log(big, 2))
  withr::local_options(gufunc.lazy_min_length = 0)
  expect_identical(materialize(log(base = 2, x = lazy(x))), log(base = 2, x = x))
  expect_identical(materialize(log(base = 2, lazy(x))), log(base = 2, x))
  expect_identical(materialize(log(b = 2, lazy(x))), log(b = 2, x))
  expect_identical(materialize(log(2, x = lazy(x))), log(2, x = x))
  expect_identical(materialize(log(lazy(x), 2)), log(x, 2))
  expect_identical(materialize(log(x = lazy(x), base = 2)), log(x = x, base = 2))
  expect_identical(materialize(log(base = lazy(c(2, 3, 4)), x = lazy(x))),
                   log(base = c(2, 3, 4), x = x))
})

test_that("round(), atan2() and log(x, base) take the attributes of x when it is as long", {
  d4 <- c(0, 1, 2, 3)
  m4 <- matrix(c(1.11, 2.22, 3.33, 4.44), 2)
  x <- as.numeric(1:70000)
  expect_identical(materialize(atan2(lazy(x), matrix(x, 2))), atan2(x, matrix(x, 2)))
  withr::local_options(gufunc.lazy_min_length = 0)
  expect_identical(materialize(atan2(lazy(d4), m4)), atan2(d4, m4)) # no dim
  expect_identical(materialize(round(lazy(d4), m4)), round(d4, m4))
  expect_identical(materialize(signif(lazy(d4), m4)), signif(d4, m4))
  expect_identical(materialize(log(lazy(d4 + 1), m4 + 1)), log(d4 + 1, m4 + 1))
  expect_identical(materialize(atan2(lazy(m4), d4)), atan2(m4, d4)) # dim of x
  expect_identical(materialize(atan2(lazy(2), m4)), atan2(2, m4)) # dim of the longer
})

test_that("is.na() and the like give an array dim and dimnames only, a vector names", {
  a1 <- array(c(3, NA, 1), 3, dimnames = list(c("a", "b", "c")))
  big <- array(c(3, NA, runif(69998)), 70000, dimnames = list(paste0("n", 1:70000)))
  expect_identical(materialize(is.na(lazy(big))), is.na(big))
  withr::local_options(gufunc.lazy_min_length = 0)
  for (f in list(is.na, is.nan, is.finite, is.infinite)) {
    expect_identical(materialize(f(lazy(a1))), f(a1))
    expect_identical(materialize(f(lazy(c(a = 1, b = NaN)))), f(c(a = 1, b = NaN)))
  }
})
