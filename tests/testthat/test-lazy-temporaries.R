# An operand of + - * / ... that R counts no reference to but the method's own
# (a[i, j] - b: the view exists for this call alone) is consumed: the result takes
# its graph. Then x[i, j] <- value computes the value into memory of its own and
# writes x in place, with no copy for the view (src/r/lazy_assign.cpp).

temporaries_counters <- function() .Call(gufunc:::C_test_in_place_counters, TRUE)

test_that("an elimination writes in place without copies, as base R computes it", {
  withr::local_options(gufunc.lazy_min_length = 1000)
  withr::local_seed(7)
  n <- 90
  a0 <- matrix(runif(n * n), n) + diag(n, n)
  a0[4, 9] <- NA
  a0[3, 3] <- -0
  step <- function(a) {
    a <- a * 1
    invisible(c(a))
    for (k in 1:(n - 1)) {
      rows <- k:n
      cols <- k:n
      # more than half of a while k is small: a new version before
      a[rows, cols] <- a[rows, cols] - outer(a[rows, k] / a[k, k], a[k, cols]) * 0.5
    }
    a
  }
  for (threads in 1:2) {
    old <- set_gufunc_threads(threads)
    temporaries_counters()
    got <- materialize(step(lazy(a0)))
    counters <- temporaries_counters()
    set_gufunc_threads(old)
    expect_identical(got, with_base_masks(step)(a0))
    expect_gte(counters[1], n - 2) # in place, every step but the first
    expect_identical(counters[2], 0) # no bytes copied for readers
  }
})

test_that("views that are kept keep their values when x is written in place", {
  withr::local_options(gufunc.lazy_min_length = 1000)
  withr::local_seed(8)
  m <- matrix(runif(100 * 80), 100)
  o <- matrix(runif(70 * 60), 70)
  f <- function(a, keep) {
    a <- a * 1
    invisible(c(a))
    kept <- list()
    for (it in 1:3) {
      if (keep == "bound") {
        v <- a[11:80, 11:70]
        a[11:80, 11:70] <- v - o
        kept[[it]] <- v
      } else if (keep == "list") {
        l <- list(a[11:80, 11:70])
        a[11:80, 11:70] <- l[[1]] - o
        kept[[it]] <- l[[1]]
      } else if (keep == "argument") {
        g <- function(x) {
          a[11:80, 11:70] <<- x - o
          x
        }
        kept[[it]] <- g(a[11:80, 11:70])
      } else {
        kept[[it]] <- Reduce(`-`, list(a[11:80, 11:70], o), accumulate = TRUE)[[1]]
        a[11:80, 11:70] <- do.call("-", list(a[11:80, 11:70], o))
      }
    }
    list(a = a, kept = kept)
  }
  plain <- function(x) if (is.list(x)) lapply(x, plain) else materialize(x)
  for (keep in c("bound", "list", "argument", "reduce")) {
    for (compiled in c(FALSE, TRUE)) {
      lazy_f <- if (compiled) compiler::cmpfun(f) else f
      got <- plain(lazy_f(lazy(m), keep))
      expect_identical(got, with_base_masks(f)(m, keep), label = paste(keep, compiled))
    }
  }
})

test_that("results made from temporaries in any form are base R's", {
  withr::local_options(gufunc.lazy_min_length = 1000)
  withr::local_seed(9)
  x <- matrix(rnorm(120 * 50), 120)
  x[c(7, 300)] <- c(NaN, -Inf)
  lx <- lazy(x)
  cases <- list(
    quote((lx[1:100, ] * 2) - (lx[21:120, ] / 3)),
    quote(-lx[2:120, ] + lx[1:119, ]),
    quote(identity(lx[1:100, ]) - 1),
    quote(sum((lx[1:110, ] - lx[11:120, ])^2)),
    quote(vapply(1:2, function(i) sum(lx[i:(100 + i), ] - i), 0)),
    quote({
      t1 <- lx[1:100, ] * 2
      t1 - t1
    })
  )
  for (e in cases) {
    base <- eval(e, list(lx = x))
    got <- eval(e)
    expect_identical(if (is_lazy(got)) materialize(got) else got, base, label = deparse(e)[1])
  }
})

test_that("a consumed value read again is a classed error, not a crash", {
  withr::local_options(gufunc.lazy_min_length = 1000)
  x <- lazy(matrix(runif(4000), 100))
  v <- x[1:50, ] * 2
  d <- v + 1
  # As if R had counted no reference to v (it counts one: v is bound).
  .Call(gufunc:::C_consume_temporaries, d, list(v))
  expect_identical(materialize(d), materialize(x[1:50, ]) * 2 + 1)
  expect_error(materialize(v), class = "gufunc_internal_error")
  expect_error(v[1], class = "gufunc_internal_error")
  expect_error(v + 1, class = "gufunc_internal_error")
  expect_error(sum(v), class = "gufunc_internal_error")
  expect_error(v[1:10, ], class = "gufunc_internal_error")
  expect_error(lazy_plan(v), class = "gufunc_internal_error")
  expect_error(serialize(v, NULL), class = "gufunc_internal_error")
})
