# %*%, crossprod() and tcrossprod() masks (R/matrix_products.R): lazy operands are
# computed once, then base R's function multiplies the values, so results are
# base R's bit for bit (BLAS or R's NaN-safe loop alike), with its dims, dimnames
# and errors; plain arguments give exactly base R's results and errors.

set.seed(17)
fill <- function(grid, n) grid[sample.int(length(grid), n, replace = TRUE)]
finite <- matrix(runif(41 * 29, -2, 2), 41)
with_na <- finite
with_na[cbind(c(3, 10, 40), c(1, 7, 29))] <- c(NA, NaN, Inf)
signed_zero <- matrix(rep_len(c(-0, 0), 41 * 29), 41)
ints <- matrix(fill(grid_integer[-c(14, 15, 16)], 41 * 29), 41)
logic <- matrix(fill(grid_logical, 41 * 29), 41)
named <- finite
dimnames(named) <- list(rows = paste0("r", 1:41), cols = paste0("c", 1:29))
second <- matrix(runif(29 * 17), 29, dimnames = list(NULL, paste0("k", 1:17)))
vec29 <- runif(29)
vec41 <- fill(grid_double, 41)

# The value a product gives, plain (a lazy result materialized).
value <- function(x) if (is_lazy(x)) materialize(x) else x

products <- list(
  "%*%" = function(x, y) x %*% y,
  crossprod = function(x, y) crossprod(x, y),
  tcrossprod = function(x, y) tcrossprod(x, y),
  crossprod1 = function(x, y) crossprod(x),
  tcrossprod1 = function(x, y) tcrossprod(x)
)
base_products <- list(
  "%*%" = function(x, y) base::`%*%`(x, y),
  crossprod = function(x, y) base::crossprod(x, y),
  tcrossprod = function(x, y) base::tcrossprod(x, y),
  crossprod1 = function(x, y) base::crossprod(x),
  tcrossprod1 = function(x, y) base::tcrossprod(x)
)

# Operand pairs for each product (conformable ones), over the value grids.
pairs_for <- function(name) {
  left <- list(finite, with_na, signed_zero, ints, logic, named)
  switch(name,
    "%*%" = c(lapply(left, function(x) list(x, second)),
              list(list(finite, vec29), list(vec41, finite), list(vec29, vec29),
                   list(with_na, t(with_na)), list(matrix(0, 0, 29), second),
                   list(finite, matrix(0, 29, 0)), list(vec41, matrix(1:5, 1)))),
    crossprod = c(lapply(left, function(x) list(x, finite)),
                  list(list(finite, vec41), list(vec41, vec41), list(named, with_na))),
    tcrossprod = c(lapply(left, function(x) list(x, t(second))),
                   list(list(named, t(second)), list(vec29, vec29))),
    c(lapply(left, function(x) list(x, NULL)), list(list(vec41, NULL), list(matrix(0, 0, 3), NULL))))
}

test_that("products of lazy operands are base R's bit for bit", {
  for_threads({
    for (name in names(products)) {
      for (p in pairs_for(name)) {
        want <- base_products[[name]](p[[1]], p[[2]])
        lx <- lazy(p[[1]])
        ly <- if (is.null(p[[2]])) NULL else lazy(p[[2]])
        info <- paste(name, paste(dim(p[[1]]), collapse = "x"))
        expect_true(identical_bits(value(products[[name]](lx, ly)), want), info = info)
        expect_true(identical_bits(value(products[[name]](lx, p[[2]])), want), info = info)
        if (!is.null(ly)) {
          expect_true(identical_bits(value(products[[name]](p[[1]], ly)), want), info = info)
        }
      }
    }
  })
})

test_that("deferred and view operands are computed once, fused, without fallbacks", {
  withr::local_options(gufunc.lazy_min_length = 1)
  for_engine_settings({
    lazy_fallbacks(reset = TRUE)
    lf <- lazy(finite)
    ls <- lazy(second)
    expect_true(identical_bits(value((lf * 2 + 1) %*% ls), (finite * 2 + 1) %*% second))
    expect_true(identical_bits(value(t(lf) %*% lf), t(finite) %*% finite))
    expect_true(identical_bits(value(crossprod(lf[-1, ])), crossprod(finite[-1, ])))
    expect_true(identical_bits(value(tcrossprod(rev(lazy(vec29)))), tcrossprod(rev(vec29))))
    expect_length(lazy_fallbacks(), 0L)
  })
  # A large result is lazy (its values), so what follows stays deferred.
  big <- lazy(matrix(runif(300 * 40), 300)) %*% lazy(matrix(runif(40 * 300), 40))
  expect_true(is_lazy(big))
  expect_identical(lazy_state(big * 2), "deferred")
})

test_that("errors are base R's, naming the user's call", {
  x <- matrix(1:6, 2)
  lx <- lazy(x)
  withr::local_options(gufunc.lazy_min_length = 1)
  outcome <- function(expr) tryCatch(expr, error = function(e) list(conditionMessage(e), deparse(conditionCall(e))))
  expect_identical(outcome(lx %*% lx), list("non-conformable arguments", "lx %*% lx"))
  expect_identical(outcome(x %*% x), list("non-conformable arguments", "x %*% x"))
  expect_identical(outcome(crossprod(lx, 1:3)), list("non-conformable arguments", "crossprod(lx, 1:3)"))
  expect_identical(outcome(tcrossprod(x, 1:2)), list("non-conformable arguments", "tcrossprod(x, 1:2)"))
  expect_identical(outcome("a" %*% 1),
                   list("requires numeric/complex matrix/vector arguments", "\"a\" %*% 1"))
  expect_identical(outcome(lx %*% "a"),
                   list("requires numeric/complex matrix/vector arguments", "lx %*% \"a\""))
})

test_that("plain arguments give base R's results on every path", {
  x <- matrix(1:6, 2)
  cases <- list(list(x, t(x)), list(x, 1:3), list(1:2, x), list(1:3, 1:3), list(1:3, 2),
                list(2, 1:3), list(x + 0.5, x[, 1:2]), list(TRUE, FALSE),
                list(matrix(1i, 2, 2), diag(2)), list(x, NULL), list(1:4, NULL))
  same <- function(f, g, a, b) {
    got <- tryCatch(f(a, b), error = conditionMessage)
    want <- tryCatch(g(a, b), error = conditionMessage)
    expect_identical(got, want)
  }
  for (cs in cases) {
    if (!is.null(cs[[2]])) same(function(a, b) a %*% b, base::`%*%`, cs[[1]], cs[[2]])
    same(crossprod, base::crossprod, cs[[1]], cs[[2]])
    same(tcrossprod, base::tcrossprod, cs[[1]], cs[[2]])
  }
  withr::with_options(list(matprod = "internal"), {
    expect_identical(with_na %*% second, base::`%*%`(with_na, second))
    expect_identical(value(lazy(with_na) %*% lazy(second)), base::`%*%`(with_na, second))
  })
})
