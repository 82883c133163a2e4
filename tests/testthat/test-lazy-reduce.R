# Fused reductions of one lazy value against base R: identical(), with base R's types
# and warnings (test-lazy-reduce-exact.R checks the bits of sums, means and products).

reduction_inputs <- function() {
  set.seed(11)
  n <- 5000L
  d <- runif(n, -100, 100)
  d_na <- replace(d, c(7, 4000), NA)
  d_nan <- replace(d, c(9, 2500), NaN)
  i <- sample.int(100000L, n, TRUE)
  list(d = d, d_na = d_na, d_nan = d_nan, d_inf = replace(d, 3, Inf),
       i = i, i_na = replace(i, 17, NA), l = sample(c(TRUE, FALSE), n, TRUE),
       l_na = sample(c(TRUE, FALSE, NA), n, TRUE), all_na = rep(NA_real_, 10),
       int_max = rep(.Machine$integer.max, 10), empty = numeric(0), empty_int = integer(0))
}

expect_reduction_like_base <- function(fn, x, na.rm, label) {
  f <- match.fun(fn)
  expected <- base_outcome(f(x, na.rm = na.rm))
  got <- base_outcome(f(lazy(x), na.rm = na.rm))
  expect_identical(got, expected, label = label)
}

test_that("sum, prod, min, max, range, mean, any, all match base R", {
  inputs <- reduction_inputs()
  for_engine_settings({
    for (name in names(inputs)) {
      x <- inputs[[name]]
      for (fn in c("sum", "prod", "min", "max", "range", "mean", "any", "all")) {
        for (na.rm in c(FALSE, TRUE)) {
          expect_reduction_like_base(fn, x, na.rm, paste(fn, name, na.rm))
        }
      }
    }
  })
})

test_that("a reduction of an expression runs without materializing it", {
  skip_if_not_installed("bench")
  skip_if_not(capabilities("profmem"))
  a <- runif(1e6)
  b <- runif(1e6)
  z <- lazy(a) * b + 1
  bytes <- sum(bench::bench_memory(s <- sum(z * 2))$mem_alloc)
  expect_lt(as.numeric(bytes), 1e5) # one double temporary would be 8 MB
  expect_false(is_materialized(z))
  expect_identical(s, sum((a * b + 1) * 2))
  expect_identical(max(z > 1.5), max((a * b + 1) > 1.5))
  expect_identical(any(z > 1.999999), any((a * b + 1) > 1.999999))
  expect_identical(range(lazy(as.integer(a * 1000)) - 3L), range(as.integer(a * 1000) - 3L))
  expect_false(is_materialized(z))
})

test_that("reductions of a materialized value read its cached values", {
  a <- runif(4000)
  z <- lazy(a) / 3
  materialize(z)
  expect_identical(mean(z), mean(a / 3))
  expect_identical(min(z), min(a / 3))
})

test_that("several arguments, other options and numbers for any() go to base R", {
  a <- runif(4000)
  i <- sample.int(10L, 4000, TRUE)
  z <- lazy(a)
  expect_identical(sum(z, 1), sum(a, 1))
  expect_identical(max(z, lazy(i)), max(a, i))
  expect_identical(range(z, finite = TRUE), range(a, finite = TRUE))
  expect_identical(mean(z, trim = 0.1), mean(a, trim = 0.1))
  expect_identical(base_outcome(any(lazy(i))), base_outcome(any(i)))
  expect_identical(base_outcome(all(z)), base_outcome(all(a)))
  expect_identical(base_outcome(sum(z, na.rm = NA)), base_outcome(sum(a, na.rm = NA)))
})

test_that("sum and mean of a product multiply as they accumulate, like base R", {
  # The engine folds the product into the reduction (no stored products): check it
  # on special values, both operand orders, a recycled scalar and na.rm.
  inputs <- reduction_inputs()
  for_engine_settings({
    for (name in c("d", "d_na", "d_nan", "d_inf", "i_na", "all_na", "empty")) {
      x <- inputs[[name]]
      y <- rep_len(rev(inputs$d_nan), length(x))
      for (fn in c("sum", "mean")) {
        f <- match.fun(fn)
        for (na.rm in c(FALSE, TRUE)) {
          label <- paste(fn, name, na.rm)
          expect_identical(f(lazy(x) * y, na.rm = na.rm), f(x * y, na.rm = na.rm), label = label)
          expect_identical(f(y * lazy(x), na.rm = na.rm), f(y * x, na.rm = na.rm), label = label)
          expect_identical(f(lazy(x) * 3, na.rm = na.rm), f(x * 3, na.rm = na.rm), label = label)
          expect_identical(f((lazy(x) + 1) * (lazy(y) - 2), na.rm = na.rm),
                           f((x + 1) * (y - 2), na.rm = na.rm), label = label)
        }
      }
    }
  })
})
