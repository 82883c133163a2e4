# sum(), mean() and prod() of lazy values give base R's bits (one long double
# accumulator in index order, mean's second pass), whatever the threads and the block
# size; option gufunc.sum_order = "fast" gives one result for any threads and blocks.

# A value's type, bits (for doubles) and the warnings it came with.
bits_outcome <- function(expr) {
  outcome <- base_outcome(expr)
  v <- outcome$value
  if (is.double(v)) outcome$value <- paste(as.character(writeBin(v, raw())), collapse = "")
  outcome$type <- typeof(v)
  outcome
}

expect_same_bits <- function(got, expected, label) {
  expect_identical(bits_outcome(got), bits_outcome(expected), label = label)
}

exact_doubles <- function(n) {
  set.seed(n %% 1000 + 1)
  wide <- (runif(n) - 0.5) * 10^sample(-20:20, n, TRUE)
  at <- function(k) unique(pmin(n, c(1L, sample.int(n, k, TRUE))))
  list(
    wide = wide,
    cancel = rep_len(c(1e17, 1, -1e17, 2^-60), n) * rep_len(c(1, 1, 1, -1), n),
    alternating = rep_len(c(5.2, 1.5), n),
    tiny = c(1, 2^-70, 0, 0, -1, rep(0, n))[seq_len(n)],
    na_nan = replace(replace(wide, at(2), NaN), at(2), NA),
    nan_na = replace(replace(wide, at(2), NA), at(2), NaN),
    neg_nan = replace(replace(wide, at(1), -NaN), at(1), NaN),
    inf = replace(wide, at(2), Inf),
    inf_both = replace(replace(wide, at(1), Inf), at(1), -Inf),
    huge = rep_len(c(1e308, 1e308, -1e308), n),
    near_one = 1 + (runif(n) - 0.5) / 1e3
  )
}

exact_integers <- function(n) {
  set.seed(n %% 1000 + 2)
  i <- sample.int(100000L, n, TRUE) - 50000L
  list(
    int = i,
    int_na = replace(i, pmin(n, c(1L, n %/% 2L + 1L)), NA),
    int_max = rep(.Machine$integer.max, n),
    small = sample(c(-2L, -1L, 1L, 2L, 3L), n, TRUE),
    lgl = sample(c(TRUE, FALSE), n, TRUE),
    lgl_na = sample(c(TRUE, FALSE, NA), n, TRUE)
  )
}

lengths_around_blocks <- c(1, 2, 3, 4, 5, 65535, 65536, 65537)

test_that("the issue's reproducers give base R's bits", {
  x <- rep_len(c(5.2, 1.5), 65536)
  expect_same_bits(sum(lazy(x)), sum(x), "sum")
  expect_same_bits(mean(lazy(x)), mean(x), "mean")
  y <- c(1, 2^-70, 0, 0, -1, rep(0, 65531))
  expect_same_bits(sum(lazy(y)), sum(y), "sum tiny")
  expect_same_bits(sum(lazy(y)), 0, "sum tiny is 0")
  i <- c(1L, NA, rep(2L, 1e5))
  expect_same_bits(prod(lazy(i)), prod(i), "prod of integers with NA")
  expect_same_bits(mean(lazy(i)), mean(i), "mean of integers with NA")
})

# Every reduction `fns` (with and without na.rm) of every input, as bits_outcome()s;
# `wrap` is lazy() for the engine, identity for base R.
reductions_of <- function(inputs, fns, wrap) {
  out <- list()
  for (name in names(inputs)) {
    x <- inputs[[name]]
    fs <- if (is.logical(x)) c(fns, "any", "all") else fns
    for (fn in fs) {
      for (na.rm in c(FALSE, TRUE)) {
        f <- match.fun(fn)
        out[[paste(fn, name, na.rm)]] <- bits_outcome(f(wrap(x), na.rm = na.rm))
      }
    }
  }
  out
}

expect_reductions_like_base <- function(inputs, fns) {
  expected <- reductions_of(inputs, fns, identity)
  for_engine_settings({
    got <- reductions_of(inputs, fns, lazy)
    for (k in names(expected)) {
      if (!identical(got[[k]], expected[[k]])) expect_identical(got[[k]], expected[[k]], label = k)
    }
    expect_identical(names(got), names(expected))
  })
}

test_that("sum, mean and prod of doubles give base R's bits for any threads and blocks", {
  for (n in lengths_around_blocks) {
    expect_reductions_like_base(exact_doubles(n), c("sum", "mean", "prod"))
  }
})

test_that("reductions of integers and logicals give base R's bits for any threads and blocks", {
  for (n in lengths_around_blocks) {
    expect_reductions_like_base(exact_integers(n), c("sum", "mean", "prod", "min", "max", "range"))
  }
})

test_that("min, max and range of doubles keep base R's first extreme and NaN", {
  for (n in c(3, 65537)) {
    inputs <- c(exact_doubles(n), list(zeros = rep_len(c(0, -0, 0), n),
                                       neg_zeros = rep_len(c(-0, 0), n)))
    expect_reductions_like_base(inputs, c("min", "max", "range"))
  }
})

test_that("fused expressions give base R's bits for any threads and blocks", {
  for (n in c(5, 65537, 1e6 + 3)) {
    set.seed(3)
    a <- (runif(n) - 0.5) * 10^sample(-20:20, n, TRUE)
    b <- runif(n)
    c <- replace(rnorm(n), 2, NA)
    settings <- if (n > 1e5) list(list(1L, 7L), list(2L, NULL)) else NULL
    check <- function() {
      expect_same_bits(sum(lazy(a) * b), sum(a * b), paste("sum(a * b)", n))
      expect_same_bits(mean(lazy(a) * b), mean(a * b), paste("mean(a * b)", n))
      expect_same_bits(sum(lazy(a) * b + c, na.rm = TRUE), sum(a * b + c, na.rm = TRUE),
                       paste("sum(a * b + c)", n))
      expect_same_bits(sum(lazy(a) * b + c), sum(a * b + c), paste("sum(a * b + c) NA", n))
      expect_same_bits(mean(sqrt(lazy(b)) + 1), mean(sqrt(b) + 1), paste("mean(sqrt)", n))
      expect_same_bits(prod(1 + lazy(b) / 1e6), prod(1 + b / 1e6), paste("prod", n))
      expect_same_bits(sum(lazy(b) > 0.5), sum(b > 0.5), paste("sum(b > 0.5)", n))
    }
    if (is.null(settings)) {
      for_engine_settings(check())
    } else {
      # 1e6 blocks of one element take long: 1 thread with blocks of 7, 2 with automatic.
      for (s in settings) {
        with_options(list(gufunc.threads = s[[1]], gufunc.block_size = s[[2]]), check())
      }
    }
  }
})

test_that("a mean's second pass over computed values gives base R's bits", {
  # The first pass keeps the values it computes, and the second folds those.
  set.seed(5)
  n <- 4099
  a <- (runif(n) - 0.5) * 10^sample(-20:20, n, TRUE)
  with_na <- replace(a, c(3, 4000), c(NA, NaN))
  with_inf <- replace(a, 17, Inf)
  for_engine_settings({
    expect_same_bits(mean(exp(lazy(a) / 1e20)), mean(exp(a / 1e20)), "mean(exp)")
    expect_same_bits(mean(lazy(with_na) * 3), mean(with_na * 3), "mean with NA")
    expect_same_bits(mean(lazy(with_na) * 3, na.rm = TRUE), mean(with_na * 3, na.rm = TRUE),
                     "mean with NA removed")
    expect_same_bits(mean(lazy(with_inf) - 1), mean(with_inf - 1), "mean with Inf")
    expect_same_bits(mean(ifelse(lazy(a) > 0, a, -a)), mean(ifelse(a > 0, a, -a)), "mean(ifelse)")
  })
})

test_that("a mean of values at hand reads them twice instead of copying them", {
  # Only values dear to compute are kept for the second pass: a copy of an input,
  # or of arithmetic on it, costs a fresh buffer of its size, more than reading or
  # computing the values again (mean(lazy(x)) was slower than base R's mean(x)).
  x <- runif(3e5)
  engine_counters()
  expect_same_bits(mean(lazy(x)), mean(x), "mean of an input")
  expect_lt(engine_counters()[2], 8 * length(x))
  expect_same_bits(mean(lazy(x) * 2 - 1), mean(x * 2 - 1), "mean of arithmetic")
  expect_lt(engine_counters()[2], 8 * length(x))  # computed again
  expect_same_bits(mean(ifelse(lazy(x) > 0.5, x, -x)), mean(ifelse(x > 0.5, x, -x)), "a choice")
  expect_lt(engine_counters()[2], 8 * length(x))
  expect_same_bits(mean(exp(lazy(x)) * 2), mean(exp(x) * 2), "mean of exp()")
  expect_gte(engine_counters()[2], 8 * length(x))  # kept
  f <- tempfile(fileext = ".npy")
  on.exit(unlink(f))
  materialize(lazy(x), file = f)
  expect_same_bits(mean(lazy_file(f) * 2), mean(x * 2), "mean of arithmetic on a file")
  expect_gte(engine_counters()[2], 8 * length(x))  # kept: a file is not read twice
})

test_that("a mean whose values are computed again warns once, as base R", {
  # (a * 3L overflows: a warning from the first pass, and again from the second.)
  x <- c(1e9L, seq_len(5e4))
  run <- function(a) {
    p <- a * 3L
    mean(ifelse(is.na(p), 0, p) + 0.5)
  }
  outcome <- function(a) {
    messages <- character()
    value <- withCallingHandlers(run(a), warning = function(w) {
      messages <<- c(messages, conditionMessage(w))
      invokeRestart("muffleWarning")
    })
    list(value = value, warnings = messages)
  }
  want <- outcome(x)
  got <- outcome(lazy(x))
  expect_identical(got$warnings, "NAs produced by integer overflow")
  expect_identical(got$warnings, want$warnings)
  expect_same_bits(got$value, want$value, "mean computed again")
})

test_that("a mean of more values than are kept computes them again, with base R's bits", {
  skip_on_cran()  # 270 MB of values
  n <- 2^25 + 5  # more than 256 MB of doubles
  x <- rep_len(c(5.2, 1.5, 1e-3), n)
  expect_same_bits(mean(lazy(x) * 1.1), mean(x * 1.1), "mean beyond the kept values")
})

test_that("option gufunc.sum_order = \"fast\" gives one result for any threads and blocks", {
  set.seed(4)
  n <- 65537
  a <- (runif(n) - 0.5) * 10^sample(-20:20, n, TRUE)
  b <- runif(n)
  x <- replace(a, c(5, 600), NA)
  results <- list()
  with_options(list(gufunc.sum_order = "fast"), for_engine_settings({
    results[[length(results) + 1L]] <- lapply(
      list(sum(lazy(a)), mean(lazy(a)), sum(lazy(a) * b), mean(lazy(a) * b),
           mean(sqrt(lazy(b)) + 1), sum(lazy(x), na.rm = TRUE), mean(lazy(x), na.rm = TRUE),
           sum(lazy(x)), prod(1 + lazy(b) / 1e6)),
      bits_outcome
    )
  }))
  for (r in results[-1]) expect_identical(r, results[[1]])
  with_options(list(gufunc.sum_order = "fast"), {
    expect_equal(sum(lazy(b) * 2), sum(b * 2), tolerance = 1e-15)
    expect_equal(mean(sqrt(lazy(b))), mean(sqrt(b)), tolerance = 1e-15)
    expect_same_bits(prod(1 + lazy(b) / 1e6), prod(1 + b / 1e6), "prod stays exact")
  })
})

test_that("option gufunc.sum_order is checked", {
  x <- lazy(runif(2000))
  with_options(list(gufunc.sum_order = "Fast"), {
    expect_error(sum(x), "`gufunc.sum_order` must be \"exact\" or \"fast\", not \"Fast\"",
                 class = "gufunc_argument_error", fixed = TRUE)
  })
  with_options(list(gufunc.sum_order = 2), {
    expect_error(mean(x), "not 2", class = "gufunc_argument_error", fixed = TRUE)
  })
  with_options(list(gufunc.sum_order = c("exact", "fast")), {
    expect_error(sum(x), "not a character of length 2", class = "gufunc_argument_error",
                 fixed = TRUE)
  })
  with_options(list(gufunc.sum_order = "exact"), expect_identical(sum(x), sum(materialize(x))))
})
