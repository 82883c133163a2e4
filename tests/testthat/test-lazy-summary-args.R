# sum, prod, min, max and range of several arguments with lazy ones, range(finite =
# TRUE), and n-ary pmax/pmin: identical() to base R in value, type, attributes and
# warnings, without a fallback to base R; pmax/pmin deferred and fused.

summary_inputs <- function() {
  set.seed(13)
  n <- 3000L
  d <- runif(n, -100, 100)
  i <- sample.int(100000L, n, TRUE)
  M <- .Machine$integer.max
  list(
    d = d, d_na = replace(d, c(7, 2000), NA), d_nan = replace(d, c(9, 2500), NaN),
    d_nan_na = replace(d, c(5, 6), c(NaN, NA)), d_inf = replace(d, c(3, 4), c(Inf, -Inf)),
    zeros = c(0, -0, 0), neg_zeros = c(-0, 0, -0), grid = grid_double,
    i = i, i_na = replace(i, 17, NA), int_max = rep(M, 10), int_min = rep(-M, 3),
    i_grid = grid_integer, l = sample(c(TRUE, FALSE), n, TRUE), l_na = c(NA, TRUE, FALSE),
    all_na = rep(NA_real_, 4), nan_only = c(NaN, NaN), inf_only = c(Inf, -Inf),
    int_na_only = c(NA_integer_, NA_integer_), empty = numeric(0), empty_int = integer(0)
  )
}

# Plain values that take the place of an argument beside the lazy ones.
summary_scalars <- list(0, -0, 0L, 1.5, -2L, NA, NA_integer_, NaN, Inf, -Inf, TRUE,
                        .Machine$integer.max, NULL, numeric(0), integer(0))

summary_functions <- list(
  sum = sum, prod = prod, min = min, max = max, range = range,
  range_finite = function(..., na.rm = FALSE) range(..., na.rm = na.rm, finite = TRUE)
)

# Labels of the calls f(args) whose outcome (value bit for bit up to NaN payloads,
# warnings, error) differs between lazy arguments at positions `lazy_at` and base R.
summary_mismatches <- function(f, args, lazy_at, label) {
  lazy_args <- args
  for (k in lazy_at) lazy_args[k] <- list(lazy(args[[k]]))
  bad <- character()
  for (na.rm in c(FALSE, TRUE)) {
    expected <- base_outcome(do.call(f, c(args, list(na.rm = na.rm))))
    got <- base_outcome(do.call(f, c(lazy_args, list(na.rm = na.rm))))
    if (!identical(got, expected)) bad <- c(bad, paste(label, "na.rm =", na.rm))
  }
  bad
}

# Mismatches of every function of summary_functions over `cases`, each
# list(args, lazy_at).
summary_grid_mismatches <- function(cases) {
  bad <- character()
  for (fn in names(summary_functions)) {
    for (label in names(cases)) {
      case <- cases[[label]]
      bad <- c(bad, summary_mismatches(summary_functions[[fn]], case$args, case$lazy_at,
                                       paste0(fn, ": ", label)))
    }
  }
  bad
}

expect_summaries_like_base <- function(cases) {
  lazy_fallbacks(reset = TRUE)
  bad <- character()
  for_engine_settings(bad <- c(bad, summary_grid_mismatches(cases)))
  expect_identical(bad, character())
  expect_length(lazy_fallbacks(), 0L)
}

test_that("several arguments: every lazy/plain pattern matches base R, no fallback", {
  inputs <- summary_inputs()
  cases <- list()
  for (a in names(inputs)) {
    for (b in names(inputs)) {
      args <- list(inputs[[a]], inputs[[b]])
      lab <- paste0("(", a, ", ", b, ") ")
      cases[[paste(lab, "both lazy")]] <- list(args = args, lazy_at = 1:2)
      cases[[paste(lab, "first lazy")]] <- list(args = args, lazy_at = 1L)
      cases[[paste(lab, "second lazy")]] <- list(args = args, lazy_at = 2L)
    }
  }
  expect_summaries_like_base(cases)
})

test_that("lazy values beside plain scalars, and three or more arguments", {
  inputs <- summary_inputs()
  cases <- list()
  for (a in names(inputs)) {
    for (s in seq_along(summary_scalars)) {
      args <- list(inputs[[a]], summary_scalars[[s]])
      lab <- paste0("(", a, ", scalar ", s, ")")
      cases[[lab]] <- list(args = args, lazy_at = 1L)
      cases[[paste(lab, "reversed")]] <- list(args = rev(args), lazy_at = 2L)
      cases[[paste(lab, "4 args")]] <- list(
        args = list(inputs[[a]], summary_scalars[[s]], inputs[[a]], inputs$i_na), lazy_at = c(1L, 3L))
    }
  }
  expect_summaries_like_base(cases)
})

test_that("integer sums switch to double past the int range, as base R's", {
  withr::local_options(gufunc.lazy_min_length = 1)
  M <- .Machine$integer.max
  big <- rep(M, 5e5)
  cases <- list(
    list(M, 1L), list(c(M, 1L), -5L), list(M, M, -M), list(c(M, M), NA), list(M, M, NA),
    list(c(M, M), -M, -M), list(big, 1L), list(big, -big), list(big, 0.5), list(TRUE, M, 1L),
    list(-M, -1L), list(c(-M, -M), M, M), list(M, NA, na.rm = TRUE)
  )
  for (args in cases) {
    for (k in seq_along(args)) {
      if (!is.null(names(args)) && nzchar(names(args)[k])) next
      lazy_args <- args
      lazy_args[k] <- list(lazy(args[[k]]))
      expect_identical(base_outcome(do.call(sum, lazy_args)), base_outcome(do.call(sum, args)))
    }
  }
})

test_that("empty min/max/range warn once, as base R does", {
  withr::local_options(gufunc.lazy_min_length = 1)
  e <- lazy(numeric(0))
  na <- lazy(rep(NA_real_, 5))
  expect_identical(base_outcome(max(na, integer(0), na.rm = TRUE)),
                   base_outcome(max(rep(NA_real_, 5), integer(0), na.rm = TRUE)))
  expect_identical(base_outcome(min(e, NULL)), base_outcome(min(numeric(0), NULL)))
  expect_identical(base_outcome(range(lazy(c(Inf, NA, -Inf)), 1L, finite = TRUE)),
                   base_outcome(range(c(Inf, NA, -Inf), 1L, finite = TRUE)))
  w <- tryCatch(max(na, NA, na.rm = TRUE), warning = function(w) w)
  expect_identical(conditionMessage(w), "no non-missing arguments to max; returning -Inf")
  expect_identical(conditionCall(w)[[1L]], as.name("max"))
  w <- tryCatch(range(na, na.rm = TRUE, finite = TRUE), warning = function(w) w)
  expect_identical(conditionCall(w), quote(min(x)))
})

test_that("unsupported arguments fall back to base R with its errors", {
  withr::local_options(gufunc.lazy_min_length = 1)
  x <- c(2.5, NA, 1)
  lx <- lazy(x)
  for (f in list(sum, prod, min, max, range)) {
    expect_identical(base_outcome(f(lx, "a")), base_outcome(f(x, "a")))
    expect_identical(base_outcome(f(lx, 1i)), base_outcome(f(x, 1i)))
    expect_identical(base_outcome(f(lx, list(1))), base_outcome(f(x, list(1))))
    expect_identical(base_outcome(f(lx, 1, na.rm = NA)), base_outcome(f(x, 1, na.rm = NA)))
  }
  expect_identical(base_outcome(range(lx, finite = NA)), base_outcome(range(x, finite = NA)))
  expect_identical(base_outcome(range(lx, 2, finite = 1)), base_outcome(range(x, 2, finite = 1)))
  d <- as.Date("2024-01-01")
  expect_identical(base_outcome(max(lx, d)), base_outcome(max(x, d)))
})

test_that("the reductions of several lazy arguments are fused passes over each", {
  withr::local_options(gufunc.lazy_min_length = 1)
  a <- runif(5000)
  b <- runif(5000)
  la <- lazy(a)
  lb <- lazy(b)
  z <- sqrt(la) * 2 + lb
  lazy_fallbacks(reset = TRUE)
  expect_identical(sum(z, la, 1), sum(sqrt(a) * 2 + b, a, 1))
  expect_identical(range(z - 1, lb, finite = TRUE), range(sqrt(a) * 2 + b - 1, b, finite = TRUE))
  expect_identical(max(z, -la, na.rm = TRUE), max(sqrt(a) * 2 + b, -a, na.rm = TRUE))
  expect_false(is_materialized(z))
  expect_length(lazy_fallbacks(), 0L)
  # Warnings of computing a deferred argument, once.
  x <- c(-1, 4, a[-(1:2)])
  expect_identical(base_outcome(sum(sqrt(lazy(x)), 1, sqrt(lazy(-x)))),
                   base_outcome(sum(sqrt(x), 1, sqrt(-x))))
})

# pmax and pmin -----------------------------------------------------------------

pmax_outcome <- function(expr) {
  outcome <- base_outcome(expr)
  if (!is.null(outcome$value)) outcome$value <- materialize(outcome$value)
  outcome
}

# Labels of the argument lists where gufunc's f (pmax or pmin) with the arguments
# at `lazy_at` lazy differs from base R's in value (bit for bit), type, attributes,
# warnings or error.
extreme_mismatches <- function(fn, arg_lists, lazy_at) {
  base_f <- get(fn, baseenv())
  gu_f <- get(fn, asNamespace("gufunc"))
  bad <- character()
  for (label in names(arg_lists)) {
    args <- arg_lists[[label]]
    lazy_args <- args
    for (k in intersect(lazy_at, seq_along(args))) {
      if (!is.null(args[[k]])) lazy_args[k] <- list(lazy(args[[k]]))
    }
    for (na.rm in c(FALSE, TRUE)) {
      expected <- pmax_outcome(do.call(base_f, c(args, list(na.rm = na.rm))))
      got <- pmax_outcome(do.call(gu_f, c(lazy_args, list(na.rm = na.rm))))
      if (!identical_bits(got, expected)) bad <- c(bad, paste(fn, label, "na.rm =", na.rm))
    }
  }
  bad
}

extreme_cases <- function() {
  dd <- grid_pairs(c(grid_double, grid_nan_bits), c(grid_double, grid_nan_bits))
  ii <- grid_pairs(grid_integer, grid_integer)
  di <- grid_pairs(grid_double, c(grid_integer, grid_logical))
  ll <- grid_pairs(grid_logical, grid_logical)
  n <- length(dd$x)
  m <- matrix(dd$x, ncol = 1L, dimnames = list(NULL, "a"))
  named <- stats::setNames(di$x, paste0("n", seq_along(di$x)))
  list(
    dd = list(dd$x, dd$y), dd_rev = list(dd$y, dd$x), ii = list(ii$x, ii$y),
    di = list(di$x, di$y), id = list(di$y, di$x), ll = list(ll$x, ll$y),
    d_scalar = list(dd$x, 0), scalar_d = list(-0, dd$y), d_na = list(dd$x, NA),
    i_dscalar = list(ii$x, 2.5), i_lscalar = list(ii$x, TRUE), nan_first = list(NaN, dd$y),
    three = list(dd$x, dd$y, rev(dd$x)), four_mixed = list(di$y, di$x, 0L, NA),
    five = list(ii$x, ii$y, rev(ii$x), -1L, c(TRUE, NA)),
    half = list(dd$x, dd$y[seq_len(n / 2)]), fraction = list(dd$x, dd$y[1:7]),
    short_first = list(dd$y[1:7], dd$x), shorter_lazy = list(dd$x[1:6], dd$y, 1),
    matrix_first = list(m, dd$y), names_first = list(named, di$y),
    attr_first = list(structure(dd$x, note = "kept"), dd$y),
    scalar_with_names = list(c(a = 1), dd$y),
    empty = list(dd$x, numeric(0)), empty_first = list(integer(0), dd$x, 2.5),
    null_arg = list(dd$x, NULL), null_first = list(NULL, dd$x), single = list(dd$x)
  )
}

test_that("pmax and pmin with lazy arguments match base R bit for bit", {
  cases <- extreme_cases()
  lazy_fallbacks(reset = TRUE)
  bad <- character()
  for_engine_settings({
    for (fn in c("pmax", "pmin")) {
      bad <- c(bad, extreme_mismatches(fn, cases, 1L), extreme_mismatches(fn, cases, 2L),
               extreme_mismatches(fn, cases, 1:5))
    }
  })
  expect_identical(bad, character())
  expect_length(lazy_fallbacks(), 0L)
})

test_that("pmax and pmin are deferred, fused with their neighbours in one kernel", {
  withr::local_options(gufunc.lazy_min_length = 1000)
  x <- runif(5000, -1, 1)
  y <- runif(5000, -1, 1)
  lx <- lazy(x)
  ly <- lazy(y)
  lazy_fallbacks(reset = TRUE)
  res <- pmax(lx * 2, ly, 0) + 1
  expect_identical(lazy_state(res), "deferred")
  plan <- lazy_plan(res)
  expect_length(plan$kernels, 1L)
  expect_identical(materialize(res), base::pmax(x * 2, y, 0) + 1)
  r2 <- pmin(lx, ly, na.rm = TRUE)
  expect_identical(lazy_state(r2), "deferred")
  expect_identical(sum(pmin(lx, 0.5) * 2), sum(base::pmin(x, 0.5) * 2))
  expect_length(lazy_fallbacks(), 0L)
  # The fractional recycling warning, once, naming the user's call.
  w <- tryCatch(pmax(lx, 1:7), warning = function(w) w)
  expect_identical(conditionMessage(w), "an argument will be fractionally recycled")
  expect_identical(conditionCall(w), quote(pmax(lx, 1:7)))
  # Small results are base R's plain values.
  small <- pmax(lazy(1:10), 3L)
  expect_false(inherits(small, "gufunc_lazy"))
  expect_identical(small, base::pmax(1:10, 3L))
})

test_that("pmax and pmin of unsupported arguments are base R's", {
  withr::local_options(gufunc.lazy_min_length = 1)
  x <- c(2.5, NA, 1, -3)
  lx <- lazy(x)
  for (fn in c("pmax", "pmin")) {
    base_f <- get(fn, baseenv())
    gu_f <- get(fn, asNamespace("gufunc"))
    expect_identical(pmax_outcome(gu_f(lx, "b")), pmax_outcome(base_f(x, "b")))
    expect_identical(pmax_outcome(gu_f(lx, 1, na.rm = NA)), pmax_outcome(base_f(x, 1, na.rm = NA)))
    expect_identical(pmax_outcome(gu_f(lx, list(1))), pmax_outcome(base_f(x, list(1))))
    f <- factor(c("a", "b", "a", "b"))
    expect_identical(pmax_outcome(gu_f(lx, f)), pmax_outcome(base_f(x, f)))
  }
})
