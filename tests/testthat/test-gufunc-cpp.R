# gufunc_cpp(): C++ kernel bodies compiled with R's toolchain, cached in the session
# and on disk, registered with state owned by gufunc. Every test compiles (or reuses)
# code, so they skip on CRAN and without a C++ compiler; the cache lives in a temp dir.

# Every test compiles into (and reads) one temporary cache, never the user's.
cpp_test_cache <- tempfile("gufunc-cache-")

local_cpp <- function() {
  skip_on_cran()
  skip_if_gufunc_not_installed()
  skip_if_no_cxx_compiler()
  options(gufunc.cache_dir = cpp_test_cache)
}

l1_body <- "double s = 0; for (R_xlen_t i = 0; i < n; ++i) s += fabs(x0[i] - x1[i]); out0[0] = s;"
# The same sum in R, in the same order and precision.
ref_l1 <- function(P, Q) apply(abs(P - Q), seq_along(dim(P))[-1L], function(v) Reduce(`+`, v, 0))

test_that("the issue's example computes what base R computes, with 1 and 2 threads", {
  local_cpp()
  f <- gufunc_cpp("double(n), double(n) -> double()", l1_body)
  expect_s3_class(f, "gufunc_function")
  expect_output(print(f), "C\\+\\+ kernel compiled by gufunc_cpp")
  set.seed(21)
  P <- matrix(c(grid_double[1:30], rnorm(30)), 6)
  Q <- matrix(rnorm(60), 6)
  big_P <- matrix(rnorm(4 * 50000), 4)
  big_Q <- matrix(rnorm(4 * 50000), 4)
  for_threads({
    expect_identical(f(P, Q), ref_l1(P, Q))
    expect_identical(f(big_P, big_Q), ref_l1(big_P, big_Q))
    # Broadcasting: one vector against every column, and over 3-d loops.
    expect_identical(f(P, Q[, 1]), ref_l1(P, matrix(Q[, 1], 6, 10)))
    A <- array(rnorm(3 * 4 * 5), c(3, 4, 5))
    expect_identical(f(A, A[, 1, 1]), ref_l1(A, array(A[, 1, 1], dim(A))))
  })
  # Promotion of integer and logical inputs; empty loop dims.
  expect_identical(f(1:3, c(TRUE, NA, FALSE)), as.double(sum(abs(1:3 - c(TRUE, NA, FALSE)))))
  expect_identical(f(matrix(0, 3, 0), matrix(0, 3, 0)), numeric())
  expect_error(f(P, Q[-1, ]), "core dimension n", class = "gufunc_shape_error")
})

test_that("integer kernels, several outputs and 2-d cores", {
  local_cpp()
  isum <- gufunc_cpp("integer(n) -> integer()", "
    int s = 0;
    for (R_xlen_t i = 0; i < n; ++i) {
      if (x0[i] == NA_INTEGER) { out0[0] = NA_INTEGER; return 0; }
      s += x0[i];
    }
    out0[0] = s;")
  m <- matrix(c(1:5, NA, 7:12), 3)
  expect_identical(isum(m), as.integer(colSums(m)))
  expect_identical(isum(c(TRUE, FALSE, TRUE)), 2L)
  expect_error(isum(c(1.5, 2)), class = "gufunc_dispatch_error")
  range2 <- gufunc_cpp("double(n) -> double(), double()", "
    double lo = R_PosInf, hi = R_NegInf;
    for (R_xlen_t i = 0; i < n; ++i) { lo = fmin(lo, x0[i]); hi = fmax(hi, x0[i]); }
    out0[0] = lo; out1[0] = hi;")
  set.seed(4)
  x <- matrix(rnorm(40000), 4)
  for_threads(expect_identical(range2(x), list(apply(x, 2, min), apply(x, 2, max))))
  trace_t <- gufunc_cpp("double(m,n) -> double(n,m)", "
    for (R_xlen_t i = 0; i < m; ++i)
      for (R_xlen_t j = 0; j < n; ++j) out0[j + i * n] = x0[i + j * m];")
  a <- array(rnorm(2 * 3 * 4), c(2, 3, 4))
  r <- trace_t(a)
  expect_identical(dim(r), c(3L, 2L, 4L))
  for (k in 1:4) expect_identical(r[, , k], t(a[, , k]))
})

test_that("params are bound at construction; different values give different functions", {
  local_cpp()
  body <- "double s = 0; for (R_xlen_t i = 0; i < n; ++i) s += pow(fabs(x0[i]), p);
           out0[0] = pow(s, 1 / p);"
  p3 <- gufunc_cpp("double(n) -> double()", body, params = c(p = 3))
  p1 <- gufunc_cpp("double(n) -> double()", body, params = c(p = 1))
  set.seed(8)
  x <- matrix(rnorm(30), 5)
  expect_equal(p3(x), apply(x, 2, function(v) sum(abs(v)^3)^(1 / 3)), tolerance = 1e-14)
  expect_equal(p1(x), colSums(abs(x)), tolerance = 1e-14)
  # p1 did not change p3: each has its own state (and name).
  expect_equal(p3(x), apply(x, 2, function(v) sum(abs(v)^3)^(1 / 3)), tolerance = 1e-14)
  affine <- gufunc_cpp("double -> double", "out0[0] = a * x0[0] + b;", params = c(a = 2, b = -1))
  expect_identical(affine(c(1, NA, 3)), 2 * c(1, NA, 3) - 1)
  expect_error(gufunc_cpp("double -> double", "out0[0] = x0[0];", params = c(1, 2)),
               "named numeric vector", class = "gufunc_argument_error")
  expect_error(gufunc_cpp("double -> double", "out0[0] = x0[0];", params = c(x0 = 1)),
               "`x0` that is taken", class = "gufunc_argument_error")
  expect_error(gufunc_cpp("double(n) -> double", "out0[0] = 0;", params = c(n = 1)),
               "`n` that is taken", class = "gufunc_argument_error")
  expect_error(gufunc_cpp("double -> double", "out0[0] = x0[0];", params = c(`a b` = 1)),
               "not a C\\+\\+ identifier", class = "gufunc_argument_error")
})

test_that("the second call with the same code hits the cache instead of compiling", {
  local_cpp()
  body <- "out0[0] = x0[0] * x0[0] + 0.5;"
  before <- gufunc:::gufunc_cpp_stats()
  f1 <- gufunc_cpp("double -> double", body)
  mid <- gufunc:::gufunc_cpp_stats()
  f2 <- gufunc_cpp("double -> double", body)
  after <- gufunc:::gufunc_cpp_stats()
  expect_identical(mid[["compiled"]], before[["compiled"]] + 1)
  expect_identical(after[["compiled"]], mid[["compiled"]])
  expect_identical(after[["reused_in_session"]], mid[["reused_in_session"]] + 1)
  expect_identical(attr(f1, "gufunc")$library, attr(f2, "gufunc")$library)
  expect_identical(f2(1:3), (1:3)^2 + 0.5)
  # The library is in the disk cache, next to its source.
  lib <- attr(f1, "gufunc")$library
  expect_true(file.exists(lib))
  expect_identical(normalizePath(dirname(lib)), normalizePath(getOption("gufunc.cache_dir")))
  expect_true(file.exists(sub("\\.[a-z]+$", ".cpp", lib)))
})

test_that("a library compiled by another R session is loaded from the disk cache", {
  local_cpp()
  body <- "out0[0] = x0[0] - 42;"
  cache <- getOption("gufunc.cache_dir")
  script <- tempfile(fileext = ".R")
  writeLines(c(
    "library(gufunc)",
    sprintf("f <- gufunc_cpp('double -> double', %s, cache_dir = %s)",
            deparse(body), deparse(cache)),
    "stopifnot(f(50) == 8)"
  ), script)
  old <- Sys.getenv(c("R_LIBS", "R_TESTS"), unset = NA)
  on.exit(for (v in names(old)) {
    if (is.na(old[[v]])) Sys.unsetenv(v) else do.call(Sys.setenv, as.list(old[v]))
  })
  Sys.setenv(R_LIBS = paste(.libPaths(), collapse = .Platform$path.sep), R_TESTS = "")
  out <- suppressWarnings(system2(file.path(R.home("bin"), "Rscript"), shQuote(script),
                                  stdout = TRUE, stderr = TRUE))
  expect_null(attr(out, "status"))
  before <- gufunc:::gufunc_cpp_stats()
  f <- gufunc_cpp("double -> double", body)
  after <- gufunc:::gufunc_cpp_stats()
  expect_identical(after[["compiled"]], before[["compiled"]])
  expect_identical(after[["loaded_from_disk"]], before[["loaded_from_disk"]] + 1)
  expect_identical(f(c(42, 0)), c(0, -42))
})

test_that("fail() in the body is a classed error naming the slice; the session goes on", {
  local_cpp()
  checked <- gufunc_cpp("double(n) -> double()", name = "checked_sum", "
    double s = 0;
    for (R_xlen_t i = 0; i < n; ++i) {
      if (x0[i] < 0) fail(\"negative value %g at position %d\", x0[i], (int)i + 1);
      s += x0[i];
    }
    out0[0] = s;")
  a <- array(1, c(3, 4, 5))
  a[2, 3, 4] <- -7
  for_threads({
    e <- expect_error(checked(a), class = "gufunc_kernel_error")
    expect_match(conditionMessage(e), paste("kernel of `checked_sum` failed for slice [, 3, 4]:",
                                            "negative value -7 at position 2"), fixed = TRUE)
    expect_identical(deparse(e$call), "checked(a)")
  })
  # Deferred: the failure, raised where the value is needed, names the call that
  # built it and the function that made that call.
  build <- function(v) checked(v * 2)
  z <- withr::with_options(list(gufunc.lazy_min_length = 0), build(lazy(a)))
  expect_true(is_lazy(z))
  e <- expect_error(materialize(z), class = "gufunc_kernel_error")
  expect_match(conditionMessage(e), "negative value -14 at position 2 (deferred call checked(v * 2), in build(lazy(a)))",
               fixed = TRUE)
  expect_identical(deparse(e$call), "materialize(z)")
  big <- matrix(1, 2, 40000)
  big[1, 39999] <- -1
  for_threads(expect_error(checked(big), "slice \\[, 39999\\]", class = "gufunc_kernel_error"))
  expect_identical(checked(abs(a)), apply(abs(a), c(2, 3), sum))
  # A C++ exception from the body is reported the same way.
  throws <- gufunc_cpp("double -> double", includes = "stdexcept",
                       "if (x0[0] > 1) throw std::runtime_error(\"too large\"); out0[0] = x0[0];")
  expect_error(throws(c(0, 1, 2)), "failed for element 3: too large",
               class = "gufunc_kernel_error")
})

test_that("a compile error is a classed error with the compiler's message", {
  local_cpp()
  e <- expect_error(gufunc_cpp("double(n) -> double()", "out0[0] = undefined_thing;"),
                    class = "gufunc_compile_error")
  expect_match(conditionMessage(e), "undefined_thing")
  expect_match(conditionMessage(e), "gufunc_cpp body:1")
  expect_false(grepl("-Werror", conditionMessage(e), fixed = TRUE))
  expect_true(length(e$output) > 0)
  # Nothing was cached or registered; the session goes on.
  expect_identical(gufunc_cpp("double -> double", "out0[0] = 1;")(1:2), c(1, 1))
})

test_that("gufunc_cpp() checks its signature and arguments", {
  local_cpp()
  expect_error(gufunc_cpp("T(n) -> T()", "out0[0] = 0;"), "type variable",
               class = "gufunc_registration_error")
  expect_error(gufunc_cpp("(n) -> ()", "out0[0] = 0;"), "has no type",
               class = "gufunc_registration_error")
  expect_error(gufunc_cpp("double(x0) -> double()", "out0[0] = 0;"), "core dimension `x0`",
               class = "gufunc_argument_error")
  expect_error(gufunc_cpp("double -> double", "out0[0] = 0;", namespace = "base"),
               "must not be \"base\"", class = "gufunc_argument_error")
  expect_error(gufunc_cpp("double -> double", character()), class = "gufunc_argument_error")
  expect_error(gufunc_cpp("double -> double", "out0[0] = 0;", includes = NA),
               class = "gufunc_argument_error")
})

test_that("a kernel's state is released by its destructor exactly once", {
  local_cpp()
  body <- "out0[0] = x0[0] * k;"
  alive0 <- gufunc:::owned_states_alive()
  f <- gufunc_cpp("double -> double", body, name = "scaled", namespace = "cpp_state_test",
                  params = c(k = 2))
  s1 <- gufunc:::gufunc_cpp_states(f)
  expect_identical(gufunc:::owned_states_alive(), alive0 + 1)
  expect_identical(f(1:3), c(2, 4, 6))
  # Registering the name again replaces the kernel set and releases the old state.
  g <- gufunc_cpp("double -> double", body, name = "scaled", namespace = "cpp_state_test",
                  params = c(k = 10))
  s2 <- gufunc:::gufunc_cpp_states(g)
  expect_identical(s2 - s1, c(1, 1))
  expect_identical(gufunc:::owned_states_alive(), alive0 + 1)
  expect_identical(f(1:3), c(10, 20, 30)) # same name: every callable sees the new kernel
  # Removing the function releases it.
  expect_true(gufunc_unregister("scaled", namespace = "cpp_state_test"))
  expect_identical(gufunc:::gufunc_cpp_states(g) - s2, c(0, 1))
  expect_identical(gufunc:::owned_states_alive(), alive0)
  expect_error(f(1), class = "gufunc_lookup_error")
  expect_warning(expect_false(gufunc_unregister("scaled", namespace = "cpp_state_test")),
                 "no function `scaled` in gufunc namespace \"cpp_state_test\"",
                 class = "gufunc_lookup_warning", fixed = TRUE)
  expect_warning(gufunc_unregister(namespace = "cpp_no_such_namespace"),
                 "there is no gufunc namespace \"cpp_no_such_namespace\"", fixed = TRUE)
  # Removing the namespace releases every state in it, once.
  gufunc_cpp("double -> double", body, name = "a", namespace = "cpp_state_test", params = c(k = 1))
  gufunc_cpp("double -> double", body, name = "b", namespace = "cpp_state_test", params = c(k = 1))
  expect_identical(gufunc:::owned_states_alive(), alive0 + 2)
  expect_true(gufunc_unregister(namespace = "cpp_state_test"))
  expect_identical(gufunc:::gufunc_cpp_states(g) - s2, c(2, 3))
  expect_identical(gufunc:::owned_states_alive(), alive0)
  expect_false("cpp_state_test" %in% gufunc_namespaces())
  expect_error(gufunc_unregister(namespace = "base"), class = "gufunc_registration_error")
})

test_that("a gufunc_cpp kernel is a native kernel: gufunc() and C code can use it", {
  local_cpp()
  f <- gufunc_cpp("double(n), double(n) -> double()", l1_body, name = "l1_cpp")
  g <- gufunc("double(n), double(n) -> double()", "l1_cpp")
  P <- matrix(as.double(1:6), 3)
  expect_identical(g(P, P * 2), f(P, P * 2))
  expect_true("l1_cpp" %in% gufunc_kernels(namespace = "user")$name)
})

test_that("a lazy value keeps the kernel it was built with, and its state, alive", {
  local_cpp()
  body <- "double s = 0; for (R_xlen_t i = 0; i < n; ++i) s += x0[i] * k; out0[0] = s;"
  alive0 <- gufunc:::owned_states_alive()
  f <- gufunc_cpp("double(n) -> double()", body, name = "held", namespace = "cpp_lazy_test",
                  params = c(k = 2))
  x <- matrix(as.double(1:6), 3)
  z <- f(lazy(x))
  expect_true(is_lazy(z))
  # Replacing and then removing the function does not free what z still needs.
  gufunc_cpp("double(n) -> double()", body, name = "held", namespace = "cpp_lazy_test",
             params = c(k = 10))
  expect_true(gufunc_unregister(namespace = "cpp_lazy_test"))
  expect_identical(gufunc:::owned_states_alive(), alive0 + 1)
  expect_identical(materialize(z), c(12, 30))
  rm(z)
  gc()
  expect_identical(gufunc:::owned_states_alive(), alive0)
})
