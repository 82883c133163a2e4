# Differential tests of base R's array functions (apply and its family, outer,
# sweep, scale, aperm, t, rev, diff, the cumulative functions, rowsum, margins,
# index helpers, diag, reshaping, splitting and grouping) on lazy operands against
# the same calls on plain ones. Values and operations come from R's own tests and
# examples (wch/r-source src/library/base/man/apply.Rd, sweep.Rd, outer.Rd; tests/
# reg-tests-1a.R's aperm checks, reg-tests-1c.R's mapply and split recycling,
# reg-tests-1d.R's outer() with Vectorize(identical)), from R's documented
# behaviour of each function (warnings and errors included), and from the array
# shapes of Bioconductor's DelayedArray unit tests (inst/unitTests/
# test_ArrayGrid-class.R, test_ConstantArray-class.R,
# test_DelayedUnaryIsoOpWithArgs-class.R) not already used by
# test-differential-delayedarray.R. Each case runs `fun` on plain operands with
# base R's versions of the names gufunc masks (the oracle); on plain operands with
# the masks; with every non-empty set of its operands lazy; with all of them
# deferred (an element-wise expression equal to the operand); with all of them
# views (a subset of a larger lazy array); and with all of them views in another
# order (rev() or a rotating aperm() of a lazy value). Value (lazy values
# materialized deep inside lists and attributes), sorted distinct warnings and
# the error message must be identical, bit for bit.

# Each grid's expect_no_mismatches() asks for the number of runs it makes (a run
# is one path of one case), so a grid that loses cases fails.

# Every lazy value inside lists and attributes materialized (a value that is plain
# data but still carries the lazy class is left as it is, so that it shows).
deep <- function(v) {
  if (is_lazy(v)) v <- materialize(v)
  if (is.list(v) && length(v)) v[] <- lapply(v, deep)
  for (a in setdiff(names(attributes(v)), c("names", "class"))) {
    if (is_lazy(attr(v, a)) || is.list(attr(v, a))) attr(v, a) <- deep(attr(v, a))
  }
  v
}

is_operand <- function(a) {
  typeof(a) %in% c("double", "integer", "logical") && !is.object(a)
}

# An element-wise expression of lazy(x) with x's type, values and attributes (its
# NA of doubles quieted, as base R's x * 1 gives it: such a run's oracle is base
# R's call on the deferred values).
deferred <- function(x) {
  l <- lazy(x)
  switch(typeof(x), double = l * 1, integer = l + 0L, logical = !!l)
}

# x as a view: the leading part (all but the last row) of a larger lazy array.
as_view <- function(x) {
  d <- dim(x)
  pad <- vector(typeof(x), 1L)[NA]
  if (is.null(d)) {
    big <- c(x, pad)
    return(lazy(big)[seq_along(x)])
  }
  big <- array(pad, c(d[1] + 1L, d[-1]))
  idx <- c(list(seq_len(d[1])), lapply(d[-1], seq_len))
  big <- do.call(`[<-`, c(list(big), idx, list(value = x)))
  dn <- dimnames(x)
  if (!is.null(dn)) {
    if (!is.null(dn[[1]])) dn[[1]] <- c(dn[[1]], "pad")
    dimnames(big) <- dn
  }
  do.call(`[`, c(list(lazy(big)), idx, list(drop = FALSE)))
}

# x as a view in another order: rev() of a reversed lazy vector, aperm() (a
# rotation, c(2, ..., k, 1)) of a lazy array rotated the other way.
as_rotated <- function(x) {
  k <- length(dim(x))
  if (k == 0L) return(rev(lazy(rev(x))))
  if (k == 1L) return(lazy(x))
  aperm(lazy(aperm(x, c(k, seq_len(k - 1L)))), c(2:k, 1L))
}

# add(label, fun, args): one case. `args` is the list of arguments of `fun`; its
# double, integer and logical elements without a class are the operands.
array_cases <- function(source) {
  book <- case_log(source)
  book$add <- function(label, fun, args, min_length = 0) {
    ops <- which(vapply(args, is_operand, NA))
    outcome <- function(f, a) differential_outcome(function() deep(do.call(f, a)))
    with_options(list(gufunc.lazy_min_length = min_length), {
      base <- outcome(with_base_masks(fun), args)
      subsets <- unlist(lapply(seq_along(ops), function(k) {
        combn(length(ops), k, simplify = FALSE)
      }), recursive = FALSE)
      runs <- list(masks = args)
      oracle <- list()
      for (s in subsets) {
        a <- args
        a[ops[s]] <- lapply(args[ops[s]], lazy)
        runs[[sprintf("lazy(%s)", toString(ops[s]))]] <- a
      }
      if (length(ops)) {
        a <- args
        a[ops] <- lapply(args[ops], deferred)
        runs[["deferred"]] <- a
        oracle[["deferred"]] <- outcome(with_base_masks(fun), lapply(a, materialize))
        a <- args
        a[ops] <- lapply(args[ops], as_view)
        runs[["views"]] <- a
        a <- args
        a[ops] <- lapply(args[ops], as_rotated)
        runs[["rotated views"]] <- a
      }
      for (r in names(runs)) {
        got <- outcome(fun, runs[[r]])
        want <- if (is.null(oracle[[r]])) base else oracle[[r]]
        book$note(label, path = r, if (!identical(got, want, num.eq = FALSE, single.NA = FALSE)) {
          sprintf("base %s | got %s", describe_outcome(want, 140), describe_outcome(got, 140))
        })
      }
    })
    invisible()
  }
  book
}

test_that("the case collector reports a path that differs from base R's", {
  cases <- array_cases("self-check")
  cases$add("class(x)", function(x) class(x), list(matrix(1:4, 2)))
  cases$add("is_lazy(x)", function(x) is_lazy(x), list(1:3))
  expect_length(cases$mismatches(), 2 * 4)
  expect_match(cases$mismatches(), "\\] (lazy\\(1\\)|deferred|views|rotated views):")
})

# Quick self-check of the operand builders: equal to the operand, and lazy.
test_that("deferred() and as_view() give lazy values equal to the operand", {
  withr::local_options(gufunc.lazy_min_length = 0)
  xs <- list(c(a = 1.5, b = NA, c = -0), 1:6, c(TRUE, NA, FALSE),
             array(1:24, 2:4, dimnames = list(c("a", "b"), NULL, LETTERS[1:4])),
             array(c(1, NaN), c(2, 0, 3)), array(1:3, 3, dimnames = list(c("x", "y", "z"))))
  for (x in xs) {
    for (v in list(deferred(x), as_view(x), as_rotated(x))) {
      if (length(x)) expect_true(is_lazy(v))
      expect_identical(materialize(v), x)
    }
  }
})

# The examples' matrix of apply.Rd (rebuilt): two columns, named rows, then named
# dimnames and a third dimension of three copies.
apply_x <- function() {
  x <- cbind(x1 = 3, x2 = c(4:1, 2:5))
  dimnames(x)[[1]] <- letters[1:8]
  x
}
apply_x3 <- function() {
  x <- apply_x()
  names(dimnames(x)) <- c("row", "col")
  array(x, c(dim(x), 3), dimnames = c(dimnames(x), list(C = paste0("cop.", 1:3))))
}

test_that("apply.Rd and reg-tests: apply() over margins given as numbers and names", {
  cases <- array_cases("r-source apply.Rd examples; apply(simplify = FALSE) of R 4.1")
  x <- apply_x()
  x3 <- apply_x3()
  xn <- x3[, , 1]
  cases$add("apply(x, 2, mean, trim = .2)", function(x) apply(x, 2, mean, trim = .2), list(x))
  cases$add("apply(x, 2, sum)", function(x) apply(x, 2, sum), list(x))
  cases$add("apply(x, 1, sum)", function(x) apply(x, 1, sum), list(x))
  cases$add("apply(x, 2, sort)", function(x) apply(x, 2, sort), list(x))
  cases$add("apply(x, 2, is.vector)", function(x) apply(x, 2, is.vector), list(x))
  cases$add("apply(xn, 2, identity)", function(x) apply(x, 2, identity), list(xn))
  cases$add("apply(x3, 2:3, identity)", function(x) apply(x, 2:3, identity), list(x3))
  cases$add("apply(x3, 2:1, identity)", function(x) apply(x, 2:1, identity), list(x3))
  cases$add("apply(xn, 2, format)", function(x) apply(x, 2, format), list(xn))
  cave <- function(x, c1, c2) c(mean(x[c1]), mean(x[c2]))
  cases$add("apply(x, 1, cave, c1, c2)",
            function(x) apply(x, 1, cave, c1 = "x1", c2 = c("x1", "x2")), list(x))
  ma <- matrix(c(1:4, 1, 6:8), nrow = 2)
  cases$add("apply(ma, 1, table)", function(x) apply(x, 1, table), list(ma))
  cases$add("apply(ma, 1, quantile)", function(x) apply(x, 1, stats::quantile), list(ma))
  cases$add("apply(ma, 1:2, sum)", function(x) apply(x, 1:2, sum), list(ma))
  z <- array(1:24, dim = 2:4)
  cases$add("apply(z, 1:2, seq_len(max))", function(x) apply(x, 1:2, function(v) seq_len(max(v))),
            list(z))
  cases$add("apply(z, 3, seq_len(max))", function(x) apply(x, 3, function(v) seq_len(max(v))),
            list(z))
  # MARGIN as names of the dimnames; simplify = FALSE (R >= 4.1.0, reg-tests-1d.R).
  for (mg in list("col", c("C", "row"), c("row", "col", "C"), "C")) {
    cases$add(sprintf("apply(x3, %s, sum)", deparse(mg)), function(x) apply(x, mg, sum), list(x3))
    cases$add(sprintf("apply(x3, %s, range)", deparse(mg)), function(x) apply(x, mg, range), list(x3))
  }
  cases$add("apply(x3, 'zz', sum) (no such name)", function(x) apply(x, "zz", sum), list(x3))
  cases$add("apply(z, 4, sum) (no such margin)", function(x) apply(x, 4, sum), list(z))
  for (mg in list(1, 2:3, c(3, 1))) for (f in c("sum", "range", "identity")) {
    cases$add(sprintf("apply(z, %s, %s, simplify = FALSE)", deparse(mg), f),
              function(x) apply(x, mg, match.fun(f), simplify = FALSE), list(z))
    cases$add(sprintf("apply(x3, %s, %s, simplify = FALSE)", deparse(mg), f),
              function(x) apply(x, mg, match.fun(f), simplify = FALSE), list(x3))
  }
  # Functions returning NULL, matrices, zero-length vectors; zero extents.
  cases$add("apply(z, 1, NULL)", function(x) apply(x, 1, function(v) NULL), list(z))
  cases$add("apply(z, 3, matrix)", function(x) apply(x, 3, function(m) t(m) * 2L), list(z))
  cases$add("apply(z, 2, numeric(0))", function(x) apply(x, 2, function(v) v[0]), list(z))
  cases$add("apply(z[, 0, ], 3, sum)", function(x) apply(x, 3, sum), list(z[, 0, , drop = FALSE]))
  cases$add("apply(z[, 0, ], 2, sum)", function(x) apply(x, 2, sum), list(z[, 0, , drop = FALSE]))
  cases$add("apply(x, 1, function(r) r > 3)", function(x) apply(x, 1, function(r) r > 3), list(x))
  cases$add("apply(lgl, 2, any)", function(x) apply(x, 2, any), list(x3 > 3))
  # Shapes of DelayedArray's test_ArrayGrid-class.R: a 3 x 10 x 2 x 5 array and
  # a matrix cut out of it.
  a1 <- array(1:300, c(3, 10, 2, 5))
  m1 <- a1[2, c(9, 3:7), 2, -4]
  for (mg in list(1, 4, c(2, 4), c(4, 1, 3))) {
    cases$add(sprintf("apply(a1, %s, sum)", deparse(mg)), function(x) apply(x, mg, sum), list(a1))
    cases$add(sprintf("apply(a1, %s, cumsum)", deparse(mg)), function(x) apply(x, mg, cumsum),
              list(a1))
  }
  cases$add("apply(m1, 1, rev)", function(x) apply(x, 1, rev), list(m1))
  cases$add("apply(t(m1), 2, diff)", function(x) apply(t(x), 2, diff), list(m1))
  expect_no_mismatches(cases, 300)
})

test_that("sapply(), vapply(), lapply(), mapply() and Reduce() over lazy vectors", {
  cases <- array_cases("r-source reg-tests-1c.R (mapply, split recycling); lapply, mapply, Reduce behaviour")
  x <- c(a = 1, b = NA, c = -0, d = Inf, e = 2.5)
  i <- c(5L, NA, -3L, .Machine$integer.max)
  cases$add("sapply(x, function(v) v * 2)", function(x) sapply(x, function(v) v * 2), list(x))
  cases$add("sapply(x, range)", function(x) sapply(x, range), list(x))
  cases$add("sapply(i, seq_len) (error)", function(x) sapply(x, seq_len), list(i))
  cases$add("sapply(x, identity, simplify = 'array')",
            function(x) sapply(x, function(v) matrix(v, 2, 2), simplify = "array"), list(x))
  cases$add("sapply(i, function(v) v + 1L) (overflow)", function(x) sapply(x, function(v) v + 1L),
            list(i))
  cases$add("vapply(x, function(v) c(v, v^2), numeric(2))",
            function(x) vapply(x, function(v) c(min = v, sq = v^2), numeric(2)), list(x))
  cases$add("vapply(i, identity, numeric(1)) (type error)",
            function(x) vapply(x, identity, numeric(1)), list(i))
  cases$add("vapply(i, identity, integer(1))", function(x) vapply(x, identity, integer(1)), list(i))
  cases$add("vapply(x, is.na, NA, USE.NAMES = FALSE)",
            function(x) vapply(x, is.na, NA, USE.NAMES = FALSE), list(x))
  cases$add("lapply(x, function(v) v:3) (NA error)", function(x) lapply(x, function(v) v:3), list(x))
  cases$add("lapply(x[-2], function(v) v:3)", function(x) lapply(x, function(v) v:3), list(x[-2]))
  cases$add("lapply(i, is.na)", function(x) lapply(x, is.na), list(i))
  cases$add("lapply(split(x, ...), sum)", function(x) lapply(split(x, c(1, 2, 1, 2, 1)), sum),
            list(x))
  cases$add("mapply(rep, 1:4, 4:1)", function(x, y) mapply(rep, x, y), list(1:4, 4:1))
  cases$add("mapply(rep, times = 1:4, x = 4:1)", function(x, y) mapply(rep, times = x, x = y),
            list(1:4, 4:1))
  cases$add("mapply(rep, times = 1:4, MoreArgs = list(x = 42))",
            function(x) mapply(rep, times = x, MoreArgs = list(x = 42)), list(1:4))
  cases$add("mapply(function(x, y) seq_len(x) + y, named)",
            function(x, y) mapply(function(x, y) seq_len(x) + y, x, y),
            list(c(a = 1, b = 2, c = 3), c(A = 10, B = 0, C = -10)))
  cases$add("mapply(`+`, x, 1:2) (recycled)", function(x, y) mapply(`+`, x, y), list(x, 1:2))
  cases$add("mapply(`*`, x, numeric(0)) (zero-length)", function(x, y) mapply(`*`, x, y),
            list(x, numeric(0)))
  cases$add("Reduce(`+`, 1:7, accumulate = TRUE)", function(x) Reduce(`+`, x, accumulate = TRUE),
            list(1:7))
  cases$add("Reduce(`+`, i, accumulate = TRUE) (overflow)",
            function(x) Reduce(`+`, x, accumulate = TRUE), list(i[c(1, 3, 4, 1)]))
  cases$add("Reduce(right, accumulate, init)", function(x, init) {
    Reduce(function(a, b) a * 10 + b, x, init, right = TRUE, accumulate = TRUE)
  }, list(c(1, 2, 3, NaN), 0.5))
  cases$add("Reduce(`%*%`, list of matrices)", function(a, b, c) Reduce(`%*%`, list(a, b, c)),
            list(matrix(1:6, 2), matrix(c(0.5, -1, 2), 3), matrix(1:4, 1)))
  cases$add("Reduce(function(a, b) paste(a, b), x, accumulate = TRUE)",
            function(x) Reduce(function(a, b) paste(a, b), x, accumulate = TRUE), list(x))
  cases$add("Filter(function(v) v > 1, x)", function(x) Filter(function(v) !is.na(v) && v > 1, x),
            list(x))
  cases$add("Map(`+`, x, 1)", function(x) Map(`+`, x, 1), list(x))
  cases$add("Position(is.na, x)", function(x) Position(is.na, x), list(x))
  expect_no_mismatches(cases, 153)
})

test_that("outer.Rd and reg-tests: outer() and %o% with names, FUN strings and functions", {
  cases <- array_cases("r-source outer.Rd examples, reg-tests-1d.R (outer with Vectorize(identical))")
  x <- 1:9
  names(x) <- x
  y <- 2:8
  names(y) <- paste(y, ":", sep = "")
  cases$add("x %o% x", function(x) x %o% x, list(x))
  cases$add("outer(y, x, '^')", function(x, y) outer(y, x, "^"), list(x, y))
  cases$add("outer(month.abb, 1999:2003, 'paste')",
            function(y) outer(month.abb, y, FUN = "paste"), list(1999:2003))
  cases$add("x %o% x %o% y[1:3]", function(x, y) x %o% x %o% y, list(x, y[1:3]))
  # Signed zeros, NA, NaN and infinities: base R's "*" is 0 + x * y (a -0 product
  # is +0); other FUN give the plain products.
  s <- c(-1, 0, -0, NA, NaN, Inf, -Inf, 2.5)
  ints <- c(1L, NA, -2L, .Machine$integer.max)
  for (f in list("*", `*`, "+", "-", "/", "%%", function(x, y) x * y)) {
    lab <- if (is.character(f)) f else deparse(f)[1]
    cases$add(sprintf("outer(s, s, %s)", lab), function(x, y) outer(x, y, f), list(s, s))
    cases$add(sprintf("outer(ints, ints, %s)", lab), function(x, y) outer(x, y, f), list(ints, ints))
    cases$add(sprintf("outer(lgl, s, %s)", lab), function(x, y) outer(x, y, f),
              list(c(TRUE, NA, FALSE), s))
  }
  # Arrays with dimnames on both sides, some names NULL; a zero extent.
  mx <- matrix(1:6, 2, dimnames = list(c("a", "b"), NULL))
  ay <- array(c(0.5, -0, NA, 4), c(2, 1, 2), dimnames = list(NULL, "one", c("p", "q")))
  cases$add("mx %o% ay", function(x, y) x %o% y, list(mx, ay))
  cases$add("outer(ay, mx, '-')", function(x, y) outer(x, y, "-"), list(ay, mx))
  cases$add("outer(mx, y) (named vector)", function(x, y) outer(x, y), list(mx, y[1:2]))
  cases$add("outer(numeric(0), y)", function(x, y) outer(x, y), list(numeric(0), y))
  cases$add("outer(matrix(0, 0, 2), 1:3, '+')", function(x, y) outer(x, y, "+"),
            list(matrix(0, 0, 2), 1:3))
  cases$add("outer(x, y, pmax)", function(x, y) outer(x, y, pmax), list(x, y))
  cases$add("outer(x, y, FUN, extra arg)", function(x, y) outer(x, y, function(a, b, k) a * k + b, k = 3L),
            list(x, y))
  # FUN must be vectorised: a scalar result is an error.
  cases$add("outer(1:3, 1:2, function(x, y) 1) (error)",
            function(x, y) outer(x, y, function(x, y) 1), list(1:3, 1:2))
  cases$add("outer(x, y, function(x, y) sum(x)) (error)",
            function(x, y) outer(x, y, function(x, y) sum(x * y)), list(x, y))
  cases$add("outer(x, y, '*', extra) (error)", function(x, y) outer(x, y, "*", 2), list(x, y))
  cases$add("outer(x, y, 'paste') (character)", function(x, y) outer(x, y, "paste"), list(x, y))
  # reg-tests-1d.R: outer() with Vectorize(identical) on NaN kinds.
  v <- c(0, 1, NA, NaN, -Inf, Inf)
  cases$add("outer(v, v, Vectorize(identical))",
            function(x, y) outer(x, y, Vectorize(identical, c("x", "y"))), list(v, v))
  expect_no_mismatches(cases, 255)
})

test_that("sweep.Rd and reg-tests: sweep() with STATS and check.margin warnings", {
  cases <- array_cases("r-source sweep.Rd example (attitude); sweep check.margin behaviour")
  att <- data.matrix(datasets::attitude)
  med <- apply(att, 2, median)
  cases$add("sweep(att, 2, med)", function(x, s) sweep(x, 2, s), list(att, med))
  cases$add("sweep(att, 2, med, '/')", function(x, s) sweep(x, 2, s, "/"), list(att, med))
  cases$add("sweep(att, 1, rowMeans(att))", function(x) sweep(x, 1, rowMeans(x)), list(att))
  A <- array(1:24, 2:4)
  cases$add("sweep(A, 1, 5)", function(x, s) sweep(x, 1, s), list(A, 5))
  cases$add("sweep(A, 2, 1:3)", function(x, s) sweep(x, 2, s), list(A, 1:3))
  cases$add("sweep(A, 2, 1:2) (warns)", function(x, s) sweep(x, 2, s), list(A, 1:2))
  cases$add("sweep(A, 2, 1:6) (warns)", function(x, s) sweep(x, 2, s), list(A, 1:6))
  cases$add("sweep(A, 2, 1:2, check.margin = FALSE)",
            function(x, s) sweep(x, 2, s, check.margin = FALSE), list(A, 1:2))
  cases$add("sweep(A, c(1, 3), matrix)", function(x, s) sweep(x, c(1, 3), s), list(A, matrix(1:8, 2)))
  cases$add("sweep(A, c(1, 3), t(matrix)) (warns)", function(x, s) sweep(x, c(1, 3), s),
            list(A, matrix(1:8, 4)))
  cases$add("sweep(A, 3:2, 1:12)", function(x, s) sweep(x, 3:2, s, "*"), list(A, 1:12))
  cases$add("sweep(A, 2:3, 1:5) (warns)", function(x, s) sweep(x, 2:3, s, "+"), list(A, 1:5))
  cases$add("sweep(A, 1, c(0L, NA), '%/%')", function(x, s) sweep(x, 1, s, "%/%"), list(A, c(0L, NA)))
  x3 <- apply_x3()
  cases$add("sweep(x3, 'C', 1:3)", function(x, s) sweep(x, "C", s), list(x3, c(1, 2, 3)))
  cases$add("sweep(x3, c('row', 'C'), m)", function(x, s) sweep(x, c("row", "C"), s, "/"),
            list(x3, matrix(c(1:23, NA), 8)))
  cases$add("sweep(A[, 0, ], 2, numeric(0))", function(x, s) sweep(x, 2, s),
            list(A[, 0, , drop = FALSE], numeric(0)))
  cases$add("sweep(A, 2, ...) with FUN = function", function(x, s) sweep(x, 2, s, function(a, b) a - 2 * b),
            list(A, c(0.5, NaN, -Inf)))
  expect_no_mismatches(cases, 117)
})

test_that("scale.Rd: scale() with center and scale TRUE, FALSE and vectors", {
  cases <- array_cases("scale() behaviour (center, scale TRUE/FALSE/vectors)")
  set.seed(2)
  x <- matrix(1:10, ncol = 2, dimnames = list(letters[1:5], c("u", "v")))
  y <- matrix(round(rnorm(30), 2), 10, 3)
  y[c(3, 17, 25)] <- c(NA, Inf, NaN)
  for (m in list(x = x, y = y, "one column" = y[, 2, drop = FALSE], "one row" = y[1, , drop = FALSE],
                 "no rows" = y[0, ])) {
    for (center in list(TRUE, FALSE)) for (sc in list(TRUE, FALSE)) {
      cases$add(sprintf("scale(%s x %s, %s, %s)", nrow(m), ncol(m), center, sc),
                function(x) scale(x, center, sc), list(m))
    }
  }
  # Numeric center and scale: operands too when the matrix is lazy (with a plain
  # matrix base R stores a lazy center or scale as it is, ?lazy: asserted below).
  cases$add("scale(x, center = c(1, 6), scale = FALSE)", function(x) scale(x, c(1, 6), FALSE), list(x))
  cases$add("scale(y, colMeans(y), c(2, 0, NA))", function(x) scale(x, c(1, -1, 0), c(2, 0, NA)), list(y))
  cases$add("scale(x, center = 1:3) (error)", function(x) scale(x, center = 1:3), list(x))
  cases$add("scale(x, scale = 1) (error)", function(x) scale(x, scale = 1), list(x))
  cases$add("scale(1:5 vector)", function(x) scale(x), list(c(1, 4, 9, 16, NA)))
  cases$add("scale(integer matrix, FALSE, 1:2)", function(x) scale(x, FALSE, 2:3), list(x))
  expect_no_mismatches(cases, 130)
})

test_that("scale() of a plain matrix stores a lazy center or scale as it is (documented)", {
  withr::local_options(gufunc.lazy_min_length = 0)
  x <- matrix(c(1, 5, 2, 7, 3, 9), 3)
  got <- scale(x, center = lazy(c(2, 6)), scale = lazy(c(1, 3)))
  want <- scale(x, center = c(2, 6), scale = c(1, 3))
  expect_true(is_lazy(attr(got, "scaled:center")))
  expect_identical(deep(got), want)
})

test_that("reg-tests-1a.R and aperm.Rd: aperm() with names, resize = FALSE, t() and rev()", {
  cases <- array_cases("r-source reg-tests-1a.R (aperm), aperm.Rd")
  nms <- list(happy = letters[1:4], sad = LETTERS[1:6])
  x <- array(1:24, c(4, 6))
  xs <- list(plain = x, named = `dimnames<-`(x, nms), "one named" = `dimnames<-`(x, c(nms[1], list(NULL))),
             unnamed = `dimnames<-`(x, unname(nms)), double = x + 0.5, logical = x %% 3 == 0)
  for (nm in names(xs)) {
    cases$add(paste("aperm(x, 2:1) on", nm), function(x) aperm(x, c(2, 1)), list(xs[[nm]]))
    cases$add(paste("aperm(x, 2:1, FALSE) on", nm), function(x) aperm(x, c(2, 1), FALSE), list(xs[[nm]]))
    cases$add(paste("aperm(x) on", nm), function(x) aperm(x), list(xs[[nm]]))
    cases$add(paste("t(x) on", nm), function(x) t(x), list(xs[[nm]]))
    cases$add(paste("rev(x) on", nm), function(x) rev(x), list(xs[[nm]]))
    cases$add(paste("t(t(x)[, 6:2]) on", nm), function(x) t(t(x)[, 6:2]), list(xs[[nm]]))
  }
  cases$add("aperm(named, c('sad', 'happy'))", function(x) aperm(x, c("sad", "happy")), list(xs$named))
  cases$add("aperm(named, c('sad', 'zz')) (error)", function(x) aperm(x, c("sad", "zz")), list(xs$named))
  cases$add("aperm(x, c(1, 1)) (error)", function(x) aperm(x, c(1, 1)), list(x))
  cases$add("aperm(x, 1:3) (error)", function(x) aperm(x, 1:3), list(x))
  x3 <- array(1:24, 2:4)
  cases$add("aperm(x3, c(2, 1, 3)), then t() of slabs",
            function(x) { xt <- aperm(x, c(2, 1, 3)); list(xt, t(xt[, , 2]), t(xt[, , 4])) }, list(x3))
  a <- apply_x3()
  for (p in list(c(3, 1, 2), c(2, 3, 1), c(1, 3, 2), 3:1, c("C", "row", "col"), c("col", "C", "row"))) {
    cases$add(sprintf("aperm(x3, %s)", deparse(p)), function(x) aperm(x, p), list(a))
    cases$add(sprintf("aperm(x3, %s, resize = FALSE)", deparse(p)),
              function(x) aperm(x, p, resize = FALSE), list(a))
  }
  # DelayedArray's test_ArrayGrid-class.R shapes: 4-d and 5-d, extents of 1 and 0.
  a4 <- array(1:300, c(3, 10, 2, 5))
  a5 <- array(c(NA, 0.25, -0), c(2, 1, 3, 1, 2), dimnames = list(c("r1", "r2"), "s", NULL, "u", c("v", "w")))
  a0 <- array(integer(0), c(3, 0, 2, 1))
  for (p in list(4:1, c(2, 4, 1, 3), c(4, 1, 2, 3))) {
    cases$add(sprintf("aperm(a4, %s)", deparse(p)), function(x) aperm(x, p), list(a4))
    cases$add(sprintf("aperm(a0, %s)", deparse(p)), function(x) aperm(x, p), list(a0))
  }
  for (p in list(5:1, c(5, 1, 2, 3, 4), c(2, 4, 1, 5, 3))) {
    cases$add(sprintf("aperm(a5, %s)", deparse(p)), function(x) aperm(x, p), list(a5))
  }
  cases$add("t(a1 slice m1)", function(x) t(x[2, c(9, 3:7), 2, -4]), list(a4))
  cases$add("t(vector)", function(x) t(x), list(c(a = 1, b = 2)))
  cases$add("t(1-d array)", function(x) t(x), list(array(1:3, 3, dimnames = list(c("x", "y", "z")))))
  cases$add("t(3-d) (error)", function(x) t(x), list(x3))
  cases$add("rev(named vector)", function(x) rev(x), list(c(a = 1L, b = NA, c = 3L)))
  cases$add("rev(1-d array)", function(x) rev(x), list(array(1:3, 3, dimnames = list(c("x", "y", "z")))))
  cases$add("rev(numeric(0))", function(x) rev(x), list(numeric(0)))
  expect_no_mismatches(cases, 345)
})

test_that("reg-tests and diff.Rd: diff() with lag and differences, on vectors and matrices", {
  cases <- array_cases("diff() behaviour (lag, differences, matrices)")
  x <- cumsum(cumsum(1:10))
  d <- c(a = 1.5, b = NA, c = -0, d = Inf, e = Inf, f = 2)
  for (lag in 1:3) for (dif in 1:3) {
    cases$add(sprintf("diff(1:10, %d, %d)", lag, dif), function(x) diff(x, lag, dif), list(1:10))
    cases$add(sprintf("diff(x, %d, %d)", lag, dif), function(x) diff(x, lag, dif), list(x))
    cases$add(sprintf("diff(d, %d, %d)", lag, dif), function(x) diff(x, lag, dif), list(d))
  }
  cases$add("diff(x, lag = 10) (empty)", function(x) diff(x, lag = 10), list(x))
  cases$add("diff(x, differences = 12) (empty)", function(x) diff(x, differences = 12), list(x))
  cases$add("diff(x, lag = 0) (error)", function(x) diff(x, lag = 0), list(x))
  cases$add("diff(x, lag = 1:2) (error)", function(x) diff(x, lag = 1:2), list(x))
  cases$add("diff(integer overflow)", function(x) diff(x),
            list(c(-.Machine$integer.max, .Machine$integer.max, NA, 0L)))
  cases$add("diff(logical)", function(x) diff(x), list(c(TRUE, FALSE, NA, TRUE)))
  m <- matrix(c(1:11, NA), 4, dimnames = list(letters[1:4], c("p", "q", "r")))
  for (lag in 1:4) {
    cases$add(sprintf("diff(m, %d)", lag), function(x) diff(x, lag), list(m))
    cases$add(sprintf("diff(m * 0.5, %d, 2)", lag), function(x) diff(x * 0.5, lag, 2), list(m))
  }
  cases$add("diff(t(m))", function(x) diff(t(x)), list(m))
  cases$add("diff(m[, 1, drop = FALSE])", function(x) diff(x), list(m[, 1, drop = FALSE]))
  a <- array(1:24, 2:4)
  cases$add("diff(3-d array)", function(x) diff(x), list(a))
  expect_no_mismatches(cases, 220)
})

test_that("cumsum(), cumprod(), cummax(), cummin(): NA, NaN, names, integer overflow", {
  cases <- array_cases("cumsum(), cumprod(), cummax(), cummin() behaviour")
  vs <- list(dbl = c(a = 1, b = NA, c = 3, d = NaN, e = -2),
             nan_first = c(NaN, 1, NA, 2), inf = c(Inf, -Inf, 1, -0, 0),
             int = c(3L, -1L, NA, 7L), big_int = c(.Machine$integer.max, 1L, -5L),
             neg_int = c(-.Machine$integer.max, -1L, 2L), lgl = c(TRUE, TRUE, NA, FALSE),
             empty = integer(0), matrix = matrix(c(2, 0.5, 4, NA), 2, dimnames = list(c("a", "b"), NULL)),
             onedim = array(c(x = 1L, y = 2L, z = 3L), 3, dimnames = list(c("x", "y", "z"))))
  for (nm in names(vs)) for (f in c("cumsum", "cumprod", "cummax", "cummin")) {
    fun <- match.fun(f)
    cases$add(sprintf("%s(%s)", f, nm), fun, list(vs[[nm]]))
    cases$add(sprintf("%s(rev(%s))", f, nm), function(x) fun(rev(x)), list(vs[[nm]]))
  }
  cases$add("cumsum(x)[2:4] (part)", function(x) cumsum(x)[2:4], list(vs$big_int[c(1, 2, 2, 3)]))
  cases$add("cumsum(x * 2) + 1", function(x) cumsum(x * 2) + 1, list(vs$dbl))
  cases$add("cumprod(large int)", function(x) cumprod(x), list(rep(c(1000L, -3L), 4)))
  expect_no_mismatches(cases, 415)
})

test_that("reg-tests: rowsum() of vectors and matrices, groups lazy too", {
  cases <- array_cases("rowsum() behaviour")
  x <- c(1, NA, 3, 4.5, -0, Inf)
  g <- c(2, 1, 2, 3, 1, 2)
  m <- matrix(1:12, 6, dimnames = list(NULL, c("a", "b")))
  for (reorder in c(TRUE, FALSE)) for (na.rm in c(FALSE, TRUE)) {
    lab <- sprintf("(reorder = %s, na.rm = %s)", reorder, na.rm)
    f <- function(x, g) rowsum(x, g, reorder = reorder, na.rm = na.rm)
    cases$add(paste("rowsum(x, g)", lab), f, list(x, g))
    cases$add(paste("rowsum(m, g)", lab), f, list(m, g))
    cases$add(paste("rowsum(m, letters)", lab), function(x) f(x, c("b", "a", "b", "c", "a", "a")), list(m))
    cases$add(paste("rowsum(int overflow)", lab), f, list(c(.Machine$integer.max, 1L, 5L, NA), c(1, 1, 2, 2)))
    cases$add(paste("rowsum(m, NA group)", lab), f, list(m * 0.5, c(1, NA, 2, NA, 1, 2)))
  }
  cases$add("rowsum(x, g[-1]) (error)", function(x, g) rowsum(x, g), list(x, g[-1]))
  cases$add("rowsum(lgl, g)", function(x, g) rowsum(x, g), list(c(TRUE, NA, FALSE, TRUE, TRUE, FALSE), g))
  cases$add("rowsum(m[0, ], g[0])", function(x, g) rowsum(x, g), list(m[0, ], g[0]))
  expect_no_mismatches(cases, 153)
})

test_that("prop.table(), proportions(), margin.table(), marginSums() with margins as names", {
  cases <- array_cases("proportions(), marginSums() behaviour (R 4.0)")
  m <- matrix(1:4, 2)
  a <- apply_x3()
  tab <- array(c(5L, 0L, 3L, NA, 2L, 8L, 1L, 1L), c(2, 2, 2),
               dimnames = list(A = c("a1", "a2"), B = c("b1", "b2"), C = c("c1", "c2")))
  for (x in list(m = m, a = a, tab = tab)) {
    mgs <- c(list(NULL), as.list(seq_along(dim(x))), list(c(1, 2), c(length(dim(x)), 1)),
             if (!is.null(names(dimnames(x)))) list(names(dimnames(x))[2], rev(names(dimnames(x)))[1:2]))
    for (mg in mgs) {
      lab <- sprintf("(%s x %s, %s)", typeof(x), paste(dim(x), collapse = "x"), deparse(mg))
      cases$add(paste("prop.table", lab), function(x) prop.table(x, mg), list(x))
      cases$add(paste("proportions", lab), function(x) proportions(x, mg), list(x))
      cases$add(paste("margin.table", lab), function(x) margin.table(x, mg), list(x))
      cases$add(paste("marginSums", lab), function(x) marginSums(x, mg), list(x))
    }
  }
  cases$add("prop.table(vector)", function(x) prop.table(x), list(c(a = 1, b = 3, c = NA)))
  cases$add("proportions(0-extent)", function(x) proportions(x, 1), list(matrix(1, 2, 0)))
  cases$add("marginSums(m, 3) (error)", function(x) marginSums(x, 3), list(m))
  expect_no_mismatches(cases, 435)
})

test_that("rowSums(), colSums(), rowMeans(), colMeans() with dims and na.rm, base R's and gufunc's", {
  cases <- array_cases("colSums(dims =) behaviour; DelayedArray test_ArrayGrid-class.R shapes")
  a4 <- array(c(1:299, NA), c(3, 10, 2, 5))
  set.seed(4)
  a5 <- array(round(runif(15 * 10 * 5 * 8 * 2), 3), c(15, 10, 5, 8, 2))
  a5[c(1, 77, 5000)] <- c(NA, NaN, -Inf)
  l3 <- array(c(TRUE, NA, FALSE), c(4, 1, 3))
  e3 <- array(numeric(0), c(2, 0, 3))
  # The masked name called as written: base R's function in the oracle, gufunc's
  # on every other path (with_base_masks()).
  call_as <- function(nm, ..., first = quote(x)) {
    eval(bquote(function(x) .(as.name(nm))(.(first), ..(list(...))), splice = TRUE))
  }
  for (nm in c("rowSums", "colSums", "rowMeans", "colMeans")) {
    for (x in list(a4 = a4, a5 = a5, l3 = l3, e3 = e3)) {
      for (dims in seq_len(length(dim(x)) - 1L)) for (na.rm in c(FALSE, TRUE)) {
        lab <- sprintf("%s(%s, na.rm = %s, dims = %d)", nm, paste(dim(x), collapse = "x"), na.rm, dims)
        cases$add(lab, call_as(nm, na.rm = na.rm, dims = dims), list(x))
      }
    }
    cases$add(paste(nm, "(dims = 0) (error)"), call_as(nm, dims = 0), list(a4))
    cases$add(paste(nm, "(dims = 4) (error)"), call_as(nm, dims = 4), list(a4))
    cases$add(paste(nm, "(vector) (error)"), call_as(nm), list(1:5))
    cases$add(paste(nm, "with dimnames"), call_as(nm), list(apply_x()))
    cases$add(paste(nm, "of a data frame"), call_as(nm, first = quote(as.data.frame(x))), list(apply_x()))
  }
  expect_no_mismatches(cases, 540)
})

test_that("max.col(), row(), col(), slice.index(), arrayInd(), which(arr.ind = TRUE)", {
  cases <- array_cases("max.col(), slice.index() (R 4.1 MARGIN vectors), arrayInd() behaviour")
  m <- matrix(c(1, 3, 3, NA, 2, 0, 3, 1, 5, NaN, -Inf, 5), 4, dimnames = list(letters[1:4], NULL))
  for (ties in c("first", "last", "random")) {
    cases$add(sprintf("max.col(m, '%s')", ties), function(x) {
      set.seed(1)
      max.col(x, ties)
    }, list(m))
    cases$add(sprintf("max.col(int, '%s')", ties), function(x) {
      set.seed(1)
      max.col(x, ties)
    }, list(matrix(c(2L, 2L, NA, 7L, 2L, 1L), 2)))
  }
  cases$add("max.col(m[, 0])", function(x) max.col(x), list(m[, 0]))
  cases$add("max.col(vector)", function(x) max.col(x, "first"), list(c(1, 5, 2)))
  a <- array(1:24, 2:4, dimnames = list(c("a", "b"), NULL, LETTERS[1:4]))
  mm <- apply_x()
  cases$add("row(m)", function(x) row(x), list(m))
  cases$add("col(m)", function(x) col(x), list(m))
  cases$add("row(m, as.factor = TRUE)", function(x) row(x, as.factor = TRUE), list(mm))
  cases$add("col(m, as.factor = TRUE)", function(x) col(x, as.factor = TRUE), list(mm))
  cases$add("row(3-d) (error)", function(x) row(x), list(a))
  cases$add("m[row(m) == col(m)]", function(x) x[row(x) == col(x)], list(m))
  cases$add("m[row(m) > col(m)] <- 0", function(x) { x[row(x) > col(x)] <- 0; x }, list(m))
  for (mg in list(1, 2, 3, c(1, 3), 3:2, 1:3)) {
    cases$add(sprintf("slice.index(a, %s)", deparse(mg)), function(x) slice.index(x, mg), list(a))
  }
  cases$add("slice.index(a, 4) (error)", function(x) slice.index(x, 4), list(a))
  cases$add("slice.index(vector, 1)", function(x) slice.index(x, 1), list(1:5))
  ind <- c(1L, 5L, 24L, NA, 12L)
  cases$add("arrayInd(ind, dim(a))", function(i) arrayInd(i, c(2L, 3L, 4L)), list(ind))
  cases$add("arrayInd(ind, dim, dimnames, useNames)",
            function(i) arrayInd(i, c(2L, 3L, 4L), dimnames(a), useNames = TRUE), list(ind))
  cases$add("arrayInd(double ind, dim)", function(i) arrayInd(i, c(2L, 3L, 4L)), list(c(2, 23)))
  cases$add("arrayInd(ind, lazy dim)", function(i, d) arrayInd(i, d), list(ind[-4], c(2L, 12L)))
  cases$add("arrayInd(5, c(2, 3), useNames, no dimnames)",
            function(i) arrayInd(i, c(2L, 3L), useNames = TRUE), list(5L))
  for (x in list(a = a, m = m, "1-d" = array(c(TRUE, NA, TRUE), 3, dimnames = list(c("x", "y", "z"))),
                 "a5 ext 1" = array(c(TRUE, FALSE), c(2, 1, 3, 1, 2)))) {
    cases$add("which(x > k, arr.ind = TRUE)", function(x) which(x > 2, arr.ind = TRUE), list(x))
    cases$add("which(x > k, arr.ind = TRUE, useNames = FALSE)",
              function(x) which(x > 2, arr.ind = TRUE, useNames = FALSE), list(x))
    cases$add("which(is.na(x), arr.ind = TRUE)", function(x) which(is.na(x), arr.ind = TRUE), list(x))
  }
  cases$add("which(lgl array, arr.ind = TRUE)", function(x) which(x, arr.ind = TRUE),
            list(array(c(NA, TRUE, FALSE, TRUE), c(2, 2, 2), dimnames = list(NULL, c("p", "q"), NULL))))
  expect_no_mismatches(cases, 207)
})

test_that("diag(), diag<-, lower.tri() and upper.tri() with subassignment", {
  cases <- array_cases("diag(), diag<-, lower.tri(), upper.tri() behaviour")
  m <- matrix(c(1:11, NA) + 0.5, 3, dimnames = list(letters[1:3], LETTERS[1:4]))
  sq <- matrix(1:16, 4, dimnames = list(letters[1:4], letters[1:4]))
  cases$add("diag(m)", function(x) diag(x), list(m))
  cases$add("diag(sq) (names kept)", function(x) diag(x), list(sq))
  cases$add("diag(sq, names = FALSE)", function(x) diag(x, names = FALSE), list(sq))
  cases$add("diag(vector)", function(x) diag(x), list(c(2, NA, -0)))
  cases$add("diag(vector, 4, 2)", function(x) diag(x, 4, 2), list(c(2L, NA)))
  cases$add("diag(named vector, names = TRUE)", function(x) diag(x, names = TRUE), list(c(a = 1, b = 2)))
  cases$add("diag(3L scalar)", function(x) diag(x), list(3L))
  cases$add("diag(lgl vector)", function(x) diag(x), list(c(TRUE, NA)))
  cases$add("diag(matrix 0 x 3)", function(x) diag(x), list(matrix(0, 0, 3)))
  cases$add("diag(3-d) (error)", function(x) diag(x), list(array(1:8, c(2, 2, 2))))
  for (v in list(0, c(-1, NA, 2), 7L, 1:4, c(TRUE, FALSE, NA))) {
    cases$add(sprintf("diag(m) <- %s", deparse(v)), function(x, v) { diag(x) <- v; x }, list(m, v))
    cases$add(sprintf("diag(sq) <- %s", deparse(v)), function(x, v) { diag(x) <- v; x }, list(sq, v))
  }
  for (diag in c(FALSE, TRUE)) {
    for (f in c("lower.tri", "upper.tri")) {
      tri <- match.fun(f)
      cases$add(sprintf("m[%s(m, %s)] <- 0", f, diag), function(x) { x[tri(x, diag)] <- 0; x }, list(m))
      cases$add(sprintf("sq[%s(sq, %s)] <- v", f, diag),
                function(x, v) { x[tri(x, diag)] <- v; x }, list(sq, seq_len(sum(tri(sq, diag)))))
      cases$add(sprintf("sq[%s(sq, %s)] <- NA", f, diag),
                function(x) { x[tri(x, diag)] <- NA; x }, list(sq))
      cases$add(sprintf("m[%s(m, %s)]", f, diag), function(x) x[tri(x, diag)], list(m))
      cases$add(sprintf("%s(3-d, %s)", f, diag), function(x) tri(x, diag), list(array(1:8, c(2, 2, 2))))
      cases$add(sprintf("sq[%s(sq)] <- t(sq)[...] (symmetrize)", f),
                function(x) { x[tri(x)] <- t(x)[tri(x)]; x }, list(sq * 1.5))
    }
  }
  expect_no_mismatches(cases, 248)
})

test_that("matrix(), array(), dim<- and drop() of lazy vectors", {
  cases <- array_cases("matrix(), array(), dim<-, drop() behaviour")
  v <- c(a = 1.5, b = NA, c = -0, d = 4, e = 5, f = 6)
  i <- 1:7
  cases$add("matrix(v, 2)", function(x) matrix(x, 2), list(v))
  cases$add("matrix(v, 2, byrow = TRUE)", function(x) matrix(x, 2, byrow = TRUE), list(v))
  cases$add("matrix(v, ncol = 3, dimnames)", function(x) matrix(x, ncol = 3, dimnames = list(1:2, NULL)),
            list(v))
  cases$add("matrix(i, 2) (warns)", function(x) matrix(x, 2), list(i))
  cases$add("matrix(i, 2, 5) (warns)", function(x) matrix(x, 2, 5), list(i))
  cases$add("matrix(i, 14, 1)", function(x) matrix(x, 14, 1), list(i))
  cases$add("matrix(v, 4, 4) (warns)", function(x) matrix(x, 4, 4), list(v))
  cases$add("matrix(v, 0, 3)", function(x) matrix(x, 0, 3), list(v))
  cases$add("matrix(numeric(0), 2, 2)", function(x) matrix(x, 2, 2), list(numeric(0)))
  cases$add("matrix(lgl)", function(x) matrix(x), list(c(TRUE, NA)))
  cases$add("matrix(matrix, 3)", function(x) matrix(x, 3), list(matrix(1:6, 2, dimnames = list(c("a", "b"), NULL))))
  cases$add("matrix(v, -1) (error)", function(x) matrix(x, -1), list(v))
  cases$add("array(v, c(2, 3))", function(x) array(x, c(2, 3)), list(v))
  cases$add("array(v, c(2, 2, 3)) (recycled)", function(x) array(x, c(2, 2, 3)), list(v))
  cases$add("array(v, 4, dimnames)", function(x) array(x, 4, list(letters[1:4])), list(v))
  cases$add("array(v, c(2, 0))", function(x) array(x, c(2, 0)), list(v))
  cases$add("array(numeric(0), 3)", function(x) array(x, 3), list(numeric(0)))
  cases$add("array(i, lazy dim)", function(x, d) array(x, d), list(i, c(2L, 2L, 2L)))
  cases$add("array(matrix, c(3, 2))", function(x) array(x, c(3, 2)), list(matrix(1:6, 2)))
  cases$add("dim(i) <- c(7, 1)", function(x) { dim(x) <- c(7L, 1L); x }, list(i))
  cases$add("dim(v) <- c(3, 2)", function(x) { dim(x) <- c(3, 2); x }, list(v))
  cases$add("dim(v) <- c(4, 2) (error)", function(x) { dim(x) <- c(4, 2); x }, list(v))
  cases$add("dim(v) <- NULL on a matrix", function(x) { dim(x) <- NULL; x },
            list(matrix(1:6, 2, dimnames = list(c("a", "b"), NULL))))
  cases$add("dim(m) <- c(3, 2) drops dimnames", function(x) { dim(x) <- c(3, 2); x },
            list(matrix(1:6, 2, dimnames = list(c("a", "b"), NULL))))
  cases$add("dim(v) <- 6", function(x) { dim(x) <- 6L; x }, list(v))
  a <- array(c(NA, 0.25, -0), c(2, 1, 3, 1, 2), dimnames = list(c("r1", "r2"), "s", NULL, "u", c("v", "w")))
  cases$add("drop(5-d)", function(x) drop(x), list(a))
  cases$add("drop(a[1, , 2, , 1, drop = FALSE])", function(x) drop(x[1, , 2, , 1, drop = FALSE]), list(a))
  cases$add("drop(1 x 1)", function(x) drop(x), list(matrix(7L, 1, 1, dimnames = list("r", "c"))))
  cases$add("drop(1 x 3)", function(x) drop(x), list(matrix(1:3, 1, dimnames = list("r", letters[1:3]))))
  cases$add("drop(1 x 0)", function(x) drop(x), list(matrix(1, 1, 0)))
  cases$add("drop(1-d)", function(x) drop(x), list(array(1:3, 3, dimnames = list(c("x", "y", "z")))))
  cases$add("drop(array 1 x 1 x 1)", function(x) drop(x), list(array(TRUE, c(1, 1, 1))))
  cases$add("drop(vector)", function(x) drop(x), list(v))
  expect_no_mismatches(cases, 167)
})

test_that("dim<- with a lazy dim stores it as it is (documented), with base R's values", {
  withr::local_options(gufunc.lazy_min_length = 0)
  x <- c(1.5, NA, 3, 4, 5, 6)
  y <- x
  dim(y) <- lazy(c(2L, 3L))
  # ?lazy: "dim(m) <- lazy(d) gives m a lazy dim attribute ... (their values are base R's)".
  expect_true(is_lazy(attr(y, "dim")))
  expect_identical(deep(y), matrix(x, 2))
  expect_identical(deep(dim(y) + 0L), c(2L, 3L))
})

test_that("asplit(), split(), tapply() and aggregate() of lazy values", {
  cases <- array_cases("r-source reg-tests-1c.R (split recycling); asplit, tapply, aggregate behaviour")
  a <- apply_x3()
  z <- array(1:24, 2:4)
  for (mg in list(1, 2, 3, c(1, 3), 3:1, "C", c("col", "row"))) {
    if (!is.character(mg)) {
      cases$add(sprintf("asplit(z, %s)", deparse(mg)), function(x) asplit(x, mg), list(z))
    }
    cases$add(sprintf("asplit(x3, %s)", deparse(mg)), function(x) asplit(x, mg), list(a))
  }
  cases$add("asplit(m, 1) with names", function(x) asplit(x, 1), list(apply_x()))
  cases$add("asplit(z[, 0, ], 2)", function(x) asplit(x, 2), list(z[, 0, , drop = FALSE]))
  cases$add("asplit(vector, 1)", function(x) asplit(x, 1), list(c(a = 1, b = 2)))
  v <- c(a = 1, b = NA, c = 3, d = -0, e = 5, f = 6)
  g <- c(2, 1, 2, NA, 1, 3)
  cases$add("split(v, g)", function(x, g) split(x, g), list(v, g))
  cases$add("split(v, 1:2) (recycled)", function(x, g) split(x, g), list(v, 1:2))
  cases$add("split(v, 1:4) (warns)", function(x, g) split(x, g), list(v, 1:4))
  cases$add("split(v, factor, drop = TRUE)", function(x) split(x, factor(c(1, 1, 2, 2, 1, 1), 1:3), drop = TRUE),
            list(v))
  cases$add("split(v, list(f1, f2))", function(x) split(x, list(c(1, 1, 2, 2, 1, 2), c("a", "b"))), list(v))
  cases$add("split(m, col(m))", function(x) split(x, col(x)), list(apply_x()))
  cases$add("unsplit(split(v, g))", function(x) unsplit(split(x, c(1, 2, 1, 2, 2, 1)), c(1, 2, 1, 2, 2, 1)),
            list(v))
  cases$add("split(v, g) <- lapply(...)", function(x) {
    split(x, c(1, 2, 1, 2, 2, 1)) <- list(c(10, 20, 30), 1:3)
    x
  }, list(v))
  cases$add("tapply(v, g, sum)", function(x, g) tapply(x, g, sum), list(v, g))
  cases$add("tapply(v, g, range)", function(x, g) tapply(x, g, range), list(v, g))
  cases$add("tapply(v, g)", function(x, g) tapply(x, g), list(v, g))
  cases$add("tapply(v, list(g1, g2), mean)", function(x) tapply(x, list(rep(1:2, 3), rep(c("p", "q", "r"), 2)), mean),
            list(v))
  cases$add("tapply(v, g, sum, default = 0)", function(x) tapply(x, list(c(1, 1, 2, 2, 3, 3), c(1:2, 1, 1, 2, 2)), sum, default = 0),
            list(v))
  cases$add("tapply(int, g, sum) (overflow)", function(x, g) tapply(x, g, sum),
            list(c(.Machine$integer.max, 1L, 2L), c(1, 1, 2)))
  cases$add("tapply(v, g[-1]) (error)", function(x, g) tapply(x, g, sum), list(v, g[-1]))
  # aggregate() of data frames whose columns are lazy.
  set.seed(9)
  n <- 40
  xs <- round(rnorm(n), 2)
  ys <- sample(c(1:5, NA), n, TRUE)
  grp <- rep(c("a", "b", "c", "d"), 10)
  cases$add("aggregate(data.frame(x, y), list(grp), mean)",
            function(x, y) aggregate(data.frame(x = x, y = y), list(g = grp), mean), list(xs, ys))
  cases$add("aggregate(x ~ g, mean)",
            function(x, y) aggregate(x ~ g, data.frame(x = x, y = y, g = grp), mean), list(xs, ys))
  cases$add("aggregate(cbind(x, y) ~ g, sum, na.rm)",
            function(x, y) aggregate(cbind(x, y) ~ g, data.frame(x = x, y = y, g = grp), sum, na.rm = TRUE),
            list(xs, ys))
  cases$add("aggregate(x, by = list(y), range)", function(x, y) aggregate(x, list(y = y), range), list(xs, ys))
  cases$add("aggregate(. ~ g, na.action = na.pass)",
            function(x, y) aggregate(. ~ g, data.frame(x = x, y = y, g = grp), max, na.action = na.pass),
            list(xs, ys))
  expect_no_mismatches(cases, 201)
})

test_that("crossprod() and tcrossprod(): base R's on plain operands, gufunc's on lazy ones", {
  cases <- array_cases("crossprod(), tcrossprod() behaviour")
  m <- matrix(c(1, NA, 3, -0, Inf, 2.5), 3, dimnames = list(letters[1:3], c("u", "v")))
  n <- matrix(1:6, 3, dimnames = list(NULL, c("p", "q")))
  v <- c(x = 2, y = -1, z = 0.5)
  cases$add("crossprod(m)", function(x) crossprod(x), list(m))
  cases$add("crossprod(m, n)", function(x, y) crossprod(x, y), list(m, n))
  cases$add("tcrossprod(m, n)", function(x, y) tcrossprod(x, y), list(m, n))
  cases$add("crossprod(v)", function(x) crossprod(x), list(v))
  cases$add("crossprod(m, v)", function(x, y) crossprod(x, y), list(m, v))
  cases$add("crossprod(lgl, int)", function(x, y) crossprod(x, y), list(c(TRUE, NA, FALSE), 1:3))
  cases$add("crossprod(m, t(n)) (error)", function(x, y) crossprod(x, t(y)), list(m, n))
  cases$add("crossprod(m[0, ])", function(x) crossprod(x), list(m[0, ]))
  cases$add("tcrossprod(v)", function(x) tcrossprod(x), list(v))
  cases$add("m %*% t(n)", function(x, y) x %*% t(y), list(m, n))
  expect_no_mismatches(cases, 62)
})

test_that("arrays of more than 65536 elements, 1 and 2 threads (DelayedArray's ConstantArray shapes)", {
  cases <- array_cases("DelayedArray test_ConstantArray-class.R, test_ArrayGrid-class.R shapes; r-source cases above")
  set.seed(12)
  # 500 x 200 (a constant 1 in test_ConstantArray-class.R; here values with NA,
  # NaN, signed zeros and infinities), 500 x 20 x 10 logical with NA, and the
  # 15 x 10 x 5 x 8 x 10 grid of test_ArrayGrid-class.R.
  m <- matrix(round(rnorm(1e5), 2), 500, 200, dimnames = list(NULL, paste0("c", 1:200)))
  m[c(3, 999, 5000, 77777, 1e5)] <- c(NA, NaN, -0, Inf, -Inf)
  l3 <- array(c(TRUE, FALSE, NA, TRUE, TRUE), c(500, 20, 10))
  a5 <- array(seq_len(15 * 10 * 5 * 8 * 10) %% 97L, c(15, 10, 5, 8, 10))
  a5[c(10, 5000)] <- NA
  v <- as.vector(m[, 1:150])
  iv <- rep(c(.Machine$integer.max %/% 40000L, -3L, NA, 7L), 20000)
  g <- rep_len(c(3, 1, 2, 5), nrow(m))
  sq <- m[1:300, 1:200]
  sq <- cbind(sq, sq[, 1:100])
  x300 <- m[1:300, 7]
  y300 <- c(m[1:299, 9], -0)
  for (threads in 1:2) {
    th <- sprintf(" [threads %d]", threads)
    add <- function(label, fun, args, min_length = 65536) {
      with_options(list(gufunc.threads = threads), cases$add(paste0(label, th), fun, args, min_length))
    }
    add("apply(m, 2, sum)", function(x) apply(x, 2, sum), list(m))
    add("apply(l3, c(1, 3), any)", function(x) apply(x, c(1, 3), any), list(l3))
    add("sweep(m, 2, colMeans(m, na.rm = TRUE))", function(x) sweep(x, 2, colMeans(x, na.rm = TRUE)), list(m))
    add("scale(m)", function(x) scale(x), list(m))
    add("aperm(l3, c(3, 1, 2))", function(x) aperm(x, c(3, 1, 2)), list(l3))
    add("aperm(l3, c(2, 1, 3))", function(x) aperm(x, c(2, 1, 3)), list(l3))
    add("aperm(a5, 5:1)", function(x) aperm(x, 5:1), list(a5), min_length = 0)
    add("aperm(a5, c(2, 3, 4, 5, 1))", function(x) aperm(x, c(2, 3, 4, 5, 1)), list(a5), min_length = 0)
    add("t(m) * 2 + 1", function(x) t(x) * 2 + 1, list(m))
    add("rev(m)", function(x) rev(x), list(m))
    add("diff(m, 3)", function(x) diff(x, 3), list(m))
    add("diff(v, 1, 2)", function(x) diff(x, 1, 2), list(v))
    add("cumsum(v), cummax(v)", function(x) list(cumsum(x), cummax(x), cummin(-x)), list(v))
    add("cumsum(iv) (overflow)", function(x) cumsum(x), list(iv))
    add("cumprod(v[...] / 100)", function(x) cumprod(1 + x / 100), list(v))
    add("rowsum(m, g)", function(x, g) rowsum(x, g), list(m, g))
    add("prop.table(m, 1)", function(x) prop.table(x, 1), list(m))
    add("marginSums(l3, c(1, 3))", function(x) marginSums(x, c(1, 3)), list(l3))
    add("rowSums(a5, dims = 3)", function(x) rowSums(x, dims = 3), list(a5), min_length = 0)
    add("colMeans(a5, na.rm = TRUE, dims = 2)", function(x) colMeans(x, na.rm = TRUE, dims = 2), list(a5),
        min_length = 0)
    add("max.col(m, 'first')", function(x) max.col(x, "first"), list(m))
    add("which(m > 3, arr.ind = TRUE)", function(x) which(x > 3, arr.ind = TRUE), list(m))
    add("diag(sq); diag(sq) <- 0", function(x) { d <- diag(x); diag(x) <- 0; list(d, x) }, list(sq))
    add("sq[lower.tri(sq)] <- NA", function(x) { x[lower.tri(x)] <- NA; x }, list(sq))
    add("matrix(v, 300)", function(x) matrix(x, 300), list(v))
    add("array(v, c(30, 50, 50)) / 2", function(x) array(x, c(30, 50, 50)) / 2, list(v))
    add("outer(x300, y300)", function(x, y) outer(x, y), list(x300, y300))
    add("outer(x300, y300, '-')", function(x, y) outer(x, y, "-"), list(x300, y300))
    add("x300 %o% y300 > 0", function(x, y) x %o% y > 0, list(x300, y300))
    add("tapply(v, rep(g), sum)", function(x) tapply(x, rep_len(1:7, length(x)), sum), list(v))
    add("split(v, g) lengths and sums", function(x) vapply(split(x, rep_len(1:3, length(x))), sum, 0), list(v))
    add("crossprod(m[, 1:20])", function(x) crossprod(x[, 1:20]), list(m))
    add("drop(l3[, 3, , drop = FALSE])", function(x) drop(x[, 3, , drop = FALSE]), list(l3))
  }
  expect_no_mismatches(cases, 346)
})

test_that("margins, lags, dims, perms, sizes and flags given as lazy vectors too", {
  cases <- array_cases("r-source apply.Rd, sweep.Rd; arguments as vectors")
  z <- array(1:24, 2:4, dimnames = list(c("a","b"), NULL, LETTERS[1:4]))
  m <- matrix(c(1:11, NA) + 0.5, 3)
  v <- c(3, 1, 4, 1, 5, 9, 2, 6)
  cases$add("apply(z, mg, sum)", function(x, mg) apply(x, mg, sum), list(z, 2))
  cases$add("apply(z, mg, sum) 2", function(x, mg) apply(x, mg, sum), list(z, c(1L, 3L)))
  cases$add("diff(v, lag)", function(x, l) diff(x, l), list(v, 2L))
  cases$add("diff(v, lag, d)", function(x, l, d) diff(x, l, d), list(v, 2L, 2))
  cases$add("diff(m, lag)", function(x, l) diff(x, l), list(m, 2))
  cases$add("rowSums(z, dims)", function(x, d) rowSums(x, dims = d), list(z, 2L))
  cases$add("colMeans(z, dims)", function(x, d) colMeans(x, dims = d), list(z, 2))
  cases$add("rowSums(z, na.rm)", function(x, d) rowSums(x, na.rm = d), list(z, TRUE))
  cases$add("slice.index(z, mg)", function(x, mg) slice.index(x, mg), list(z, c(1, 3)))
  cases$add("sweep(z, mg, s)", function(x, mg, s) sweep(x, mg, s), list(z, 2, 1:3))
  cases$add("matrix(v, nrow)", function(x, n) matrix(x, n), list(v, 2))
  cases$add("matrix(v, ncol, byrow)", function(x, n, b) matrix(x, ncol = n, byrow = b), list(v, 4L, TRUE))
  cases$add("array(v, integer dim)", function(x, d) array(x, d), list(v, c(2L, 2L, 2L)))
  cases$add("diag(v, nrow)", function(x, n) diag(x, n), list(v[1:3], 3))
  cases$add("diag(n)", function(n) diag(n), list(3))
  cases$add("aperm(z, perm)", function(x, p) aperm(x, p), list(z, c(3, 1, 2)))
  cases$add("aperm(z, perm, resize)", function(x, p, r) aperm(x, p, r), list(z, c(3L, 1L, 2L), FALSE))
  cases$add("prop.table(m, mg)", function(x, mg) prop.table(x, mg), list(m, 1))
  cases$add("marginSums(z, mg)", function(x, mg) marginSums(x, mg), list(z, c(1, 3)))
  cases$add("arrayInd(i, d)", function(i, d) arrayInd(i, d), list(c(3L, 7L), c(2L, 4L)))
  cases$add("asplit(z, mg)", function(x, mg) asplit(x, mg), list(z, 3))
  cases$add("max.col(m)", function(x) max.col(x, "last"), list(m))
  cases$add("scale(m, center, scale)", function(x, c, s) scale(x, c, s), list(m, TRUE, FALSE))
  cases$add("split(v, g)", function(x, g) split(x, g), list(v, c(TRUE, FALSE)))
  cases$add("rowsum(v, g, reorder)", function(x, g, r) rowsum(x, g, reorder = r), list(v, rep(2:1, 4), FALSE))
  cases$add("cumsum(v)", function(x) cumsum(x), list(v))
  cases$add("outer(x, y) k", function(x, y) outer(x, y, "^"), list(v, 2L))
  cases$add("lower.tri(m, diag)", function(x, d) lower.tri(x, d), list(m, TRUE))
  cases$add("m[lower.tri(m)] <- v", function(x, v) { x[lower.tri(x)] <- v; x }, list(m, 7))
  cases$add("dim(v) <- d", function(x, d) { dim(x) <- d; x }, list(v, c(4L, 2L)))
  cases$add("rep via apply rows", function(x, n) apply(x, 1, rep, times = n), list(m, 2L))
  cases$add("mapply(rep, x, n)", function(x, n) mapply(rep, x, n), list(v[1:3], 1:3))
  cases$add("vapply FUN.VALUE", function(x, fv) vapply(x, function(e) e * 2, fv), list(v, 0))
  cases$add("seq_len max", function(x) apply(x, 1:2, function(e) seq_len(e)), list(matrix(1:4, 2)))
  cases$add("tapply(v, g, quantile)", function(x, g) tapply(x, g, quantile), list(v, rep(1:2, 4)))
  cases$add("sapply(v, seq_len)", function(x) sapply(x, seq_len), list(c(2L, 3L)))
  cases$add("lapply(seq_len(n))", function(n) lapply(seq_len(n), function(i) i), list(3L))
  cases$add("matrix(0, n, n)", function(n) matrix(0, n, n), list(2))
  cases$add("outer(seq_len(n), ...)", function(n) outer(seq_len(n), seq_len(n)), list(3L))
  expect_no_mismatches(cases, 281)
})

test_that("array() with a lazy double dim keeps the class on the coerced dim (documented)", {
  withr::local_options(gufunc.lazy_min_length = 0)
  v <- c(3, 1, 4, 1, 5, 9, 2, 6)
  got <- array(v, lazy(c(2, 2, 2)))
  # ?lazy: functions that copy every attribute of their argument without
  # dispatching (here the coercion of dim to integer inside .Internal(array()))
  # give plain data that still carries the class; its values are base R's.
  expect_false(is_lazy(attr(got, "dim")))
  expect_identical(class(attr(got, "dim")), "gufunc_lazy")
  expect_identical(unclass(attr(got, "dim")), c(2L, 2L, 2L))
  expect_identical(`attr<-`(got, "dim", unclass(attr(got, "dim"))), array(v, c(2, 2, 2)))
})

test_that("a 40 x 60 x 3 array under every engine setting (threads 1 and 2, blocks 1, 7, auto)", {
  cases <- array_cases("r-source cases above on a DelayedArray-sized 3-d array")
  set.seed(31)
  a <- array(round(runif(7200, -5, 5), 1), c(40, 60, 3), dimnames = list(NULL, NULL, c("x", "y", "z")))
  a[c(5, 4000, 7199)] <- c(NA, NaN, -0)
  s <- round(runif(60), 2)
  for (threads in 1:2) for (block in list(1L, 7L, NULL)) {
    for (min_length in c(0, 65536)) {
      lab <- sprintf(" [threads %d, block %s, min length %d]", threads, format(block %||% "auto"), min_length)
      add <- function(label, fun, args) {
        with_options(list(gufunc.threads = threads, gufunc.block_size = block),
                     cases$add(paste0(label, lab), fun, args, min_length))
      }
      add("apply(a, c(1, 3), max)", function(x) apply(x, c(1, 3), max), list(a))
      add("sweep(a, 2, s, '*')", function(x, s) sweep(x, 2, s, "*"), list(a, s))
      add("aperm(a, c(3, 1, 2)) - 1", function(x) aperm(x, c(3, 1, 2)) - 1, list(a))
      add("aperm(a, c(1, 3, 2))", function(x) aperm(x, c(1, 3, 2)), list(a))
      add("diff(a[, , 2], 2)", function(x) diff(x[, , 2], 2), list(a))
      add("cumsum(a) * 2", function(x) cumsum(x) * 2, list(a))
      add("rowSums(a, TRUE, 2)", function(x) rowSums(x, TRUE, 2), list(a))
      add("outer(a[, 1, 1], s, '+')", function(x, s) outer(x[, 1, 1], s, "+"), list(a, s))
      add("scale(a[, , 3])", function(x) scale(x[, , 3]), list(a))
      add("t(a[, , 1])[5:1, ]", function(x) t(x[, , 1])[5:1, ], list(a))
    }
  }
  expect_no_mismatches(cases, 648)
})

test_that("views composed with the array functions: 1-d arrays, zero extents, writes into t() and aperm()", {
  cases <- array_cases("r-source reg-tests-1a.R (aperm, t); views composed")
  od <- array(c(2.5, NA, -1, 4), 4, dimnames = list(c("w", "x", "y", "z")))
  e <- matrix(numeric(0), 0, 3, dimnames = list(NULL, c("a", "b", "c")))
  cases$add("diff(1-d)", function(x) diff(x), list(od))
  cases$add("diff(1-d, 2)", function(x) diff(x, 2), list(od))
  cases$add("t(0x3)", function(x) t(x), list(e))
  cases$add("rev(0x3)", function(x) rev(x), list(e))
  cases$add("diff(0x3)", function(x) diff(x), list(e))
  cases$add("diff(1x3)", function(x) diff(x), list(matrix(1:3, 1)))
  cases$add("aperm(0x3)", function(x) aperm(x), list(e))
  cases$add("outer(1-d, 1-d)", function(x, y) outer(x, y), list(od, od))
  cases$add("outer(1-d, 1-d, '-')", function(x, y) outer(x, y, "-"), list(od, od))
  cases$add("sweep(1-d)", function(x) sweep(x, 1, 1:4), list(od))
  cases$add("cumsum(1-d)", function(x) cumsum(x), list(od))
  cases$add("scale(1-d)", function(x) scale(x), list(od))
  cases$add("apply(1-d, 1, identity)", function(x) apply(x, 1, identity), list(od))
  cases$add("t(t(1-d))", function(x) t(t(x)), list(od))
  cases$add("aperm(1-d)", function(x) aperm(x), list(od))
  cases$add("rev(rev(m)) dims", function(x) rev(rev(x)), list(matrix(1:6, 2)))
  cases$add("diag(1-d)", function(x) diag(x), list(od))
  cases$add("drop(t(1-d))", function(x) drop(t(x)), list(od))
  cases$add("t(x)[, 2]", function(x) t(x)[, 2], list(matrix(1:6, 2, dimnames = list(c("a","b"), c("p","q","r")))))
  cases$add("aperm(x, c(2,1))[2, ]", function(x) aperm(x, c(2,1))[2, ], list(matrix(1:6, 2, dimnames = list(c("a","b"), c("p","q","r")))))
  cases$add("t(x) <- ", function(x) { y <- t(x); y[2, 1] <- 0L; y }, list(matrix(1:6, 2, dimnames = list(c("a","b"), c("p","q","r")))))
  cases$add("t(x)[2:3,] <- ", function(x) { y <- t(x); y[2:3, ] <- NA; y }, list(matrix(1:6, 2)))
  cases$add("rev(x)[2:3] <- ", function(x) { y <- rev(x); y[2:3] <- 0; y }, list(c(a=1,b=2,c=3,d=4)))
  cases$add("diag(t(x)) <- ", function(x) { y <- t(x); diag(y) <- 0L; y }, list(matrix(1:9, 3)))
  cases$add("t(x)[lower.tri] <- ", function(x) { y <- t(x); y[lower.tri(y)] <- 0L; y }, list(matrix(1:9, 3)))
  cases$add("diff(t(x))", function(x) diff(t(x)), list(matrix(1:6, 2)))
  cases$add("cumsum(t(x))", function(x) cumsum(t(x)), list(matrix(c(1:5, NA), 2)))
  cases$add("cumsum(rev(x))", function(x) cummax(rev(x)), list(c(a=1, b=NaN, c=3)))
  cases$add("aperm(aperm(a, c(2,3,1)), c(2,3,1))", function(x) aperm(aperm(x, c(2,3,1)), c(2,3,1)), list(array(1:24, 2:4)))
  cases$add("aperm(a, c(2,3,1))[, , 1]", function(x) aperm(x, c(2,3,1))[, , 1], list(array(1:24, 2:4)))
  cases$add("aperm(a, c(2,3,1))[2:3, 1:2, ]", function(x) aperm(x, c(2,3,1))[2:3, 1:2, ], list(array(1:24, 2:4)))
  cases$add("aperm(a, c(3,1,2))[,,2] <- 0", function(x) { y <- aperm(x, c(3,1,2)); y[, , 2] <- 0L; y }, list(array(1:24, 2:4)))
  cases$add("diff(rev(x), 2)", function(x) diff(rev(x), 2), list(c(a=1, b=5, c=2, d=8)))
  cases$add("rev(diff(x))", function(x) rev(diff(x)), list(c(a=1, b=5, c=2, d=8)))
  cases$add("t(diff(m))", function(x) t(diff(x)), list(matrix(c(1,4,9,16,25,36), 3)))
  cases$add("outer(t(m), v)", function(x, y) outer(t(x), y), list(matrix(1:6, 2), c(a = -1, b = 0)))
  expect_no_mismatches(cases, 186)
})

test_that("views composed with the array functions on 300 x 300 and 50 x 40 x 40 arrays, 1 and 2 threads", {
  cases <- array_cases("r-source cases above; DelayedArray test_DelayedMatrix-utils.R sizes")
  set.seed(3)
  m <- matrix(round(rnorm(300 * 300), 2), 300, dimnames = list(paste0("r", 1:300), NULL))
  m[c(7, 999, 40000)] <- c(NA, NaN, -0)
  a <- array(seq_len(50 * 40 * 40) %% 101L, c(50, 40, 40))
  a[3] <- NA
  v <- as.vector(m)
  for (th in 1:2) with_options(list(gufunc.threads = th), {
    add <- function(l, f, args) cases$add(sprintf("%s [threads %d]", l, th), f, args, min_length = 65536)
    add("t(m)[i,] <- ", function(x) { y <- t(x); y[2:100, ] <- 0; y }, list(m))
    add("t(m)[i,j] <- ", function(x) { y <- t(x); y[2:100, 5:50] <- NA; y }, list(m))
    add("diag(t(m)) <- ", function(x) { y <- t(x); diag(y) <- -1; y }, list(m))
    add("t(m)[lower.tri] <- ", function(x) { y <- t(x); y[lower.tri(y)] <- 0; y }, list(m))
    add("rev(v)[i] <- ", function(x) { y <- rev(x); y[10:50000] <- 1; y }, list(v))
    add("aperm(a, c(3,1,2))[,,k] <- ", function(x) { y <- aperm(x, c(3,1,2)); y[, , 7] <- 0L; y }, list(a))
    add("aperm(a, c(2,3,1))[i:j,k:l,] ", function(x) aperm(x, c(2,3,1))[3:30, 5:20, ], list(a))
    add("cumsum(t(m))", function(x) cumsum(t(x)), list(m))
    add("cumprod(rev(v)/..)", function(x) cumprod(1 + rev(x) / 1000), list(v))
    add("cummax(t(m))", function(x) cummax(t(x)), list(m))
    add("diff(t(m), 2)", function(x) diff(t(x), 2), list(m))
    add("diff(rev(v), 3, 2)", function(x) diff(rev(x), 3, 2), list(v))
    add("t(diff(m))", function(x) t(diff(x)), list(m))
    add("rev(diff(v))", function(x) rev(diff(x)), list(v))
    add("outer(t(m[1:2, ]), v[1:300])", function(x, y) outer(t(x[1:2, ]), y[1:300]), list(m, v))
    add("apply(m, 2, rev)", function(x) apply(x, 2, rev), list(m))
    add("apply(m, 1, cumsum)", function(x) apply(x, 1, cumsum), list(m))
    add("sweep(t(m), 1, s)", function(x) sweep(t(x), 1, seq_len(300) / 7), list(m))
    add("scale(t(m))", function(x) scale(t(x)), list(m))
    add("rowSums(t(m))", function(x) rowSums(t(x), na.rm = TRUE), list(m))
    add("colMeans(aperm(a, c(2,3,1)), dims=2)", function(x) colMeans(aperm(x, c(2,3,1)), dims = 2), list(a))
    add("rowsum(t(m), g)", function(x) rowsum(t(x), rep(1:3, 100)), list(m))
    add("max.col(t(m))", function(x) max.col(t(x), "last"), list(m))
    add("which(t(m) > 2, arr.ind)", function(x) which(t(x) > 2, arr.ind = TRUE), list(m))
    add("m[upper.tri(m)] <- t(m)[upper.tri(m)]", function(x) { x[upper.tri(x)] <- t(x)[upper.tri(x)]; x }, list(m))
    add("split(rev(v), g)", function(x) lapply(split(rev(x), rep_len(1:3, length(x))), sum), list(v))
    add("prop.table(t(m), 2)", function(x) prop.table(t(x), 2), list(m))
    add("matrix(rev(v), 300, byrow=TRUE)", function(x) matrix(rev(x), 300, byrow = TRUE), list(v))
    add("drop(aperm(a, c(3,1,2))[, 1, , drop=FALSE])", function(x) drop(aperm(x, c(3,1,2))[, 1, , drop = FALSE]), list(a))
  })
  expect_no_mismatches(cases, 294)
})
