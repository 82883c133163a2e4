# The kernel ABI (inst/include/gufunc/kernel.h): relocatable kernel blocks built in
# C++ (the kernel builder) and in plain C (the gufuncext fixture), moved with memcpy,
# called from several threads at once, destroyed exactly once and freed.

# Several threads call one kernel block at once; R CMD check allows 2 cores.
limit_cores <- !tolower(Sys.getenv("_R_CHECK_LIMIT_CORES_")) %in% c("", "false")
test_threads <- if (limit_cores) c(1L, 2L) else c(1L, 2L, 4L)

# scale * (x + y) by a composite kernel whose add child is built in the block
# ("built") or is gufunc's "+" instance adopted into it ("adopted").
builder_composite <- function(x, y, scale, threads, child = "built") {
  .Call(C_test_kernel_builder_composite, x, y, scale, threads, child)
}
builder_misuse <- function(what) .Call(C_test_kernel_builder_misuse, what)
states_alive <- function() .Call(C_test_kernel_states_alive)
requested_call <- function(name, x, y, threads = 2L) {
  .Call(C_test_request_kernel_call, name, x, y, threads)
}

test_that("a composite built with the kernel builder survives memcpy and threads", {
  set.seed(42)
  x <- c(grid_double, rnorm(5000))
  y <- c(rev(grid_double), rnorm(5000))
  for (threads in test_threads) {
    for (child in c("built", "adopted")) {
      r <- builder_composite(x, y, 2.5, threads, child)
      expect_identical(r$result, (x + y) * 2.5, label = child)
    }
  }
  expect_identical(builder_composite(x, 3, -0.5, 2L)$result, (x + 3) * -0.5)
  expect_identical(builder_composite(numeric(), numeric(), 2, 2L)$result, numeric())
})

test_that("kernel builder blocks follow the layout rules and are destroyed once", {
  r <- builder_composite(c(1, 2), c(3, 4), 2, 2L)
  ptr <- .Machine$sizeof.pointer
  expect_true(r$aligned)
  expect_identical(r$kernel_size %% ptr, 0)
  expect_identical(r$child_offset %% ptr, 0)
  expect_gt(r$child_offset, 2 * ptr) # the child follows its parent's prefix and state
  expect_identical(r$states_alive_while_built, 2L)
  expect_identical(r$states_destroyed, 2L) # parent and child, each exactly once
  expect_identical(r$states_alive_after, 0L)
  expect_identical(r$live_built, r$live_before)
})

test_that("an adopted kernel instance is owned by the block and destroyed with it", {
  r <- builder_composite(c(1, NA, -Inf), c(3, 4, 5), 2, 2L, child = "adopted")
  expect_identical(r$result, (c(1, NA, -Inf) + c(3, 4, 5)) * 2)
  expect_identical(r$kernel_size %% .Machine$sizeof.pointer, 0)
  expect_identical(r$states_destroyed, 1L) # the parent; the child is gufunc's instance
  expect_identical(r$live_built, r$live_before + 1) # moved into the block, still alive
  expect_identical(r$live_after, r$live_before) # destroyed by the parent, exactly once
})

test_that("kernel builder misuse is an error and leaks no state", {
  expect_error(builder_misuse("release_empty"), "no kernel to release",
               class = "gufunc_kernel_error")
  expect_error(builder_misuse("unowned_child"), "1 kernel\\(s\\) in the block have no parent",
               class = "gufunc_kernel_error")
  expect_error(builder_misuse("child_before_parent"), "after its parent",
               class = "gufunc_kernel_error")
  expect_error(builder_misuse("link_twice"), "already owns a kernel",
               class = "gufunc_kernel_error")
  # A state constructor that throws: what was built before it is destroyed.
  expect_error(builder_misuse("throwing_state"), "state constructor failed")
  expect_identical(states_alive(), 0L)
})

test_that("requested kernel instances compute what base R computes", {
  g <- grid_pairs(grid_double, grid_double)
  for (op in c("+", "-", "*", "/")) {
    r <- requested_call(op, g$x, g$y)
    expect_identical(r$result, get(op)(g$x, g$y), label = op)
    expect_identical(r$types, rep("double", 3L))
  }
  gi <- grid_pairs(grid_integer, grid_integer)
  for (op in c("+", "-", "*")) {
    r <- requested_call(op, gi$x, gi$y)
    ref <- suppressWarnings(get(op)(gi$x, gi$y))
    expect_identical(r$result, ref, label = op)
    expect_identical(r$types, rep("integer", 3L))
    # The overflow warning travels as a bit in the context, as GUFUNC_WARN_INT_OVERFLOW.
    expect_identical(r$warnings, 1L, label = op)
  }
})

test_that("requested kernels are chosen with promotion and report the types", {
  r <- requested_call("+", 1:6, c(0.5, NA, 2, 3, 4, 5))
  expect_identical(r$result, 1:6 + c(0.5, NA, 2, 3, 4, 5))
  expect_identical(r$types, c("double", "double", "double"))
  r <- requested_call("add", c(TRUE, NA, FALSE), 2L, threads = 1L)
  expect_identical(r$result, c(TRUE, NA, FALSE) + 2L)
  expect_identical(r$types, c("integer", "integer", "integer"))
  expect_identical(r$warnings, 0L)
  expect_error(requested_call("sqrt", 1, 2), class = "gufunc_dispatch_error")
  expect_error(requested_call("nope", 1, 2), "no function `nope`", class = "gufunc_lookup_error")
})

test_that("every requested instance is destroyed exactly once", {
  r <- requested_call("*", c(1, 2, 3), 2, threads = 2L)
  expect_identical(r$result, c(1, 2, 3) * 2)
  expect_identical(r$live_during, r$live_before + 1)
  expect_identical(r$live_after, r$live_before)
})

test_that("C code builds, relocates and threads stateful and composite kernels", {
  ext <- local_gufuncext()
  abi_checks <- getExportedValue("gufuncext", "abi_checks")
  set.seed(7)
  x <- c(grid_double, rnorm(20000))
  y <- c(rev(grid_double), rnorm(20000))
  for (threads in c(1L, 2L, 5L)) {
    r <- abi_checks(x, y, 1.5, threads)
    # The stateful kernel: x * factor, the factor stored in the block.
    expect_identical(r$scaled, x * 1.5)
    # The composite: its scale child applied to gufunc's "+" child, both by offset.
    expect_identical(r$combined, (x + y) * 1.5)
    # The composite owned the "+" instance from gufunc: alive while it was, destroyed
    # with it, exactly once.
    expect_identical(r$live_built, r$live_start + 1)
    expect_identical(r$live_end, r$live_start)
    expect_identical(r$scale_destroyed, 2) # the standalone one and the composite's child
    expect_identical(r$sizes %% .Machine$sizeof.pointer, c(0, 0))
  }
  expect_identical(abi_checks(numeric(), numeric(), 2, 2L)$combined, numeric())
})

test_that("the public headers are clean C99 (gcc -std=c99 -pedantic -Werror)", {
  skip_on_cran()
  skip_if_gufunc_not_installed()
  skip_if_no_c_compiler()
  cc <- system2(file.path(R.home("bin"), "R"), c("CMD", "config", "CC"), stdout = TRUE)
  cc <- strsplit(trimws(cc[1L]), "[[:space:]]+")[[1L]][1L]
  if (!grepl("gcc|clang", basename(cc))) skip("the check needs gcc or clang")
  src <- tempfile(fileext = ".c")
  writeLines(c(
    "#include <gufunc/gufunc.h>",
    "#include <gufunc/callables.h>",
    "static void release(void* state) { (void)state; }",
    "int use_owned(gufunc_table* t, const gufunc_kernel_init* init, gufunc_context* ctx) {",
    "  gufunc_state_release_t r = release;",
    "  if (gufunc_remove_function(t, init->name, ctx) != 0) return -1;",
    "  if (gufunc_live_owned_states() < 0) return -1;",
    "  return gufunc_add_owned_kernel(t, init, r, ctx);",
    "}",
    "int main(void) { return gufunc_abi_version() == GUFUNC_ABI_VERSION ? 0 : 1; }"
  ), src)
  out <- suppressWarnings(system2(cc, c(
    "-std=c99", "-pedantic", "-Wall", "-Wextra", "-Werror", "-fsyntax-only",
    paste0("-I", shQuote(system.file("include", package = "gufunc"))),
    paste0("-I", shQuote(R.home("include"))), shQuote(src)
  ), stdout = TRUE, stderr = TRUE))
  expect_null(attr(out, "status"), label = paste(out, collapse = "\n"))
})
