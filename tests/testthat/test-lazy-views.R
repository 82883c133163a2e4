# Views (src/r/lazy_view.cpp): x[i] picking one run of consecutive elements of a
# lazy value whose values are at hand is a lazy value over the same memory; its
# values, and everything computed from it, are base R's.

n <- 5000
set.seed(11)
v <- c(runif(n - 3), NA, NaN, -Inf)
vi <- sample.int(100L, n, replace = TRUE)
vi[7] <- NA

view_subscripts <- list(
  quote(-1), quote(-n), quote(2:n), quote(1:(n - 1)), quote(10:4000), quote(-(1:7)),
  quote(-((n - 9):n)), quote(c(3, 4, 5, 6)), quote(seq_len(n)), quote(n:n), quote(2L:3000L)
)

test_that("a run of consecutive elements is a lazy view with base R's values", {
  withr::local_options(gufunc.lazy_min_length = 1)
  for (values in list(v, vi, vi > 50L)) {
    for (i in view_subscripts) {
      idx <- eval(i)
      got <- lazy(values)[idx]
      expect_true(is_lazy(got), info = deparse(i))
      expect_identical(materialize(got), values[idx], info = deparse(i))
    }
  }
})

test_that("views compose and fuse with other operations", {
  withr::local_options(gufunc.lazy_min_length = 1)
  x <- lazy(v)
  expect_identical(materialize(x[-1][-1][2:100]), v[-1][-1][2:100])
  expect_identical(materialize(x[-n][-1]), v[-n][-1])
  rosen <- function(x) sum(100 * (x[-1] - x[-n]^2)^2 + (1 - x[-n])^2, na.rm = TRUE)
  expect_identical(rosen(x), rosen(v))
  expect_identical(materialize(x[-1] - x[-n]), v[-1] - v[-n])
  expect_identical(materialize(lazy(vi)[-1] + lazy(vi)[-n]), vi[-1] + vi[-n])
  # The view of a computed value, once materialized.
  y <- x * 2
  materialize(y)
  expect_true(is_lazy(y[2:10]))
  expect_identical(materialize(y[2:10]), (v * 2)[2:10])
  # Elements of a view, read one by one.
  z <- x[-(1:5)]
  expect_identical(z[[3]], v[8])
  expect_identical(materialize(z[c(1, 3)]), v[c(6, 8)]) # a block view (step 2)
  expect_identical(length(z), length(v) - 5L)
})

test_that("other subscripts, and values with attributes, keep base R's subsetting", {
  withr::local_options(gufunc.lazy_min_length = 1)
  x <- lazy(v)
  others <- list(c(2, 1), c(1, 3), c(-1, -3), 0, c(0, 1), NA, n + 1, 2.5, c(1.5, 2.5),
                 c(TRUE, FALSE), integer(0), c(-1, 1), -(2:3), c(2, 2), -n:-1)
  for (idx in others) {
    expect_identical(tryCatch(materialize(x[idx]), error = conditionMessage),
                     tryCatch(v[idx], error = conditionMessage), info = deparse(idx))
  }
  named <- stats::setNames(v[1:10], letters[1:10])
  expect_identical(materialize(lazy(named)[2:5]), named[2:5])
  m <- matrix(v, 100)
  expect_identical(materialize(lazy(m)[2:5]), m[2:5])
  expect_identical(materialize(lazy(m)[, 2:3]), m[, 2:3])
})

test_that("column runs of matrices and slabs of arrays are views with base R's attributes", {
  withr::local_options(gufunc.lazy_min_length = 1)
  m <- matrix(v, 100, dimnames = list(NULL, paste0("c", 1:50)))
  a <- array(v, c(10, 20, 25))
  named <- stats::setNames(v[1:26], letters)
  lm <- lazy(m)
  la <- lazy(a)
  views <- list(
    list(lm[, 2:3], m[, 2:3]), list(lm[, 7], m[, 7]),
    list(lm[, 7, drop = FALSE], m[, 7, drop = FALSE]),
    list(lm[, -1], m[, -1]), list(lm[, -50], m[, -50]), list(la[, , 3], a[, , 3]),
    list(la[, , 2:4], a[, , 2:4]), list(la[, , 25, drop = FALSE], a[, , 25, drop = FALSE]),
    list(la[, 5, 3], a[, 5, 3]), list(la[, 5:9, 3], a[, 5:9, 3]), list(lm[2:5], m[2:5]),
    list(lazy(named)[3:9], named[3:9]), list(lazy(named)[-1], named[-1])
  )
  for (case in views) {
    expect_true(is_lazy(case[[1]]))
    expect_identical(materialize(case[[1]]), case[[2]])
  }
  # Fused with arithmetic and reductions, as the lattice Boltzmann step reads them.
  expect_identical(materialize(la[, , 1] + la[, , 2] * 2), a[, , 1] + a[, , 2] * 2)
  expect_identical(sum(la[, , 3]), sum(a[, , 3]))
  # Not regular runs: base R's subsetting, values and errors.
  for (case in list(quote(m[, c(1, 3, 4)]), quote(m[c(2, 1), ]), quote(a[2:3, , 2:3]),
                    quote(m[c(TRUE, FALSE), 2]), quote(m[-(2:3), 1]))) {
    got <- eval(case, list(m = lm, a = la))
    expect_identical(materialize(got), eval(case))
  }
  expect_error(lm[, 51], "subscript out of bounds")
})

test_that("blocks of matrices and regular steps are block views, read and fused as base R's", {
  withr::local_options(gufunc.lazy_min_length = 1)
  g <- matrix(v, 50, dimnames = list(paste0("r", 1:50), NULL))
  gi <- matrix(vi, 50)
  a <- array(v, c(10, 20, 25))
  lg <- lazy(g)
  lgi <- lazy(gi)
  la <- lazy(a)
  blocks <- list(
    list(lg[2:49, 2:99], g[2:49, 2:99]), list(lg[1:48, 3:100], g[1:48, 3:100]),
    list(lg[2:3, ], g[2:3, ]), list(lg[7, ], g[7, ]),
    list(lg[7, , drop = FALSE], g[7, , drop = FALSE]),
    list(lg[-1, ], g[-1, ]), list(lg[-50, 2:5], g[-50, 2:5]), list(lgi[2:49, 2:99], gi[2:49, 2:99]),
    list(la[2:9, 3:18, 4], a[2:9, 3:18, 4]), list(la[1, , 2], a[1, , 2]),
    list(lazy(v)[seq(1, n, by = 3)], v[seq(1, n, by = 3)]),
    list(lazy(vi)[seq(2, n, 2)], vi[seq(2, n, 2)])
  )
  for (case in blocks) {
    expect_true(is_lazy(case[[1]]))
    expect_identical(materialize(case[[1]]), case[[2]])
  }
  # A Jacobi step over block views: one fused pass, base R's bits, on odd block
  # sizes and both thread counts.
  jacobi <- function(g) {
    0.2 * (g[2:49, 2:99] + g[1:48, 2:99] + g[3:50, 2:99] + g[2:49, 1:98] + g[2:49, 3:100])
  }
  for (threads in 1:2) {
    for (block in c(7, 64, 1000)) {
      withr::local_options(gufunc.threads = threads, gufunc.block_size = block)
      expect_identical(materialize(jacobi(lg)), jacobi(g))
      expect_identical(sum(abs(jacobi(lg) - lg[2:49, 2:99])), sum(abs(jacobi(g) - g[2:49, 2:99])))
      expect_identical(sum(lg[2:49, 2:99] * lg[1:48, 3:100]), sum(g[2:49, 2:99] * g[1:48, 3:100]))
      expect_identical(materialize(lgi[2:49, 2:99] + lgi[1:48, 1:98]),
                       gi[2:49, 2:99] + gi[1:48, 1:98])
      # Rows (one element of each column) read in blocks.
      expect_identical(materialize(lg[7, ] * 2 + lg[9, ]), g[7, ] * 2 + g[9, ])
      expect_identical(materialize(lgi[3, 2:100] - lgi[50, 1:99]), gi[3, 2:100] - gi[50, 1:99])
      expect_identical(materialize(la[1, , 2] + la[10, , 25]), a[1, , 2] + a[10, , 25])
    }
  }
  # Elements of a block view read one by one, and a gufunc reading one.
  b <- lg[2:49, 2:99]
  expect_identical(b[[60]], g[2:49, 2:99][[60]])
  expect_identical(materialize(b[5:7, 3]), g[2:49, 2:99][5:7, 3])
  expect_identical(materialize(matmul(lg[2:4, 2:4], lg[2:4, 2:4])), g[2:4, 2:4] %*% g[2:4, 2:4])
  # A block of a block: a view where each picked run lies in one column.
  expect_identical(materialize(b[2:5, 2:5]), g[2:49, 2:99][2:5, 2:5])
})

test_that("a view of a deferred element-wise value is the expression over the picked elements", {
  withr::local_options(gufunc.lazy_min_length = 1)
  x <- lazy(v)
  y <- x * 2 + 1
  z <- y[-1]
  expect_true(is_lazy(z))
  expect_false(is_materialized(y))
  expect_identical(materialize(z), (v * 2 + 1)[-1])
  expect_false(is_materialized(y)) # computed through the view only
  expect_identical(materialize(y[-1][2:10]), (v * 2 + 1)[-1][2:10])
  expect_identical(materialize((x - mean(x))[2:100]), (v - mean(v))[2:100])
  m <- matrix(v, 100)
  expect_identical(materialize((lazy(m) * 2)[2:5, 3:7]), (m * 2)[2:5, 3:7])
  expect_identical(sum((lazy(m) * 2)[2:99, 2:49] - lazy(m)[1:98, 3:50]),
                   sum((m * 2)[2:99, 2:49] - m[1:98, 3:50]))
  iv <- lazy(vi) %/% 3L
  expect_identical(materialize(iv[seq(1, n, 5)]), (vi %/% 3L)[seq(1, n, 5)])
  # Warnings: raised when the picked elements are computed, once for the value.
  w <- log(lazy(c(-1, rep(1, 99))))
  expect_warning(materialize(w[1:50]), "NaNs produced")
  expect_silent(materialize(w))
  w2 <- log(lazy(c(-1, rep(1, 99))))
  expect_silent(materialize(w2[2:100]))
  expect_warning(materialize(w2), "NaNs produced")
})

test_that("array views from their subscripts give base R's dim, dimnames and names", {
  withr::local_options(gufunc.lazy_min_length = 1)
  m <- matrix(v[1:200], 10, dimnames = list(rows = letters[1:10], cols = paste0("c", 1:20)))
  m2 <- matrix(v[1:200], 10, dimnames = list(NULL, paste0("c", 1:20)))
  a <- array(v[1:600], c(5, 6, 20), dimnames = list(NULL, LETTERS[1:6], NULL))
  runs <- list(NULL, quote(1:5), quote(-1), quote(3), quote(2L:2L))
  for (x in list(m, m2, matrix(v[1:200], 10))) {
    lx <- lazy(x)
    for (i in runs) for (j in list(NULL, quote(2:19), quote(-20), quote(7))) {
      for (drop in c(TRUE, FALSE)) {
        call <- as.call(c(list(as.name("["), quote(x)), list(if (is.null(i)) quote(expr = ) else i),
                          list(if (is.null(j)) quote(expr = ) else j), list(drop = drop)))
        got <- eval(call, list(x = lx))
        expect_identical(materialize(got), eval(call, list(x = x)), info = deparse(call))
      }
    }
  }
  la <- lazy(a)
  expect_identical(materialize(la[, , 4]), a[, , 4])
  expect_identical(materialize(la[2:4, 3:5, 7]), a[2:4, 3:5, 7])
  expect_identical(materialize(la[, 2, 3:9]), a[, 2, 3:9])
  expect_identical(materialize(la[1, 2, ]), a[1, 2, ])
  expect_identical(materialize(la[drop = FALSE, , , 2]), a[drop = FALSE, , , 2])
  expect_identical(materialize(la[2:3, , 2:3]), a[2:3, , 2:3]) # two outer dims: a stand-in
  expect_identical(materialize(la[, , 20, drop = FALSE]), a[, , 20, drop = FALSE])
})

test_that("array subscripts read in C keep base R's rules", {
  m <- matrix(v[1:4000], 40, dimnames = list(NULL, paste0("c", 1:100)))
  lm <- lazy(m)
  for (min_length in c(1, 65536)) {  # lazy views, and small plain subsets of values at hand
    withr::local_options(gufunc.lazy_min_length = min_length)
    expect_identical(lm[NULL, 2], m[NULL, 2])
    expect_identical(lm[integer(0), 2:3], m[integer(0), 2:3])
    expect_identical(materialize(lm[, 2]), m[, 2])
    expect_identical(materialize(lm[3, ]), m[3, ])
    expect_identical(materialize(lm[2:30, 5:9, drop = FALSE]), m[2:30, 5:9, drop = FALSE])
    expect_identical(materialize(lm[drop = FALSE, 4, ]), m[drop = FALSE, 4, ])
    # (Masks and names: a view through a stand-in of the positions, or base R's.)
    values <- function(x) if (is_lazy(x)) materialize(x) else x
    expect_identical(values(lm[c(TRUE, FALSE), 2]), m[c(TRUE, FALSE), 2])
    expect_identical(values(lm[-(1:3), "c7"]), m[-(1:3), "c7"])
    expect_identical(base_outcome(lm[1, 2, exact = TRUE]), base_outcome(m[1, 2, exact = TRUE]))
    expect_identical(base_outcome(lm[1, 2, 3]), base_outcome(m[1, 2, 3]))
    expect_identical(base_outcome(lm[41, 2]), base_outcome(m[41, 2]))
    # Subscripts passed on: missing, missing with a default, bound in an enclosing
    # frame only (R's missing() looks in the promise's own frame).
    pick <- function(x, i, j) x[i, j]
    expect_identical(values(pick(lm, 3)), pick(m, 3))
    expect_identical(values(pick(lm, , 4)), pick(m, , 4))
    with_default <- function(x, i = 2) x[i, 2:9]
    expect_identical(values(with_default(lm)), with_default(m))
    row <- 5
    from_enclosing <- function(x) x[row, 3:60]
    expect_identical(values(from_enclosing(lm)), from_enclosing(m))
    dots_pick <- function(x, ...) x[..1, 2:9]
    expect_identical(values(dots_pick(lm, 3)), dots_pick(m, 3))
    expect_identical(base_outcome(values(dots_pick(lm, ))), base_outcome(dots_pick(m, )))
    # Each subscript is evaluated once, in order.
    seen <- character()
    got <- lm[{seen <- c(seen, "i"); 2:30}, {seen <- c(seen, "j"); 7}]
    expect_identical(seen, c("i", "j"))
    expect_identical(materialize(got), m[2:30, 7])
  }
})

test_that("a subassignment with drop = is base R's error", {
  m <- matrix(v[1:1e5], 100)
  lm <- lazy(m)
  expect_identical(base_outcome(lm[1, 2, drop = FALSE] <- 5), base_outcome(m[1, 2, drop = FALSE] <- 5))
  expect_error(lm[1, 2, drop = FALSE] <- 5, "incorrect number of subscripts")
})

test_that("a view of a very deep deferred value falls back to base R's subsetting", {
  withr::local_options(gufunc.lazy_min_length = 1)
  y <- lazy(v[1:100])
  expected <- v[1:100]
  for (i in 1:1200) {
    y <- y + 1
    expected <- expected + 1
  }
  expect_identical(materialize(y[-1]), expected[-1])
})

test_that("views below gufunc.lazy_min_length are plain values", {
  withr::local_options(gufunc.lazy_min_length = 100)
  x <- lazy(v)
  expect_false(is_lazy(x[1:10]))
  expect_identical(x[1:10], v[1:10])
  expect_true(is_lazy(x[1:100]))
})

test_that("a view keeps the memory it reads alive and unchanged", {
  withr::local_options(gufunc.lazy_min_length = 1)
  w <- v
  z <- lazy(w)[-1]
  w[2] <- 42
  rm(w)
  gc()
  expect_identical(materialize(z), v[-1])
})

test_that("arrays with a dimension of extent 0 give base R's empty subsets", {
  m30 <- matrix(numeric(0), 3, 0)
  a <- array(numeric(0), c(2, 0, 2))
  a2 <- array(numeric(0), c(2, 3, 0))
  mi <- matrix(integer(0), 0, 3)
  for (min_length in c(65536, 0)) {
    withr::local_options(gufunc.lazy_min_length = min_length)
    expect_identical(materialize(lazy(m30)[1, ]), m30[1, ])
    expect_identical(materialize(lazy(m30)[2:3, ]), m30[2:3, ])
    expect_identical(materialize(lazy(m30)[-1, ]), m30[-1, ])
    expect_identical(materialize(lazy(m30)[1, , drop = FALSE]), m30[1, , drop = FALSE])
    expect_identical(materialize(lazy(a)[1, , 1]), a[1, , 1])
    expect_identical(materialize(lazy(a2)[1:2, 2:3, ]), a2[1:2, 2:3, ])
    expect_identical(materialize(t(lazy(mi))[1, ]), t(mi)[1, ])
    expect_identical(materialize((lazy(mi) * 2L)[, 2:3]), (mi * 2L)[, 2:3])
  }
})

test_that("subscripts out of bounds of a deferred array keep R's error class", {
  m <- matrix(1:70000, 700)
  expected <- tryCatch((m * 2L)[701, 1], error = identity)
  got <- tryCatch((lazy(m) * 2L)[701, 1], error = identity)
  expect_identical(class(got), class(expected))
  expect_identical(conditionMessage(got), conditionMessage(expected))
  withr::local_options(gufunc.lazy_min_length = 0)
  s <- matrix(1:20, 4)
  expect_error(t(lazy(s))[, 5], class = "subscriptOutOfBoundsError")
  expect_error((lazy(s) * 2L)[5, ], class = "subscriptOutOfBoundsError")
})

test_that("named dimnames of only NULLs stay, as in base R", {
  m <- matrix(as.numeric(1:20), 4, 5, dimnames = list(R = NULL, C = NULL))
  big <- matrix(runif(2e5), 400, dimnames = list(R = NULL, C = NULL))
  expect_identical(dimnames(lazy(big)[1:300, ]), dimnames(big[1:300, ]))
  withr::local_options(gufunc.lazy_min_length = 0)
  expect_identical(materialize(lazy(m)[1:2, ]), m[1:2, ])
  expect_identical(materialize(lazy(m)[c(2:4, 1), ]), m[c(2:4, 1), ])
  expect_identical(materialize(lazy(m)[2, , drop = FALSE]), m[2, , drop = FALSE])
  expect_identical(materialize(lazy(m)[2:3, 2:4][, 1:2]), m[2:3, 2:4][, 1:2])
  # A dimension dropped: base R keeps dimnames only when a kept one has names.
  a <- array(as.numeric(1:24), 2:4, dimnames = list(A = NULL, B = NULL, C = NULL))
  expect_identical(materialize(lazy(a)[, 1, ]), a[, 1, ])
  expect_identical(materialize(lazy(a)[, , 2:3]), a[, , 2:3])
  expect_identical(materialize(lazy(m)[1, ]), m[1, ])
})
