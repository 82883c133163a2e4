# A value written in place that reads the region it overwrites element for element
# (gauss's a[i, j] <- a[i, j] - outer(u, v)) is stored into x block by block as it
# is computed (src/engine/mirrored_writes.cpp), instead of in a second pass. Values
# that read x's region shifted, transposed or recycled are computed whole first.
# Base R's values either way, the old x and the value unchanged.

# `step` run on m's values computed anew (lazy: its values its own, nothing else
# referring to them, so writes may go in place); its result and the counters of
# the run.
run_step <- function(m, step, lazy_input) {
  fresh <- function() {
    x <- if (lazy_input) lazy(m) * one else m * one
    if (lazy_input) invisible(c(x))
    x
  }
  one <- if (is.integer(m)) 1L else 1
  in_place_counters()
  out <- step(fresh())
  list(out = out, counters = in_place_counters())
}

expect_step <- function(m, step, mirrors) {
  want <- run_step(m, step, FALSE)$out
  got <- run_step(m, step, TRUE)
  expect_identical(lapply(got$out, materialize), want)
  if (mirrors) expect_gt(got$counters[5], 0) else expect_equal(got$counters[5], 0)
  invisible(got)
}

# Values of 1000 elements or more are lazy (the regions here are smaller than the
# default's 65536).
withr::local_options(gufunc.lazy_min_length = 1000)

elimination <- function(a) {
  n <- nrow(a)
  for (c in 2:40) {
    rows <- c:n
    cols <- (c - 1):n
    a[rows, cols] <- a[rows, cols] - outer(a[rows, c - 1] / a[c - 1, c - 1], a[c - 1, cols])
  }
  list(a = a)
}

test_that("elimination steps store their values into x as they are computed", {
  set.seed(21)
  m <- matrix(runif(400 * 400), 400) + diag(400, 400)
  got <- expect_step(m, elimination, TRUE)
  expect_gte(got$counters[1], 38) # every step in place (but the first)
  expect_equal(got$counters[5], got$counters[1]) # all of them stored as computed
  expect_equal(got$counters[2], 0) # nothing copied for other readers
})

test_that("a value kept in a variable has its values, and the old x is unchanged", {
  set.seed(22)
  m <- matrix(runif(300 * 300), 300)
  step <- function(a) {
    old <- a
    v <- a[2:300, 2:300] * 2 - 1
    a[2:300, 2:300] <- v
    list(a = a, old = old, v = v, after = v + a[2:300, 2:300])
  }
  expect_step(m, step, FALSE) # old reads x: no write in place at all
  step_kept_value <- function(a) {
    v <- a[2:300, 2:300] * 2 - 1
    a[2:300, 2:300] <- v
    list(a = a, v = v, sum = sum(v), view = v[3:100, 5:9])
  }
  expect_step(m, step_kept_value, TRUE)
})

test_that("values reading x shifted, transposed or recycled are not stored early", {
  set.seed(23)
  m <- matrix(runif(300 * 300), 300)
  shifted <- function(a) {
    a[2:300, ] <- a[1:299, ] * 2 + 1 # a running update would differ
    list(a = a)
  }
  overlapping <- function(a) {
    a[1:150, ] <- a[1:150, ] + a[2:151, ]
    list(a = a)
  }
  transposed <- function(a) {
    a[1:200, 1:200] <- t(a[1:200, 1:200]) + 1
    list(a = a)
  }
  recycled <- function(a) {
    a[, 1:60] <- a[, 1:60] + a[, 1] # a column of 1200: a lazy view
    list(a = a)
  }
  expect_step(m, shifted, FALSE)
  expect_step(m, overlapping, FALSE)
  expect_step(m, transposed, FALSE)
  expect_step(matrix(runif(1200 * 100), 1200), recycled, FALSE)
})

test_that("values reading other parts of x, and planes, are stored early", {
  set.seed(24)
  m <- matrix(runif(300 * 300), 300)
  beside <- function(a) {
    a[, 2:150] <- a[, 2:150] * 0.5 + a[, 151:299] # reads columns it does not write
    list(a = a)
  }
  expect_step(m, beside, TRUE)
  f <- array(runif(200 * 200 * 3), c(200, 200, 3))
  planes <- function(f) {
    for (k in 1:3) f[, , k] <- f[, , k] * 0.25 + 3
    list(f = f)
  }
  expect_step(f, planes, TRUE)
  block_of_planes <- function(f) {
    f[3:190, 2:150, 2:3] <- f[3:190, 2:150, 2:3] * 2 - f[3:190, 2:150, 2:3]
    f[-1, , ] <- f[-1, , ] * 0.5 # a view of all planes
    list(f = f)
  }
  expect_step(f, block_of_planes, TRUE)
  shifted_plane <- function(f) {
    f[3:190, 2:150, 2:3] <- f[3:190, 2:150, 1:2] + 1 # the plane before
    list(f = f)
  }
  expect_step(f, shifted_plane, FALSE)
  whole <- function(x) {
    x[] <- x * 0.5 + x
    list(x = x)
  }
  # (x's own node, which x keeps, reads all of it: a new version, not in place.)
  expect_step(runif(2e5), whole, FALSE)
})

test_that("a value that may warn is computed first, with base R's warning", {
  m <- matrix(c(.Machine$integer.max, seq_len(300 * 300 - 1)), 300)
  storage.mode(m) <- "integer"
  step <- function(a) {
    a[, 1:200] <- a[, 1:200] + 1L
    list(a = a)
  }
  expect_warning(want <- run_step(m, step, FALSE)$out, "NAs produced by integer overflow")
  expect_warning(got <- run_step(m, step, TRUE), "NAs produced by integer overflow")
  expect_identical(lapply(got$out, materialize), want)
})

test_that("stored values are base R's with 1 and 2 threads and odd blocks", {
  set.seed(25)
  m <- matrix(runif(150 * 170), 150) + diag(150, 150, 170)
  m[c(3, 400, 9000)] <- c(NA, NaN, -Inf)
  # Plain multipliers, as gauss's are at the default settings.
  step <- function(a) {
    for (c in 2:30) {
      rows <- c:nrow(a)
      cols <- (c - 1):ncol(a)
      u <- materialize(a[rows, c - 1]) / materialize(a[c - 1, c - 1])
      a[rows, cols] <- a[rows, cols] - outer(u, materialize(a[c - 1, cols]))
    }
    list(a = a)
  }
  want <- step(m)$a
  for_engine_settings({
    got <- run_step(m, step, TRUE)
    expect_identical(materialize(got$out$a), want)
    expect_gte(got$counters[5], 28)
  })
  # Lazy multipliers (their values computed before the value's blocks, being
  # short), and values that read x shifted: base R's values.
  for_engine_settings({
    got <- run_step(m, elimination, TRUE)
    expect_identical(materialize(got$out$a), elimination(m)$a)
    shifted <- function(a) {
      for (k in 1:3) a[2:150, ] <- a[1:149, ] * 0.5 + 1
      list(a = a)
    }
    got <- run_step(m, shifted, TRUE)
    expect_identical(materialize(got$out$a), shifted(m)$a)
    expect_equal(got$counters[5], 0)
  })
})
