# Saved lazy values are written as their values and read back as lazy values
# (never as plain data carrying the class); R loads gufunc to read them.

test_that("saveRDS() and readRDS() round-trip a lazy value", {
  a <- runif(3000)
  m <- matrix(a, 1000, dimnames = list(NULL, c("x", "y", "z")))
  z <- sqrt(lazy(m) + 1)
  file <- tempfile(fileext = ".rds")
  on.exit(unlink(file))
  saveRDS(z, file)
  back <- readRDS(file)
  expect_true(is_lazy(back))
  expect_true(is_materialized(back))
  expect_identical(materialize(back), sqrt(m + 1))
  expect_identical(dimnames(back), dimnames(m))
  # Lazy operations on it work as on any lazy value.
  expect_identical(materialize(back * 2), sqrt(m + 1) * 2)
  out <- capture.output(print(back))
  expect_identical(out[1], "<gufunc_lazy double[1000 x 3], materialized>")
})

test_that("serialize() computes a deferred value once and keeps its warnings", {
  y <- c(-1, runif(2999))
  z <- log(lazy(y))
  expect_warning(bytes <- serialize(z, NULL), "NaNs produced")
  back <- unserialize(bytes)
  expect_true(is_lazy(back))
  expect_identical(expect_silent(materialize(back)), suppressWarnings(log(y)))
  # lazy(x) of plain data round-trips too, integer and logical included.
  for (x in list(1:3000, c(TRUE, NA, FALSE)[rep(1:3, 1000)])) {
    back <- unserialize(serialize(lazy(x), NULL))
    expect_true(is_lazy(back))
    expect_identical(materialize(back), x)
  }
})

test_that("a saved lazy value is read in a new session, which loads gufunc", {
  skip_on_cran()
  a <- runif(5000)
  z <- lazy(a) * 3 - 1L
  file <- tempfile(fileext = ".rds")
  out <- tempfile(fileext = ".rds")
  script <- tempfile(fileext = ".R")
  on.exit(unlink(c(file, out, script)))
  saveRDS(z, file)
  writeLines(c(
    sprintf('x <- readRDS("%s")', file),
    sprintf('saveRDS(list(loaded = "gufunc" %%in%% loadedNamespaces(), lazy = gufunc::is_lazy(x),
                     values = gufunc::materialize(x)), "%s")', out)
  ), script)
  status <- system2(rscript(), c("--vanilla", script), stdout = FALSE, stderr = FALSE,
                    env = c(sprintf("R_LIBS=%s", paste(.libPaths(), collapse = .Platform$path.sep))))
  expect_identical(status, 0L)
  res <- readRDS(out)
  expect_true(res$loaded)
  expect_true(res$lazy)
  expect_identical(res$values, a * 3 - 1L)
})

test_that("plain data saved with the class by an older gufunc reads as plain data", {
  a <- runif(3000)
  old <- structure(a, class = "gufunc_lazy")
  expect_false(is_lazy(old))
  expect_identical(materialize(old), a)
  expect_identical(materialize(old * 2), a * 2)
  expect_identical(old[2:5], a[2:5])
  expect_true(is_lazy(lazy(old)))
  expect_identical(materialize(lazy(old)), a)
})
