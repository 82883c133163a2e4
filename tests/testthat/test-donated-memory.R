# A lazy value whose operation took a plain operand made for it alone (R counted no
# reference to it but the method's: a - outer(u, v)) is computed into that
# operand's memory when it is materialized (src/r/donated_memory.cpp); an operand
# anything else refers to is never written. And gufunc's versions of base R
# functions leave their plain results as free to change in place as base R's
# (R/base_masks.R, with_user_call()).

donated <- function() .Call(gufunc:::C_test_in_place_counters, TRUE)[4]

# Operands of any size may take a value here (by default only those of 32 MiB or
# more do, src/r/donated_memory.cpp).
any_donor_size <- function(env = parent.frame()) {
  before <- .Call(gufunc:::C_test_min_donor_bytes, 0)
  withr::defer(.Call(gufunc:::C_test_min_donor_bytes, before), envir = env)
}

make_inputs <- function(nr = 300, nc = 250) {
  set.seed(5)
  x <- matrix(runif(nr * nc, -2, 2), nr, nc)
  x[c(3, 70, 999)] <- c(NA, NaN, -Inf)
  list(x = x, u = c(runif(nr - 2), NA, 0), v = c(runif(nc - 1), -0))
}

test_that("a temporary operand's memory takes the value, with base R's bits and attributes", {
  any_donor_size()
  withr::local_options(gufunc.lazy_min_length = 1000)
  p <- make_inputs()
  for (threads in c(1, 2)) for (block in c(NA, 4099)) {
    opts <- list(gufunc.threads = threads)
    if (!is.na(block)) opts$gufunc.block_size <- block
    withr::with_options(opts, {
      label <- sprintf("threads %d, block %s", threads, block)
      a <- lazy(p$x)
      donated()
      d <- a - outer(p$u, p$v)
      expect_identical(materialize(d), p$x - outer(p$u, p$v), label = label)
      expect_equal(donated(), 1, label = label)
      # The temporary as the first operand, one with names, one from base::outer().
      named <- setNames(runif(length(p$x)), paste0("n", seq_along(p$x)))
      d <- (named * 2 + 0) / a
      expect_identical(materialize(d), (named * 2 + 0) / p$x, label = label)
      d <- a * base::outer(p$u, p$v)
      expect_identical(materialize(d), p$x * base::outer(p$u, p$v), label = label)
      expect_equal(donated(), 2, label = label)
    })
  }
})

test_that("an operand something else refers to is never written", {
  any_donor_size()
  withr::local_options(gufunc.lazy_min_length = 1000)
  p <- make_inputs()
  a <- lazy(p$x)
  m <- outer(p$u, p$v)
  kept <- m + 0
  donated()
  d <- a - m
  expect_identical(materialize(d), p$x - kept)
  expect_identical(m, kept)
  # Held in a list, or by the value of an assignment.
  l <- list(m = m + 1)
  d <- a + l$m
  expect_identical(materialize(d), p$x + (kept + 1))
  expect_identical(l$m, kept + 1)
  d <- a + (z <- m * 2)
  expect_identical(materialize(d), p$x + kept * 2)
  expect_identical(z, kept * 2)
  expect_equal(donated(), 0)
})

test_that("a value other graphs read is computed into memory of its own", {
  any_donor_size()
  withr::local_options(gufunc.lazy_min_length = 1000)
  p <- make_inputs()
  a <- lazy(p$x)
  donated()
  d <- a - outer(p$u, p$v)
  e <- d * 2          # reads d's graph, and so its operand
  s <- d[2:5, 3:9]    # a view of d
  expect_identical(materialize(d), p$x - outer(p$u, p$v))
  expect_identical(materialize(e), (p$x - outer(p$u, p$v)) * 2)
  expect_identical(materialize(s), (p$x - outer(p$u, p$v))[2:5, 3:9])
  expect_equal(donated(), 0)
  # Read after: the values are the donor's memory, unchanged by later reads.
  d <- a + outer(p$u, p$v)
  expect_identical(materialize(d), p$x + outer(p$u, p$v))
  expect_identical(materialize(d * 1), p$x + outer(p$u, p$v))
  expect_equal(donated(), 1)
})

test_that("values that may warn or fail are not computed into an operand", {
  any_donor_size()
  withr::local_options(gufunc.lazy_min_length = 1000)
  n <- 5000L
  xi <- c(.Machine$integer.max, seq_len(n - 1L))
  a <- lazy(xi)
  donated()
  expect_warning(r <- materialize(a + (xi + 0L)), "NAs produced by integer overflow")
  expect_identical(r, suppressWarnings(xi + (xi + 0L)))
  expect_identical(materialize(sqrt(lazy(-xi) + (xi * 0 - 1))), suppressWarnings(sqrt(-xi - 1)))
  expect_equal(donated(), 0)
})

test_that("an elimination's steps take the product's memory and match base R", {
  any_donor_size()
  withr::local_options(gufunc.lazy_min_length = 1000)
  set.seed(11)
  n <- 120
  m <- matrix(runif(n * n), n, n) + diag(n, n)
  donated()
  expect_identical(materialize(eliminate(lazy(m))), eliminate(m))
  expect_gt(donated(), 10)
})

test_that("operands below 32 MiB keep their memory by default", {
  withr::local_options(gufunc.lazy_min_length = 1000)
  p <- make_inputs()
  donated()
  d <- lazy(p$x) - outer(p$u, p$v)
  expect_identical(materialize(d), p$x - outer(p$u, p$v))
  expect_equal(donated(), 0)
})

# Whether R copies the result of `make()` before x[1] <- 0 changes it.
copies_on_change <- function(make) {
  x <- make()
  out <- utils::capture.output(tracemem(x))
  traced <- utils::capture.output(x[1] <- 0)
  untracemem(x)
  length(traced) > 0
}

test_that("results of gufunc's versions of base R functions change in place as base R's do", {
  skip_if_not(capabilities("profmem"), "R without memory profiling (tracemem)")
  u <- runif(40)
  v <- runif(30)
  m <- matrix(runif(1200), 40)
  cases <- list(
    outer = list(function() outer(u, v), function() base::outer(u, v)),
    outer_minus = list(function() outer(u, v, "-"), function() base::outer(u, v, "-")),
    pmax = list(function() pmax(u, 0.5), function() base::pmax(u, 0.5)),
    pmin = list(function() pmin(u, 0.5), function() base::pmin(u, 0.5)),
    round = list(function() round(u, 2), function() base::round(u, 2)),
    signif = list(function() signif(u, 2), function() base::signif(u, 2)),
    atan2 = list(function() atan2(u, 2), function() base::atan2(u, 2)),
    matprod = list(function() m %*% v, function() base::`%*%`(m, v)),
    crossprod = list(function() crossprod(m), function() base::crossprod(m)),
    rowSums = list(function() rowSums(m), function() base::rowSums(m))
  )
  for (name in names(cases)) {
    expect_identical(copies_on_change(cases[[name]][[1]]), copies_on_change(cases[[name]][[2]]),
                     label = name)
  }
})
