# A third-party package (inst/examples/gufuncext, plain C, LinkingTo:
# gufunc) in both directions: its kernels registered at load time and applied by
# gufunc, and gufunc's builtin kernels requested and called from its C code.

ext_fun <- function(name) getExportedValue("gufuncext", name)

# base R's sum() adds in long double, in order; so do the fixture's kernels.
ref_l1dist <- function(P, Q) apply(abs(P - Q), seq_along(dim(P))[-1L], sum)

test_that("a package registers kernels into its own namespace at load time", {
  local_gufuncext()
  expect_true("gufuncext" %in% gufunc_namespaces())
  k <- gufunc_kernels(namespace = "gufuncext")
  expect_identical(k$name, c("l1dist", "sumsq"))
  expect_identical(k$signature, c("double(n), double(n) -> double()", "double(n) -> double()"))
  expect_identical(k$variants, c("Fortran,Strided", "Fortran"))
  expect_identical(gufunc_kernels("l1dist", namespace = "gufuncext")$name, "l1dist")
  # Its names do not leak into the base table.
  expect_error(gufunc_call("l1dist", 1, 2), class = "gufunc_lookup_error")
})

test_that("gufunc_call applies the package's C kernel like base R", {
  local_gufuncext()
  l1dist <- function(...) gufunc_call("l1dist", ..., namespace = "gufuncext")
  set.seed(3)
  P <- matrix(c(grid_double[1:24], rnorm(36)), 6)
  Q <- matrix(rnorm(60), 6)
  for_threads({
    expect_identical(l1dist(P[, 1], Q[, 1]), sum(abs(P[, 1] - Q[, 1])))
    expect_identical(l1dist(P, Q), ref_l1dist(P, Q))
    # The loop dimension broadcasts: one vector against every column.
    expect_identical(l1dist(P, Q[, 2]), ref_l1dist(P, matrix(Q[, 2], 6, 10)))
    A <- array(rnorm(4 * 3 * 5), c(4, 3, 5))
    B <- array(rnorm(4 * 3 * 5), c(4, 3, 5))
    expect_identical(l1dist(A, B), ref_l1dist(A, B))
  })
  # Integer and logical arguments promote to the kernel's double.
  expect_identical(l1dist(1:4, c(2.5, 1, 0, 9)), sum(abs(1:4 - c(2.5, 1, 0, 9))))
  expect_identical(l1dist(c(TRUE, NA), c(0, 0)), sum(abs(c(TRUE, NA) - c(0, 0))))
  expect_identical(ext_fun("l1dist")(P, Q), ref_l1dist(P, Q))
  expect_error(l1dist(P, Q[-1, ]), class = "gufunc_error")
})

test_that("gufunc prefers the Fortran variant for R data, applied and requested", {
  local_gufuncext()
  counts <- ext_fun("variant_counts")
  P <- matrix(c(1, NA, 3, -4, 5.5, 6), 3)
  Q <- matrix(c(2, 1, 1, 0, -1, 7), 3)
  before <- counts()
  gufunc_call("l1dist", P, Q, namespace = "gufuncext")
  after <- counts()
  expect_gt(after[["fortran"]], before[["fortran"]])
  expect_identical(after[["strided"]], before[["strided"]])
  # Requested as a dynamic kernel instance from C, the same choice (the ABI's
  # order: C, Fortran, Xnd, Strided) for the same contiguous cores.
  reduce <- ext_fun("reduce_via_gufunc")
  expect_identical(reduce("l1dist", list(P, Q)), ref_l1dist(P, Q))
  expect_gt(counts()[["fortran"]], after[["fortran"]])
  expect_identical(counts()[["strided"]], after[["strided"]])
})

test_that("a kernel set with only an nd kernel works applied and requested", {
  local_gufuncext()
  set.seed(5)
  P <- matrix(c(grid_double[1:20], rnorm(20)), 5)
  expect_identical(gufunc_call("sumsq", P, namespace = "gufuncext"), apply(P^2, 2, sum))
  # As an instance, the Fortran kernel is adapted to the strided calling convention.
  expect_identical(ext_fun("reduce_via_gufunc")("sumsq", list(P)), apply(P^2, 2, sum))
})

test_that("C code takes gufunc's builtin kernels and gets base R's results", {
  local_gufuncext()
  binary <- ext_fun("binary_via_gufunc")
  g <- grid_pairs(grid_double, grid_double)
  for (op in c("+", "-", "*", "/")) {
    r <- binary(op, g$x, g$y)
    expect_identical(r$result, get(op)(g$x, g$y), label = op)
  }
  gi <- grid_pairs(grid_integer, grid_integer)
  for (op in c("+", "-", "*")) {
    r <- binary(op, gi$x, gi$y)
    expect_identical(r$result, suppressWarnings(get(op)(gi$x, gi$y)), label = op)
    expect_identical(r$warnings, 1L) # GUFUNC_WARN_INT_OVERFLOW, for the caller to raise
  }
  # Promotion: gufunc says which types the kernel takes; the C caller converts.
  r <- binary("+", c(TRUE, NA, FALSE), c(1L, 2L, NA))
  expect_identical(r$result, c(TRUE, NA, FALSE) + c(1L, 2L, NA))
  expect_identical(r$types, c("integer", "integer", "integer"))
  r <- binary("*", 1:3, 0.5)
  expect_identical(r$result, 1:3 * 0.5)
  expect_identical(r$types, c("double", "double", "double"))
  expect_identical(binary("==", c(1, NA, 3), 3)$result, c(1, NA, 3) == 3)
})

test_that("gufunc's errors reach the C caller as messages", {
  local_gufuncext()
  binary <- ext_fun("binary_via_gufunc")
  expect_error(binary("nope", 1, 2), "no function `nope` in gufunc namespace \"base\"")
  expect_error(binary("sqrt", 1, 2), "`sqrt` takes 1 argument, not 2")
  # The package's own typecheck hook answers for l1dist.
  expect_error(ext_fun("reduce_via_gufunc")("l1dist", list(matrix(1, 1, 1))),
               "l1dist takes 2 arguments, not 1")
})

test_that("unloading the package drops its namespace and loading registers it again", {
  local_gufuncext()
  expect_true("gufuncext" %in% gufunc_namespaces())
  unloadNamespace("gufuncext")
  expect_false("gufuncext" %in% gufunc_namespaces())
  expect_error(gufunc_call("l1dist", 1, 2, namespace = "gufuncext"), class = "gufunc_lookup_error")
  local_gufuncext()
  expect_true("gufuncext" %in% gufunc_namespaces())
  expect_identical(ext_fun("l1dist")(c(1, 2), c(3, 5)), 5)
})

test_that("a C package binds kernel state at construction; gufunc releases it once", {
  local_gufuncext()
  bind <- ext_fun("bind_pnorm")
  pnorm <- ext_fun("pnorm")
  states <- ext_fun("pnorm_states")
  alive0 <- gufunc:::owned_states_alive()
  s0 <- states()
  set.seed(9)
  x <- matrix(c(grid_double[grid_double != 0 & is.finite(grid_double)][1:12], rnorm(18)), 6)
  ref <- function(x, p) apply(x, 2, function(v) sum(abs(v)^p)^(1 / p))
  bind(3)
  expect_identical(states() - s0, c(created = 1, released = 0))
  expect_identical(gufunc:::owned_states_alive(), alive0 + 1)
  for_threads(expect_equal(pnorm(x), ref(x, 3), tolerance = 1e-14))
  expect_identical(gufunc_kernels("pnorm", namespace = "gufuncext")$signature,
                   "double(n) -> double()")
  # Binding again replaces the kernel set: the old state is released, exactly once.
  bind(1)
  expect_identical(states() - s0, c(created = 2, released = 1))
  expect_identical(gufunc:::owned_states_alive(), alive0 + 1)
  expect_equal(pnorm(x), colSums(abs(x)), tolerance = 1e-14)
  # A gufunc() callable over the C kernel.
  p1 <- gufunc("double(n) -> double()", "pnorm", namespace = "gufuncext")
  expect_equal(p1(x), colSums(abs(x)), tolerance = 1e-14)
  expect_error(bind(-1), "p must be a positive number")
  expect_identical(states() - s0, c(created = 2, released = 1))
  # Removing the function releases the state; nothing is left alive.
  expect_true(gufunc_unregister("pnorm", namespace = "gufuncext"))
  expect_identical(states() - s0, c(created = 2, released = 2))
  expect_identical(gufunc:::owned_states_alive(), alive0)
  expect_error(pnorm(x), class = "gufunc_lookup_error")
  # The package's other kernels are untouched.
  expect_identical(gufunc_kernels(namespace = "gufuncext")$name, c("l1dist", "sumsq"))
})

test_that("unloading the package releases the states it bound", {
  local_gufuncext()
  alive0 <- gufunc:::owned_states_alive()
  ext_fun("bind_pnorm")(2, name = "norm2")
  ext_fun("bind_pnorm")(4, name = "norm4")
  expect_identical(gufunc:::owned_states_alive(), alive0 + 2)
  # .onUnload drops namespace "gufuncext" while the library (and its release
  # function) is still loaded.
  unloadNamespace("gufuncext")
  expect_identical(gufunc:::owned_states_alive(), alive0)
  expect_false("gufuncext" %in% gufunc_namespaces())
  local_gufuncext()
  expect_identical(ext_fun("pnorm_states")(), c(created = 0, released = 0))
})

test_that("C code requests a gufunc_cpp kernel and calls it on strided cores", {
  local_gufuncext()
  skip_if_no_cxx_compiler()
  options(gufunc.cache_dir = tempfile("gufunc-cache-"))
  rows <- ext_fun("rows_via_gufunc")
  set.seed(12)
  x <- matrix(rnorm(5 * 7), 5)
  # The rows of x are cores with stride nrow * 8: the generated kernel gathers them.
  sq <- gufunc_cpp("double(n) -> double()", name = "row_sumsq",
                   "double s = 0; for (R_xlen_t i = 0; i < n; ++i) s += x0[i] * x0[i];
                    out0[0] = s;")
  expect_identical(rows("user", "row_sumsq", x), apply(x, 1, function(v) Reduce(`+`, v * v, 0)))
  expect_identical(sq(t(x)), rows("user", "row_sumsq", x))
  # Outputs with strided cores are scattered back.
  cum <- gufunc_cpp("double(n) -> double(n)", name = "row_cumsum",
                    "double s = 0; for (R_xlen_t i = 0; i < n; ++i) { s += x0[i]; out0[i] = s; }")
  expect_identical(rows("user", "row_cumsum", x, vector_out = TRUE),
                   t(apply(x, 1, function(v) Reduce(`+`, v, accumulate = TRUE))))
  # fail() reaches the C caller with the loop iteration.
  gufunc_cpp("double(n) -> double()", name = "row_check",
             "if (x0[0] > 100) fail(\"first value %g too large\", x0[0]); out0[0] = x0[0];")
  x[4, 1] <- 500
  expect_error(rows("user", "row_check", x), "row 4: first value 500 too large")
})
