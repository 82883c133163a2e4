# rowSums(), colSums(), rowMeans() and colMeans() of lazy arrays: one pass over the
# deferred graph, with base R's bits (long double totals in base R's order),
# attributes, warnings and errors.

margin_functions <- c("rowSums", "colSums", "rowMeans", "colMeans")

# Each of the four, with and without na.rm, on lazy(x) and on a deferred
# expression equal to x, against base R's function on x.
expect_margins_like_base <- function(x, dims = 1L) {
  deferred <- if (is.double(x)) lazy(x) * 1 else lazy(x)
  for (f in margin_functions) {
    ours <- get(f, asNamespace("gufunc"))
    theirs <- get(f, baseenv())
    for (na.rm in c(FALSE, TRUE)) {
      expected <- theirs(x, na.rm = na.rm, dims = dims)
      expect_identical(ours(lazy(x), na.rm = na.rm, dims = dims), expected)
      # x * 1 quiets a signalling NA, which a long double sum can tell apart.
      expected <- theirs(if (is.double(x)) x * 1 else x, na.rm = na.rm, dims = dims)
      expect_identical(ours(deferred, na.rm = na.rm, dims = dims), expected)
    }
  }
}

test_that("the four give base R's values over the value grid", {
  set.seed(11)
  doubles <- c(1, -1, 0.1, 1 / 3, 5.2, 1.5, 1e308, -1e308, 2^-1074, 0, -0, NA, NaN, Inf, -Inf)
  integers <- c(1L, -5L, 0L, .Machine$integer.max, -.Machine$integer.max, NA)
  for_engine_settings({
    for (k in 1:12) {
      d <- sample(1:5, sample(2:4, 1), TRUE)
      dims <- sample(seq_len(length(d) - 1L), 1)
      expect_margins_like_base(array(sample(doubles, prod(d), TRUE), d), dims)
      expect_margins_like_base(array(sample(integers, prod(d), TRUE), d), dims)
      expect_margins_like_base(array(sample(c(TRUE, FALSE, NA), prod(d), TRUE), d), dims)
    }
  })
})

test_that("NA and NaN meet in base R's order", {
  # Which of NA and NaN a long double total ends with depends on their order.
  for (v in list(c(NA, NaN, 1), c(NaN, NA, 1), c(1, NaN, NA), c(NA_real_, 2, NaN))) {
    expect_margins_like_base(matrix(v, 3, 3))
    expect_margins_like_base(matrix(v, 3, 3, byrow = TRUE))
  }
  expect_margins_like_base(matrix(c(1L, NA, 2L, 3L), 2))
  expect_margins_like_base(matrix(c(NA, TRUE, FALSE, TRUE), 2))
})

test_that("long and wide arrays read in chunks give base R's bits", {
  set.seed(12)
  shapes <- list(c(700, 500), c(1000, 300), c(3, 100000), c(2e5, 2), c(40, 30, 400))
  for (d in shapes) {
    x <- array(rnorm(prod(d)) * 10^sample(-5:5, prod(d), TRUE), d)
    x[sample(length(x), 20)] <- NA
    for (threads in 1:2) {
      with_options(list(gufunc.threads = threads), {
        expect_margins_like_base(x)
        if (length(d) == 3L) expect_margins_like_base(x, dims = 2L)
      })
    }
  }
})

test_that("a deferred array is summed without being computed whole", {
  x <- matrix(runif(6000), 60, dimnames = list(paste0("r", 1:60), paste0("c", 1:100)))
  y <- sqrt(lazy(x) * 2 + 1)
  expect_identical(rowSums(y), base::rowSums(sqrt(x * 2 + 1)))
  expect_identical(colMeans(y), base::colMeans(sqrt(x * 2 + 1)))
  expect_false(is_materialized(y))
  # A pending subassignment is read the same way.
  z <- lazy(x) * 3
  z[5:20, 2:9] <- -1
  expected <- x * 3
  expected[5:20, 2:9] <- -1
  expect_identical(rowSums(z), base::rowSums(expected))
  expect_identical(colSums(z), base::colSums(expected))
  expect_false(is_materialized(z))
})

test_that("results take base R's names, dim and dimnames", {
  a <- array(runif(2 * 3 * 1000), c(2, 3, 1000),
             dimnames = list(c("a", "b"), c("x", "y", "z"), NULL))
  la <- lazy(a)
  for (f in margin_functions) {
    for (dims in 1:2) {
      expect_identical(get(f)(la, dims = dims), get(f, baseenv())(a, dims = dims))
    }
  }
  m <- matrix(runif(3000), 3)
  expect_identical(rowSums(lazy(m)), base::rowSums(m))
  expect_null(names(colSums(lazy(m))))
})

test_that("warnings of the deferred values are base R's", {
  x <- matrix(c(-1, rep(4, 2999)), 30)
  expect_warning(v <- rowSums(sqrt(lazy(x))), "NaNs produced")
  expect_identical(v, suppressWarnings(base::rowSums(sqrt(x))))
})

test_that("bad arguments give base R's errors; plain arrays are base R's", {
  m <- matrix(runif(3000), 30)
  lm <- lazy(m)
  expect_error(rowSums(lazy(runif(2000))), "'x' must be an array of at least two dimensions")
  expect_error(colSums(lm, dims = 2), "invalid 'dims'")
  expect_error(rowMeans(lm, na.rm = NA), "invalid 'na.rm' argument")
  e <- tryCatch(rowSums(1:3), error = identity)
  expect_identical(conditionCall(e), quote(rowSums(1:3)))
  expect_identical(colMeans(m), base::colMeans(m))
  expect_identical(rowSums(data.frame(a = 1:3, b = 4:6)), base::rowSums(data.frame(a = 1:3, b = 4:6)))
  # dims that base R takes but the engine does not: base R's result.
  a <- array(runif(2400), c(10, 20, 12))
  expect_identical(rowSums(lazy(a), dims = 1.5), base::rowSums(a, dims = 1.5))
})

test_that("a computed value written in part keeps base R's warnings", {
  # Base R computes sqrt(x) whole before diag<- and w[1] <- write over it.
  x <- matrix(c(-1, rep(1, 1023)), 32)
  r <- sqrt(lazy(x))
  diag(r) <- 0
  expected <- suppressWarnings(sqrt(x))
  diag(expected) <- 0
  expect_warning(v <- materialize(r), "NaNs produced")
  expect_identical(v, expected)
  w <- sqrt(lazy(c(-1, seq_len(2000))))
  w[1] <- 0
  expect_warning(materialize(w), "NaNs produced")
})
