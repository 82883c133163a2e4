# Circular shifts as views: x[c(n, 1:(n - 1))], m[c(2:n, 1), ] and a lattice
# Boltzmann streaming step f[shift(nx), shift(ny), k] read the same memory rolled,
# not a copy, and fuse with what follows.

shifted <- function(n, by) (seq_len(n) - by - 1) %% n + 1

test_that("shifts of the first two dimensions are views with base R's values", {
  a <- array(runif(7 * 5 * 3), c(7, 5, 3), dimnames = list(letters[1:7], LETTERS[1:5], NULL))
  for_engine_settings({
    la <- lazy(a)
    for (bx in -2:2) {
      for (by in -2:2) {
        for (k in 1:3) {
          v <- la[shifted(7, bx), shifted(5, by), k]
          expect_true(is_lazy(v))
          expect_identical(materialize(v), a[shifted(7, bx), shifted(5, by), k])
          expect_identical(materialize(v * 2 + la[, , k]),
                           a[shifted(7, bx), shifted(5, by), k] * 2 + a[, , k])
          expect_identical(materialize(la[shifted(7, bx), 2:4, k, drop = FALSE]),
                           a[shifted(7, bx), 2:4, k, drop = FALSE])
        }
      }
    }
    m <- a[, , 1]
    expect_identical(materialize(lazy(m)[c(2:7, 1), c(5, 1:4)]), m[c(2:7, 1), c(5, 1:4)])
  })
})

test_that("a shifted vector is a view; views of a shift compose only whole", {
  x <- runif(3000)
  lx <- lazy(x)
  v <- lx[c(3000, 1:2999)]
  expect_true(is_lazy(v))
  expect_identical(materialize(v), x[c(3000, 1:2999)])
  expect_identical(materialize(lx[c(2:3000, 1)] - lx), x[c(2:3000, 1)] - x)
  expect_identical(materialize(v[5:2000]), x[c(3000, 1:2999)][5:2000])
  expect_identical(materialize(v[c(2:3000, 1)]), x)
  expect_identical(materialize(lazy(1:3000)[c(10:3000, 1:9)]), c(10:3000, 1:9))
})

test_that("a streaming step writes shifted planes and reads them back", {
  f <- array(runif(40 * 30 * 9), c(40, 30, 9))
  ex <- c(0, 1, 0, -1, 0, 1, -1, -1, 1)
  ey <- c(0, 0, 1, 0, -1, 1, 1, -1, -1)
  lf <- lazy(f)
  for (step in 1:3) {
    for (k in 2:9) {
      lf[, , k] <- lf[shifted(40, ex[k]), shifted(30, ey[k]), k]
      f[, , k] <- f[shifted(40, ex[k]), shifted(30, ey[k]), k]
    }
    expect_identical(rowSums(lf, dims = 2), base::rowSums(f, dims = 2))
    lf <- lf * 0.99
    f <- f * 0.99
  }
  expect_identical(materialize(lf), f)
  expect_match(paste(capture.output(print(lazy_plan(lf[shifted(40, 1), , 2] + 1))), collapse = "\n"),
               "shifted circularly by 39 rows")
})

test_that("a shifted subassignment stays base R's", {
  x <- runif(2000)
  lx <- lazy(x)
  lx[c(2000, 1:1999)] <- seq_len(2000)
  x[c(2000, 1:1999)] <- seq_len(2000)
  expect_identical(materialize(lx), x)
  m <- matrix(runif(2000), 40)
  lm <- lazy(m)
  lm[c(40, 1:39), ] <- 0
  m[c(40, 1:39), ] <- 0
  expect_identical(materialize(lm), m)
})
