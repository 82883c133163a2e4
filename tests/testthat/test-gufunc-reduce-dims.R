# reduce_dims() and the "double(n) -> double()" reductions against base R's
# apply(x, MARGIN, f, na.rm =), colSums and rowSums: values identical(), apply's shape.

reductions <- c("sum", "mean", "prod", "min", "max")

# What reduce_dims(x, f, dims, na.rm) must give: apply() over the kept dims, as double.
apply_reference <- function(x, f, dims, na.rm) {
  d <- if (is.null(dim(x))) length(x) else dim(x)
  kept <- setdiff(seq_along(d), dims)
  if (length(kept) == 0L) return(do.call(f, list(as.double(x), na.rm = na.rm)))
  storage.mode(x) <- "double"
  out <- apply(x, kept, f, na.rm = na.rm)
  storage.mode(out) <- "double"
  out
}

expect_reduces_like_apply <- function(x, dims, fs = reductions) {
  for (f in fs) {
    for (na.rm in c(FALSE, TRUE)) {
      want <- suppressWarnings(apply_reference(x, f, dims, na.rm))
      got <- suppressWarnings(reduce_dims(x, f, dims, na.rm = na.rm))
      expect_identical(got, want, label = sprintf("reduce_dims(x, \"%s\", c(%s), %s)", f,
                                                  paste(dims, collapse = ", "), na.rm))
    }
  }
}

# Every non-empty subset of 1..rank.
all_dim_sets <- function(rank) {
  unlist(lapply(seq_len(rank), function(k) combn(rank, k, simplify = FALSE)),
         recursive = FALSE)
}

with_specials <- function(x, seed) {
  set.seed(seed)
  at <- sample(length(x), max(1L, length(x) %/% 6L))
  x[at] <- sample(c(NA, NaN, Inf, -Inf), length(at), replace = TRUE)
  x
}

test_that("matrices: every reduction over rows and columns, random and special values", {
  set.seed(7)
  m <- matrix(rnorm(200), 10, dimnames = list(letters[1:10], NULL))
  s <- with_specials(m, 8)
  for_threads({
    for (x in list(m, s)) {
      expect_reduces_like_apply(x, 1L)
      expect_reduces_like_apply(x, 2L)
      expect_reduces_like_apply(x, 1:2)
    }
    expect_identical(reduce_dims(m, "sum"), colSums(m))
    expect_identical(reduce_dims(m, "sum", 2), rowSums(m))
    expect_identical(reduce_dims(m, "mean"), colMeans(m))
    expect_identical(reduce_dims(m, "mean", 2), rowMeans(m))
  })
})

test_that("3-d and 4-d arrays with every choice of dims", {
  set.seed(9)
  a3 <- array(with_specials(rnorm(60), 10), c(3, 4, 5),
              dimnames = list(NULL, c("w", "x", "y", "z"), NULL))
  a4 <- array(with_specials(runif(120, 0.5, 1.5), 11), c(2, 3, 4, 5),
              dimnames = list(c("p", "q"), NULL, LETTERS[1:4], NULL))
  for_threads({
    for (dims in all_dim_sets(3L)) expect_reduces_like_apply(a3, dims)
    for (dims in all_dim_sets(4L)) expect_reduces_like_apply(a4, dims)
  })
  # The order of dims does not matter.
  expect_identical(reduce_dims(a4, "sum", c(3, 1)), reduce_dims(a4, "sum", c(1, 3)))
})

test_that("NA and NaN in one slice, all-NA slices with na.rm, signed zeros", {
  quiet_na <- NA_real_ + 0
  slices <- list(c(NaN, NA, 1), c(NA, NaN, 1), c(NaN, quiet_na, 1), c(Inf, -Inf, NA),
                 c(NA, Inf, -Inf), c(NA, NA, NA), c(NaN, NaN, NaN), c(NA, NaN, NA),
                 c(1e308, 1e308, -1e308), c(-0, -0, -0), c(Inf, 1, 2), c(-Inf, Inf, 1))
  m <- do.call(cbind, slices)
  for_threads({
    expect_reduces_like_apply(m, 1L)
    expect_reduces_like_apply(t(m), 2L)
    for (s in slices) expect_reduces_like_apply(s, 1L)
  })
  expect_warning(r <- reduce_dims(m, "min", na.rm = TRUE), "no non-missing arguments to min")
  expect_identical(r[6:7], c(Inf, Inf))
  expect_warning(r <- reduce_dims(m, "max", na.rm = TRUE), "no non-missing arguments to max")
  expect_identical(r[6:7], c(-Inf, -Inf))
})

test_that("empty core dims: sum 0, mean NaN, prod 1, min Inf and max -Inf with a warning", {
  e <- matrix(numeric(0), 0, 3)
  for_threads({
    expect_identical(reduce_dims(e, "sum"), c(0, 0, 0))
    expect_identical(reduce_dims(e, "mean"), c(NaN, NaN, NaN))
    expect_identical(reduce_dims(e, "prod"), c(1, 1, 1))
    w <- capture_warnings(reduce_dims(e, "min"))
    expect_identical(w$value, c(Inf, Inf, Inf))
    expect_identical(w$warnings, "no non-missing arguments to min; returning Inf")
    w <- capture_warnings(reduce_dims(e, "max", na.rm = TRUE))
    expect_identical(w$value, c(-Inf, -Inf, -Inf))
    expect_identical(w$warnings, "no non-missing arguments to max; returning -Inf")
    expect_identical(reduce_dims(numeric(0), "sum"), 0)
    expect_identical(suppressWarnings(reduce_dims(numeric(0), "min")), Inf)
  })
})

test_that("empty loop dims give empty results of the kept shape", {
  for_threads({
    expect_identical(reduce_dims(matrix(numeric(0), 3, 0), "sum"), numeric(0))
    expect_identical(reduce_dims(matrix(numeric(0), 0, 3), "sum", 2), numeric(0))
    r <- reduce_dims(array(numeric(0), c(2, 0, 4)), "max", 1)
    expect_identical(dim(r), c(0L, 4L))
    expect_identical(r, apply(array(numeric(0), c(2, 0, 4)), 2:3, max))
  })
})

test_that("shape: scalar, named vector, array with dimnames, as apply gives", {
  a <- array(1:24 + 0, c(2, 3, 4), dimnames = list(A = c("a", "b"), B = NULL, C = letters[1:4]))
  expect_identical(reduce_dims(a, "sum", 1:3), sum(a))
  expect_identical(names(reduce_dims(a, "sum", 2:3)), c("a", "b"))
  r <- reduce_dims(a, "sum", 2)
  expect_identical(dim(r), c(2L, 4L))
  expect_identical(dimnames(r), dimnames(a)[c(1, 3)])
  expect_identical(r, apply(a, c(1, 3), sum))
  x <- c(u = 1, v = 2)
  expect_identical(reduce_dims(x, "mean"), 1.5)
})

test_that("integer and logical input is promoted to double", {
  set.seed(3)
  im <- matrix(sample(c(-5:5, NA), 60, replace = TRUE), 6)
  im[, 1] <- .Machine$integer.max
  lm <- matrix(sample(c(TRUE, FALSE, NA), 60, replace = TRUE), 6)
  for_threads({
    for (x in list(im, lm)) {
      expect_reduces_like_apply(x, 1L)
      expect_reduces_like_apply(x, 2L)
      expect_type(reduce_dims(x, "max"), "double")
    }
  })
  expect_identical(reduce_dims(im, "sum"), colSums(im + 0))
})

test_that("large inputs run in several tasks and agree with colSums/rowSums", {
  set.seed(5)
  m <- matrix(rnorm(2e5), 200)
  for_threads({
    expect_identical(reduce_dims(m, "sum"), colSums(m))
    expect_identical(reduce_dims(m, "sum", 2), rowSums(m))
    expect_identical(reduce_dims(m, "mean", 2), apply(m, 1, mean))
    expect_identical(reduce_dims(m, "max"), apply(m, 2, max))
  })
})

test_that("the (n) -> () kernels are registered under base R's names", {
  k <- gufunc_kernels(namespace = "base")
  for (f in c(reductions, paste0(reductions, "_na_rm"))) {
    expect_identical(k$signature[k$name == f], "double(n) -> double()", label = f)
  }
  expect_identical(gufunc_call("sum_na_rm", matrix(c(1, NA, 3, 4), 2)), c(1, 7))
})

test_that("bad arguments give classed errors naming the argument", {
  m <- matrix(1:6 + 0, 2)
  expect_error(reduce_dims("a"), class = "gufunc_type_error", regexp = "`x`")
  expect_error(reduce_dims(factor(1:3)), class = "gufunc_type_error", regexp = "`x`")
  expect_error(reduce_dims(m, "median"), class = "gufunc_argument_error", regexp = "`f`")
  expect_error(reduce_dims(m, c("sum", "max")), class = "gufunc_argument_error", regexp = "`f`")
  expect_error(reduce_dims(m, median), class = "gufunc_argument_error", regexp = "`f`")
  expect_error(reduce_dims(m, "sum", 3), class = "gufunc_argument_error", regexp = "`dims`")
  expect_error(reduce_dims(m, "sum", 0), class = "gufunc_argument_error", regexp = "`dims`")
  expect_error(reduce_dims(m, "sum", c(1, 1)), class = "gufunc_argument_error",
               regexp = "`dims`")
  expect_error(reduce_dims(m, "sum", 1.5), class = "gufunc_argument_error", regexp = "`dims`")
  expect_error(reduce_dims(m, "sum", NA), class = "gufunc_argument_error", regexp = "`dims`")
  expect_error(reduce_dims(m, "sum", "1"), class = "gufunc_argument_error", regexp = "`dims`")
  expect_error(reduce_dims(m, "sum", 2, na.rm = NA), class = "gufunc_argument_error",
               regexp = "`na.rm`")
  expect_error(reduce_dims(m, "sum", 2, na.rm = "yes"), class = "gufunc_argument_error",
               regexp = "`na.rm`")
  expect_error(reduce_dims(m, "sum", 2, na.rm = c(TRUE, FALSE)),
               class = "gufunc_argument_error", regexp = "`na.rm`")
})
