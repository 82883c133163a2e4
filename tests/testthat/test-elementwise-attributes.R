# Attributes and shape rules of element-wise calls against base R: names, dim,
# dimnames and other attributes per family, shape errors and warnings.

outcome_of <- function(name, args) call_outcome(function(...) gufunc_call(name, ...), args)

expect_like_base <- function(name, args, fun = match.fun(name)) {
  expect_identical(outcome_of(name, args), call_outcome(fun, args))
}

test_that("names come from the first operand of the result's length, else the second", {
  x <- c(a = 1, b = 2, c = 3, d = 4)
  y <- c(u = 10L, v = 20L)
  for (op in c(builtin_arithmetic, builtin_comparison, builtin_logic)) {
    expect_like_base(op, list(x, y))
    expect_like_base(op, list(y, x))
    expect_like_base(op, list(y, 1:4))
    expect_like_base(op, list(y[1], 1:4))
  }
})

test_that("a zero-length named operand: arithmetic and the other families differ", {
  z <- structure(numeric(0), names = character(0))
  for (op in c("+", "^", "==", "&")) {
    expect_like_base(op, list(z, 1))
    expect_like_base(op, list(1, z))
  }
})

test_that("dim and dimnames come from the array operand", {
  m <- matrix(1:6, 2, dimnames = list(c("a", "b"), NULL))
  m2 <- matrix(6:1, 2, dimnames = list(NULL, c("x", "y", "z")))
  a1 <- array(1:6, 6, dimnames = list(letters[1:6]))
  for (op in c(builtin_arithmetic, builtin_comparison, builtin_logic)) {
    expect_like_base(op, list(m, m2))
    expect_like_base(op, list(unname(m), m2))
    expect_like_base(op, list(m, 2L))
    expect_like_base(op, list(c(p = 2), m))
    expect_like_base(op, list(m, c(1, 2, 3)))
    expect_like_base(op, list(a1, 1:6))
    expect_like_base(op, list(1:3, a1))
    expect_like_base(op, list(m, numeric(0)))
    expect_like_base(op, list(matrix(numeric(0), 0, 3), 1:3))
  }
})

test_that("arithmetic keeps other attributes of same-length operands, first one winning", {
  x <- structure(1:4, foo = "x", bar = 1)
  y <- structure(c(2.5, NA), foo = "y", baz = TRUE)
  for (op in c(builtin_arithmetic, builtin_comparison, builtin_logic)) {
    expect_like_base(op, list(x, y))
    expect_like_base(op, list(y, x))
    expect_like_base(op, list(x, rev(x)))
    expect_like_base(op, list(x[0], 1))
  }
})

test_that("unary operators and Math functions keep base R's attributes", {
  lg <- structure(c(a = TRUE, b = NA), foo = 1, dim = 2L)
  num <- structure(c(a = -1.5, b = 4), foo = 1)
  int <- structure(matrix(-2:3, 2, dimnames = list(c("r", "s"), NULL)), foo = "i")
  for (arg in list(lg, num, int)) {
    expect_like_base("-", list(arg))
    expect_like_base("+", list(arg))
    expect_like_base("!", list(arg))
    for (fn in builtin_math) expect_like_base(fn, list(arg))
  }
})

test_that("shape errors and warnings are base R's", {
  m <- matrix(1:4, 2)
  for (op in c(builtin_arithmetic, builtin_comparison, builtin_logic)) {
    expect_like_base(op, list(m, matrix(1:4, 1)))
    expect_like_base(op, list(m, 1:5))
    expect_like_base(op, list(m, 1:8))
    expect_like_base(op, list(matrix(1), 1:3))
    expect_like_base(op, list(1:3, matrix(1)))
    expect_like_base(op, list(matrix(5, dimnames = list("a", "b")), numeric(0)))
  }
  expect_error(gufunc_call("+", m, matrix(1:4, 1)), "non-conformable arrays",
               class = "gufunc_shape_error")
  expect_error(gufunc_call("==", m, 1:8), "dims [product 4] do not match the length of object [8]",
               fixed = TRUE)
  expect_warning(gufunc_call("*", matrix(2), c(a = 1, b = 2)),
                 "Recycling array of length 1 in array-vector arithmetic is deprecated")
  expect_warning(gufunc_call("*", 1:2, matrix(2)),
                 "Recycling array of length 1 in vector-array arithmetic is deprecated")
})

test_that("time series attributes follow base R", {
  x <- 1:4
  attr(x, "tsp") <- c(1, 4, 1)
  y <- as.double(1:8)
  attr(y, "tsp") <- c(1, 8, 1)
  for (op in c("+", "==", "&")) {
    expect_like_base(op, list(x, 1:2))
    expect_like_base(op, list(1:2, x))
    expect_like_base(op, list(x, 1:8))
    expect_like_base(op, list(y, x))
    expect_like_base(op, list(x, y))
  }
})

# A random operand: type, length, names, dim, dimnames and extra attributes.
random_operand <- function() {
  len <- sample(c(0, 1, 1, 2, 3, 4, 6, 12), 1)
  v <- switch(sample(c("double", "integer", "logical"), 1),
    double = sample(c(round(rnorm(12), 1), NA, NaN, Inf), len, TRUE),
    integer = sample(c(-5:5, NA), len, TRUE),
    logical = sample(c(TRUE, FALSE, NA), len, TRUE)
  )
  if (runif(1) < 0.3) names(v) <- sample(letters, len, TRUE)
  shape <- runif(1)
  if (shape < 0.2) {
    dim(v) <- len
  } else if (shape < 0.45 && len %% 2 == 0) {
    dim(v) <- c(2, len / 2)
  } else if (shape < 0.55) {
    dim(v) <- c(len, 1)
  }
  if (!is.null(dim(v)) && runif(1) < 0.5) {
    dimnames(v) <- lapply(dim(v), function(d) if (d > 0 && runif(1) < 0.7) paste0("d", seq_len(d)))
  }
  if (runif(1) < 0.3) attr(v, "foo") <- sample(1:3, 1)
  if (runif(1) < 0.15) attr(v, "bar") <- "b"
  v
}

test_that("random operands give base R's values, attributes, warnings and errors", {
  set.seed(24)
  binary <- c(builtin_arithmetic, builtin_comparison, builtin_logic)
  unary <- c("-", "+", "!", builtin_math)
  for_threads({
    bad <- character()
    for (i in seq_len(1500)) {
      op <- sample(binary, 1)
      args <- list(random_operand(), random_operand())
      if (!identical(outcome_of(op, args), call_outcome(op, args))) {
        bad <- c(bad, paste(op, deparse(args), collapse = " "))
      }
    }
    for (i in seq_len(500)) {
      op <- sample(unary, 1)
      args <- list(random_operand())
      if (!identical(outcome_of(op, args), call_outcome(op, args))) {
        bad <- c(bad, paste(op, deparse(args), collapse = " "))
      }
    }
    expect_identical(bad, character())
  })
})

test_that("large arrays keep dims and dimnames on 2 threads", {
  m <- matrix(as.double(seq_len(2e5)), 400, dimnames = list(NULL, paste0("c", 1:500)))
  for_threads({
    expect_identical(gufunc_call("*", m, 0.5), m * 0.5)
    expect_identical(gufunc_call(">", m, rev(m)), m > rev(m))
    expect_warning(r <- gufunc_call("sqrt", -m), "NaNs produced")
    expect_identical(r, suppressWarnings(sqrt(-m)))
  })
})
