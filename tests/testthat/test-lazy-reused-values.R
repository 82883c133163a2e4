# Deferred values read again by a later evaluation (src/engine/reused_values.cpp):
# kept at their second request, with base R's values and warnings either way.

nbody_step <- function(x, y, m) {
  dx <- outer(x, x, "-")
  dy <- outer(y, y, "-")
  r <- sqrt(dx * dx + dy * dy)
  diag(r) <- 1
  f <- 0.5 * outer(m, m) / r^3
  diag(f) <- 0
  list(f = f, dx = dx, dy = dy)
}

plan_text <- function(x) paste(capture.output(print(lazy_plan(x))), collapse = "\n")

test_that("a costly value read by three evaluations gives base R's bits each time", {
  set.seed(3)
  x <- runif(200)
  y <- runif(200)
  m <- runif(200, 0.5, 1.5)
  want <- nbody_step(x, y, m)
  for_engine_settings({
    s <- nbody_step(lazy(x), lazy(y), lazy(m))
    expect_identical(rowSums(s$f * s$dx), rowSums(want$f * want$dx))
    expect_identical(rowSums(s$f * s$dy), rowSums(want$f * want$dy))
    expect_identical(colSums(s$f * s$dy), colSums(want$f * want$dy))
    expect_identical(sum(s$f), sum(want$f))
    expect_identical(materialize(s$f - 1), want$f - 1)
    expect_identical(materialize(s$f), want$f)
  })
})

test_that("the second request keeps the values, the first fuses them", {
  old <- options(gufunc.lazy_min_length = 0)
  on.exit(options(old))
  x <- runif(300)
  lx <- lazy(x)
  f <- sqrt(outer(lx, lx, "-")^2 + 1) / 3
  g <- sqrt(outer(lx, lx, "-")^2 + 1) / 3
  expect_match(plan_text(f * 2), "sqrt", fixed = TRUE)
  s1 <- sum(f * 2)
  expect_match(plan_text(f * 3), "sqrt", fixed = TRUE)  # computed by one request so far
  s2 <- sum(f * 3)                                       # the second: f is kept
  expect_no_match(plan_text(f * 4), "sqrt", fixed = TRUE)
  expect_identical(c(s1, s2, sum(f * 4)), c(sum(g * 2), sum(g * 3), sum(g * 4)))
  expect_identical(materialize(f), sqrt(outer(x, x, "-")^2 + 1) / 3)
  # A cheap value (one subtraction) is computed again instead.
  d <- lx - 1
  sum(d * 2)
  sum(d * 3)
  expect_match(plan_text(d * 4), "`-`", fixed = TRUE)
  # So is a small one (fewer than 32768 elements).
  small <- sqrt(lazy(runif(1000)) + 1) * 2
  sum(small * 2)
  sum(small * 3)
  expect_match(plan_text(small * 4), "sqrt", fixed = TRUE)
})

test_that("kept values give their warnings to every evaluation that reads them", {
  old <- options(gufunc.lazy_min_length = 0)
  on.exit(options(old))
  v <- c(-1, runif(99999))
  lw <- sqrt(log(lazy(v)) + 2) * 3
  expect_warning(s1 <- sum(lw * 2), "NaNs produced")
  expect_warning(s2 <- sum(lw * 3), "NaNs produced")  # computes and keeps lw
  expect_warning(s3 <- sum(lw * 4), "NaNs produced")  # reads the kept values
  w <- suppressWarnings(sqrt(log(v) + 2) * 3)
  expect_identical(c(s1, s2, s3), c(sum(w * 2), sum(w * 3), sum(w * 4)))
})

test_that("values read from a file are never kept", {
  old <- options(gufunc.lazy_min_length = 0)
  on.exit(options(old))
  path <- tempfile(fileext = ".npy")
  on.exit(unlink(path), add = TRUE)
  v <- runif(50000)
  materialize(lazy(v), file = path)
  lf <- sqrt(lazy_file(path) + 1) / 3
  sum(lf * 2)
  sum(lf * 3)
  expect_match(plan_text(lf * 4), "sqrt", fixed = TRUE)
  expect_identical(sum(lf * 4), sum((sqrt(v + 1) / 3) * 4))
})

test_that("a loop that reads each step's value twice keeps memory bounded", {
  skip_without_rss()
  got <- child_rss_growth(
    setup = c(
      "options(gufunc.lazy_min_length = 0)",
      "x <- lazy(runif(6e5))",
      "invisible(gc(full = TRUE))"
    ),
    # Each step keeps y's values (4.8 MB) at its second sum: 100 steps would hold
    # 480 MB if R's collector did not count them and free them with y.
    work = "for (i in 1:100) { y <- sqrt(x + i) / 3; a <- sum(y); b <- sum(y * 2) }",
    checks = "identical(b, sum((sqrt(materialize(x) + 100) / 3) * 2))"
  )
  expect_lt(got$mb, 150)
  expect_identical(got$checks, "TRUE")
})

test_that("kept values stay while a graph reads them and go in the collection that frees it", {
  vcells_mb <- function() gc()[2, 2]
  x <- runif(1e6)
  lx <- lazy(x)
  u <- sqrt(lx) + 1
  s1 <- sum(u * 2)
  s2 <- sum(u * 3) # the second request: u's 8 MB are kept
  expect_no_match(plan_text(u * 4), "sqrt", fixed = TRUE)
  v <- u * 4 # both read the kept values
  w <- u * 5
  rm(u)
  for (i in 1:3) gc()
  # Memory R freed is taken again by vectors of the same size.
  junk <- lapply(1:4, function(i) rep(-i, 1e6))
  expect_identical(materialize(w), (sqrt(x) + 1) * 5)
  rm(junk, w)
  gc()
  before <- vcells_mb()
  rm(v)
  # One collection frees v and with it the kept values (held by R's precious list
  # until v's finalizer ran, they took a second).
  expect_lt(vcells_mb(), before - 7)
  expect_identical(c(s1, s2), c(sum((sqrt(x) + 1) * 2), sum((sqrt(x) + 1) * 3)))
})

test_that("kept values read by graphs survive collections at every allocation", {
  skip_on_cran() # gctorture is slow
  x <- runif(40000)
  want <- (sqrt(x) + 1) * 4 + (sqrt(x) + 1)
  lx <- lazy(x)
  u <- sqrt(lx) + 1
  sum(u * 2)
  sum(u * 3)
  v <- u * 4
  w <- v + u
  rm(u, v)
  gctorture(TRUE)
  got <- materialize(w)
  gctorture(FALSE)
  expect_identical(got, want)
})

test_that("kept values take a block the buffer pool keeps, and R's collector counts them", {
  withr::local_options(gufunc.buffer_pool = 256)
  gufunc_buffer_pool(release = TRUE)
  vcells_mb <- function() gc()[2, 2]
  x <- runif(1e6)
  lx <- lazy(x)
  y <- materialize(lx * 2) # 8 MB: its block goes to the pool once R frees y
  rm(y)
  gc()
  expect_identical(gufunc_buffer_pool()$buffers, 1L)
  u <- sqrt(lx) + 1
  s1 <- sum(u * 2)
  without <- vcells_mb()
  s2 <- sum(u * 3) # the second request keeps u's values, in that block
  expect_identical(gufunc_buffer_pool()$buffers, 0L)
  expect_gt(vcells_mb(), without + 7)
  rm(u)
  gc()
  expect_identical(gufunc_buffer_pool()$buffers, 1L)
  expect_lt(vcells_mb(), without + 1)
  expect_identical(c(s1, s2), c(sum((sqrt(x) + 1) * 2), sum((sqrt(x) + 1) * 3)))
  gufunc_buffer_pool(release = TRUE)
})
