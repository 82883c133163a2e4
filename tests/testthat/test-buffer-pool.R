# Freed large results' buffers are kept and reused (src/r/result_pool.cpp). Each
# test starts from an empty pool (earlier tests' results collected and released)
# and leaves one.

# Frees the large results no longer referenced, into the pool.
collect <- function() invisible(gc(full = TRUE))

# Computes a result of n doubles, frees it; the number of buffers then kept.
kept_after_one_result <- function(n) {
  y <- materialize(lazy(runif(n)) + 1)
  rm(y)
  collect()
  gufunc_buffer_pool()$buffers
}

pool_test_setup <- function(limit_mb, env = parent.frame()) {
  withr::local_options(gufunc.buffer_pool = limit_mb, .local_envir = env)
  collect()
  gufunc_buffer_pool(release = TRUE)
  withr::defer(gufunc_buffer_pool(release = TRUE), envir = env)
}

test_that("a freed large result is kept, then reused with base R's values", {
  pool_test_setup(64)
  x <- runif(1e6) # results of 8 MB: large
  y <- materialize(lazy(x) * 2)
  expect_equal(gufunc_buffer_pool()$buffers, 0L)
  rm(y)
  collect()
  kept <- gufunc_buffer_pool()
  expect_equal(kept$buffers, 1L)
  expect_equal(kept$megabytes, 8) # 8e6 bytes and headers, in whole 2 MiB pages
  expect_equal(kept$limit_megabytes, 64)

  z <- materialize(sqrt(lazy(x)) + 1)
  expect_identical(z, sqrt(x) + 1)
  expect_equal(gufunc_buffer_pool()$buffers, 0L)
})

test_that("a reused buffer holds a result of another type", {
  pool_test_setup(64)
  x <- runif(2e6)
  y <- materialize(lazy(x) + 1) # 16 MB of doubles
  rm(y)
  collect()
  expect_equal(gufunc_buffer_pool()$buffers, 1L)
  r <- materialize(lazy(x) > 0.5) # 8 MB of logicals: too small for 16 MB
  expect_identical(r, x > 0.5)
  expect_equal(gufunc_buffer_pool()$buffers, 1L)
  i <- materialize(lazy(as.integer(x * 1e6)) %/% 7L) # 8 MB of integers
  expect_identical(i, as.integer(x * 1e6) %/% 7L)
})

test_that("only a buffer within a quarter above the request is reused", {
  pool_test_setup(64)
  x <- runif(1e6)
  y <- materialize(lazy(x) + 1) # 8 MiB buffer
  rm(y)
  collect()
  small <- materialize(lazy(x[1:6e5]) + 1) # 4.8 MB: 6 MiB; 8 MiB is too large
  expect_equal(gufunc_buffer_pool()$buffers, 1L)
  big <- materialize(lazy(c(x, x)) + 1) # 16 MB: does not fit
  expect_equal(gufunc_buffer_pool()$buffers, 1L)
  same <- materialize(lazy(x) * 3) # fits
  expect_equal(gufunc_buffer_pool()$buffers, 0L)
  expect_identical(small, x[1:6e5] + 1)
  expect_identical(big, c(x, x) + 1)
  expect_identical(same, x * 3)
})

test_that("a kept buffer no result takes is freed once results of 4 times its size were made", {
  pool_test_setup(64)
  x <- runif(1e6)
  y <- materialize(lazy(x) + 1) # an 8 MiB buffer
  rm(y)
  collect()
  expect_equal(gufunc_buffer_pool()$buffers, 1L)
  v <- runif(3e4)
  # Results of 240 KB (R's own memory) that the buffer cannot serve: 100 of them
  # (23 MiB) leave it kept, 50 more (34 MiB in all, over 32) free it.
  for (i in 1:100) z <- materialize(lazy(v) * i)
  expect_equal(gufunc_buffer_pool()$buffers, 1L)
  for (i in 1:50) z <- materialize(lazy(v) * i)
  expect_equal(gufunc_buffer_pool()$buffers, 0L)
  expect_identical(z, v * 50)
  # A buffer taken in time is reused as before.
  y <- materialize(lazy(x) + 1)
  rm(y)
  collect()
  for (i in 1:100) z <- materialize(lazy(v) * i)
  same <- materialize(lazy(x) * 3)
  expect_equal(gufunc_buffer_pool()$buffers, 0L)
  expect_identical(same, x * 3)
})

test_that("buffers freed together are taken back one a result while results they fit are made", {
  pool_test_setup(256)
  x <- runif(1e6)
  # A loop's versions freed at one collection: 8 buffers of 8 MiB.
  ys <- lapply(1:8, function(k) materialize(lazy(x) + k))
  rm(ys)
  collect()
  expect_equal(gufunc_buffer_pool()$buffers, 8L)
  # Each new result takes one. By the last, 56 MB of results were made since the
  # buffers were kept, more than 4 times a buffer's size, but all of a size they fit.
  zs <- list()
  for (k in 1:8) {
    zs[[k]] <- materialize(lazy(x) * k)
    expect_equal(gufunc_buffer_pool()$buffers, 8L - k)
  }
  expect_identical(zs[[8]], x * 8)
  # A loop that needs one buffer takes the newest each time; the others are freed
  # once results they fit of 32 times their size were made without them.
  rm(zs)
  collect()
  expect_equal(gufunc_buffer_pool()$buffers, 8L)
  for (k in 1:40) {
    z <- materialize(lazy(x) * k)
    rm(z)
    collect()
  }
  expect_equal(gufunc_buffer_pool()$buffers, 1L)
})

test_that("the pool stays within its limit, freeing the oldest first", {
  pool_test_setup(20)
  x <- runif(1e6)
  ys <- lapply(1:3, function(k) materialize(lazy(x) + k))
  rm(ys)
  collect()
  kept <- gufunc_buffer_pool()
  expect_equal(kept$buffers, 2L)
  expect_equal(kept$megabytes, 16)

  withr::local_options(gufunc.buffer_pool = 4) # smaller than a buffer
  expect_equal(gufunc_buffer_pool()$buffers, 0L)
  expect_equal(kept_after_one_result(1e6), 0L)
})

test_that("option 0 keeps nothing; small results never enter the pool", {
  pool_test_setup(0)
  expect_equal(kept_after_one_result(1e6), 0L)
  withr::local_options(gufunc.buffer_pool = 64)
  expect_equal(kept_after_one_result(1e5), 0L) # 800 KB: R's own allocator
  expect_equal(kept_after_one_result(1e6), 1L)
})

test_that("release frees the kept buffers and returns invisibly", {
  pool_test_setup(64)
  expect_equal(kept_after_one_result(1e6), 1L)
  expect_invisible(out <- gufunc_buffer_pool(release = TRUE))
  expect_equal(out$buffers, 0L)
  expect_equal(out$megabytes, 0)
})

test_that("bad settings are classed errors naming what was wrong", {
  pool_test_setup(64)
  x <- lazy(runif(1e6))
  for (bad in list("64", -1, NA_real_, c(1, 2), Inf)) {
    withr::local_options(gufunc.buffer_pool = bad)
    expect_error(materialize(x + 1), "gufunc.buffer_pool", class = "gufunc_argument_error")
    expect_error(gufunc_buffer_pool(), "gufunc.buffer_pool", class = "gufunc_argument_error")
  }
  withr::local_options(gufunc.buffer_pool = 64)
  expect_error(gufunc_buffer_pool(release = NA), "`release`", class = "gufunc_argument_error")
  expect_error(gufunc_buffer_pool(release = "yes"), "`release`", class = "gufunc_argument_error")
  expect_identical(materialize(x + 1), materialize(x) + 1)
})

test_that("kept buffers are freed when a fresh allocation would fail without them", {
  skip_on_cran() # a child process with 500 MB of data
  skip_if_not(Sys.info()[["sysname"]] == "Linux", "address-space limits are set on Linux")
  # ASan (tools/sanitize.sh) allocates from its own reserved regions, not from the limit.
  skip_if(grepl("libasan", Sys.getenv("LD_PRELOAD")), "under AddressSanitizer")
  out <- tempfile(fileext = ".rds")
  script <- tempfile(fileext = ".R")
  on.exit(unlink(c(out, script)))
  writeLines(c(
    "library(gufunc)",
    "options(gufunc.buffer_pool = 256, gufunc.threads = 1)",
    "x <- runif(1e7); big <- runif(2.4e7)", # 80 MB and 192 MB
    "ys <- list(materialize(lazy(x) + 1), materialize(lazy(x) + 2))",
    "rm(ys); invisible(gc(full = TRUE))",
    "kept <- gufunc_buffer_pool()$buffers",
    # 100 MB more address space: the 192 MB result fits only once the two kept
    # 80 MB buffers are given back.
    "limited <- .Call(gufunc:::C_test_limit_address_space, 100)",
    "z <- tryCatch(materialize(lazy(big) * 2), error = conditionMessage)",
    "ok <- is.double(z) && identical(z[c(1, 2.4e7)], big[c(1, 2.4e7)] * 2)",
    sprintf('saveRDS(list(kept = kept, limited = limited, ok = ok, after = gufunc_buffer_pool()$buffers,
                     error = if (is.character(z)) z else ""), "%s")', out)
  ), script)
  status <- system2(rscript(), c("--vanilla", script), stdout = FALSE, stderr = FALSE,
                    env = sprintf("R_LIBS=%s", session_libs()))
  expect_identical(status, 0L)
  res <- readRDS(out)
  expect_identical(res$kept, 2L)
  skip_if_not(res$limited, "the address space could not be limited")
  expect_identical(res$error, "")
  expect_true(res$ok)
  expect_identical(res$after, 0L)
})

test_that("R's collector counts large results, so a loop frees old ones by itself", {
  skip_without_rss()
  got <- child_rss_growth(
    setup = "x <- lazy(runif(1e7))",
    # 60 results of 80 MB, each dropped by the next step, no gc() call: 4.6 GB if R
    # does not count them (it does not count a custom allocator's vectors itself;
    # 540-840 MB measured when it does).
    work = "for (i in 1:60) y <- materialize(x + i)",
    checks = "identical(y, materialize(x) + 60)"
  )
  # The pool (256 MB by default) plus R's own margin before it collects.
  expect_lt(got$mb, 1200)
  expect_identical(got$checks, "TRUE")
})

test_that("a lazy value computed into a pooled buffer is counted by R's collector while it lives", {
  weight <- function(x) .Call(gufunc:::C_test_collector_weight, x)
  x <- lazy(runif(1e6)) * 2 # 8 MB: a pooled result
  expect_equal(weight(x), 0)
  invisible(materialize(x))
  expect_gte(weight(x), 8e6)
  small <- lazy(runif(1e4)) * 2 # R's own vector, which R counts itself
  invisible(materialize(small))
  expect_equal(weight(small), 0)
  expect_equal(weight(lazy(runif(1e6))), 0) # the user's vector
})

test_that("a loop of subassignments frees the versions it replaces by itself", {
  skip_without_rss()
  got <- child_rss_growth(
    setup = c("a <- array(runif(1.5e6), c(500, 300, 10))", "x <- lazy(a)"),
    # 40 steps writing every plane of a 12 MB array: a new version every 16 writes,
    # each dropped soon after, no gc() call. Uncounted, the versions piled up in
    # R's older generations: 230 MB measured (base R 34, gufunc now 69).
    work = c(
      "for (i in 1:40) {",
      "  s <- x[, , 1] + x[, , 2]",
      "  for (k in 1:10) x[, , k] <- x[, , k] * 0.5 + s",
      "}"
    ),
    after = c(
      "for (i in 1:40) {",
      "  s <- a[, , 1] + a[, , 2]",
      "  for (k in 1:10) a[, , k] <- a[, , k] * 0.5 + s",
      "}"
    ),
    checks = "identical(materialize(x), a)"
  )
  expect_lt(got$mb, 150)
  expect_identical(got$checks, "TRUE")
})
