# Attributes of lazy results are base R's (names, dim, dimnames, others), known
# without computing; base R's shape errors and warnings happen at creation.

expect_lazy_like_base <- function(op, x, y) {
  f <- match.fun(op)
  with_options(list(gufunc.lazy_min_length = 0), {
    expected <- base_outcome(f(x, y))
    expect_identical(lazy_outcome(f(lazy(x), y)), expected, label = paste("lazy x", op))
    expect_identical(lazy_outcome(f(x, lazy(y))), expected, label = paste(op, "lazy y"))
    expect_identical(lazy_outcome(f(lazy(x), lazy(y))), expected, label = paste("lazy", op))
  })
}

test_that("names, dim and dimnames of binary operations are base R's", {
  x <- c(a = 1, b = 2, c = 3, d = 4)
  m <- matrix(1:6, 2, dimnames = list(c("a", "b"), NULL))
  m2 <- matrix(6:1, 2, dimnames = list(NULL, c("x", "y", "z")))
  a1 <- array(1:6, 6, dimnames = list(letters[1:6]))
  for (op in c(builtin_arithmetic, builtin_comparison, builtin_logic)) {
    expect_lazy_like_base(op, x, 4:1)
    expect_lazy_like_base(op, 4:1, x)
    expect_lazy_like_base(op, x, 2L)
    expect_lazy_like_base(op, c(z = 2), x)
    expect_lazy_like_base(op, m, m2)
    expect_lazy_like_base(op, unname(m), m2)
    expect_lazy_like_base(op, m, 2L)
    expect_lazy_like_base(op, a1, 1:6)
    expect_lazy_like_base(op, 6:1, a1)
  }
})

test_that("other attributes of same-length operands are kept as base R keeps them", {
  x <- structure(1:4, foo = "x", bar = 1)
  y <- structure(c(2.5, NA, 1, 0), foo = "y", baz = TRUE)
  for (op in c(builtin_arithmetic, builtin_comparison, builtin_logic)) {
    expect_lazy_like_base(op, x, y)
    expect_lazy_like_base(op, y, x)
    expect_lazy_like_base(op, x, 3)
  }
})

test_that("unary operators and math functions keep base R's attributes", {
  lg <- structure(c(a = TRUE, b = NA), foo = 1, dim = 2L)
  num <- structure(c(a = -1.5, b = 4), foo = 1)
  int <- structure(matrix(-2:3, 2, dimnames = list(c("r", "s"), NULL)), foo = "i")
  with_options(list(gufunc.lazy_min_length = 0), {
    for (arg in list(lg, num, int)) {
      for (fn in c("-", "+", "!", builtin_math)) {
        f <- match.fun(fn)
        expect_identical(lazy_outcome(f(lazy(arg))), base_outcome(f(arg)), label = fn)
      }
    }
  })
})

test_that("attributes are known before anything is computed", {
  m <- matrix(runif(6000), 3000, dimnames = list(NULL, c("u", "v")))
  z <- sqrt(lazy(m) * 2) > 0.5
  expect_identical(dim(z), c(3000L, 2L))
  expect_identical(dimnames(z), list(NULL, c("u", "v")))
  expect_identical(typeof(z), "logical")
  expect_s3_class(z, "gufunc_lazy")
  expect_false(is_materialized(z))
  expect_identical(materialize(z), sqrt(m * 2) > 0.5)
})

test_that("shape errors and warnings are raised at creation, as base R raises them", {
  m <- matrix(runif(4000), 2000)
  expect_error(lazy(m) + matrix(1, 1, 4000), "non-conformable arrays")
  expect_error(lazy(m) == matrix(1, 1, 4000), "non-conformable arrays")
  for (op in c("+", "*", "==")) {
    expect_lazy_like_base(op, matrix(1:4, 2), matrix(1:4, 1))
    expect_lazy_like_base(op, matrix(2), 1:3)
    expect_lazy_like_base(op, 1:3, matrix(2))
  }
  expect_warning(z <- lazy(runif(3000)) + matrix(2), "Recycling array of length 1")
  expect_false(is_materialized(z))
})

test_that("dim<-, dimnames<- and names<- keep a lazy value deferred", {
  a <- runif(6000)
  z <- lazy(a) * 2
  dim(z) <- c(2000, 3)
  dimnames(z) <- list(NULL, c("a", "b", "c"))
  expect_true(is_lazy(z))
  expect_false(is_materialized(z))
  ref <- a * 2
  dim(ref) <- c(2000, 3)
  dimnames(ref) <- list(NULL, c("a", "b", "c"))
  expect_identical(materialize(z + 1), ref + 1)
  expect_identical(materialize(z), ref)
  v <- lazy(a) + 1
  names(v) <- paste0("n", seq_along(a))
  expect_false(is_materialized(v))
  expect_identical(materialize(v), stats::setNames(a + 1, paste0("n", seq_along(a))))
  expect_error(dim(v) <- c(7, 7), "dims \\[product 49\\] do not match the length of object")
  dim(v) <- NULL
  expect_identical(materialize(v), a + 1)
  # Other attribute changes put R's own wrapper around the lazy vector: still
  # deferred, and an operand like any lazy value.
  w <- lazy(a) - 1
  attr(w, "note") <- "x"
  w2 <- w * 2
  expect_true(is_lazy(w2))
  expect_false(is_materialized(w))
  expect_false(is_materialized(w2))
  expect_identical(materialize(w2), structure((a - 1) * 2, note = "x"))
  expect_identical(sum(w), sum(a - 1))
  expect_identical(w[1:3], a[1:3] - 1)
  expect_false(is_materialized(w))
  expect_identical(materialize(w), structure(a - 1, note = "x"))
  expect_true(is_materialized(w))
})
