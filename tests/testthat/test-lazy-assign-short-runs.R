# Writes of regions whose runs are short (x[seq(1, n, 2)] <- v, m[i, ] <- v,
# a[i, j, ] <- v: runs of one element) are computed a chunk of the value at a time
# and stored run by run (src/engine/assign.cpp scatter_region), with the base
# copied whole under them. The new versions, their subsets and reductions of them
# must be base R's, alone and in chains with other writes.

set.seed(53)
n <- 6000
v <- c(runif(n - 4), NA, NaN, -Inf, 0)
m <- matrix(v, 60)
a <- array(v, c(12, 20, 25))

short_writes <- list(
  vector = list(v, function(z) { z[seq(1, n - 1, 2)] <- z[seq(2, n, 2)] * 0.5; z }),
  vector_one = list(v, function(z) { z[seq(3, n, 7)] <- -1; z }),
  vector_plain = list(v, function(z) { z[seq(2, n, 3)] <- v[seq(1, n - 1, 3)]; z }),
  row = list(m, function(z) { z[5, ] <- z[6, ] + 1; z }),
  row_part = list(m, function(z) { z[7, 3:90] <- sqrt(abs(z[8, 3:90])); z }),
  row_one = list(m, function(z) { z[60, ] <- 2; z }),
  array_rows = list(a, function(z) { z[3, 4, ] <- z[4, 4, ] * 2; z }),
  array_plane_row = list(a, function(z) { z[2, , 5] <- z[1, , 5] - z[3, , 5]; z }),
  chain = list(m, function(z) {
    z[5, ] <- z[6, ] * 2
    z[4:9, 10:20] <- 0
    z[, 3] <- z[, 4] + z[, 5]
    z[9, 2:99] <- z[10, 2:99] / 3
    z
  })
)

test_that("writes of short runs give base R's new versions, subsets and sums", {
  withr::local_options(gufunc.lazy_min_length = 1)
  for (threads in 1:2) {
    for (block in list(NULL, 7L)) {
      withr::local_options(gufunc.threads = threads, gufunc.block_size = block)
      for (name in names(short_writes)) {
        case <- short_writes[[name]]
        want <- case[[2]](case[[1]])
        info <- paste(name, threads, "threads, block", if (is.null(block)) "auto" else block)
        got <- case[[2]](lazy(case[[1]]))
        expect_true(is_lazy(got), info = info)
        expect_identical(materialize(case[[2]](lazy(case[[1]]))), want, info = info)
        expect_identical(sum(case[[2]](lazy(case[[1]])), na.rm = TRUE), sum(want, na.rm = TRUE),
                         info = info)
        picked <- case[[2]](lazy(case[[1]]))[101:1500]
        expect_identical(materialize(picked), want[101:1500], info = info)
        expect_identical(materialize(case[[2]](lazy(case[[1]])) * 2), want * 2, info = info)
      }
    }
  }
})

test_that("short runs written in place into x's own values are base R's", {
  withr::local_options(gufunc.lazy_min_length = 1)
  # A deferred value that reads other memory is computed straight into x's values
  # (engine::evaluate_into_region).
  w <- runif(100)
  step <- function(z, w, k) {
    invisible(c(z)) # computes z's values
    for (i in seq_len(k)) z[seq(i, length(z), 60)] <- w * i
    for (i in seq_len(k)) z[i + 10, ] <- w * i
    z
  }
  invisible(in_place_counters())
  got <- step(lazy(m) * 1, lazy(w), 6)
  counters <- in_place_counters()
  expect_identical(materialize(got), step(m * 1, w, 6))
  expect_gt(counters[3], 0)
  # Values that read x itself make new versions.
  shift <- function(z, k) {
    for (i in seq_len(k)) z[seq(1, length(z) - 1, 2)] <- z[seq(2, length(z), 2)] * 0.5 + i
    z
  }
  expect_identical(materialize(shift(lazy(v + 0), 6)), shift(v, 6))
  rows <- function(z) {
    for (i in 1:5) z[i, ] <- z[i + 1, ] * 2
    z
  }
  expect_identical(materialize(rows(lazy(m + 0))), rows(m))
})

test_that("a short-run write's value warns once, as base R's does", {
  withr::local_options(gufunc.lazy_min_length = 1)
  negative <- -abs(v)
  # Every warning, as often as raised (helper-differential.R).
  want <- differential_outcome(function() {
    z <- v
    z[seq(1, n, 2)] <- log(negative[seq(2, n, 2)])
    z
  }, every_warning = TRUE)
  got <- differential_outcome(function() {
    z <- lazy(v)
    z[seq(1, n, 2)] <- log(lazy(negative)[seq(2, n, 2)])
    z
  }, every_warning = TRUE)
  expect_identical(got, want)
})
