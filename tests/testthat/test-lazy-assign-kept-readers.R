# A value written in place that reads an expression an earlier evaluation computed
# (lattice Boltzmann's f[, , k] <- g(f[, , k], ux) for every plane k, where ux reads
# planes of f): the write computes the value first and keeps the expression's values
# (src/engine/reused_values.cpp), which then no longer read f, so f is written in
# place with no copies for them. Base R's values either way.

plane_writes <- function(f, lazy_input) {
  if (lazy_input) {
    f <- lazy(f) * 1
    invisible(c(f)) # f's own computed values
  }
  u <- (f[, , 1] + f[, , 2]) / (f[, , 3] + 1) # reads planes 1-3 of f
  s <- sum(u) # computes u once
  for (k in 1:4) f[, , k] <- f[, , k] * 0.5 + u * u
  list(f = f, u = u, s = s)
}

test_that("plane writes reading a kept expression write f in place, with no copies", {
  set.seed(5)
  f <- array(runif(200 * 200 * 4), c(200, 200, 4))
  want <- plane_writes(f, FALSE)
  in_place_counters()
  got <- plane_writes(f, TRUE)
  counters <- in_place_counters()
  expect_equal(counters[1], 4) # every plane written in place
  expect_equal(counters[2], 0) # no bytes copied for u
  expect_identical(materialize(got$f), want$f)
  expect_identical(got$s, want$s)
  # u still has the values it had before f changed, whole and through views.
  expect_identical(materialize(got$u), want$u)
  expect_identical(materialize(got$u[2:150, 7:9]), want$u[2:150, 7:9])
  expect_identical(materialize(t(got$u)), t(want$u))
  expect_identical(materialize(got$u * 2 + got$f[, , 4]), want$u * 2 + want$f[, , 4])
  expect_no_error(capture.output(print(lazy_plan(got$u * 2))))
})

test_that("the same writes give base R's values with 1 and 2 threads and odd blocks", {
  set.seed(6)
  f <- array(runif(190 * 210 * 4), c(190, 210, 4))
  want <- plane_writes(f, FALSE)
  for_engine_settings({
    got <- plane_writes(f, TRUE)
    expect_identical(materialize(got$f), want$f)
    expect_identical(materialize(got$u), want$u)
  })
})

test_that("a kept expression that a later graph reads through gives the old values", {
  set.seed(7)
  m <- matrix(runif(300 * 300), 300)
  f <- function(m) {
    a <- lazy(m) * 1
    invisible(c(a))
    e <- exp(a[, 1:150] / 2) # read by two evaluations: kept at the second
    w <- e + 1 # a graph holding e's node
    s1 <- sum(e)
    s2 <- sum(e * 3)
    a[, 1:150] <- 0 # e's inputs change
    list(a = a, e = e, w = w, s = c(s1, s2))
  }
  r <- f(m)
  e <- exp(m[, 1:150] / 2)
  expect_identical(r$s, c(sum(e), sum(e * 3)))
  expect_identical(materialize(r$w), e + 1)
  expect_identical(materialize(r$e[10:20, ]), e[10:20, ])
  a <- m
  a[, 1:150] <- 0
  expect_identical(materialize(r$a), a)
})

test_that("a value whose kept expression warns still warns as base R's does", {
  set.seed(8)
  f <- array(runif(200 * 200 * 2, -1, 1), c(200, 200, 2))
  run <- function(f, lazy_input) {
    if (lazy_input) {
      f <- lazy(f) * 1
      invisible(c(f))
    }
    u <- sqrt(f[, , 1]) # NaNs: warns when computed
    s <- sum(u, na.rm = TRUE)
    f[, , 2] <- f[, , 2] + u
    list(f = f, s = s)
  }
  expect_warning(want <- run(f, FALSE), "NaNs produced")
  expect_warning(got <- run(f, TRUE), "NaNs produced")
  expect_true(is.finite(want$s))
  expect_identical(got$s, want$s)
  expect_identical(materialize(got$f), want$f)
})
