# cumsum, cumprod, cummax and cummin of lazy values: deferred scans fused with their
# input's producers, identical() to base R in values, NaN bits, names and warnings,
# whatever the threads and the block size.

scans <- c("cumsum", "cumprod", "cummax", "cummin")

# Vectors of a grid in several orders: NA before NaN and after, missing values
# first, last or absent.
scan_cases <- function(x) {
  present <- x[!is.na(x)]
  list(x, rev(x), present, rev(present), c(present, NA, present), x[1L], x[0L])
}

# Doubles whose NA and NaN meet in both orders, with the NaN bits of the grid.
double_cases <- c(scan_cases(grid_double), list(
  c(1, NaN, 2, NA, 3), c(1, NA, 2, NaN, 3), c(NaN, NA), c(NA, NaN), c(-Inf, Inf, 1),
  c(grid_nan_bits, 1, 2), rev(c(grid_nan_bits, 1, 2)), c(-0, 0, -0), c(0, -0),
  c(1e308, 1e308, -1e308), c(2, 1e-300, 1e-300, 1e300), c(5, grid_nan_bits[3], NaN)
))

integer_cases <- c(scan_cases(grid_integer), list(
  c(.Machine$integer.max, 1L, 2L), c(-.Machine$integer.max, -1L, 5L),
  c(.Machine$integer.max, -1L, 1L), c(1L, NA, 2L), c(NA, 1L, 2L), rep(1073741824L, 3)
))

logical_cases <- c(scan_cases(grid_logical), list(c(TRUE, TRUE, NA, TRUE), c(FALSE, NA)))

expect_scan_matches <- function(f, x) {
  fun <- match.fun(f)
  lazy_result <- lazy_outcome(fun(lazy(x)))
  expect_identical(lazy_result, base_outcome(fun(x)), info = paste(f, deparse(x)))
  if (is.double(lazy_result$value)) {
    expect_true(identical_bits(lazy_result$value, suppressWarnings(fun(x))),
                info = paste(f, deparse(x)))
  }
}

test_that("scans match base R on the value grids, NaN bits and warnings included", {
  for_engine_settings({
    for (f in scans) {
      for (x in c(double_cases, integer_cases, logical_cases)) expect_scan_matches(f, x)
    }
  })
})

test_that("long scans carry across blocks: sums, products, extremes, NA and overflow", {
  set.seed(13)
  n <- 5003L
  d <- runif(n) * 10^sample(-3:3, n, TRUE)
  near_one <- 1 + rnorm(n) / 1000
  ints <- sample(-1000:1000, n, TRUE)
  big <- sample(c(1e6L, 2e6L), n, TRUE)  # overflows near position 1400
  with_na <- replace(ints, 3001L, NA)
  with_nan <- replace(d, 2999L, NaN)
  with_both <- replace(with_nan, 4000L, NA)
  lgl <- sample(c(TRUE, FALSE), n, TRUE)
  for_engine_settings({
    for (f in scans) {
      for (x in list(d, -d, near_one, ints, big, with_na, with_nan, with_both, lgl)) {
        expect_scan_matches(f, x)
      }
    }
  })
})

test_that("scans fuse with their input's producers and stay deferred", {
  set.seed(7)
  x <- runif(4000)
  lx <- lazy(x)
  lazy_fallbacks(reset = TRUE)
  s <- cumsum(lx * 2 + 1)
  expect_identical(lazy_state(s), "deferred")
  p <- lazy_plan(s)
  expect_length(p$kernels, 1L)
  instructions <- p$kernels[[1L]]$instructions
  expect_length(instructions, 3L)
  expect_match(instructions[3L], "cumsum(t", fixed = TRUE)
  expect_identical(unname(p$bytes_written), 4000 * 8)
  out <- capture.output(print(p))
  expect_true(any(grepl("carries the scan", out, fixed = TRUE)))
  for_engine_settings({
    expect_identical(materialize(cumsum(lx * 2 + 1)), cumsum(x * 2 + 1))
    expect_identical(materialize(cumprod(lx / 2 + 0.75)), cumprod(x / 2 + 0.75))
    expect_identical(materialize(cummax(sin(lx * 10))), cummax(sin(x * 10)))
    expect_identical(materialize(cummin(lx - lazy(rev(x)))), cummin(x - rev(x)))
  })
  expect_length(lazy_fallbacks(), 0L)
})

test_that("readers of a scan fuse after it: arithmetic, reductions, scans of scans", {
  set.seed(3)
  x <- rnorm(3000)
  lx <- lazy(x)
  lazy_fallbacks(reset = TRUE)
  y <- cumsum(lx) * 3 - lx
  expect_identical(lazy_state(y), "deferred")
  p <- lazy_plan(y)
  expect_length(p$kernels, 2L)
  expect_match(p$kernels[[1L]]$split_reason, "cumsum() is computed first", fixed = TRUE)
  for_engine_settings({
    expect_identical(materialize(cumsum(lx) * 3 - lx), cumsum(x) * 3 - x)
    expect_identical(sum(cummax(lx)), sum(cummax(x)))
    expect_identical(materialize(cumsum(cumsum(lx))), cumsum(cumsum(x)))
    expect_identical(materialize(cummin(lx)[2:2999]), cummin(x)[2:2999])
  })
  expect_identical(head(cumsum(lx), 3), head(cumsum(x), 3))
  expect_identical(tail(cumprod(lazy(x / 10 + 1)), 3), tail(cumprod(x / 10 + 1), 3))
  expect_identical(cumsum(lx)[2000], cumsum(x)[2000])
  expect_length(lazy_fallbacks(), 0L)
})

test_that("scans keep the names only, as base R", {
  x <- setNames(seq(0.5, by = 0.25, length.out = 1200), paste0("n", 1:1200))
  attr(x, "note") <- "dropped"
  m <- matrix(1:1200, 40, dimnames = list(paste0("r", 1:40), NULL))
  a <- array(c(TRUE, FALSE, NA), 1200, dimnames = list(paste0("a", 1:1200)))
  empty <- setNames(numeric(0), character(0))
  for_engine_settings({
    for (f in scans) {
      fun <- match.fun(f)
      expect_identical(materialize(fun(lazy(x))), fun(x))
      expect_identical(lazy_outcome(fun(lazy(m))), base_outcome(fun(m)))
      expect_identical(lazy_outcome(fun(lazy(a))), base_outcome(fun(a)))
      expect_identical(materialize(fun(lazy(empty))), fun(empty))
      expect_identical(materialize(fun(lazy(integer(0)))), fun(integer(0)))
    }
  })
})

test_that("an integer overflow warns once, when the scan is computed", {
  x <- c(rep(1e6L, 3000), -5L)
  lx <- lazy(x)
  s <- cumsum(lx)
  expect_identical(lazy_state(s), "deferred")
  expect_warning(v <- materialize(s), "integer overflow in 'cumsum'", fixed = TRUE)
  expect_identical(v, suppressWarnings(cumsum(x)))
  expect_silent(materialize(s))
  expect_identical(lazy_outcome(cumsum(lx) + 1L), base_outcome(cumsum(x) + 1L))
})

test_that("short values, other arguments and other types go to base R", {
  short <- lazy(c(1, 2, 3))
  with_options(list(gufunc.lazy_min_length = 10), {
    expect_identical(cumsum(short), c(1, 3, 6))
  })
  expect_error(cumsum(lazy(runif(2000)), 2))
  f <- lazy(1:2000)
  expect_identical(materialize(cummax(f)), cummax(1:2000))
  # The argument under another name, as base R takes it (reg-tests-1d.R).
  x <- runif(2000)
  expect_identical(materialize(cumsum(zZ = lazy(x) * 2)), cumsum(x * 2))
  expect_error(sqrt(v = lazy(x)), "supplied argument name .v. does not match .x.")
  expect_error(round(digits = lazy(2)), "argument \"x\" is missing")
})

test_that("pieces of a scan read one after another resume its carry", {
  set.seed(5)
  n <- 600000L  # more than one chunk of margin sums (2^18 elements)
  x <- runif(n)
  y <- cumsum(lazy(x) * 2)
  dim(y) <- c(n / 2, 2)
  ref <- matrix(cumsum(x * 2), n / 2)
  expect_identical(colSums(y), colSums(ref))
  expect_identical(rowSums(y), rowSums(ref))
  expect_identical(materialize(y), ref)
  ints <- rep(5000L, n)
  z <- cumsum(lazy(ints))
  dim(z) <- c(n / 2, 2)
  expect_identical(capture_warnings(colMeans(z)),
                   capture_warnings(colMeans(matrix(cumsum(ints), n / 2))))
})
