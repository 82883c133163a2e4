# Guarded buffers: printing, head() and x[i] over a run of positions compute only
# those elements; other reads materialize the value once.

test_that("print() and head() of a 1e8-element expression compute only what they show", {
  skip_on_cran() # a 400 MB input
  a <- lazy(1:1e8)
  z <- sqrt(a * 4) + 1
  ref <- function(i) sqrt(i * 4) + 1
  out <- capture.output(print(z))
  expect_identical(out[1], "<gufunc_lazy double[100000000], deferred>")
  expect_identical(out[2:3], capture.output(print(ref(1:10))))
  expect_match(out[length(out)], "99,999,990 more values")
  expect_false(is_materialized(z))
  expect_identical(head(z), ref(1:6))
  expect_identical(materialize(z[99999995:1e8]), ref(99999995:1e8))
  expect_identical(materialize(z[[12345]]), ref(12345))
  expect_identical(sum(z > 3), 99999999L) # sqrt(4 i) + 1 > 3 for i > 1
  expect_false(is_materialized(z))
})

test_that("a run of positions is read without materializing, for every type", {
  for_engine_settings({
    d <- runif(3000)
    i <- sample.int(100L, 3000, TRUE)
    for (pair in list(list(lazy(d) * 3, d * 3), list(lazy(i) %/% 7L, i %/% 7L),
                      list(lazy(d) > 0.5, d > 0.5))) {
      z <- pair[[1L]]
      ref <- pair[[2L]]
      expect_identical(materialize(z[1:10]), ref[1:10])
      expect_identical(materialize(z[2991:3000]), ref[2991:3000])
      expect_identical(materialize(z[as.numeric(5:20)]), ref[5:20])
      expect_identical(materialize(z[1500]), ref[1500])
      expect_identical(materialize(z[[77]]), ref[[77]])
      expect_identical(materialize(z[integer(0)]), ref[integer(0)])
      expect_identical(head(z, 3), head(ref, 3))
      expect_identical(tail(z, 3), tail(ref, 3))
      expect_false(is_materialized(z))
      # A few scattered positions are computed run by run; a subscript picking
      # more than a quarter of the value computes it whole, once, and picks from it.
      expect_identical(materialize(z[c(3, 1, 2, NA, 4000)]), ref[c(3, 1, 2, NA, 4000)])
      expect_false(is_materialized(z))
      expect_identical(materialize(z[c(-1, -5)]), ref[c(-1, -5)])
      expect_true(is_materialized(z))
      expect_identical(materialize(z[2999:3002]), ref[2999:3002])
    }
  })
})

test_that("subscripts past the end, NA, logical and names follow base R", {
  d <- c(a = 1, b = 2, c = 3)
  z <- lazy(d) * 2
  ref <- d * 2
  with_options(list(gufunc.lazy_min_length = 0), {
    z <- lazy(d) * 2
    expect_identical(materialize(z[2:3]), ref[2:3])
    expect_identical(materialize(z[c(1, NA)]), ref[c(1, NA)])
    expect_identical(materialize(z[5]), ref[5])
    expect_identical(materialize(z[c(TRUE, FALSE)]), ref[c(TRUE, FALSE)])
    expect_identical(materialize(z["b"]), ref["b"]) # by then a view (materialized z)
    expect_identical(materialize(z[]), ref)
  })
})

test_that("matrix subscripts give base R's result, computing only what they pick", {
  m <- matrix(runif(6000), 2000, dimnames = list(NULL, c("a", "b", "c")))
  ref <- m + 1
  for_engine_settings({
    z <- lazy(m) + 1
    expect_identical(materialize(z[1:3, ]), ref[1:3, ])
    expect_identical(materialize(z[, "b"]), ref[, "b"])
    expect_identical(materialize(z[2, 2, drop = FALSE]), ref[2, 2, drop = FALSE])
    expect_identical(materialize(z[c(9, NA, 2), c("c", "a")]), ref[c(9, NA, 2), c("c", "a")])
    expect_identical(materialize(z[-(1:1990), 3]), ref[-(1:1990), 3])
    expect_identical(materialize(z[cbind(c(1, 7), c(3, 2))]), ref[cbind(c(1, 7), c(3, 2))])
    expect_identical(head(z), head(ref))
    expect_identical(tail(z, 2), tail(ref, 2))
    expect_false(is_materialized(z))
    expect_identical(materialize(z[z[, 1] > 1.5, ]), ref[ref[, 1] > 1.5, ])
    expect_error(z[2001, 1], "subscript out of bounds")
    expect_error(z[1, 2, 3], "incorrect number of dimensions")
  })
  z <- lazy(m) + 1
  expect_identical(conditionCall(tryCatch(z[1, 2, 3], error = identity)), quote(z[1, 2, 3]))
  a <- lazy(array(1:24, 2:4)) * 2L
  expect_identical(materialize(a[2, , 3:4]), (array(1:24, 2:4) * 2L)[2, , 3:4])
})

test_that("head() of a large lazy matrix computes only its rows", {
  m <- matrix(runif(4e6), 400)
  z <- sqrt(lazy(m) * 3)
  expect_identical(head(z), head(sqrt(m * 3)))
  expect_identical(head(z, c(2, 3)), head(sqrt(m * 3), c(2, 3)))
  expect_false(is_materialized(z))
})

test_that("printing shows a header and the values, by region", {
  with_options(list(gufunc.lazy_min_length = 0), {
    z <- lazy(c(a = 1, b = 2)) * 3
    out <- capture.output(print(z))
    expect_identical(out[1], "<gufunc_lazy double[2], deferred>")
    expect_identical(out[-1], capture.output(print(c(a = 3, b = 6))))
    m <- lazy(matrix(1:4, 2)) + 1L
    out <- capture.output(print(m))
    expect_identical(out[1], "<gufunc_lazy integer[2 x 2], deferred>")
    expect_identical(out[-1], capture.output(print(matrix(2:5, 2))))
    expect_false(is_materialized(m))
    materialize(m)
    expect_match(capture.output(print(m))[1], "materialized")
    expect_identical(format(z), format(c(a = 3, b = 6)))
  })
})

test_that("R's own loops over a lazy vector compute it once they read much of it", {
  a <- runif(2e5)
  z <- unclass(lazy(a) * 2) # an ordinary R vector to R's internal code
  expect_identical(materialize(z[1:5]), a[1:5] * 2)
  out <- capture.output(print(head(z, 20)))
  expect_false(is_materialized(z))
  expect_identical(sum(z), sum(a * 2)) # reads region by region: computed once
  expect_true(is_materialized(z))
  expect_identical(anyNA(z), FALSE)
})
