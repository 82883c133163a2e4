# Fused runs (src/engine/fused_runs.cpp): instructions of double + - * / and
# unary - computed together a row of 256 elements at a time. Their values must be
# base R's to the bits (NaN payloads, the order of NA and NaN, signed zeros) for
# every length (whole rows, a last partial row, fewer elements than a row), block
# size and thread count, wherever the values between the operations go: rows of
# the run's own, the output, a later kernel that is not fused, a reduction.

fused_grid <- c(grid_double, grid_nan_bits)

# n values of the grid, every one of them when n is large enough.
grid_values <- function(n, seed) {
  set.seed(seed)
  v <- sample(rep_len(fused_grid, max(n, length(fused_grid))))
  v[seq_len(n)]
}

# Evaluates `code` with 1 and 2 threads and blocks of 1, 7, 300 (a row and a
# part), 1000 elements and the automatic size; everything deferred.
for_fused_settings <- function(code) {
  code <- substitute(code)
  env <- parent.frame()
  for (threads in 1:2) {
    for (block in list(1L, 7L, 300L, 1000L, NULL)) {
      with_options(
        list(gufunc.threads = threads, gufunc.block_size = block, gufunc.lazy_min_length = 0),
        eval(code, env)
      )
    }
  }
}

fused_expressions <- list(
  conversion = function(x, y) (x - 273.15) * 1.8 + 32 - y / 10,
  mixed = function(x, y) -x * y + x / (y - 1) - (x + y) * (x - y),
  shared = function(x, y) {
    a <- x * 2 + 1
    a * a - a / y
  },
  reciprocals = function(x, y) 1 / x - 2 / (y + 0.5) + -x,
  chain = function(x, y) ((((x + 1) * 2 - 3) / 4 + 5) * 6 - 7) / 8 + y,
  # NA and NaN in either order: the first operand's NaN is the result's
  order = function(x, y) (y + x) * (x + y) - y * x + (x - y) / (y - x),
  halves = function(x, y) x / 2 + y / 0.25 - x / -4
)

test_that("fused runs give base R's bits for every length, block size and thread count", {
  for (n in c(1, 5, 255, 256, 257, 700, 3001)) {
    x <- grid_values(n, 1)
    y <- grid_values(n, 2)
    lx <- lazy(x)
    ly <- lazy(y)
    for (name in names(fused_expressions)) {
      f <- fused_expressions[[name]]
      want <- f(x, y)
      for_fused_settings({
        got <- materialize(f(lx, ly))
        expect_true(identical_bits(got, want), label = paste(name, "n =", n))
      })
    }
  }
})

test_that("a plan says which instructions run fused", {
  x <- lazy(runif(5000))
  y <- lazy(runif(5000))
  text <- with_options(list(gufunc.lazy_min_length = 0),
                       format(lazy_plan((x - 273.15) * 1.8 + 32 - y / 10)))
  expect_true(any(grepl("instructions 1-5 run fused", text)), info = paste(text, collapse = "\n"))
  # One operation alone is not a run.
  text <- format(lazy_plan(x + y))
  expect_false(any(grepl("run fused", text)))
})

test_that("values read after a run are written where they are read", {
  n <- 2000
  x <- grid_values(n, 3)
  y <- grid_values(n, 4)
  # `a` is read by abs() (not fused) and again by `*` after it.
  f <- function(x, y) {
    a <- x * 2 + y
    sqrt(abs(a)) + a * 3 - y
  }
  # Integers cast to double, then fused.
  g <- function(i, y) i * 2.5 + y / 3 - i
  i <- sample(c(NA, -5:5, .Machine$integer.max), n, replace = TRUE)
  want_f <- suppressWarnings(f(x, y))
  want_g <- g(i, y)
  for_fused_settings({
    expect_true(identical_bits(suppressWarnings(materialize(f(lazy(x), lazy(y)))), want_f))
    expect_true(identical_bits(materialize(g(lazy(i), lazy(y))), want_g))
  })
})

test_that("reductions of fused runs, and scalars from reductions inside them", {
  set.seed(5)
  n <- 5000
  x <- runif(n, 250, 310)
  y <- runif(n, 0, 100)
  e <- function(x, y) (x - 273.15) * 1.8 + 32 - y / 10
  for_fused_settings({
    expect_identical(sum(e(lazy(x), lazy(y))), sum(e(x, y)))
    expect_identical(mean(e(lazy(x), lazy(y))), mean(e(x, y)))
    expect_identical(materialize((lazy(x) - mean(lazy(x))) * 2 + lazy(y) / sum(lazy(y))),
                     (x - mean(x)) * 2 + y / sum(y))
    expect_identical(sum(lazy(x) * lazy(y) + 1), sum(x * y + 1))
  })
  # The fast order: the same sum of the same values, fused or computed first.
  with_options(list(gufunc.sum_order = "fast", gufunc.lazy_min_length = 0), {
    values <- materialize(e(lazy(x), lazy(y)))
    expect_identical(sum(e(lazy(x), lazy(y))), sum(lazy(values)))
    expect_identical(mean(e(lazy(x), lazy(y))), mean(lazy(values)))
  })
})

test_that("views, repeated values and files as operands of fused runs", {
  set.seed(6)
  m <- matrix(grid_values(60 * 50, 7), 60, 50)
  v <- grid_values(3000, 8)
  n <- length(v)
  lm <- lazy(m)
  lv <- lazy(v)
  for_fused_settings({
    expect_true(identical_bits(materialize(lv[2:n] - lv[1:(n - 1)] * 0.5 + 1),
                               v[2:n] - v[1:(n - 1)] * 0.5 + 1))
    expect_true(identical_bits(materialize(lm[2:40, 3:30] * 2 - lm[1:39, 3:30] / 3 + 1),
                               m[2:40, 3:30] * 2 - m[1:39, 3:30] / 3 + 1))
    expect_true(identical_bits(materialize(t(lm) * 2 + t(lm) / 7 - 1), t(m) * 2 + t(m) / 7 - 1))
    expect_true(identical_bits(materialize(rep(lv[1:1000], each = 3) * 2 - lv + 1),
                               rep(v[1:1000], each = 3) * 2 - v + 1))
  })
  file <- tempfile(fileext = ".npy")
  on.exit(unlink(file))
  materialize(lv, file = file)
  fv <- lazy_file(file)
  for_fused_settings({
    expect_true(identical_bits(materialize((fv - 273.15) * 1.8 + 32 - lv / 10),
                               (v - 273.15) * 1.8 + 32 - v / 10))
  })
})

test_that("runs longer than a run's slots are split, with the same values", {
  set.seed(9)
  n <- 1500
  inputs <- lapply(1:40, function(k) runif(n))
  lazies <- lapply(inputs, lazy)
  total <- function(vs) Reduce(function(a, b) a * 0.5 + b, vs)
  for_fused_settings({
    expect_identical(materialize(total(lazies)), total(inputs))
  })
})

test_that("values written straight into x go through fused runs too", {
  set.seed(10)
  a <- matrix(runif(300 * 300), 300, 300) + diag(300, 300)
  step <- function(a) {
    for (c in 2:40) {
      rows <- c:300
      cols <- (c - 1):300
      a[rows, cols] <- a[rows, cols] * 0.5 - a[rows, cols] / 3 + 1
    }
    a
  }
  for_threads(expect_identical(materialize(step(lazy(a))), step(a)))
})

test_that("math functions in fused runs: base R's values and warnings", {
  n <- 3001
  x <- grid_values(n, 11)
  y <- grid_values(n, 12)
  fs <- list(
    roots = function(x, y) sqrt(x * x + y * y) / 2 - sqrt(abs(x)),
    logs = function(x, y) log(x - 2) * 3 + log2(y) - log10(x) / log1p(y),
    trig = function(x, y) sin(x) * cos(y) - tan(x / 3) + atan2(y, x) * 2,
    rounding = function(x, y) floor(x * 2.5) + ceiling(y / 3) - trunc(x - y) * sign(y),
    exps = function(x, y) exp(x / 100) - expm1(y / 1000) + log(x * 1e-3, 7)
  )
  for (name in names(fs)) {
    f <- fs[[name]]
    want <- base_outcome(f(x, y))
    for_fused_settings({
      got <- lazy_outcome(f(lazy(x), lazy(y)))
      expect_true(identical_bits(got$value, want$value), label = name)
      expect_identical(got$warnings, want$warnings, label = name)
    })
  }
  # A row's last elements only: no warning from elements that are not there.
  short <- c(rep(4, 300), 3)
  for_fused_settings(expect_silent(materialize(log(lazy(short) - 2) * 2 + 1)))
})
