# Deferred evaluation against base R as the oracle: random expressions over the
# special values (NA, NaN, Inf, -0, the integer limits, logical NA), identical()
# values and the same warnings, with 1 and 2 threads and blocks of 1, 7 and the
# automatic size.

lazy_leaves <- function(n = 97L) {
  set.seed(20240611)
  pick <- function(grid) grid[sample.int(length(grid), n, replace = TRUE)]
  list(d1 = pick(grid_double), d2 = pick(grid_double), i1 = pick(grid_integer),
       i2 = pick(grid_integer), l1 = pick(grid_logical))
}

# A random expression over the leaves and scalars, `depth` operations deep.
random_expression <- function(depth) {
  leaf_names <- c("d1", "d2", "i1", "i2", "l1")
  scalars <- list(2, -0.5, 3L, NA, NA_integer_, 0, TRUE, .Machine$integer.max, -Inf)
  if (depth == 0L) return(as.name(sample(leaf_names, 1L)))
  operand <- function() {
    if (runif(1) >= 0.2) return(random_expression(depth - 1L))
    scalars[[sample.int(length(scalars), 1L)]]
  }
  kind <- sample(c("binary", "binary", "binary", "unary", "math"), 1L)
  switch(kind,
    binary = {
      op <- sample(c(builtin_arithmetic, builtin_comparison, builtin_logic), 1L)
      args <- list(random_expression(depth - 1L), operand())
      if (runif(1) < 0.5) args <- rev(args)
      as.call(c(as.name(op), args))
    },
    unary = as.call(list(as.name(sample(c("-", "+", "!"), 1L)), random_expression(depth - 1L))),
    math = as.call(list(as.name(sample(builtin_math, 1L)), random_expression(depth - 1L)))
  )
}

test_that("random expressions over special values are identical() to base R", {
  leaves <- lazy_leaves()
  lazy_env <- list2env(lapply(leaves, lazy))
  set.seed(7)
  expressions <- c(lapply(rep(1:4, each = 15L), random_expression),
                   list(quote(d1 * d1 + d2), quote(sqrt(d1 * d1 + d2 * d2)),
                        quote(exp(-d1 * d1 / 2) * sin(d2) + i1), quote(i1 * i2 + i1 %/% i2),
                        quote(!(l1 & (d1 > i1)) | is1), quote((d1 + d1) * (d1 + d1))))
  for_engine_settings({
    for (e in expressions) {
      base_env <- list2env(c(leaves, list(is1 = TRUE)))
      lazy_env$is1 <- TRUE
      expected <- base_outcome(eval(e, base_env))
      got <- lazy_outcome(eval(e, lazy_env))
      expect_identical(got, expected, label = deparse1(e))
    }
  })
})

test_that("every builtin over every pair of grid values is identical() to base R", {
  for_engine_settings({
    for (tx in names(value_grid)) {
      for (ty in names(value_grid)) {
        p <- grid_pairs(value_grid[[tx]], value_grid[[ty]])
        for (op in c(builtin_arithmetic, builtin_comparison, builtin_logic)) {
          f <- match.fun(op)
          expect_identical(lazy_outcome(f(lazy(p$x), p$y)), base_outcome(f(p$x, p$y)),
                           label = paste(tx, op, ty))
          expect_identical(lazy_outcome(f(p$x[1], lazy(p$y))), base_outcome(f(p$x[1], p$y)),
                           label = paste(tx, "scalar", op, ty))
        }
      }
      x <- value_grid[[tx]]
      for (fn in c(builtin_math, "-", "+", "!")) {
        f <- match.fun(fn)
        expect_identical(lazy_outcome(f(lazy(x))), base_outcome(f(x)),
                         label = paste(fn, tx))
      }
    }
  })
})

test_that("a value used twice in one graph is computed once per block, correctly", {
  d <- lazy_leaves(1000L)$d1
  for_engine_settings({
    a <- lazy(d)
    t <- a * 2 + 1
    expect_identical(materialize(t * t - t / (t + 1)), {
      tb <- d * 2 + 1
      tb * tb - tb / (tb + 1)
    })
  })
})

test_that("a plain scalar first operand of + and * keeps base R's NaN order", {
  old <- options(gufunc.lazy_min_length = 10)
  on.exit(options(old))
  y <- rep(c(NaN, NA, 1), 10)
  l <- lazy(y)
  for (x in list(NA_real_, NaN, NA, NA_integer_, 2)) {
    expect_identical(materialize(x + l), x + y)
    expect_identical(materialize(x * l), x * y)
    expect_identical(materialize(l + x), y + x)
  }
})
