# gu_cumsum / gu_cumprod ("double(n) -> double(n)") against base R's cumsum and
# cumprod, slice by slice, with the NA/NaN order R's long double loop gives.

quiet_na <- NA_real_ + 0  # NA as arithmetic leaves it (a quiet NaN)

# Slices with special values in every order, including NA and NaN in one slice.
special_slices <- list(
  c(NaN, NA), c(NA, NaN), c(NaN, quiet_na), c(quiet_na, NaN), c(Inf, -Inf, NA),
  c(NA, Inf, -Inf), c(1, NaN, 2, NA, 3), c(1, NA, 2, NaN, 3), c(Inf, -Inf, quiet_na),
  c(0, Inf, -1e308, 1e308, 1e308), c(-0, 0), grid_double
)

columnwise <- function(x, f) {
  out <- apply(x, seq_along(dim(x))[-1L], f)
  dim(out) <- dim(x)
  out
}

test_that("a double vector gives exactly base R's cumsum and cumprod", {
  set.seed(41)
  for_threads({
    for (x in c(list(rnorm(1000), runif(37, 0.5, 1.5), numeric(0), 7), special_slices)) {
      expect_identical(gu_cumsum(x), cumsum(x))
      expect_identical(gu_cumprod(x), cumprod(x))
    }
  })
})

test_that("NaNs with a sign or payload: base R's bits, in every order", {
  # Of two quiet NaNs with equal significands the x87 unit keeps the positive one.
  nans <- c(grid_nan_bits, NaN, NA, quiet_na, 1, -0)
  orders <- t(as.matrix(expand.grid(seq_along(nans), seq_along(nans), seq_along(nans))))
  m <- matrix(nans[orders], nrow = 3)  # every order of three values, one per column
  expect_true(identical_bits(gu_cumsum(m), columnwise(m, cumsum)))
  expect_true(identical_bits(gu_cumprod(m), columnwise(m, cumprod)))
})

test_that("matrices and arrays: every column as base R, dims kept", {
  set.seed(42)
  m <- matrix(rnorm(60), 6)
  m[2, 3] <- NA
  m[4, 3] <- NaN
  m[c(1, 5), 5] <- c(NaN, NA)
  m[3, 6] <- Inf
  a <- array(runif(2 * 3 * 4 * 5, 0.5, 2), c(2, 3, 4, 5))
  a[1, 2, 3, 4] <- NA
  for_threads({
    expect_identical(gu_cumsum(m), apply(m, 2, cumsum))
    expect_identical(gu_cumprod(m), apply(m, 2, cumprod))
    expect_identical(gu_cumsum(a), columnwise(a, cumsum))
    expect_identical(gu_cumprod(a), columnwise(a, cumprod))
    # Many slices: several tasks per thread.
    big <- matrix(rnorm(4e5), 4)
    expect_identical(gu_cumsum(big), apply(big, 2, cumsum))
  })
})

test_that("special values in one column of a matrix, every order", {
  for_threads({
    for (s in special_slices) {
      m <- cbind(s, rev(s), 1)
      dimnames(m) <- NULL
      expect_identical(gu_cumsum(m), apply(m, 2, cumsum))
      expect_identical(gu_cumprod(m), apply(m, 2, cumprod))
    }
  })
})

test_that("integer and logical input is promoted to double", {
  i <- c(1L, NA, .Machine$integer.max, .Machine$integer.max, -5L)
  expect_identical(gu_cumsum(i), cumsum(as.double(i)))
  expect_identical(gu_cumprod(i), cumprod(as.double(i)))
  l <- c(TRUE, FALSE, NA, TRUE)
  expect_identical(gu_cumsum(l), cumsum(as.double(l)))
  im <- matrix(1:12, 3)
  expect_identical(gu_cumsum(im), apply(im + 0, 2, cumsum))
})

test_that("names and dimnames are kept; empty shapes work", {
  x <- c(a = 1, b = 2, c = 3)
  expect_identical(gu_cumsum(x), cumsum(x))
  m <- matrix(1:4 + 0, 2, dimnames = list(c("r1", "r2"), c("c1", "c2")))
  expect_identical(dimnames(gu_cumprod(m)), dimnames(m))
  expect_identical(gu_cumsum(array(c(1, 2, 3), 3)), array(c(1, 3, 6), 3))
  expect_identical(gu_cumsum(matrix(numeric(0), 0, 3)), matrix(numeric(0), 0, 3))
  expect_identical(gu_cumsum(matrix(numeric(0), 3, 0)), matrix(numeric(0), 3, 0))
  expect_identical(gu_cumsum(numeric(0)), numeric(0))
})

test_that("bad input gives a classed error naming the argument", {
  expect_error(gu_cumsum("a"), class = "gufunc_type_error", regexp = "`x`")
  expect_error(gu_cumprod(factor("a")), class = "gufunc_type_error", regexp = "`x`")
  expect_error(gu_cumsum(list(1, 2)), class = "gufunc_type_error")
})

test_that("the kernels are registered in the base namespace", {
  k <- gufunc_kernels(namespace = "base")
  expect_identical(k$signature[k$name == "cumsum"], "double(n) -> double(n)")
  expect_identical(k$signature[k$name == "cumprod"], "double(n) -> double(n)")
  expect_identical(gufunc_call("cumsum", matrix(1:4 + 0, 2)), matrix(c(1, 3, 3, 7), 2))
})
