# Option gufunc.sum_order = "fast": sums and means of doubles in chunks of 1024 values
# (16 double accumulators each, long double where those are not all finite), the
# chunks' sums in index order. Helper threads sum the whole chunks of their blocks
# and the fold adds the chunks cut by block ends itself: the result must be one for
# any threads and blocks, near base R's, and NA, NaN and infinities as base R's.

fast_bits <- function(v) paste(as.character(writeBin(v, raw())), collapse = "")

# The bits of `expr` (a function of nothing) under each of threads x block sizes,
# block sizes that cut chunks anywhere (7, 1000, 1023), on chunk ends (1024) and
# past them (1025, 4099), and the automatic one.
fast_results <- function(expr) {
  out <- character()
  for (threads in 1:2) {
    for (block in list(7L, 1000L, 1023L, 1024L, 1025L, 4099L, NULL)) {
      with_options(
        list(gufunc.sum_order = "fast", gufunc.threads = threads, gufunc.block_size = block,
             gufunc.lazy_min_length = 0),
        out[[length(out) + 1L]] <- fast_bits(expr())
      )
    }
  }
  out
}

expect_one_result <- function(expr, label) {
  r <- fast_results(expr)
  expect_identical(unique(r), r[[1]], label = label)
}

test_that("fast sums and means give one result for any threads and blocks", {
  set.seed(31)
  n <- 200003 # 195 whole chunks and a tail
  a <- (runif(n) - 0.5) * 10^sample(-12:12, n, TRUE)
  b <- runif(n)
  x <- replace(a, c(3, 5000, 150000), NA)
  x[77777] <- NaN
  la <- lazy(a)
  lb <- lazy(b)
  lx <- lazy(x)
  expect_one_result(function() sum(la), "sum of an input")
  expect_one_result(function() sum(la * 3 - lb), "sum of an expression")
  expect_one_result(function() sum(la * lb), "sum of products (fused into the fold)")
  expect_one_result(function() mean(la / 7), "mean")
  expect_one_result(function() sum(lx, na.rm = TRUE), "sum, na.rm")
  expect_one_result(function() mean(lx + 1, na.rm = TRUE), "mean, na.rm")
  expect_one_result(function() sum(la[-(1:5)]), "sum of a view starting mid-chunk")
  for (len in c(1, 1023, 1024, 1025, 2048, 3001)) {
    v <- lazy(a[seq_len(len)])
    expect_one_result(function() sum(v * 2), paste("length", len))
  }
})

test_that("fast sums are near base R's and count as base R's", {
  set.seed(32)
  n <- 100001
  b <- runif(n)
  x <- replace(b, sample(n, 40), NA)
  with_options(list(gufunc.sum_order = "fast"), {
    expect_equal(sum(lazy(b) * 2), sum(b * 2), tolerance = 1e-15)
    expect_equal(mean(sqrt(lazy(b))), mean(sqrt(b)), tolerance = 1e-15)
    expect_equal(sum(lazy(x), na.rm = TRUE), sum(x, na.rm = TRUE), tolerance = 1e-15)
    expect_equal(mean(lazy(x) * 3, na.rm = TRUE), mean(x * 3, na.rm = TRUE), tolerance = 1e-15)
    expect_identical(sum(lazy(numeric(3000))), 0)
    expect_identical(mean(lazy(rep(2.5, 5000))), 2.5)
  })
})

test_that("fast sums give base R's NA, NaN, infinities and long double range", {
  n <- 5000
  cases <- list(
    na_then_nan = replace(rep(1, n), c(10, 20), c(NA, NaN)),
    nan_then_na = replace(rep(1, n), c(10, 20), c(NaN, NA)),
    na_nan_apart = replace(rep(1, n), c(10, 4000), c(NaN, NA)),
    inf = replace(rep(1, n), 2500, Inf),
    minus_inf = replace(rep(1, n), c(5, 3000), -Inf),
    both_infinities = replace(rep(1, n), c(100, 4100), c(Inf, -Inf)),
    infinities_one_lane = replace(rep(1, n), c(17, 33), c(Inf, -Inf)),
    nan_and_inf = replace(rep(1, n), c(1, 2), c(NaN, Inf)),
    # Beyond the double range within a lane, not in long double: base R keeps it.
    overflow_one_lane = c(1e308, rep(0, 15), 1e308, rep(0, 15), -1e308, rep(1, n)),
    overflow_across_chunks = c(rep(c(1e308, rep(0, 1023)), 3), rep(-1e308, 2))
  )
  for (name in names(cases)) {
    v <- cases[[name]]
    for (threads in 1:2) {
      with_options(list(gufunc.sum_order = "fast", gufunc.threads = threads,
                        gufunc.block_size = 1000L, gufunc.lazy_min_length = 0), {
        got <- sum(lazy(v) * 1)
        want <- sum(v * 1)
        expect_identical(is.na(got), is.na(want), label = paste(name, "is.na"))
        expect_identical(is.nan(got), is.nan(want), label = paste(name, "is.nan"))
        if (!is.na(want)) expect_equal(got, want, tolerance = 1e-15, label = name)
        got_mean <- mean(lazy(v) * 1)
        want_mean <- mean(v * 1)
        expect_identical(is.na(got_mean), is.na(want_mean), label = paste(name, "mean is.na"))
        expect_identical(is.nan(got_mean), is.nan(want_mean), label = paste(name, "mean is.nan"))
      })
    }
  }
})
