# Subscripts counting down (x[n:1], x[seq(b, a, by = -k)], m[n:1, ], m[, k:1],
# a[, , k:1]) are views read backwards (src/r/subscript_pick.cpp backward_pick_of,
# src/r/array_region.cpp block_pick), and equally spaced rows with columns
# (m[seq(1, n, 2), j:k]) views read with a stride: lazy values over the same memory
# whose values, attributes and everything computed from them are base R's.

set.seed(31)
n <- 1000
v <- c(runif(n - 4), NA, NaN, -Inf, 0)
vi <- sample(c(-50:50, NA), n, replace = TRUE)
m <- matrix(v, 40)
a <- array(v[1:600], c(10, 6, 10))

expect_backward_view <- function(got, want, what) {
  expect_true(is_lazy(got), info = what)
  expect_identical(materialize(got), want, info = what)
}

test_that("a vector subscript counting down is a view with base R's values", {
  withr::local_options(gufunc.lazy_min_length = 1)
  for (values in list(v, vi, vi > 0L, as.numeric(1:n))) {
    x <- lazy(values)
    for (i in list(quote(n:1), quote(500:3), quote(c(5, 4, 3)), quote(c(9L, 8L)),
                   quote(seq(999, 1, by = -7)), quote(seq(n, 2, by = -2)), quote(n:(n - 1)))) {
      idx <- eval(i)
      expect_backward_view(x[idx], values[idx], deparse(i))
    }
  }
  expect_backward_view(lazy(1:100)[100:1], (1:100)[100:1], "a compact sequence")
  named <- stats::setNames(v[1:26], letters)
  expect_backward_view(lazy(named)[26:1], named[26:1], "names")
})

test_that("views read backwards compose and fuse with other operations", {
  withr::local_options(gufunc.lazy_min_length = 1)
  x <- lazy(v)
  expect_identical(materialize(x[n:1][n:1]), v)
  expect_identical(materialize(rev(x[n:1])), v)
  expect_identical(materialize(x[-1][10:2]), v[-1][10:2])
  expect_identical(materialize(x[n:1][2:50]), v[n:1][2:50])
  expect_identical(materialize((x * 2)[n:1]), (v * 2)[n:1])
  expect_identical(materialize(x[n:1] + x), v[n:1] + v)
  expect_identical(sum(x[n:1] * x, na.rm = TRUE), sum(v[n:1] * v, na.rm = TRUE))
  expect_identical(materialize(cumsum(x[(n - 4):1])), cumsum(v[(n - 4):1]))
  plan <- format(lazy_plan(x[n:1] * 2))
  expect_true(any(grepl("reversed", plan)), info = paste(plan, collapse = "\n"))
})

test_that("matrix and array subscripts counting down are views with base R's attributes", {
  withr::local_options(gufunc.lazy_min_length = 1)
  dm <- m
  dimnames(dm) <- list(paste0("r", 1:40), paste0("c", 1:25))
  for (values in list(m, dm, matrix(vi, 40))) {
    M <- lazy(values)
    for (s in list(quote(M[40:1, ]), quote(M[, 25:1]), quote(M[40:1, 25:1]),
                   quote(M[30:2, 3:9]), quote(M[3:9, 20:2]), quote(M[30:2, 5]),
                   quote(M[5, 20:2]), quote(M[30:2, 5, drop = FALSE]),
                   quote(M[, 20:2][3:1, ]), quote(t(M)[25:1, ]),
                   quote(M[seq(1, 39, 2), 4:6]), quote(M[seq(39, 1, by = -2), ]),
                   quote(M[seq(2, 40, 3), 20:2]), quote(M[seq(2, 40, 3), seq(1, 25, 4)]),
                   quote(M[seq(1, 39, 2), 4:6][3:1, 2:1]), quote(t(M)[seq(1, 25, 2), 3:9]))) {
      want <- eval(s, list(M = values))
      expect_backward_view(eval(s), want, deparse(s))
    }
  }
  A <- lazy(a)
  for (s in list(quote(A[seq(1, 9, 2), , 3]), quote(A[seq(9, 1, by = -2), 2, ]),
                 quote(A[seq(2, 10, 4), 6:1, 7]))) {
    expect_backward_view(eval(s), eval(s, list(A = a)), deparse(s))
  }
  for (s in list(quote(A[10:1, , ]), quote(A[, , 10:1]), quote(A[, 2, 10:1]),
                 quote(A[7:3, , 2]), quote(A[, 6:1, 2]), quote(A[10:1, 2:5, 3]))) {
    expect_backward_view(eval(s), eval(s, list(A = a)), deparse(s))
  }
  # Planes of columns read backwards, either or both (contiguous runs forwards).
  for (s in list(quote(A[, 6:1, ]), quote(A[3:7, 2:3, 10:1]), quote(A[, 6:1, 2:4]),
                 quote(A[2:9, 5:2, 8:3]), quote(A[2:9, 2:5, 8:3]), quote(A[, 6:1, 4:2]),
                 quote(A[, seq(1, 6, 2), 2:3]), quote(A[, seq(6, 1, by = -2), 3:2]))) {
    expect_backward_view(eval(s), eval(s, list(A = a)), deparse(s))
  }
  b <- array(v[1:360], c(3, 4, 5, 6))
  B <- lazy(b)
  for (s in list(quote(B[, , 5:1, 2]), quote(B[, 4:1, , 2]), quote(B[2:3, , 5:2, 4]))) {
    expect_backward_view(eval(s), eval(s, list(B = b)), deparse(s))
  }
  # Shapes no single view reads keep base R's values.
  for (s in list(quote(A[10:1, 2:3, 1:2]), quote(A[seq(1, 9, 2), 2:3, 1:2]),
                 quote(A[2, seq(1, 5, 2), 2:3]), quote(B[2:3, , 5:2, 6:4]))) {
    expect_identical(materialize(eval(s)), eval(s, list(A = a)), info = deparse(s))
  }
})

test_that("backward views fuse with forward ones over 1 and 2 threads and odd blocks", {
  big <- matrix(rnorm(300 * 200), 300)
  big[sample(length(big), 40)] <- NA
  B <- lazy(big)
  for (block in list(NULL, 7L, 1000L)) {
    withr::local_options(gufunc.block_size = block)
    for_threads({
      expect_identical(materialize((B + 1)[300:1, 200:1] * B), (big + 1)[300:1, 200:1] * big)
      expect_identical(materialize(B[300:2, ] - B[299:1, ]), big[300:2, ] - big[299:1, ])
      expect_identical(materialize(B[seq(1, 299, 2), 3:50] * B[seq(300, 2, by = -2), 50:3]),
                       big[seq(1, 299, 2), 3:50] * big[seq(300, 2, by = -2), 50:3])
      expect_identical(sum(B[, 200:1] * B, na.rm = TRUE), sum(big[, 200:1] * big, na.rm = TRUE))
      e <- B * 3 + 1
      ee <- big * 3 + 1
      expect_identical(materialize(e[300:2, 200:2] + e[299:1, 199:1]),
                       ee[300:2, 200:2] + ee[299:1, 199:1])
    })
  }
})

test_that("views counting down of pending writes and of files read the values written", {
  withr::local_options(gufunc.lazy_min_length = 1)
  y <- lazy(m)
  y[1:5, ] <- 0
  w <- m
  w[1:5, ] <- 0
  expect_identical(materialize(y[40:1, ]), w[40:1, ])
  expect_identical(materialize(y[, 25:1] + y), w[, 25:1] + w)
  skip_on_os("windows")
  d <- tempfile()
  dir.create(d)
  on.exit(unlink(d, recursive = TRUE))
  f <- file.path(d, "m.npy")
  materialize(lazy(m), file = f)
  x <- lazy_file(f)
  for_threads({
    expect_identical(materialize(x[40:1, ]), m[40:1, ])
    expect_identical(materialize(x[, 25:1] * 2), m[, 25:1] * 2)
    expect_identical(materialize(x[30:2, 20:3]), m[30:2, 20:3])
    expect_identical(materialize(lazy_file(f)[n:1]), v[n:1])
    expect_identical(materialize(x[seq(2, 40, 3), 25:1] + 1), m[seq(2, 40, 3), 25:1] + 1)
  })
})

test_that("the plan says how a view reads", {
  M <- lazy(m)
  expect_match(lazy_plan(M[40:1, ] + 1)$inputs, "each read backwards", all = FALSE)
  expect_match(lazy_plan(M[, 25:1] + 1)$inputs, "last column first", all = FALSE)
  expect_match(lazy_plan(M[seq(1, 39, 2), 3:9] + 1)$inputs, "20 elements 2 apart", all = FALSE)
  expect_match(lazy_plan(M[seq(39, 1, by = -2), 3:9] + 1)$inputs, "2 apart, each read backwards",
               all = FALSE)
  A <- lazy(a)
  expect_match(lazy_plan(A[2:9, 5:2, 8:3] + 1)$inputs,
               "each plane's last column first, last plane first", all = FALSE)
})

test_that("subassignments counting down or spaced keep base R's order of writes", {
  y <- lazy(m)
  y[40:1, 2] <- 1:40
  w <- m
  w[40:1, 2] <- 1:40
  expect_identical(materialize(y), w)
  z <- lazy(v)
  z[n:1] <- v
  expect_identical(materialize(z), v[n:1])
  y <- lazy(m)
  y[seq(1, 39, 2), 4:6] <- y[seq(40, 2, by = -2), 6:4]
  w <- m
  w[seq(1, 39, 2), 4:6] <- w[seq(40, 2, by = -2), 6:4]
  expect_identical(materialize(y), w)
  # Spaced indices past full dimensions with one more level write planes, deferred.
  y <- lazy(a)
  y[, seq(1, 6, 2), 2:3] <- y[, seq(6, 1, by = -2), 3:2] * 2
  w <- a
  w[, seq(1, 6, 2), 2:3] <- w[, seq(6, 1, by = -2), 3:2] * 2
  expect_true(is_lazy(y))
  expect_identical(materialize(y), w)
  z <- lazy(v)
  z[n:2] <- z[1:(n - 1)]
  u <- v
  u[n:2] <- u[1:(n - 1)]
  expect_identical(materialize(z), u)
})

test_that("writes whose values read the same memory backwards give base R's result", {
  big <- runif(20000)
  bm <- matrix(big, 200)
  n <- length(big)
  vector_cases <- list(
    function(z) { z[2:n] <- z[(n - 1):1]; z },
    function(z) { z[1:(n - 1)] <- z[n:2] * 2 + z[1:(n - 1)]; z },
    function(z) { z[seq(1, n, 2)] <- z[seq(n, 2, by = -2)]; z },
    function(z) { for (i in 1:5) z[2:n] <- z[(n - 1):1] + i; z }
  )
  ba <- array(big, c(20, 25, 40))
  array_cases <- list(
    function(A) { A[, 1:24, 2:40] <- A[, 25:2, 39:1] * 2; A },
    function(A) { A[2:19, seq(1, 25, 2), 1:39] <- A[1:18, seq(25, 1, by = -2), 40:2]; A }
  )
  matrix_cases <- list(
    function(M) { M[2:200, ] <- M[199:1, ]; M },
    function(M) { M[, 1:99] <- M[, 100:2] * 2 - M[, 1:99]; M },
    function(M) { M[1:199, 2:100] <- M[200:2, 99:1] + 1; M },
    function(M) { M[seq(1, 199, 2), 2:100] <- M[seq(200, 2, by = -2), 99:1]; M },
    function(M) { for (i in 1:4) M[2:200, ] <- M[199:1, ] / 2 + M[1:199, ]; M }
  )
  for (min_length in c(1, 65536)) {
    for (block in list(NULL, 7L)) {
      withr::local_options(gufunc.lazy_min_length = min_length, gufunc.block_size = block)
      for_threads({
        for (f in vector_cases) expect_identical(materialize(f(lazy(big))), f(big))
        for (f in matrix_cases) expect_identical(materialize(f(lazy(bm))), f(bm))
        for (f in array_cases) expect_identical(materialize(f(lazy(ba))), f(ba))
      })
    }
  }
})
