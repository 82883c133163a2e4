# Base R references for the linear-algebra gufuncs: `f` applied slice by slice over
# the last dimension of 3-d stacks (a plain matrix argument is used with every slice).

slice_of <- function(x, i) {
  d <- dim(x)
  if (length(d) == 3L) array(x[, , i], d[1:2]) else x
}

slices_apply <- function(f, ..., len) {
  args <- list(...)
  lapply(seq_len(len), function(i) do.call(f, lapply(args, slice_of, i = i)))
}

# Binds a list of equal-shape results into an array with a trailing loop dim.
stack_results <- function(results, core_dim) {
  array(unlist(results), c(core_dim, length(results)))
}

# A stack of `len` random well-conditioned n x n matrices (diagonally dominated).
random_stack <- function(n, len, shift = n) {
  x <- array(rnorm(n * n * len), c(n, n, len))
  diagonal <- rep((seq_len(n) - 1) * (n + 1) + 1, len) + rep((seq_len(len) - 1) * n * n, each = n)
  x[diagonal] <- x[diagonal] + shift
  x
}

# A stack of symmetric matrices with well-separated eigenvalues.
symmetric_stack <- function(n, len) {
  x <- array(0, c(n, n, len))
  for (i in seq_len(len)) {
    q <- qr.Q(qr(matrix(rnorm(n * n), n)))
    x[, , i] <- q %*% diag(seq(n, 1) * 1.5 + rnorm(1, sd = 0.1), n) %*% t(q)
  }
  x
}

# NA/NaN positions equal, the rest within `tolerance` relative.
expect_values_close <- function(object, expected, tolerance = 1e-12) {
  expect_identical(dim(object), dim(expected))
  expect_identical(is.na(object), is.na(expected))
  ok <- !is.na(expected)
  expect_equal(object[ok], expected[ok], tolerance = tolerance)
}
