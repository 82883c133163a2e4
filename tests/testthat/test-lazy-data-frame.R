# Lazy values in data frames, base R generics with matrix methods, S4 code.

# The data frame with every lazy column replaced by its plain values.
plain_columns <- function(d) {
  d[] <- lapply(d, function(col) if (inherits(col, "gufunc_lazy")) materialize(col) else col)
  d
}

set.seed(11)
v <- runif(3000)
w <- rnorm(3000)
d0 <- data.frame(a = v, b = w * 2)

test_that("a lazy vector is a data frame column, still lazy", {
  d1 <- data.frame(a = lazy(v), b = lazy(w) * 2)
  expect_true(is_lazy(d1$a))
  expect_equal(lazy_state(d1$b), "deferred")
  expect_identical(plain_columns(d1), d0)
  expect_identical(plain_columns(as.data.frame(lazy(v))), as.data.frame(v, nm = "lazy(v)"))
  expect_identical(names(as.data.frame(lazy(v), nm = "z")), "z")
  expect_identical(plain_columns(cbind(d1, z = lazy(v))), cbind(d0, z = v))
})

test_that("base R's data frame functions give base R's results on lazy columns", {
  d1 <- data.frame(a = lazy(v), b = lazy(w) * 2)
  expect_identical(plain_columns(transform(d1, c = a + b)), transform(d0, c = a + b))
  expect_identical(plain_columns(rbind(d1, d1)), rbind(d0, d0))
  expect_identical(plain_columns(d1[d1$a > 0.5, ]), d0[d0$a > 0.5, ])
  expect_identical(plain_columns(d1[order(d1$a), ]), d0[order(d0$a), ])
  expect_identical(plain_columns(merge(d1, d1[1:10, ])), merge(d0, d0[1:10, ]))
  expect_identical(aggregate(b ~ I(a > 0.5), d1, mean), aggregate(b ~ I(a > 0.5), d0, mean))
  expect_identical(capture.output(print(head(d1))), capture.output(print(head(d0))))
  expect_identical(capture.output(summary(d1)), capture.output(summary(d0)))
  expect_identical(capture.output(str(plain_columns(d1))), capture.output(str(d0)))
})

test_that("a lazy matrix becomes base R's columns (View() goes this way)", {
  m <- matrix(v, 300, dimnames = list(NULL, letters[1:10]))
  expect_identical(as.data.frame(lazy(m)), as.data.frame(m))
  expect_identical(as.data.frame(lazy(m) * 2), as.data.frame(m * 2))
  expect_identical(data.frame(m = lazy(m)), data.frame(m = m))
  expect_identical(as.data.frame(lazy(array(v, c(10, 30, 10)))), as.data.frame(array(v, c(10, 30, 10))))
  expect_identical(as.data.frame(lazy(m), row.names = paste0("r", 1:300)),
                   as.data.frame(m, row.names = paste0("r", 1:300)))
})

test_that("generics with matrix methods dispatch as on the base R matrix", {
  m <- matrix(round(v, 1), 300)
  s <- crossprod(matrix(v[1:16], 4))
  lm <- lazy(m)
  expect_identical(summary(lm), summary(m))
  expect_identical(summary(lazy(v) + 0), summary(v))
  expect_identical(unique(lm), unique(m))
  expect_identical(unique(lm, MARGIN = 2), unique(m, MARGIN = 2))
  expect_identical(duplicated(lm), duplicated(m))
  expect_identical(anyDuplicated(lm), anyDuplicated(m))
  expect_identical(unique(lazy(round(v, 2))), unique(round(v, 2)))
  expect_identical(isSymmetric(lazy(s)), isSymmetric(s))
  expect_false(isSymmetric(lazy(m)))
  expect_identical(det(lazy(s)), det(s))
  expect_identical(determinant(lazy(s), logarithm = FALSE), determinant(s, logarithm = FALSE))
  expect_identical(subset(lm, m[, 1] > 0.5, 2:3), subset(m, m[, 1] > 0.5, 2:3))
  expect_identical(as.Date(lazy(as.numeric(1:3000)), origin = "1970-01-01"),
                   as.Date(as.numeric(1:3000), origin = "1970-01-01"))
  expect_identical(as.POSIXct(lazy(v * 1e9), tz = "UTC", origin = "1970-01-01"),
                   as.POSIXct(v * 1e9, tz = "UTC", origin = "1970-01-01"))
  expect_identical(as.raster(lazy(m[1:20, ])), as.raster(m[1:20, ]))
  expect_true(all.equal(lazy(m), m))
  expect_true(all.equal(lazy(m), lazy(m) + 0))
  expect_identical(all.equal(lazy(m), m + 1), all.equal(m, m + 1))
})

test_that("ggplot2 plots lazy columns as their plain values, without messages", {
  skip_if_not_installed("ggplot2")
  d1 <- data.frame(a = lazy(v), b = lazy(w) * 2, c = lazy(v) > 0.5)
  plot_of <- function(d) ggplot2::ggplot(d, ggplot2::aes(a, b, colour = c)) + ggplot2::geom_point()
  expect_silent(built <- ggplot2::ggplot_build(plot_of(d1)))
  expect_identical(built$data[[1]], ggplot2::ggplot_build(plot_of(plain_columns(d1)))$data[[1]])
})

test_that("tibble keeps lazy columns; data.table takes their values", {
  skip_if_not_installed("tibble")
  skip_if_not_installed("data.table")
  t1 <- tibble::tibble(a = lazy(v))
  expect_true(is_lazy(t1$a))
  expect_identical(plain_columns(as.data.frame(t1)), data.frame(a = v))
  dt <- data.table::data.table(a = lazy(v), b = w)
  expect_identical(as.numeric(dt$a), v)
  expect_identical(sum(dt$a > 0.5), sum(v > 0.5))
})

test_that("S4 code sees a lazy matrix as a matrix (Matrix's coercions)", {
  skip_if_not_installed("Matrix")
  m <- matrix(v[1:40], 10)
  lm <- lazy(m)
  expect_identical(methods::as(lm, "CsparseMatrix"), methods::as(m, "CsparseMatrix"))
  expect_identical(methods::as(lm, "dMatrix"), methods::as(m, "dMatrix"))
  expect_identical(Matrix::Matrix(lm), Matrix::Matrix(m))
  expect_identical(Matrix::Matrix(lazy(v)), Matrix::Matrix(v))
  suppressWarnings(suppressMessages(
    expect_identical(methods::as(lm, "dgeMatrix"), methods::as(m, "dgeMatrix"))
  ))
})

test_that("S4 methods get base vectors from as.vector() of a lazy value", {
  # Matrix's coercion from "ANY" is as(as.vector(from), Class): a lazy result
  # called the same method again until R stopped the recursion.
  skip_if_not_installed("Matrix")
  s <- ifelse(v < 0.5, 0, v)
  expect_identical(methods::as(lazy(s), "sparseVector"), methods::as(s, "sparseVector"))
  methods::setGeneric("gufunc_test_vector", function(x) standardGeneric("gufunc_test_vector"),
                      where = globalenv())
  withr::defer(methods::removeGeneric("gufunc_test_vector", where = globalenv()))
  methods::setMethod("gufunc_test_vector", "ANY", function(x) as.vector(x), where = globalenv())
  out <- gufunc_test_vector(lazy(s))
  expect_false(is_lazy(out))
  expect_identical(out, s)
  methods::setMethod("gufunc_test_vector", "ANY", function(x) as.numeric(x), where = globalenv())
  out <- gufunc_test_vector(lazy(s))
  expect_false(is_lazy(out))
  expect_identical(out, s)
  # Elsewhere as.vector() still keeps the value lazy.
  expect_true(is_lazy(as.vector(lazy(s))))
})
