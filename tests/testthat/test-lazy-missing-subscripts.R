# A subscript that is a missing argument passed on (f <- function(x, i, j) x[i, j];
# f(m, 2)) picks all of its dimension in base R, as an empty subscript does. Lazy
# values take the same rule in subsets and subassignments (src/r/array_region.cpp,
# dots_missing()); a missing argument with a default is missing too.

withr::local_options(gufunc.lazy_min_length = 10)

subset_ij <- function(x, i, j) x[i, j]
subset_ij_default <- function(x, i, j = 4) x[i, j]
subset_i <- function(x, i) x[i]
subset_ijk <- function(x, i, j, k) x[i, j, k]
assign_ij <- function(x, i, j) {
  x[i, j] <- -1
  x
}
assign_ij_default <- function(x, i, j = 2) {
  x[i, j] <- -2
  x
}
assign_i <- function(x, i) {
  x[i] <- -3
  x
}
assign_ij_read <- function(x, i, j) {
  x[i, j] <- x[i, j] * 2
  x
}
assign_dots <- function(x, ...) {
  x[...] <- -4
  x
}

# The result of `f` on base R's value and on a lazy one (computed), or its error.
both <- function(f, x) {
  run <- function(v) tryCatch(materialize(f(v)), error = function(e) conditionMessage(e))
  list(base = run(x), lazy = run(lazy(x)))
}

test_that("a missing argument passed on as a subscript picks a whole dimension", {
  m <- matrix(as.double(1:30), 5, 6)
  a <- array(as.double(1:120), c(4, 5, 6))
  v <- as.double(1:40)
  cases <- list(
    both(function(x) subset_ij(x, 2), m),
    both(function(x) subset_ij(x, , 3), m),
    both(function(x) subset_ij(x), m),
    both(function(x) subset_ij_default(x, 2), m),
    both(function(x) subset_i(x), v),
    both(function(x) subset_ijk(x, 2:3, , 4), a),
    both(function(x) subset_ijk(x, , 2, ), a),
    both(function(x) assign_ij(x, 2), m),
    both(function(x) assign_ij(x, , 5), m),
    both(function(x) assign_ij_default(x, 3), m),
    both(function(x) assign_i(x), v),
    both(function(x) assign_ij_read(x, 2:4), m),
    both(function(x) assign_ij_read(x, , 6), m),
    both(function(x) assign_dots(x, 4, ), m)
  )
  for (case in cases) expect_identical(case$lazy, case$base)
})

test_that("subscripts are forced left to right after the value, once each", {
  m <- matrix(as.double(1:30), 5, 6)
  for (x in list(m, lazy(m))) {
    log <- character()
    x[{log <- c(log, "i"); 2:3}, {log <- c(log, "j"); 3:4}] <- {log <- c(log, "v"); 0}
    expect_identical(log, c("v", "i", "j"))
    expect_identical(materialize(x)[2:3, 3:4], matrix(0, 2, 2))
  }
  expect_error({
    x <- lazy(m)
    x[stop("subscript failed"), 1] <- 0
  }, "subscript failed")
})
