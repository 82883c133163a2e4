# Lazy values are saved as plain data: readRDS() gives the values, also in an R
# session that cannot load gufunc.

test_that("saveRDS() and readRDS() round-trip the values", {
  a <- runif(3000)
  m <- matrix(a, 1000, dimnames = list(NULL, c("x", "y", "z")))
  z <- sqrt(lazy(m) + 1)
  file <- tempfile(fileext = ".rds")
  on.exit(unlink(file))
  saveRDS(z, file)
  back <- readRDS(file)
  expect_identical(materialize(back), sqrt(m + 1))
  expect_identical(unclass(back), sqrt(m + 1))
  # What came back is plain data: lazy operations on it work as on any operand.
  expect_identical(materialize(back * 2), sqrt(m + 1) * 2)
  out <- capture.output(print(back))
  expect_identical(out[1], "<gufunc_lazy double[1000 x 3], materialized>")
  expect_identical(out[2:3], capture.output(print(sqrt(a[1:10] + 1))))
  # No trace of the engine in the file: the bytes of a plain classed matrix.
  expect_identical(serialize(z, NULL),
                   serialize(structure(sqrt(m + 1), class = "gufunc_lazy"), NULL))
})

test_that("a saved lazy value is read where gufunc is not installed", {
  skip_on_cran()
  skip_on_os("windows")
  a <- runif(5000)
  z <- lazy(a) * 3 - 1L
  file <- tempfile(fileext = ".rds")
  out <- tempfile(fileext = ".rds")
  script <- tempfile(fileext = ".R")
  on.exit(unlink(c(file, out, script)))
  saveRDS(z, file)
  writeLines(c(
    sprintf('x <- readRDS("%s")', file),
    'loaded <- "gufunc" %in% loadedNamespaces()',
    'available <- requireNamespace("gufunc", quietly = TRUE)',
    sprintf('saveRDS(list(loaded = loaded, available = available, class = class(x),
                     values = unclass(x)), "%s")', out)
  ), script)
  # A library path without gufunc: only R's own library.
  status <- system2(rscript(), c("--vanilla", script), stdout = FALSE, stderr = FALSE,
                    env = c(sprintf("R_LIBS=%s", tempdir()), "R_LIBS_USER=NULL",
                            sprintf("R_LIBS_SITE=%s", tempdir())))
  expect_identical(status, 0L)
  res <- readRDS(out)
  expect_false(res$loaded)
  skip_if(res$available, "gufunc is installed in R's own library")
  expect_identical(res$class, "gufunc_lazy")
  expect_identical(res$values, a * 3 - 1L)
})
