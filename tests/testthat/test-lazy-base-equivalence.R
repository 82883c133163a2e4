# A lazy value is indistinguishable from the base R value it stands for: results of
# base R functions are plain values or lazy values, never plain data with the
# class; warnings come however the elements are read; reading a value piece by
# piece costs one materialization at most.

test_that("length-1 logical results of operators do not recurse", {
  with_options(list(gufunc.lazy_min_length = 0), {
    expect_identical(materialize(lazy(1) == 1), TRUE)
    expect_identical(materialize(lazy(Inf) > 12), TRUE)
    expect_identical(materialize(!lazy(TRUE)), FALSE)
    expect_identical(materialize(lazy(NA) | FALSE), NA)
    expect_identical(materialize(abs(lazy(-2))), 2)
  })
})

test_that("every read of a deferred value raises its warnings, once", {
  y <- rep(-1, 1e5)
  expect_warning(v <- log(lazy(y))[1:3], "NaNs produced")
  expect_identical(v, rep(NaN, 3))
  # A view: computed (and warning) when its values are needed, once for the value
  # it picks from.
  z <- log(lazy(y))
  v <- z[-1]
  expect_true(is_lazy(v))
  expect_warning(expect_length(materialize(v), 1e5 - 1), "NaNs produced")
  expect_silent(materialize(z))
  expect_warning(v <- sum(as.vector(log(lazy(y)))), "NaNs produced")
  expect_warning(capture.output(print(log(lazy(y)))), "NaNs produced")
  expect_warning(v <- log(lazy(y))[[2]], "NaNs produced")
  # Once per value: its elements read again give no second warning.
  z <- log(lazy(y))
  expect_warning(z[1:3], "NaNs produced")
  expect_silent(z[5:7])
  expect_silent(materialize(z))
  expect_identical(materialize(z), suppressWarnings(log(y)))
  # A whole-vector read (R's region loops) warns once, not once per region.
  expect_identical(capture_warnings(anyNA(log(lazy(y))))$warnings, "NaNs produced")
  with_options(list(gufunc.lazy_min_length = 0), {
    expect_warning(expect_identical(materialize(is.nan(log(-lazy(1)))), TRUE), "NaNs produced")
    expect_warning(expect_identical(materialize(is.na(lazy(1980000020L) + 222000000L)), TRUE),
                   "integer overflow")
  })
})

# Whether x is a lazy value or a plain base R value, and not plain data with the class.
expect_lazy_or_plain <- function(x) {
  expect_true(is_lazy(x) || !inherits(x, "gufunc_lazy"), label = "lazy or plain")
}

test_that("base R functions give plain results, not plain data with the class", {
  a <- runif(5000)
  m <- matrix(a, 100)
  la <- lazy(a)
  lm <- lazy(m)
  cases <- list(
    list(t(lm), t(m)),
    list(diff(la), diff(a)),
    list(diff(lm, lag = 2), diff(m, lag = 2)),
    list(ifelse(la > 0.5, 1, 2), ifelse(a > 0.5, 1, 2)),
    list(Re(la), Re(a)), list(Im(la), Im(a)), list(Mod(-la), Mod(-a)),
    list(Arg(la), Arg(a)), list(Conj(la), Conj(a)),
    list(rev(la), rev(a)), list(sort(la), sort(a)), list(as.vector(lm), as.vector(m)),
    list(la[la > 0.5], a[a > 0.5]), list(lm[2:3, ], m[2:3, ]), list(lm[, 1], m[, 1]),
    list(round(la, 2), round(a, 2)), list(signif(la, 3), signif(a, 3)),
    list(cumsum(la), cumsum(a)), list(unlist(list(la)), unlist(list(a))),
    list(c(la, 1), c(a, 1)), list(rep(la, 2), rep(a, 2)), list(apply(lm, 2, max), apply(m, 2, max))
  )
  for (case in cases) {
    expect_lazy_or_plain(case[[1]])
    expect_identical(materialize(case[[1]]), case[[2]])
  }
})

test_that("subassignment gives base R's values", {
  a <- runif(5000)
  z <- lazy(a)
  z[3] <- 1
  a2 <- a
  a2[3] <- 1
  expect_identical(materialize(z), a2)
  m <- matrix(a, 100)
  lm <- lazy(m) * 2
  lm[, 1] <- lm[, 2]
  m2 <- m * 2
  m2[, 1] <- m2[, 2]
  expect_identical(materialize(lm), m2)
  l <- lazy(a)
  l[[7]] <- 0
  a3 <- a
  a3[[7]] <- 0
  expect_identical(l, a3)
  # The value assigned may be lazy.
  p <- numeric(5000)
  p[] <- lazy(a) * 2 + 1
  expect_identical(p, a * 2 + 1)
  # Other references to the old value are unchanged.
  keep <- lazy(a)
  alias <- keep
  alias[1] <- -1
  expect_identical(materialize(keep), a)
})

test_that("internal functions that copy the class give data gufunc treats as plain", {
  a <- runif(5000)
  x <- choose(lazy(a) * 10, 2)
  expect_false(is_lazy(x))
  expect_identical(materialize(x), choose(a * 10, 2))
  expect_identical(materialize(x + 1), choose(a * 10, 2) + 1)
  expect_identical(x[1:3], choose(a * 10, 2)[1:3])
  expect_identical(materialize(pmax(lazy(a), 0.5)), pmax(a, 0.5))
})

test_that("lazy(x) hands R the data of x: no copy, no evaluation", {
  a <- runif(1e5)
  la <- lazy(a)
  expect_true(is_materialized(la))
  expect_identical(materialize(la), a)
  m <- matrix(a, 1000, dimnames = list(NULL, paste0("c", 1:100)))
  lm <- lazy(m)
  expect_identical(materialize(lm), m)
  expect_identical(materialize(lm[2:999, 2:99]), m[2:999, 2:99]) # views: lazy-views.R
  expect_identical(materialize(lm[-1, ]), m[-1, ])
  expect_identical(materialize(la[-1]), a[-1]) # a view: lazy-views.R
  expect_identical(materialize(rep(la, each = 2)), rep(a, each = 2)) # a view: lazy-rep.R
  # x changed afterwards: the lazy value keeps the values it was given.
  b <- runif(1e5)
  b1 <- b[1]
  lb <- lazy(b)
  b[1] <- -1
  expect_identical(materialize(lb)[1], b1)
  # names<- and dim<- of lazy(x) keep x itself unchanged.
  names(la) <- paste0("n", seq_along(a))
  expect_null(names(a))
  dim(lm) <- c(100, 1000)
  expect_identical(dim(m), c(1000L, 100L))
  expect_identical(materialize(lm), `dim<-`(m, c(100, 1000)))
})

test_that("lazy() of R's compact sequence does not expand it", {
  used <- function() sum(gc()[, 2])
  x <- seq_len(2e7)
  before <- used()
  y <- lazy(x)
  expect_identical(y[c(1, 2e7)], c(1L, 20000000L))
  expect_identical(head(y, 3), 1:3)
  expect_lt(used() - before, 20) # MB; expanded it would be 76
  expect_identical(materialize(y * 2L)[c(1, 2e7)], c(2L, 40000000L))
})

test_that("code reading a deferred value piece by piece computes it once", {
  u <- runif(80000)
  m <- numeric(80000)
  z <- lazy(u) * 2 + 1
  m[] <- z
  expect_true(is_materialized(z))
  expect_identical(m, u * 2 + 1)
  z <- lazy(u) * 2 + 1
  expect_false(anyNA(z))
  expect_true(is_materialized(z))
  z <- lazy(u) * 2 + 1
  s <- 0
  for (i in 1:100) s <- s + z[[i]]
  expect_true(is_materialized(z))
  expect_identical(s, Reduce(`+`, (u * 2 + 1)[1:100], accumulate = FALSE, 0))
})

test_that("duplicates of a materialized lazy value share its values until written", {
  h <- c(3, 1, 2, 8)
  x <- lazy(h)
  y <- unclass(x) # R's duplicate of x, without the class: written in place below
  y[1] <- 5
  y[[2]] <- 7
  expect_identical(y, c(5, 7, 2, 8))
  expect_identical(h, c(3, 1, 2, 8))
  expect_identical(materialize(x), h)

  m <- matrix(as.numeric(1:6), 2)
  lm <- lazy(m)
  u <- unclass(lm)
  u[1, 1] <- 0
  expect_identical(materialize(lm), m)
  expect_identical(u[, 1], c(0, 2))

  # A subassignment loop on a lazy value copies its values once, as base R's does.
  g <- matrix(runif(400), 20)
  H <- lazy(g)
  for (i in 1:5) H[, 1] <- H[, i + 1]
  base <- g
  for (i in 1:5) base[, 1] <- base[, i + 1]
  expect_identical(H, base)
  expect_identical(g[, 1], materialize(lazy(g))[, 1])

  # Deferred values: the duplicate is a lazy value of its own.
  d <- lazy(h) * 2
  e <- unclass(d)
  e[2] <- 0
  expect_identical(e, c(6, 0, 4, 16))
  expect_identical(materialize(d), h * 2)

  # Without the class (unclass() removes it) a duplicate is plain data to R,
  # saved and read back as such.
  v <- unclass(lazy(m))
  expect_false(inherits(v, "gufunc_lazy"))
  expect_identical(v, m)
  expect_identical(unserialize(serialize(v, NULL)), m)
  expect_identical(unserialize(serialize(unclass(lazy(m) * 2), NULL)), m * 2)
})
