# Long double sums in index order by integer additions (src/engine/ordered_sum.cpp)
# against the x87 loop they replace: the same ten bytes for every input, and base R's
# sum() and mean() bits through the engine. The inputs aim at what the integer path
# must get right: ties (values exactly halfway between two multiples of the total's
# last bit) with totals of both parities, totals crossing a power of two or zero,
# values as large as the total, NaN, Inf, subnormals.

# add_in_order(), add_prepared() (values prepared ahead for a guessed binade) and
# the x87 loop: the same ten bytes.
same_long_double <- function(x, start = 0) {
  r <- .Call(gufunc:::C_test_ordered_sum, as.double(x), as.double(start))
  identical(r[1:10], r[21:30]) && identical(r[11:20], r[21:30])
}

# Quarter multiples of the last bit of a total near 2^p (ties and roundings), some
# of them against the total's sign, now and then a value as large as the total.
near_binade <- function(n, p, against) {
  last_bit <- 2^(p - 63)
  x <- sample(c(-1, 1), n, TRUE, prob = c(against, 1 - against)) * sample(0:63, n, TRUE) / 4 *
    last_bit
  big <- sample.int(n, max(1, n %/% 500))
  x[big] <- sample(c(-1, 1), length(big), TRUE) * 2^(p - 2)
  x
}

test_that("integer additions give the x87 loop's bytes near a binade's edges", {
  set.seed(20261128)
  agree <- logical(0)
  for (p in c(-40, 0, 23, 52, 70)) {
    for (against in c(0, 0.3, 0.5)) {
      for (start in c(2^p, -2^p, 2^p - 2^(p - 52), 1.5 * 2^p, 2^(p + 1) - 2^(p - 51))) {
        n <- sample(c(7, 1024, 1025, 4000), 1)
        agree <- c(agree, same_long_double(near_binade(n, p, against), start))
      }
    }
  }
  expect_true(all(agree))
  expect_length(agree, 75)
})

test_that("integer additions give the x87 loop's bytes on ordinary and hostile data", {
  set.seed(7)
  n <- 5000
  u <- runif(n)
  inputs <- list(
    products = u * runif(n), uniform = u, negative = -u, normal = rnorm(n),
    offset = rnorm(n, 100), integers = as.double(sample(1:10, n, TRUE)),
    halves = sample(c(0.5, 1.5, 2.5, -0.5), n, TRUE), dyadic = round(u * 2^20) / 2^20,
    magnitudes = u * 10^sample(-20:20, n, TRUE), tiny = u * 1e-300, huge = u * 1e300,
    subnormal = c(u[1:100], rep(5e-324, n - 100)), zeros = c(rep(0, 100), u, -0),
    cancel = c(u, -u), jump = c(1e20, u, -1e20, u), powers = 2^sample(-60:60, n, TRUE),
    na = replace(u, c(3, 3000), NA), nan = replace(u, 2500, NaN),
    inf = replace(u, c(100, 4000), c(Inf, -Inf)), one_bit = 1 + u * 2^-40
  )
  for (name in names(inputs)) {
    for (start in c(0, 1e6, -3.5, 2^70)) {
      expect_true(same_long_double(inputs[[name]], start), label = paste(name, start))
    }
  }
  expect_true(same_long_double(numeric(0), 2))
  expect_true(same_long_double(1, 0))
})

test_that("integer additions give the x87 loop's bytes on random data of every scale", {
  # Chunks without ties take the sums alone (block_sums()), chunks with ties the
  # steps too (block_terms()): random magnitudes, binades and starts for both.
  set.seed(20261202)
  agree <- logical(0)
  for (k in 1:300) {
    n <- sample(c(1023, 1024, 3000), 1)
    p <- sample(-60:80, 1)
    x <- switch(sample(5, 1),
      runif(n) * 2^p,
      rnorm(n) * 2^p,
      sample(-64:64, n, TRUE) / 4 * 2^(p - 63),
      (sample(0:1e6, n, TRUE) + sample(c(0, 0.5), n, TRUE)) * 2^(p - 63),
      runif(n) * 2^p * sample(c(1, 2^-30, 2^20), n, TRUE))
    start <- sample(c(0, 2^(p + 10), -2^(p + 12), 0.75 * 2^(p + 63), 1.5 * 2^(p + 40)), 1)
    agree <- c(agree, same_long_double(x, start))
  }
  expect_true(all(agree))
  expect_length(agree, 300)
})

test_that("sum() and mean() whose totals round at ties give base R's bits", {
  set.seed(3)
  # A total of about 2^40 whose last bit is 2^-23: quarter multiples of it tie often.
  x <- c(2^40, sample(0:63, 3e5, TRUE) / 4 * 2^-23)
  y <- c(-2^40, -x[-1])
  mixed <- c(2^40, near_binade(3e5, 40, 0.4))
  old <- options(gufunc.lazy_min_length = 0)
  on.exit(options(old))
  for (threads in 1:2) {
    for (block in c(4096, 65536, 100003)) {
      withr::local_options(gufunc.threads = threads, gufunc.block_size = block)
      for (v in list(x, y, mixed)) {
        expect_identical(sum(lazy(v)), sum(v))
        expect_identical(mean(lazy(v)), mean(v))
        expect_identical(sum(lazy(v) * 3), sum(v * 3))
        expect_identical(sum(lazy(replace(v, 5, NA)), na.rm = TRUE), sum(replace(v, 5, NA), na.rm = TRUE))
      }
    }
  }
})

test_that("colSums() and colMeans() whose totals round at ties give base R's bits", {
  set.seed(11)
  rows <- 20000
  m <- cbind(c(2^40, sample(0:63, rows - 1, TRUE) / 4 * 2^-23),
             c(-2^40, -sample(0:63, rows - 1, TRUE) / 4 * 2^-23),
             c(2^40, near_binade(rows - 1, 40, 0.4)),
             runif(rows), replace(runif(rows), c(7, 9000), c(NA, NaN)),
             replace(runif(rows), c(7, 9000), c(NaN, NA)))
  old <- options(gufunc.lazy_min_length = 0)
  on.exit(options(old))
  for (threads in 1:2) {
    withr::local_options(gufunc.threads = threads)
    expect_identical(colSums(lazy(m)), colSums(m))
    expect_identical(colMeans(lazy(m)), colMeans(m))
    expect_identical(colSums(lazy(m) * 3), colSums(m * 3))
  }
})
