# t(), aperm(), rev() and diff() of lazy values (R/lazy_reorder.R,
# src/r/lazy_reorder_view.cpp): views that read the same memory in another order,
# fused with what follows; base R's values, attributes, warnings and errors.

set.seed(13)
fill <- function(grid, n) grid[sample.int(length(grid), n, replace = TRUE)]
md <- matrix(fill(c(grid_double, grid_nan_bits), 37 * 23), 37, 23)
mi <- matrix(fill(grid_integer, 37 * 23), 37)
ml <- matrix(fill(grid_logical, 37 * 23), 37)
named <- md
dimnames(named) <- list(rows = paste0("r", 1:37), cols = paste0("c", 1:23))
half_named <- md
dimnames(half_named) <- list(NULL, paste0("c", 1:23))
vec <- setNames(fill(grid_double, 501), paste0("e", 1:501))
arr1 <- array(1:50, 50, list(letters_50 = paste0("a", 1:50)))

expect_lazy_identical <- function(got, want, ...) {
  expect_true(is_lazy(got), ...)
  expect_true(identical_bits(materialize(got), want), ...)
}

test_that("t() of a lazy matrix or vector is a view with base R's values and attributes", {
  for_engine_settings({
    for (x in list(md, mi, ml, named, half_named, vec, unname(vec), arr1, md[, 1, drop = FALSE],
                   md[1, , drop = FALSE], structure(md, note = "kept"))) {
      lx <- lazy(x)
      expect_lazy_identical(t(lx), t(x))
      expect_lazy_identical(t(t(lx)), t(t(x)))
      expect_lazy_identical(t(lx * 1L), t(x * 1L))
      if (nrow(t(x)) > 1L) {
        expect_lazy_identical(t(lx)[-1, , drop = FALSE], t(x)[-1, , drop = FALSE])
      }
    }
    lx <- lazy(md)
    expect_lazy_identical(t(lx)[3:9, 2:30], t(md)[3:9, 2:30])
    expect_lazy_identical(t(lx[2:30, 3:9]), t(md[2:30, 3:9]))
    expect_lazy_identical(t(lx[, seq(1, 23, 2)]), t(md[, seq(1, 23, 2)]))
    expect_lazy_identical(t(lx)[, 5], t(md)[, 5])
    expect_lazy_identical(t(lx) + t(lazy(mi)), t(md) + t(mi))
  })
})

test_that("0-extent matrices and errors are base R's", {
  for_engine_settings({
    for (x in list(matrix(0, 0, 5), matrix(1L, 5, 0), numeric(0))) {
      expect_identical(materialize(t(lazy(x))), t(x))
    }
  })
  a3 <- array(runif(24), 2:4)
  la3 <- lazy(a3)
  expect_identical(tryCatch(t(la3), error = conditionMessage),
                   tryCatch(t(a3), error = conditionMessage))
  expect_identical(deparse(tryCatch(t(la3), error = conditionCall)), "t.default(la3)")
})

test_that("views of t() fuse with other operations, without fallbacks", {
  withr::local_options(gufunc.lazy_min_length = 1)
  lazy_fallbacks(reset = TRUE)
  m2 <- matrix(runif(23 * 37), 23)
  r <- t(lazy(md)) * 2 + lazy(m2)
  expect_identical(lazy_state(r), "deferred")
  expect_length(lazy_plan(r)$kernels, 1L)
  expect_match(lazy_plan(r)$inputs, "transposed", all = FALSE)
  expect_true(identical_bits(materialize(r), t(md) * 2 + m2))
  v <- lazy(runif(5000))
  s <- rev(v) - v
  expect_length(lazy_plan(s)$kernels, 1L)
  expect_match(lazy_plan(s)$inputs, "reversed", all = FALSE)
  expect_length(lazy_fallbacks(), 0L)
})

test_that("what a view cannot pass is computed once, then viewed", {
  withr::local_options(gufunc.lazy_min_length = 1)
  x <- runif(40)
  y <- runif(30)
  o <- outer(lazy(x), lazy(y), "+") # repetition views
  expect_lazy_identical(t(o), t(outer(x, y, "+")))
  expect_lazy_identical(rev(o * 2), rev(outer(x, y, "+") * 2))
  s <- array(runif(3 * 3 * 50), c(3, 3, 50))
  g <- matmul(lazy(s), lazy(s))
  expect_lazy_identical(aperm(g, c(3, 1, 2)), aperm(materialize(matmul(s, s)), c(3, 1, 2)))
})

test_that("aperm() of every permutation matches base R; rotations are views", {
  perms <- function(k) {
    if (k == 1L) return(list(1L))
    out <- list()
    for (p in perms(k - 1L)) for (at in 0:(k - 1L)) out[[length(out) + 1L]] <- append(p, k, at)
    out
  }
  a4 <- array(fill(grid_double, 3 * 4 * 5 * 2), c(3, 4, 5, 2),
              list(A = letters[1:3], B = NULL, C = LETTERS[1:5], D = c("x", "y")))
  a3 <- array(fill(grid_integer, 60), 3:5)
  withr::local_options(gufunc.verbose = FALSE)
  for_engine_settings({
    for (a in list(a3, a4, md, named)) {
      la <- lazy(a)
      for (p in perms(length(dim(a)))) {
        expect_lazy_identical(aperm(la, p), aperm(a, p), info = paste(p, collapse = ","))
        expect_lazy_identical(aperm(la * 1L, p, resize = FALSE), aperm(a * 1L, p, resize = FALSE))
      }
      expect_lazy_identical(aperm(la), aperm(a))
    }
    expect_lazy_identical(aperm(lazy(a4), c("D", "A", "B", "C")), aperm(a4, c("D", "A", "B", "C")))
  })
  for (bad in list(c(1, 1, 2), 1:2, c("A", "B", "Z"), c(1, 2, NA))) {
    expect_identical(tryCatch(aperm(lazy(a3), bad), error = conditionMessage),
                     tryCatch(aperm(a3, bad), error = conditionMessage))
  }
  # A rotation of the dims is a view; other orders are computed once.
  withr::local_options(gufunc.lazy_min_length = 1)
  lazy_fallbacks(reset = TRUE)
  r <- aperm(lazy(a4) * 2, c(3, 4, 1, 2))
  expect_identical(lazy_state(r), "deferred")
  expect_match(lazy_plan(r)$inputs, "transposed", all = FALSE)
  z <- lazy(a4) * 2
  withr::with_options(list(gufunc.verbose = TRUE), expect_message(
    aperm(z, c(2, 1, 3, 4)), "does not rotate the dims", class = "gufunc_verbose_message"))
  expect_length(lazy_fallbacks(), 0L)
})

test_that("rev() of a lazy value is a view: names reversed, dims dropped", {
  for_engine_settings({
    for (x in list(vec, unname(vec), fill(grid_integer, 300), fill(grid_logical, 300), md, named,
                   arr1, structure(1:40 + 0, extra = "dropped"))) {
      lx <- lazy(x)
      expect_lazy_identical(rev(lx), rev(x))
      expect_lazy_identical(rev(rev(lx)), rev(rev(x)))
      expect_lazy_identical(rev(lx * 1L), rev(x * 1L))
      expect_lazy_identical(rev(lx)[-1], rev(x)[-1])
      expect_lazy_identical(rev(lx[-(1:3)]), rev(x[-(1:3)]))
    }
    expect_lazy_identical(rev(t(lazy(md))), rev(t(md)))
    expect_lazy_identical(t(rev(lazy(md))), t(rev(md)))
    expect_identical(materialize(rev(lazy(numeric(0)))), numeric(0))
  })
})

test_that("diff() of lazy vectors and matrices is base R's, deferred", {
  xi <- c(.Machine$integer.max, -5L, 7L, NA, fill(grid_integer, 300))
  for_engine_settings({
    for (x in list(vec, unname(vec), xi, fill(grid_logical, 100), md, mi, named)) {
      lx <- lazy(x)
      for (lag in 1:3) {
        for (d in 1:3) {
          expect_identical(lazy_outcome(diff(lx, lag, d)), base_outcome(diff(x, lag, d)))
        }
      }
      expect_identical(lazy_outcome(diff(lx, lag = 2)), base_outcome(diff(x, lag = 2)))
      expect_identical(materialize(diff(lx, 200, 2)), diff(x, 200, 2)) # nothing left
    }
  })
  withr::local_options(gufunc.lazy_min_length = 1)
  lazy_fallbacks(reset = TRUE)
  d2 <- diff(lazy(vec), 1, 2)
  expect_identical(lazy_state(d2), "deferred")
  expect_length(lazy_plan(d2)$kernels, 1L)
  expect_length(lazy_fallbacks(), 0L)
  lv <- lazy(vec)
  for (bad in list(list(lag = 0), list(differences = 0), list(lag = 1:2), list(lag = NA))) {
    got <- tryCatch(do.call(diff, c(list(lv), bad)), error = function(e) e)
    want <- tryCatch(do.call(diff, c(list(vec), bad)), error = function(e) e)
    expect_identical(conditionMessage(got), conditionMessage(want))
  }
  expect_identical(deparse(tryCatch(diff(lv, lag = 0), error = conditionCall)),
                   "diff.default(lv, lag = 0)")
})
