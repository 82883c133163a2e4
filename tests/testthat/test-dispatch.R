test_that("gufunc_kernels lists kernel sets with their variants", {
  k <- gufunc_kernels("add")
  expect_s3_class(k, "data.frame")
  expect_named(k, c("name", "signature", "variants"))
  expect_true(all(k$name == "+"))
  expect_true("double, double -> double" %in% k$signature)
  expect_true(all(nzchar(k$variants)))
  expect_true(all(c("+", "sqrt", "%%", "&", "==") %in% gufunc_kernels()$name))
  expect_true("base" %in% gufunc_namespaces())
})

test_that("aliases resolve to base R's names", {
  expect_identical(gufunc_call("add", 1:3, 2L), 1:3 + 2L)
  expect_identical(gufunc_call("subtract", 1:3, 0.5), 1:3 - 0.5)
  expect_identical(gufunc_call("multiply", 2.5, 4L), 2.5 * 4L)
  expect_identical(gufunc_call("divide", 7L, 2L), 7L / 2L)
})

test_that("exact types match first, then logical -> integer -> double promotion", {
  expect_identical(gufunc_call("+", TRUE, TRUE), TRUE + TRUE)
  expect_type(gufunc_call("+", TRUE, 2L), "integer")
  expect_type(gufunc_call("+", TRUE, 2), "double")
  expect_identical(gufunc_call("+", c(1L, NA), c(0.5, 1)), c(1L, NA) + c(0.5, 1))
  expect_identical(gufunc_call("==", TRUE, 1.0), TRUE == 1.0)
})

test_that("bad calls are classed errors that name the problem", {
  expect_error(gufunc_call("nope", 1), class = "gufunc_lookup_error")
  expect_error(gufunc_call("nope", 1), "no function `nope`")
  expect_error(gufunc_call("+", 1, namespace = "nowhere"), class = "gufunc_lookup_error")
  err <- expect_error(gufunc_call("sqrt", 1, 2), class = "gufunc_dispatch_error")
  expect_match(conditionMessage(err), "`sqrt` takes 1 argument, not 2", fixed = TRUE)
  expect_match(conditionMessage(err), "double -> double", fixed = TRUE)
  expect_error(gufunc_call("+", 1, "a"), class = "gufunc_type_error")
  expect_error(gufunc_call("+", 1, "a"), "`..2`")
  expect_error(gufunc_call("+", x = 1, y = factor("a")), "`y`.*factor")
  expect_error(gufunc_call("+", 1, list(1)), class = "gufunc_type_error")
  expect_error(gufunc_call(c("+", "-"), 1, 2), class = "gufunc_argument_error")
  expect_error(gufunc_call(NA_character_, 1, 2), "`name`")
  expect_error(gufunc_call("+", 1, 2, namespace = 3), "`namespace`")
  expect_error(gufunc_kernels(1), "`name`")
})

test_that("core dims lead, loop dims trail and broadcast", {
  test_kernels()
  inner <- function(...) gufunc_call("inner", ..., namespace = "gufunc_test")
  ref_inner <- function(x, y) {
    s <- 0
    for (k in seq_along(x)) s <- s + x[k] * y[k]
    s
  }
  set.seed(1)
  x <- matrix(rnorm(50), 5, 10)
  y <- rnorm(5)
  for_threads({
    expect_identical(inner(x[, 1], y), ref_inner(x[, 1], y))
    expect_identical(inner(x, y), vapply(1:10, function(j) ref_inner(x[, j], y), 0))
    a <- array(rnorm(5 * 4 * 1), c(5, 4, 1))
    b <- array(rnorm(5 * 1 * 3), c(5, 1, 3))
    r <- inner(a, b)
    expect_identical(dim(r), c(4L, 3L))
    for (i in 1:4) for (j in 1:3) expect_identical(r[i, j], ref_inner(a[, i, 1], b[, 1, j]))
    big <- matrix(runif(4 * 3e4), 4)
    expect_identical(inner(big, 1:4 + 0), vapply(seq_len(ncol(big)), function(j)
      ref_inner(big[, j], 1:4 + 0), 0))
  })
  expect_error(inner(x, rnorm(4)), class = "gufunc_shape_error")
  expect_error(inner(x, rnorm(4)), "core dimension n has size 4 but argument 1 gives it size 5")
  expect_error(inner(array(0, c(5, 2, 3)), array(0, c(5, 3))), "do not broadcast")
  expect_identical(inner(matrix(0, 5, 0), y), numeric(0))
})

test_that("Fortran nd kernels, constraints and frozen output dims", {
  test_kernels()
  A <- array(rnorm(3 * 4 * 6), c(3, 4, 6))
  x <- matrix(rnorm(4 * 6), 4, 6)
  r <- gufunc_call("matvec", A, x, namespace = "gufunc_test")
  expect_identical(dim(r), c(3L, 6L))
  for (k in 1:6) expect_equal(r[, k], drop(A[, , k] %*% x[, k]), tolerance = 1e-14)
  s <- gufunc_call("spread", matrix(c(3, 1, 2, 5, 4, 6), 3), namespace = "gufunc_test")
  expect_identical(s, matrix(c(1, 3, 6, 4, 6, 15), 3))
  expect_error(gufunc_call("spread", matrix(1, 1, 2), namespace = "gufunc_test"),
               "n must be at least 2, not 1")
})

test_that("variants are chosen in the order C, Fortran, Xnd, Strided", {
  test_kernels()
  probe <- function(ns, x) unique(c(gufunc_call("probe", x, namespace = ns)))
  wide <- array(0, c(2, 3, 4))     # core not C-contiguous
  row <- array(0, c(1, 3, 4))      # at most one core dim > 1: C- and Fortran-contiguous
  expect_identical(probe("gufunc_test_CFXS", row), 1L)
  expect_identical(probe("gufunc_test_CFXS", wide), 2L)
  expect_identical(probe("gufunc_test_FXS", row), 2L)
  expect_identical(probe("gufunc_test_XS", wide), 3L)
  expect_identical(probe("gufunc_test_S", wide), 4L)
  expect_identical(probe("gufunc_test_C", row), 1L)
  expect_error(probe("gufunc_test_C", wide), "not C-contiguous")
  expect_identical(gufunc_kernels("probe", "gufunc_test_CFXS")$variants, "C,Fortran,Xnd,Strided")
})

test_that("eager calls and lazy evaluation choose the same variant", {
  test_kernels()
  x <- runif(3000)
  expected <- c(CFXS = 1L, FXS = 2L, XS = 3L, S = 4L, C = 1L)
  for (set in names(expected)) {
    ns <- paste0("gufunc_test_", set)
    eager <- unique(gufunc_call("probe1", x, namespace = ns))
    deferred <- unique(materialize(gufunc_call("probe1", lazy(x) * 1, namespace = ns)))
    expect_identical(eager, expected[[set]], label = paste("eager", set))
    expect_identical(deferred, expected[[set]], label = paste("lazy", set))
  }
})

test_that("a kernel error on a worker thread is an R error and the session goes on", {
  test_kernels()
  x <- c(runif(2e5), -1)
  for_threads({
    expect_error(gufunc_call("fail_negative", x, namespace = "gufunc_test"),
                 class = "gufunc_kernel_error")
    expect_error(gufunc_call("fail_negative", x, namespace = "gufunc_test"), "negative input -1")
    expect_identical(gufunc_call("fail_negative", abs(x), namespace = "gufunc_test"), abs(x))
  })
})

test_that("a typecheck hook agrees with the generic type check", {
  test_kernels()
  hooked <- function(x) gufunc_call("hooked", x, namespace = "gufunc_test")
  expect_identical(hooked(3L), 3L)
  expect_identical(hooked(TRUE), 1L)
  expect_identical(hooked(2.5), 2.5)
})

test_that("threads follow options and the check limit", {
  old <- options(gufunc.threads = 3)
  on.exit(options(old))
  withr_env <- Sys.getenv("_R_CHECK_LIMIT_CORES_", NA)
  Sys.setenv("_R_CHECK_LIMIT_CORES_" = "TRUE")
  expect_identical(get_gufunc_threads(), 2L)
  Sys.setenv("_R_CHECK_LIMIT_CORES_" = "")
  expect_identical(get_gufunc_threads(), 3L)
  if (is.na(withr_env)) Sys.unsetenv("_R_CHECK_LIMIT_CORES_") else
    Sys.setenv("_R_CHECK_LIMIT_CORES_" = withr_env)
  options(gufunc.threads = 0)
  expect_error(get_gufunc_threads(), "gufunc.threads", class = "gufunc_argument_error")
  options(gufunc.threads = NULL)
  Sys.setenv(RCPP_PARALLEL_NUM_THREADS = "1")
  expect_identical(get_gufunc_threads(), 1L)
  Sys.unsetenv("RCPP_PARALLEL_NUM_THREADS")
})
