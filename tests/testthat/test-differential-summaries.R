# Differential tests of the Summary group (sum, prod, min, max, range, any, all)
# and mean() on lazy values against base R. Each case runs in base R on plain
# operands (the oracle: base R's result on this machine, with base R's versions
# of the names gufunc masks) and with every non-empty set of its numeric operands
# wrapped in lazy(); value (bit for bit: identical(num.eq = FALSE, single.NA =
# FALSE) tells NA from NaN and -0 from 0), attributes, each warning as often as
# base R gives it, and the error message must agree.
#
# Sources of the inputs (values and operations only; the expected results are
# base R's here):
# - wch/r-source tests/any-all.R (the all() and any() lists), src/library/base/man
#   range.Rd (x <- c(NA, 1:3, -1:1/0) with na.rm and finite), sum.Rd (NULL as
#   integer(0), logicals as 0/1, integer overflow gives NA with a warning),
#   Extremes.Rd (min(5:1, pi), the empty-argument warnings, NA over NaN),
#   mean.Rd (trim), tests/reg-tests-1d.R (integer sums accumulated wide since
#   R 3.5.0: an overflow in between is no overflow), tests/arith-true.R (Inf - Inf,
#   signed zeros);
# - numpy/numpy numpy/core/tests/test_umath.py: TestMaximum / TestMinimum
#   test_reduce (0:10 and its reverse, NaN at every other position),
#   TestMinMax test_minmax_blocked (NaN, 10 and -10 planted at every position of
#   short vectors), test_reduce_reorder (one NaN on a diagonal);
#   numpy/core/tests/test_multiarray.py TestAdd/test_sum (1:v for v in 0, 1, 2,
#   7, 8, 9, 15, 16, 19, 127, 128, 1024, 1235 and the reverse; ones(500) summed
#   over strides 2 and 3 from two offsets), test_sum_where (a logical mask as a
#   factor); numpy/core/tests/test_regression.py (mean of many equal float values,
#   sums of large float vectors).
# test-differential-matrixstats.R already has matrixStats' sum2/mean2/product
# vectors one argument at a time; they are not repeated here.

big <- .Machine$integer.max
xmax <- .Machine$double.xmax

# The engine settings every long case runs under.
engine_grid <- list(
  list(gufunc.threads = 1L, gufunc.block_size = 7L),
  list(gufunc.threads = 2L, gufunc.block_size = 7L),
  list(gufunc.threads = 1L, gufunc.block_size = 1000L),
  list(gufunc.threads = 2L, gufunc.block_size = 1000L),
  list(gufunc.threads = 1L, gufunc.block_size = NULL),
  list(gufunc.threads = 2L, gufunc.block_size = NULL)
)

# The collector of helper-differential.R (every warning counted) with
#  - both(label, f, args): f(..., na.rm = FALSE) and f(..., na.rm = TRUE);
#  - engines(label, fun, args, settings, min_length): the case under each
#    setting of `settings` (threads and block size).
# Only numeric and logical operands are passed as args (lazy() takes no others):
# character values are constants inside the functions.
summary_collector <- function(source) {
  cases <- elementwise_cases(source)
  cases$both <- function(label, f, args, ...) {
    for (na_rm in c(FALSE, TRUE)) {
      g <- function(...) f(..., na.rm = na_rm)
      cases$add(sprintf("%s, na.rm = %s", label, na_rm), g, args, ...)
    }
  }
  cases$engines <- function(label, fun, args, settings = engine_grid, ...) {
    for (s in settings) {
      with_options(s, cases$add(sprintf("%s {threads %d, block %s}", label,
                                        s$gufunc.threads, format(s$gufunc.block_size)),
                                fun, args, ...))
    }
  }
  cases
}

summary_ops <- list(sum = sum, prod = prod, min = min, max = max, range = range)
extreme_ops <- list(min = min, max = max, range = range)

test_that("the collector tells NA from NaN, -0 from 0, and counts every warning", {
  cases <- summary_collector("self test")
  na_if_lazy <- function(x) if (inherits(x, "gufunc_lazy")) NA_real_ else sum(x)
  one_warning <- function(x) {
    if (!inherits(x, "gufunc_lazy")) warning("w")
    warning("w")
    0
  }
  cases$add("NaN against NA", na_if_lazy, list(NaN))
  cases$add("-0 against 0", function(x) if (inherits(x, "gufunc_lazy")) 0 else -0, list(-0))
  cases$add("a warning fewer", one_warning, list(c(1, 2)))
  cases$add("the same", function(x, y) sum(x, y), list(1:3, 2))
  expect_identical(sub(" \\[.*", "", cases$mismatches()),
                   c("NaN against NA", "-0 against 0", "a warning fewer"))
  expect_identical(cases$compared(), 7)
})

test_that("single lazy reductions are deferred here, not handed to base R", {
  with_options(list(gufunc.lazy_min_length = 0), {
    x <- lazy(c(1, NA, 3)) * 2
    expect_false(is_materialized(x))
    lazy_fallbacks(reset = TRUE)
    for (f in c(summary_ops, list(mean = mean))) f(x)
    for (f in summary_ops) f(x, na.rm = TRUE)
    expect_false(is_materialized(x))
    expect_length(lazy_fallbacks(), 0L)
  })
})

test_that("R's any-all.R, sum.Rd, range.Rd, Extremes.Rd: small cases, lazy and plain", {
  cases <- summary_collector("r-source tests/any-all.R, man/sum.Rd, range.Rd, Extremes.Rd")
  # any-all.R: the all() and any() lists (one and several arguments, na.rm).
  lgl_args <- list(list(logical(0)), list(c(TRUE, TRUE)), list(rep(TRUE, 2), rep(TRUE, 10)),
                   list(rep(TRUE, 2), c(TRUE, NA)), list(FALSE), list(c(NA, TRUE)),
                   list(c(NA, FALSE)), list(rep(TRUE, 2), c(TRUE, FALSE)),
                   list(c(TRUE, FALSE), c(TRUE, NA)), list(TRUE), list(FALSE, TRUE),
                   list(c(FALSE, TRUE)), list(c(FALSE, FALSE)), list(c(TRUE, NA, FALSE)),
                   list(NA, TRUE), list(NA, FALSE), list(TRUE, NA), list(FALSE, NA),
                   list(NA), list(c(NA, NA)))
  for (a in lgl_args) {
    lab <- paste(vapply(a, function(v) paste(v, collapse = " "), ""), collapse = " | ")
    cases$both(paste("any:", lab), any, a)
    cases$both(paste("all:", lab), all, a)
  }
  # Numbers coerced to logical: base R's warning, once per double argument.
  for (a in list(list(c(0, 1)), list(c(0, NA, 2)), list(c(0, 1), c(2, 0)), list(0L, 2L),
                 list(c(1L, NA)), list(NaN), list(c(0, NaN)), list(c(1, 1), TRUE),
                 list(TRUE, c(0, 0.5)), list(numeric(0)), list(integer(0), FALSE))) {
    lab <- paste(vapply(a, function(v) paste(v, collapse = " "), ""), collapse = " | ")
    cases$both(paste("any (numbers):", lab), any, a)
    cases$both(paste("all (numbers):", lab), all, a)
  }
  # range.Rd.
  rx <- c(NA, 1:3, -1:1 / 0)
  cases$add("range(x)", range, list(rx))
  cases$add("range(x, na.rm = TRUE)", function(x) range(x, na.rm = TRUE), list(rx))
  cases$add("range(x, finite = TRUE)", function(x) range(x, finite = TRUE), list(rx))
  cases$add("range(x, na.rm = TRUE, finite = TRUE)",
            function(x) range(x, na.rm = TRUE, finite = TRUE), list(rx))
  for (x in list(c(NA, 1:3), c(NaN, 1, Inf), c(-Inf, Inf), c(NA, NaN), c(TRUE, NA, FALSE),
                 c(NA, -Inf, 2, NaN, Inf), numeric(0), integer(0), c(Inf, NA, -Inf))) {
    cases$both(sprintf("range(%s, finite = TRUE)", toString(x)),
               function(..., na.rm) range(..., na.rm = na.rm, finite = TRUE), list(x))
  }
  cases$add("range(x, y, finite = TRUE)", function(x, y) range(x, y, finite = TRUE),
            list(c(1, Inf, NA), c(-Inf, NaN, 3)))
  cases$add("range(int, lgl, finite = TRUE)", function(x, y) range(x, y, finite = TRUE),
            list(c(5L, NA), c(TRUE, NA)))
  cases$add("range(all non-finite, 2 args, finite = TRUE)",
            function(x, y) range(x, y, finite = TRUE), list(c(NA, Inf), c(NaN, -Inf)))
  # sum.Rd: NULL is integer(0), logicals count 1 and 0, integers stay integer.
  cases$both("sum(x, NULL)", function(x, ...) sum(x, NULL, ...), list(c(TRUE, FALSE, TRUE)))
  cases$both("sum(lgl, int)", sum, list(c(TRUE, NA, TRUE), 3:1))
  cases$both("sum(x, y, 1L)", function(x, y, ...) sum(x, y, 1L, ...), list(1:3, c(TRUE, NA)))
  cases$both("sum(x, y, 1L) doubles", function(x, y, ...) sum(x, y, 1L, ...),
             list(c(0.5, NA), c(1L, 2L)))
  cases$both("prod(lgl)", prod, list(c(TRUE, NA, TRUE)))
  # Extremes.Rd: min(5:1, pi), max(x, 0), types of the result.
  cases$both("min(5:1, pi)", min, list(5:1, pi))
  for (f in names(extreme_ops)) {
    cases$both(sprintf("%s(x, 0)", f), function(x, ...) extreme_ops[[f]](x, 0, ...),
               list(-(1:3)))
    cases$both(sprintf("%s(x, 0L) int", f), function(x, ...) extreme_ops[[f]](x, 0L, ...),
               list(c(-3L, NA)))
    cases$both(sprintf("%s(lgl, int)", f), extreme_ops[[f]], list(c(TRUE, NA), 5L))
    cases$both(sprintf("%s(lgl)", f), extreme_ops[[f]], list(c(TRUE, FALSE)))
    cases$both(sprintf("%s(int, dbl)", f), extreme_ops[[f]], list(c(2L, NA, -4L), c(0.5, NaN)))
  }
  expect_no_mismatches(cases, 400)
})

test_that("empty inputs and all-NA inputs with na.rm: values and 'no non-missing' warnings", {
  cases <- summary_collector("r-source man/Extremes.Rd, sum.Rd")
  empties <- list(integer(0), numeric(0), logical(0), NULL)
  all_na <- list(NA_integer_, c(NA_real_, NA_real_), c(NaN, NA), c(NA, NA), NaN)
  for (f in names(summary_ops)) {
    for (e in empties) {
      if (!is.null(e)) cases$both(sprintf("%s(%s(0))", f, typeof(e)), summary_ops[[f]], list(e))
    }
    for (v in all_na) {
      cases$both(sprintf("%s(%s)", f, toString(v)), summary_ops[[f]], list(v))
      cases$add(sprintf("%s(%s, na.rm = TRUE), twice", f, toString(v)),
                function(x, y) summary_ops[[f]](x, y, na.rm = TRUE), list(v, v))
    }
    # Several empty arguments: one warning, as base R gives.
    cases$both(sprintf("%s(int(0), dbl(0))", f), summary_ops[[f]], list(integer(0), numeric(0)))
    cases$both(sprintf("%s(int(0), NULL, lgl(0))", f),
               function(x, y, ...) summary_ops[[f]](x, NULL, y, ...), list(integer(0), logical(0)))
    cases$add(sprintf("%s(NA, int(0), na.rm = TRUE)", f),
              function(x, y) summary_ops[[f]](x, y, na.rm = TRUE), list(NA_integer_, integer(0)))
  }
  cases$both("mean(numeric(0))", mean, list(numeric(0)))
  cases$both("mean(integer(0))", mean, list(integer(0)))
  cases$both("mean(logical(0))", mean, list(logical(0)))
  cases$add("mean(all NA, na.rm = TRUE)", function(x) mean(x, na.rm = TRUE), list(c(NA_real_, NaN)))
  cases$add("mean(int NA, na.rm = TRUE)", function(x) mean(x, na.rm = TRUE), list(NA_integer_))
  expect_no_mismatches(cases, 150)
})

test_that("base R's order-dependent NA/NaN, signed zeros, Inf - Inf (arith-true.R, Extremes.Rd)", {
  cases <- summary_collector("r-source tests/arith-true.R, man/Extremes.Rd")
  nan_na <- list(c(NA, NaN), c(NaN, NA), c(1, NaN, NA), c(1, NA, NaN), c(NaN, 1, NA, 2),
                 c(Inf, NaN), c(-Inf, NA), c(NaN, -Inf, NA, Inf), c(Inf, -Inf),
                 c(-Inf, Inf, 1), c(Inf, Inf, -Inf), c(0, -0), c(-0, 0), c(-0, -0), -0,
                 c(-0, -0, -0), c(-0, NA), c(-0, NaN), c(1, -1, -0))
  for (v in nan_na) {
    for (f in names(summary_ops)) {
      cases$both(sprintf("%s(c(%s))", f, toString(v)), summary_ops[[f]], list(v))
    }
    cases$both(sprintf("mean(c(%s))", toString(v)), mean, list(v))
  }
  # The same values as separate arguments, lazy and plain in every pattern.
  pairs <- list(list(NA, NaN), list(NaN, NA), list(NA_real_, NaN), list(NaN, NA_real_),
                list(NA_integer_, NaN), list(NaN, NA_integer_), list(0, -0), list(-0, 0),
                list(-0, -0), list(-0, 0L), list(Inf, -Inf), list(c(1, NaN), c(NA, 2)),
                list(c(NA, 2), c(1, NaN)), list(c(Inf, 1), -Inf), list(-0, FALSE),
                list(c(-0, -0), -0), list(NaN, c(1L, NA)), list(c(1L, NA), NaN))
  for (p in pairs) {
    for (f in names(summary_ops)) {
      cases$both(sprintf("%s(%s, %s)", f, toString(p[[1]]), toString(p[[2]])),
                 summary_ops[[f]], p)
    }
  }
  cases$add("sum(Inf - Inf)", function(x, y) sum(x - y), list(c(Inf, 1), c(Inf, 0)))
  cases$add("mean(Inf - Inf)", function(x, y) mean(x - y), list(c(Inf, 1), c(Inf, 0)))
  cases$add("max(-x) of zeros", function(x) max(-x), list(c(0, 0)))
  cases$add("min(x * 0) of negatives", function(x) min(x * 0), list(c(-1, -2)))
  cases$add("sum(-0 * x)", function(x) sum(-0 * x), list(c(1, 2)))
  expect_no_mismatches(cases, 800)
})

test_that("integer sums: overflow gives NA with base R's warning; wide accumulation", {
  cases <- summary_collector("r-source man/sum.Rd, tests/reg-tests-1d.R")
  ints <- list(c(big, 1L), c(big, 1L, -1L), c(big, big, -big, -big), c(-big, -1L),
               c(-big, -1L, 1L), rep(big, 3), c(big, NA), c(NA, big, 1L), c(big, 0L),
               c(1073741824L, 1073741824L), c(1073741824L, 1073741823L))
  for (x in ints) {
    cases$both(sprintf("sum(%s)", toString(x)), sum, list(x))
    cases$both(sprintf("mean(%s)", toString(x)), mean, list(x))
    cases$both(sprintf("sum(%s, 0.5)", toString(x)), function(x, ...) sum(x, 0.5, ...), list(x))
    cases$both(sprintf("sum(%s, 1L)", toString(x)), function(x, ...) sum(x, 1L, ...), list(x))
    cases$both(sprintf("prod(%s)", toString(x)), prod, list(x))
  }
  # Two arguments each within range whose total is not, and back.
  cases$both("sum(big, 1L)", sum, list(big, 1L))
  cases$both("sum(c(big, 1L), -2L)", sum, list(c(big, 1L), -2L))
  cases$both("sum(big, 1L, -1L)", sum, list(big, 1L, -1L))
  cases$both("sum(big, TRUE)", sum, list(big, TRUE))
  cases$both("sum(-big, -1L)", sum, list(-big, -1L))
  cases$both("sum(big, big, 0.5)", sum, list(big, big, 0.5))
  # Two arguments that overflow each: base R warns for each.
  cases$both("sum(c(big, 1L), c(big, 1L))", sum, list(c(big, 1L), c(big, 1L)))
  cases$both("sum(c(big, 1L), c(-big, -1L))", sum, list(c(big, 1L), c(-big, -1L)))
  # Logical sums stay integer.
  cases$both("sum(lgl)", sum, list(c(TRUE, TRUE, NA, FALSE)))
  cases$both("sum(lgl, big)", sum, list(c(TRUE, TRUE), big))
  expect_no_mismatches(cases, 300)
})

test_that("sums past the double range that the long double accumulator keeps", {
  cases <- summary_collector("r-source tests/arith-true.R; numpy test_regression.py")
  vals <- list(c(xmax, xmax, -xmax), c(xmax, xmax, -xmax, -xmax), rep(xmax, 2),
               c(-xmax, -xmax, xmax), c(xmax, xmax), c(xmax, 1, -xmax),
               c(xmax, xmax, -Inf), c(xmax, xmax, NaN), c(1e308, 1e308, -1e308),
               c(xmax / 2, xmax / 2, xmax / 2, -xmax), c(1e300, 1e300) * 1e8)
  for (v in vals) {
    cases$both(sprintf("sum(%s)", toString(signif(v, 3))), sum, list(v))
    cases$both(sprintf("mean(%s)", toString(signif(v, 3))), mean, list(v))
    cases$add(sprintf("sum(x, -x[1])", toString(signif(v, 3))),
              function(x, y) sum(x, y), list(v, -v[1]))
    cases$add(sprintf("prod(%s)", toString(signif(v, 3))), prod, list(v))
    cases$add(sprintf("prod(x / 1e300)", toString(signif(v, 3))), function(x) prod(x / 1e300),
              list(v))
  }
  # Products through the long double range: 1e300^3 / 1e300^2.
  cases$add("prod(1e300, 1e300, 1e300, 1e-300, 1e-300)", prod,
            list(c(1e300, 1e300, 1e300, 1e-300, 1e-300)))
  cases$add("prod(tiny then large)", prod, list(c(1e-300, 1e-300, 1e-300, 1e300, 1e300)))
  # Two arguments: each argument's sum fits, their total overflows a double but
  # not the long double.
  cases$add("sum(x, y) near xmax", sum, list(c(xmax, xmax), c(-xmax, -xmax / 2)))
  expect_no_mismatches(cases, 200)
})

test_that("mean(): second pass of doubles, integers, logicals, na.rm, trim, character", {
  cases <- summary_collector("r-source man/mean.Rd; numpy test_regression.py")
  set.seed(21)
  dbl <- list(c(1, 2, 3), c(0.1, 0.2, 0.3), rep(0.1, 10), c(1e16, 1, -1e16, 3),
              c(1, 1e-16, 1e-16, 1e-16), c(1e308, 1e308, -1e308), runif(100) * 1e10,
              c(1 / 3, 2 / 3, 1e-20), c(0.1, NA, 0.7), c(NaN, 0.1), c(-0, -0), -0)
  for (x in dbl) {
    cases$both(sprintf("mean(%s)", toString(signif(head(x, 4), 3))), mean, list(x))
    for (trim in c(0.1, 0.25, 0.5)) {
      cases$add(sprintf("mean(x, trim = %g)", trim), function(x) mean(x, trim = trim),
                list(x[!is.na(x)]))
    }
  }
  cases$add("mean(NA x, trim = 0.1)", function(x) mean(x, trim = 0.1), list(c(1, NA, 3)))
  cases$add("mean(x, trim = 0.1, na.rm = TRUE)", function(x) mean(x, trim = 0.1, na.rm = TRUE),
            list(c(1, NA, 3, 10, 2)))
  cases$add("mean(int, trim = 0.2)", function(x) mean(x, trim = 0.2), list(c(1L, 50L, 3L, 7L, 2L)))
  ints <- list(1:10, c(1L, NA, 3L), c(big, big), c(-big, 1L), c(big, 1L, NA))
  for (x in ints) cases$both(sprintf("mean(%s)", toString(x)), mean, list(x))
  for (x in list(c(TRUE, FALSE, TRUE), c(TRUE, NA, FALSE), c(NA, NA))) {
    cases$both(sprintf("mean(%s)", toString(x)), mean, list(x))
  }
  # Deferred expressions.
  cases$both("mean(x - 1)", function(x, ...) mean(x - 1, ...), list(c(0.1, 0.2, NA, 0.4)))
  cases$add("mean(x * y)", function(x, y) mean(x * y), list(c(1.5, 2.5, 3), c(1e10, 0.1, -1)))
  cases$add("mean(x / y)", function(x, y) mean(x / y), list(c(1, 0, -1), c(0, 0, 0)))
  cases$add("mean(int + int) overflow", function(x, y) mean(x + y), list(c(big, 1L), c(1L, 1L)))
  # Character: base R's warning and NA; invalid 'type' errors of the Summary group.
  cases$add("mean(c(x, 'a'))", function(x) mean(c(as.character(x), "a")), list(c(1, 2)))
  cases$add("sum(x, 'a')", function(x) sum(x, "a"), list(c(1, 2)))
  cases$add("prod(x, 'a')", function(x) prod(x, "a"), list(c(1, 2)))
  cases$add("sum('a', x)", function(x) sum("a", x), list(c(1, 2)))
  cases$add("any(x, 'a')", function(x) any(x, "a"), list(c(FALSE, TRUE)))
  cases$add("all(x, 'TRUE')", function(x) all(x, "TRUE"), list(c(FALSE, TRUE)))
  cases$add("max(x, 'a')", function(x) max(x, "a"), list(c(1, 2)))
  cases$add("range(x, 'a')", function(x) range(x, "a"), list(c(1, 2)))
  cases$add("min(x, character(0))", function(x) min(x, character(0)), list(c(1, 2)))
  cases$add("max(x, 'a', finite)", function(x) range(x, "b", finite = TRUE), list(c(1, NA)))
  expect_no_mismatches(cases, 700)
})

test_that("NumPy's min/max reduce cases: NaN at every other position, planted extremes", {
  cases <- summary_collector("numpy test_umath.py TestMaximum/TestMinimum test_reduce, TestMinMax")
  seq1 <- 0:10
  seq2 <- rev(seq1)
  for (x in list(seq1, seq2, as.double(seq1), as.double(seq2))) {
    for (f in names(summary_ops)) cases$both(paste(f, "seq"), summary_ops[[f]], list(x))
    y <- as.double(x)
    y[seq(1, 11, 2)] <- NaN
    for (f in names(summary_ops)) cases$both(paste(f, "seq with NaN"), summary_ops[[f]], list(y))
    y[3] <- NA
    for (f in names(summary_ops)) cases$both(paste(f, "seq with NaN, NA"), summary_ops[[f]], list(y))
  }
  # test_minmax_blocked: NaN, NA, 10, -10 at each position of 0:(n - 1), under
  # blocks of 7 on 1 and 2 threads.
  settings <- engine_grid[1:2]
  for (n in c(1L, 6L, 7L, 8L, 15L)) {
    for (i in seq_len(n)) {
      for (v in list(NaN, NA_real_, 10, -10, -Inf)) {
        x <- as.double(seq_len(n) - 1L)
        x[i] <- v
        for (f in c("min", "max", "range")) {
          cases$engines(sprintf("%s, n = %d, %s at %d", f, n, v, i), extreme_ops[[f]], list(x),
                        settings = settings)
        }
        cases$engines(sprintf("sum, n = %d, %s at %d", n, v, i), sum, list(x), settings = settings)
      }
    }
  }
  # test_reduce_reorder: rows of a diagonal of NaN in a matrix of Inf.
  for (n in c(2L, 4L, 8L, 16L)) {
    d <- matrix(Inf, n, n)
    diag(d) <- NaN
    for (r in seq_len(n)) {
      cases$add(sprintf("min(row %d of %d)", r, n), function(m) min(m[r, ]), list(d))
      cases$add(sprintf("max(-row %d of %d)", r, n), function(m) max(-m[r, ]), list(d))
    }
  }
  expect_no_mismatches(cases, 25000)
})

test_that("NumPy's test_sum and test_sum_where: 1:v, reversed, strided views, masks", {
  cases <- summary_collector("numpy test_multiarray.py test_sum, test_sum_where")
  for (v in c(0L, 1L, 2L, 7L, 8L, 9L, 15L, 16L, 19L, 127L, 128L, 1024L, 1235L)) {
    d <- seq_len(v) + 0
    cases$add(sprintf("sum(1:%d)", v), sum, list(d))
    cases$add(sprintf("sum(rev(1:%d))", v), function(x) sum(rev(x)), list(d))
    cases$add(sprintf("sum(int 1:%d)", v), sum, list(seq_len(v)))
    cases$add(sprintf("mean(1:%d / 7)", v), function(x) mean(x / 7), list(d))
    cases$add(sprintf("sum(1:%d / 10)", v), function(x) sum(x / 10), list(d))
    cases$add(sprintf("sum(rev(1:%d / 10))", v), function(x) sum(rev(x / 10)), list(d))
  }
  ones <- rep(1, 500)
  tenth <- rep(0.1, 500)
  for (x in list(ones, tenth)) {
    for (s in list(c(1, 2), c(2, 2), c(1, 3), c(2, 3))) {
      cases$add(sprintf("sum(x[seq(%d, 500, %d)])", s[1], s[2]),
                function(x) sum(x[seq(s[1], 500, s[2])]), list(x))
      cases$add(sprintf("mean(rev(x)[seq(%d, 500, %d)])", s[1], s[2]),
                function(x) mean(rev(x)[seq(s[1], 500, s[2])]), list(x))
    }
  }
  m <- matrix(c(1, 3, 2, 4), 2)
  cases$add("sum(m * c(TRUE, FALSE))", function(m, w) sum(m * w), list(m, c(TRUE, FALSE)))
  cases$add("colSums-like sum(m[, 1]) + 5", function(m) sum(m[, 1], 5), list(m))
  expect_no_mismatches(cases, 20000)
})

test_that("views and deferred expressions: m[2:5, ], t(m), rev(x), sum(x * y), mean(x - 1)", {
  cases <- summary_collector("views and expressions")
  set.seed(3)
  m <- matrix(rnorm(60) * 1e5, 10, 6)
  m[3, 2] <- NA
  m[7, 5] <- NaN
  mi <- matrix(sample(c(-5:5, NA), 60, TRUE), 10, 6)
  mi[1, 1] <- big
  ml <- matrix(sample(c(TRUE, FALSE, NA), 60, TRUE), 10, 6)
  x <- rnorm(50)
  y <- c(rnorm(49), Inf)
  for (a in list(m, mi, ml)) {
    views <- list("m[2:5, ]" = function(m) m[2:5, ], "t(m)" = t, "rev(m)" = rev,
                  "m[, 2:4]" = function(m) m[, 2:4], "m[-1]" = function(m) m[-1],
                  "m[seq(1, 60, 3)]" = function(m) m[seq(1, 60, 3)])
    for (v in names(views)) {
      for (f in names(summary_ops)) {
        cases$both(sprintf("%s(%s) %s", f, v, typeof(a)),
                   function(m, ...) summary_ops[[f]](views[[v]](m), ...), list(a))
      }
      cases$both(sprintf("mean(%s) %s", v, typeof(a)), function(m, ...) mean(views[[v]](m), ...),
                 list(a))
    }
  }
  exprs <- list("sum(x * y)" = function(x, y, ...) sum(x * y, ...),
                "mean(x - 1)" = function(x, y, ...) mean(x - 1, ...),
                "prod(x / y + 1)" = function(x, y, ...) prod(x / y + 1, ...),
                "max(x, y)" = function(x, y, ...) max(x, y, ...),
                "range(x - y, y)" = function(x, y, ...) range(x - y, y, ...),
                "sum(x^2, y, 1L)" = function(x, y, ...) sum(x^2, y, 1L, ...),
                "min(sqrt(x))" = function(x, y, ...) min(sqrt(x), ...),
                "any(x > y)" = function(x, y, ...) any(x > y, ...),
                "all(x < 3)" = function(x, y, ...) all(x < 3, ...),
                "sum(x > 0)" = function(x, y, ...) sum(x > 0, ...),
                "mean(rev(x) * y)" = function(x, y, ...) mean(rev(x) * y, ...),
                "sum((x[-1] - x[-50])^2)" = function(x, y, ...) sum((x[-1] - x[-50])^2, ...))
  for (e in names(exprs)) {
    cases$both(e, exprs[[e]], list(x, y))
    cases$both(paste(e, "with NA"), exprs[[e]], list(replace(x, 9, NA), replace(y, 2, NaN)))
  }
  expect_no_mismatches(cases, 15000)
})

test_that("the long double chain rounds as base R's: ties, sticky bits, double rounding", {
  cases <- summary_collector("r-source tests/arith-true.R (long double sums), constructed ties")
  # Totals whose next addend is half a unit of the 64-bit mantissa (a tie, to
  # even), a little more (sticky bits), or pushes the total past a power of two;
  # totals whose conversion to double rounds twice (64 then 53 bits).
  vals <- list(c(1, 2^-53, 2^-70), c(2^64, 1 + 2^-52), c(2^64, -1, 1.5), c(2^64, -1, 2.5),
               c(2^66, rep(4, 10)), c(-2^66, rep(-4, 10)), c(1e20, rep(1, 100)),
               c(1, -2, 2^-60, 3, -2^70, 2^70, 1e-300), c(5e-324, 5e-324, 1, -1, 5e-324),
               c(2^63, 5e-324, -2^63, 5e-324), c(1e16, 1, -1e16, 1),
               c(2^1023, 2^1023, 5e-324, -2^1023), c(2^64 - 2^11, 2^10, 2^10 - 2^-40))
  for (k in 1:6) {
    vals <- c(vals, list(c(2^(60 + k), 2^(-3 + k) * (1 + c(0, 2^-52, -2^-53)), 1 / 3)))
  }
  set.seed(17)
  for (k in 1:6) {
    n <- c(10, 100, 3000)[(k - 1) %% 3 + 1]
    vals <- c(vals, list(sample(c(-1, 1), n, TRUE) * 2^round(runif(n, -80, 80)) *
                           (1 + sample(0:3, n, TRUE) * 2^-52)))
  }
  for (v in vals) {
    lab <- sprintf("%s, ... (%d)", toString(signif(head(v, 3), 4)), length(v))
    cases$engines(paste("sum", lab), sum, list(v))
    cases$engines(paste("mean", lab), mean, list(v), settings = engine_grid[c(2, 5)])
    cases$engines(paste("sum rev", lab), function(x) sum(rev(x)), list(v),
                  settings = engine_grid[c(2, 5)])
  }
  # The same at block boundaries of a long vector of zeros.
  n <- 70001L
  z1 <- replace(numeric(n), 65535:65538, c(2^64, -1, 1.5, 2^-40))
  z2 <- replace(numeric(n), c(1L, 65536L, 65537L, n), c(1, 2^-53, 2^-70, 2^-70))
  z3 <- replace(rep(2^-60, n), 1L, 1)
  z4 <- rep(c(1, -1) * 2^40, length.out = n) + 2^-12
  for (z in list(z1, z2, z3, z4)) {
    cases$engines("sum long ties", sum, list(z), min_length = 65536)
    cases$engines("mean long ties", mean, list(z), min_length = 65536,
                  settings = engine_grid[c(2, 6)])
  }
  # Products: long double over- and underflow in between, rounding of many factors.
  set.seed(19)
  p <- runif(n, 0.5, 2)
  cases$engines("prod(runif(0.5, 2))", prod, list(p), min_length = 65536)
  cases$engines("prod(x * y)", function(x, y) prod(x * y), list(p, rev(p)), min_length = 65536,
                settings = engine_grid[c(2, 6)])
  cases$engines("prod(2^k then 2^-k)", prod, list(c(rep(2, 5000), rep(0.5, 5000), 3)),
                min_length = 0, settings = engine_grid[c(1, 4, 6)])
  expect_no_mismatches(cases, 7e5)
})

test_that("arguments base R reads its own way: na.rm, finite, trim, names, other types", {
  cases <- summary_collector("r-source man/sum.Rd, range.Rd, mean.Rd (arguments)")
  x <- c(1, NA, 3)
  cases$add("sum(na.rm = NA)", function(x) sum(x, na.rm = NA), list(x))
  cases$add("sum(na.rm = 1)", function(x) sum(x, na.rm = 1), list(x))
  cases$add("max(na.rm = 'TRUE')", function(x) max(x, na.rm = "TRUE"), list(x))
  cases$add("max(na.rm = c(TRUE, FALSE))", function(x) max(x, na.rm = c(TRUE, FALSE)), list(x))
  cases$add("mean(na.rm = NA)", function(x) mean(x, na.rm = NA), list(x))
  cases$add("mean(na.rm = 'yes')", function(x) mean(x, na.rm = "yes"), list(x))
  cases$add("mean(trim = NA)", function(x) mean(x, trim = NA), list(x))
  y <- c(1, 2, 3, 10, 20)
  for (trim in list(0.6, -1, c(0.1, 0.2), "0", 0.5, 0L)) {
    cases$add(sprintf("mean(trim = %s)", deparse(trim)), function(x) mean(x, trim = trim), list(y))
  }
  cases$add("mean(x, 0.2) positional", function(x) mean(x, 0.2), list(y))
  cases$add("mean(x, 0, FALSE, 5)", function(x) mean(x, 0, FALSE, 5), list(y))
  cases$add("sum(a = x)", function(x) sum(a = x), list(x))
  cases$add("sum(a = x, b = y, na.rm)", function(x, y) sum(a = x, b = y, na.rm = TRUE),
            list(x, 1:3))
  cases$add("min(x = x)", function(x) min(x = x), list(x))
  cases$add("range(finite = NA)", function(x) range(x, finite = NA), list(x))
  cases$add("range(finite = 1)", function(x) range(x, finite = 1), list(c(1, Inf)))
  cases$add("range(finite twice)", function(x) range(x, finite = TRUE, finite = FALSE),
            list(c(1, Inf)))
  cases$add("range(fin = TRUE)", function(x) range(x, fin = TRUE), list(c(1, Inf)))
  cases$add("sum(x, 1i)", function(x) sum(x, 1i), list(x))
  cases$add("max(x, 1i)", function(x) max(x, 1i), list(x))
  cases$add("range(x, 1i)", function(x) range(x, 1i), list(c(1, 2)))
  cases$add("sum(x, factor)", function(x) sum(x, factor("a")), list(c(1, 2)))
  cases$add("max(x, factor)", function(x) max(x, factor("a")), list(c(1, 2)))
  cases$add("sum(x, list(1))", function(x) sum(x, list(1)), list(c(1, 2)))
  cases$add("sum(x, raw)", function(x) sum(x, as.raw(1)), list(c(1, 2)))
  cases$add("max(x, Date)", function(x) max(x, as.Date("2020-01-01")), list(c(1, 2)))
  cases$add("max(Date, x)", function(x) max(as.Date("2020-01-01"), x), list(c(1, 2)))
  cases$add("range(x, chr)", function(x) range(x, c("b", "a")), list(c(1, 2)))
  cases$add("all(x, list(TRUE))", function(x) all(x, list(TRUE)), list(TRUE))
  cases$add("sum(named matrix)", sum, list(matrix(1:6, 2, dimnames = list(c("a", "b"), NULL))))
  cases$add("range(named)", range, list(c(a = 1, b = 2)))
  cases$add("max(named)", max, list(c(a = 1, b = 2)))
  cases$add("sum(x * y) recycled", function(x, y) sum(x * y), list(c(1, 2, 3, 4), c(1, 2)))
  cases$add("sum(x * y) not a multiple", function(x, y) sum(x * y), list(c(1, 2, 3), c(1, 2)))
  cases$add("mean(x + y) not a multiple", function(x, y) mean(x + y), list(c(1, 2, 3), c(1, 2)))
  cases$add("sum(int + int) overflow", function(x, y) sum(x + y), list(c(big, 1L), c(1L, 1L)))
  cases$add("sum(int + int) overflow, na.rm", function(x, y) sum(x + y, na.rm = TRUE),
            list(c(big, 1L), c(1L, 1L)))
  cases$add("mean(sqrt(x))", function(x) mean(sqrt(x)), list(c(-1, 4)))
  # Two deferred arguments that warn alike: the distinct messages agree (how
  # often: the next test).
  cases$add("sum(sqrt(x), sqrt(y))", function(x, y) sum(sqrt(x), sqrt(y)),
            list(c(-1, 4), c(-1, 4)), distinct = TRUE)
  cases$add("sum(sqrt(x), log(y))", function(x, y) sum(sqrt(x), log(y)),
            list(c(-1, 4), c(-1, 4)), distinct = TRUE)
  a3 <- array(c(rnorm(59), NA), c(3, 4, 5))
  cases$add("sum(a[, , 2])", function(a) sum(a[, , 2]), list(a3))
  cases$add("max(a[2:3, , 5])", function(a) max(a[2:3, , 5]), list(a3))
  cases$add("range(aperm(a, c(3, 1, 2)))", function(a) range(aperm(a, c(3, 1, 2)), na.rm = TRUE),
            list(a3))
  expect_no_mismatches(cases, 150)
})

test_that("several deferred arguments that warn: each warning as often as base R gives it", {
  cases <- summary_collector("r-source man/sum.Rd (several arguments)")
  cases$add("sum(sqrt(x), sqrt(y))", function(x, y) sum(sqrt(x), sqrt(y)), list(c(-1, 4), c(-1, 4)))
  cases$add("sum(sqrt(x), log(y))", function(x, y) sum(sqrt(x), log(y)), list(c(-1, 4), c(-1, 4)))
  cases$add("sum(x + y, x + y) int overflow", function(x, y) sum(x + y, y + x),
            list(c(big, 1L), c(1L, 1L)))
  expect_no_mismatches(cases, 6)
})

# NaNs that differ in the sign or payload (helper-values.R), one in each of two
# arguments: base R keeps the bits it meets last.
nan_kinds <- list(NaN, -NaN, NA_real_, -NA_real_, nan_from_bits("7ff8000000000123"))

test_that("NaN bits across arguments: sum, prod, range keep base R's", {
  cases <- summary_collector("r-source man/Extremes.Rd (NA and NaN), NaN bits")
  for (a in nan_kinds) for (b in nan_kinds) {
    for (f in c("sum", "prod", "range")) {
      cases$add(sprintf("%s(c(1, %s), c(%s, 2))", f, a, b), summary_ops[[f]], list(c(1, a), c(b, 2)))
    }
    for (f in c("min", "max")) {  # with an NA among them (the NaN-only pairs: next test)
      if (is.nan(a) && is.nan(b)) next
      cases$add(sprintf("%s(c(1, %s), c(%s, 2))", f, a, b), summary_ops[[f]], list(c(1, a), c(b, 2)))
    }
  }
  expect_no_mismatches(cases, 150)
})

test_that("NaN bits across arguments: min and max keep the last argument's NaN", {
  cases <- summary_collector("r-source man/Extremes.Rd (NA and NaN), NaN bits")
  for (a in nan_kinds) for (b in nan_kinds) {
    if (!is.nan(a) || !is.nan(b)) next
    for (f in c("min", "max")) {
      cases$add(sprintf("%s(c(1, %s), c(%s, 2))", f, a, b), summary_ops[[f]], list(c(1, a), c(b, 2)))
    }
  }
  expect_no_mismatches(cases, 30)
})

# Long vectors with NA, NaN, Inf, -0 and extremes planted at block boundaries
# (65536, 65537) and the last element, under the default deferral threshold.
test_that("long vectors: values planted at block boundaries, every engine setting", {
  cases <- summary_collector("long vectors, engine settings")
  set.seed(7)
  n <- 70001L
  base_d <- runif(n, -1, 1) * 1e3
  base_i <- sample(-1000:1000, n, TRUE)
  base_l <- sample(c(TRUE, FALSE), n, TRUE)
  plant <- function(x, at, v) replace(x, at, v)
  ats <- list(65536L, 65537L, n, c(65536L, 65537L), c(1L, n))
  dbl_vals <- list(NA_real_, NaN, Inf, -Inf, c(NaN, NA_real_), c(NA_real_, NaN),
                   c(Inf, -Inf), c(xmax, xmax))
  for (at in ats) {
    for (v in dbl_vals) {
      if (length(v) != length(at)) next
      x <- plant(base_d, at, v)
      lab <- sprintf("dbl %s at %s", toString(v), toString(at))
      for (f in names(summary_ops)) {
        cases$engines(paste(f, lab), summary_ops[[f]], list(x), min_length = 65536)
        cases$engines(paste(f, lab, "na.rm"), function(x) summary_ops[[f]](x, na.rm = TRUE),
                      list(x), min_length = 65536, settings = engine_grid[c(2, 6)])
      }
      cases$engines(paste("mean", lab), mean, list(x), min_length = 65536)
      cases$engines(paste("mean na.rm", lab), function(x) mean(x, na.rm = TRUE), list(x),
                    min_length = 65536, settings = engine_grid[c(2, 6)])
      cases$engines(paste("range finite", lab), function(x) range(x, finite = TRUE), list(x),
                    min_length = 65536, settings = engine_grid[c(2, 6)])
    }
    for (v in list(NA_real_, NaN)) {
      if (length(at) != 1L) next
      lab <- sprintf("%s at %s", v, at)
      cases$engines(paste("sum(x * y)", lab), function(x, y) sum(x * y), list(plant(base_d, at, v), base_d),
                    min_length = 65536, settings = engine_grid[c(1, 4, 6)])
      cases$engines(paste("mean(x - 1)", lab), function(x) mean(x - 1), list(plant(base_d, at, v)),
                    min_length = 65536, settings = engine_grid[c(1, 4, 6)])
    }
    xi <- plant(base_i, at, NA_integer_)
    xl <- plant(base_l, at, NA)
    for (f in names(summary_ops)) {
      cases$engines(sprintf("%s int NA at %s", f, toString(at)), summary_ops[[f]], list(xi),
                    min_length = 65536, settings = engine_grid[c(1, 4, 6)])
      cases$engines(sprintf("%s lgl NA at %s", f, toString(at)), summary_ops[[f]], list(xl),
                    min_length = 65536, settings = engine_grid[c(2, 5)])
    }
    cases$engines(sprintf("mean int NA at %s", toString(at)), mean, list(xi),
                  min_length = 65536, settings = engine_grid[c(1, 4, 6)])
    cases$engines(sprintf("any/all lgl NA at %s", toString(at)),
                  function(x) c(any(x), all(x), any(!x), all(x | TRUE), any(x, na.rm = TRUE)),
                  list(xl), min_length = 65536, settings = engine_grid[c(2, 5)])
  }
  # Integer overflow only past a block boundary; back in range at the end.
  xo <- rep(1L, n)
  xo[65536:65537] <- big
  cases$engines("sum int overflow at the boundary", sum, list(xo), min_length = 65536)
  xo[n] <- -big
  cases$engines("sum int back in range at the end", sum, list(xo), min_length = 65536)
  cases$engines("sum(int, 0.5) wide", function(x) sum(x, 0.5), list(xo), min_length = 65536,
                settings = engine_grid[c(2, 6)])
  # Doubles past xmax in between, back at the end.
  xd <- rep(0, n)
  xd[c(65536L, 65537L)] <- xmax
  xd[n] <- -xmax
  cases$engines("sum past xmax at the boundary", sum, list(xd), min_length = 65536)
  cases$engines("mean past xmax at the boundary", mean, list(xd), min_length = 65536)
  # Signed zeros: all -0 but one 0 at the boundary.
  xz <- rep(-0, n)
  cases$engines("sum all -0", sum, list(xz), min_length = 65536, settings = engine_grid[c(1, 6)])
  xz[65537L] <- 0
  for (f in c("sum", "min", "max")) {
    cases$engines(paste(f, "-0 with one 0"), summary_ops[[f]], list(xz), min_length = 65536,
                  settings = engine_grid[c(1, 6)])
  }
  # Several lazy and plain arguments.
  cases$engines("sum(x, y, 1L)", function(x, y) sum(x, y, 1L), list(base_i, base_l),
                min_length = 65536, settings = engine_grid[c(2, 6)])
  cases$engines("max(x, 0)", function(x) max(x, 0), list(base_i), min_length = 65536,
                settings = engine_grid[c(2, 6)])
  cases$engines("range(x, y, finite = TRUE)", function(x, y) range(x, y, finite = TRUE),
                list(plant(base_d, 65537L, Inf), plant(base_i, n, NA)), min_length = 65536,
                settings = engine_grid[c(2, 6)])
  # any/all of doubles: the coercion warning, once.
  cases$engines("any(dbl)", any, list(base_d), min_length = 65536, settings = engine_grid[c(2, 6)])
  cases$engines("all(dbl NaN)", all, list(plant(base_d, 65537L, NaN)), min_length = 65536,
                settings = engine_grid[c(2, 6)])
  expect_no_mismatches(cases, 8e7)
})

test_that("vectors of a million elements: sums, means and extremes keep base R's bits", {
  cases <- summary_collector("numpy test_regression.py (large float sums), 1e6 elements")
  set.seed(11)
  n <- 1e6
  x <- rnorm(n) * 10^runif(n, -5, 5)
  x[c(65536, 65537)] <- c(1e15, -1e15)
  tenth <- rep(0.1, n)
  xi <- sample(.Machine$integer.max, n, TRUE)
  settings <- list(list(gufunc.threads = 2L, gufunc.block_size = 1000L),
                   list(gufunc.threads = 2L, gufunc.block_size = NULL),
                   list(gufunc.threads = 1L, gufunc.block_size = NULL))
  for (f in c("sum", "mean", "max", "range")) {
    fn <- match.fun(f)
    cases$engines(paste(f, "rnorm * 10^u"), fn, list(x), settings = settings, min_length = 65536)
  }
  cases$engines("sum(0.1 x 1e6)", sum, list(tenth), settings = settings, min_length = 65536)
  cases$engines("mean(0.1 x 1e6)", mean, list(tenth), settings = settings, min_length = 65536)
  cases$engines("sum(int) overflow", sum, list(xi), settings = settings[2], min_length = 65536)
  cases$engines("mean(int)", mean, list(xi), settings = settings[2], min_length = 65536)
  cases$engines("sum(x * y)", function(x, y) sum(x * y), list(x, tenth), settings = settings[2],
                min_length = 65536)
  cases$engines("mean(x - 1) NA last", function(x) mean(x - 1), list(replace(x, n, NA)),
                settings = settings[1], min_length = 65536)
  cases$engines("max NaN last", max, list(replace(x, n, NaN)), settings = settings[1],
                min_length = 65536)
  expect_no_mismatches(cases, 2.2e7)
})

test_that("sum order \"fast\": what its documentation promises", {
  set.seed(5)
  n <- 200001L
  x <- rnorm(n) * 10^runif(n, -8, 8)
  specials <- list(
    plain = x, na = replace(x, 65537L, NA), nan = replace(x, 65536L, NaN),
    na_nan = replace(x, c(65536L, 65537L), c(NA, NaN)),
    nan_na = replace(x, c(65536L, 65537L), c(NaN, NA)),
    inf = replace(x, n, Inf), ninf = replace(x, 1L, -Inf),
    inf_ninf = replace(x, c(1L, n), c(Inf, -Inf)), inf_nan = replace(x, c(5L, 70000L), c(Inf, NaN))
  )
  checked <- 0
  for (nm in names(specials)) {
    v <- specials[[nm]]
    for (f in list(sum, mean)) {
      for (na_rm in c(FALSE, TRUE)) {
        expected <- with_base_masks(f)(v, na.rm = na_rm)
        got <- list()
        for (s in engine_grid[c(1, 4, 5, 6)]) {
          got[[length(got) + 1L]] <- with_options(c(s, list(gufunc.sum_order = "fast")),
                                                  f(lazy(v), na.rm = na_rm))
        }
        # The same bits under every thread count and block size.
        for (g in got[-1]) expect_true(identical(g, got[[1]], num.eq = FALSE), label = nm)
        if (is.finite(expected)) {
          expect_true(is.finite(got[[1]]), label = nm)
          expect_equal(got[[1]], expected, tolerance = 1e-12, label = nm)
        } else {
          # NA, NaN and infinities as base R's.
          expect_true(identical(got[[1]], expected, num.eq = FALSE, single.NA = FALSE), label = nm)
        }
        checked <- checked + 1
      }
    }
    # Integer and logical sums, and the extremes, are not affected by the order.
    with_options(list(gufunc.sum_order = "fast"), {
      expect_true(identical(max(lazy(v)), max(v), num.eq = FALSE, single.NA = FALSE))
      expect_identical(range(lazy(v), na.rm = TRUE), range(v, na.rm = TRUE))
    })
  }
  xi <- sample(-1000:1000, n, TRUE)
  with_options(list(gufunc.sum_order = "fast"), {
    expect_identical(sum(lazy(xi)), sum(xi))
    expect_identical(mean(lazy(xi)), mean(xi))
    expect_identical(sum(lazy(xi > 0)), sum(xi > 0))
  })
  expect_gte(checked, 36)
})
