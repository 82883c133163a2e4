# Differential tests, second part: the input values of NumPy's tests for the
# functions gufunc computes with its own kernels beyond test-differential-third-party.R's
# arithmetic. Only values and operations are taken over, each group naming the
# NumPy test; the expected results are base R's on this machine, compared bit for
# bit (helper-differential.R) with gufunc_call() and with the operands lazy.

math2 <- function(names) setNames(lapply(names, function(n) get(n, baseenv())), names)

# gufunc masks atan2, pmin, pmax, round, signif and ifelse: base R's function
# computes on plain operands (the oracle), gufunc's when an operand is lazy.
masked <- function(base_fun, gufunc_fun) {
  function(...) {
    if (any(vapply(list(...), inherits, NA, "gufunc_lazy"))) gufunc_fun(...) else base_fun(...)
  }
}

# A collector whose add_masked() also checks gufunc's mask on the plain operands.
numpy_cases <- function(source) {
  cases <- differential_cases(source)
  plain_failures <- character()
  cases$add_masked <- function(label, base_fun, gufunc_fun, args, name = NULL) {
    cases$add(label, masked(base_fun, gufunc_fun), args, name)
    plain_failures <<- c(plain_failures, mask_mismatch(label, source, base_fun, gufunc_fun, args))
  }
  mismatches <- cases$mismatches
  cases$mismatches <- function() c(mismatches(), plain_failures)
  cases
}

# Every pair of two value sets, as two vectors.
all_pairs <- function(x, y) list(rep(x, each = length(y)), rep(y, times = length(x)))

special <- c(NaN, -NaN, Inf, -Inf, 0, -0, 1, -1, NA, -NA_real_)

# Each function of `m` on `x` (and each value alone), 1 / its result (the sign of
# a zero), and on `x` repeated 40 times.
add_unary <- function(cases, m, x) {
  for (f in names(m)) {
    differential_each(cases, f, m[[f]], list(x), f)
    cases$add(paste("1 /", f), function(v) 1 / m[[f]](v), list(x))
    cases$add(paste(f, "x 40"), m[[f]], list(rep(x, 40)), f)
  }
}

test_that("NumPy's TestArctan2SpecialValues: atan2 at signed zeros, infinities and NaN", {
  cases <- numpy_cases("numpy test_umath.py, TestArctan2SpecialValues")
  at2 <- masked(base::atan2, gufunc::atan2)
  # test_one_one, test_zero_nzero, test_zero_pzero, test_zero_negative,
  # test_zero_positive, test_positive_zero, test_negative_zero, test_any_ninf,
  # test_any_pinf, test_inf_any, test_inf_ninf, test_inf_pinf, test_nan_any.
  y <- c(1, -1, 1, 0, -0, 0, -0, 0, -0, 0, -0, 1, 1, -1, -1, 1, -1, 1, -1, Inf, -Inf,
         Inf, -Inf, Inf, -Inf, NaN, Inf, NaN)
  x <- c(1, 1, -1, -0, -0, 0, 0, -1, -1, 1, 1, 0, -0, 0, -0, -Inf, -Inf, Inf, Inf, 1, 1,
         -Inf, -Inf, Inf, Inf, Inf, NaN, NaN)
  differential_each(cases, "atan2 table", at2, list(y, x), "atan2")
  # 1 / atan2() tells -0 from 0.
  cases$add("1 / atan2 table", function(y, x) 1 / at2(y, x), list(y, x))
  a2 <- function(label, args) cases$add_masked(label, base::atan2, gufunc::atan2, args, "atan2")
  p <- all_pairs(special, special)
  a2("atan2 all special pairs", p)
  cases$add("1 / atan2 all special pairs", function(y, x) 1 / at2(y, x), p)
  # Long operands (interesting_binop_operands: values among 10003 ones).
  long_y <- rep(c(y, 1), 50)
  long_x <- rep(c(x, 1), 50)
  a2("atan2 repeated x 50", list(long_y, long_x))
  m <- matrix(y[1:24], 4, dimnames = list(letters[1:4], NULL))
  a2("atan2 matrix by vector", list(m, x[1:24]))
  a2("atan2 scalar by matrix", list(-0, m))
  # Fractional recycling (a warning), zero-length and integer operands.
  a2("atan2 recycled 3 by 2", list(y[1:3], x[1:2]))
  a2("atan2 empty", list(numeric(0), 1))
  a2("atan2 integers", list(c(0L, NA, -1L), 0L))
  # Fused with lazy producers (negation keeps the signed zeros moving).
  cases$add("atan2(-y, -x)", function(y, x) at2(-y, -x), list(long_y, long_x))
  cases$add("atan2(y * 0, x - 1)", function(y, x) at2(y * 0, x - 1), list(long_y, long_x))
  for_engine_settings(cases$add("atan2 engine settings", at2, list(long_y, long_x), "atan2"))
  expect_no_mismatches(cases, 10000)
})

test_that("NumPy's TestMaximum/TestMinimum/TestFmax/TestFmin: pmax, pmin, NaN, signed zeros", {
  cases <- numpy_cases("numpy test_umath.py, TestMaximum, TestMinimum, TestFmax, TestFmin")
  # test_float_nans, test_strided_array, test_precision (double's extremes, 0.1
  # and its successor), plus NA and -0.
  a1 <- c(0, NaN, NaN, -4, 1, 10, 0, NaN, -NaN, Inf, -Inf, -.Machine$double.xmax,
          .Machine$double.xmax, 0.1, .Machine$double.xmax, NA, NA, 0, -0, NA, NaN)
  a2 <- c(NaN, 0, NaN, -2, -1, NaN, 1, 0, NaN, 1, -3, -Inf, -Inf, 0.1 + 2^-56, NaN, 1, NaN,
          -0, 0, NA, NA)
  # Integers with NA and the extremes; test_minmax_blocked: NaN at every third
  # position of 0..n-1 (and NA at every fifth), n up to 1100.
  ints <- c(NA, 0L, 1L, -1L, .Machine$integer.max, -.Machine$integer.max)
  blocked <- lapply(c(7L, 1100L), function(n) {
    v <- as.double(seq_len(n) - 1L)
    v[seq(1, n, by = 3)] <- NaN
    v[seq(2, n, by = 5)] <- NA
    list(v, rev(v))
  })
  # TestMaximum.test_reduce's arange(11) with NaN at the even positions, reversed.
  s11 <- replace(as.double(0:10), c(1, 3, 5, 7, 9, 11), NaN)
  for (f in c("pmax", "pmin")) {
    for (na_rm in c(FALSE, TRUE)) {
      b <- function(...) get(f, baseenv())(..., na.rm = na_rm)
      g <- function(...) get(f, asNamespace("gufunc"))(..., na.rm = na_rm)
      name <- if (na_rm) paste0(f, "_na_rm") else f
      lbl <- sprintf("%s(na.rm = %s)", f, na_rm)
      pm <- function(label, args, nm = name) cases$add_masked(paste(lbl, label), b, g, args, nm)
      differential_each(cases, lbl, masked(b, g), list(a1, a2), name)
      pm("swapped", list(a2, a1))
      cases$add(paste("1 /", lbl), function(x, y) 1 / masked(b, g)(x, y), list(a1, a2))
      pm("all special pairs", all_pairs(special, special))
      pm("integers", all_pairs(ints, ints))
      pm("integer and double", list(ints, c(NaN, 0.5)))
      # The strided views (arr1[::2], arr1[:4], arr1[::3], ...) as recycling.
      pm("recycled", list(a1[seq(1, 21, 3)], a2[1:7]))
      pm("scalar NaN", list(NaN, a1))
      pm("empty", list(numeric(0), a2[1:2]))
      pm("logical", list(c(TRUE, NA, FALSE), c(NA, FALSE, FALSE)))
      # Attributes and fractional recycling (gufunc_call() is checked at the end).
      pm("matrix", list(matrix(a1[1:20], 4, dimnames = list(NULL, letters[1:5])), a2[1:20]), NULL)
      pm("named", list(c(a = 1, b = NaN), c(NA, 0)), NULL)
      pm("fractional recycling", list(a1[1:3], a2[1:2]), NULL)
      for (v in blocked) pm(sprintf("blocked n = %d", length(v[[1]])), v)
      # Three operands, and fused with lazy producers.
      cases$add(paste(lbl, "three operands"), masked(b, g), list(s11, rev(s11), c(NA, 5)))
      cases$add(paste(lbl, "(-x, y * 1)"), function(x, y) masked(b, g)(-x, y * 1), list(a1, a2))
      for_engine_settings(cases$add(paste(lbl, "engine settings"), masked(b, g),
                                    list(rep(a1, 60), rep(a2, 60)), name))
    }
  }
  expect_no_mismatches(cases, 30000)
})

test_that("NumPy's round tests: round() and signif() at halves, negative digits, huge values", {
  cases <- numpy_cases("numpy _core/tests/test_numeric.py, test_multiarray.py (round)")
  rnd <- masked(base::round, gufunc::round)
  sgn <- masked(base::signif, gufunc::signif)
  # TestMethods.test_round (test_multiarray.py): 1.2, 1.5 by 0; 12.2, 15.5 by -1;
  # 12.15, 15.51 by 1; the real parts 4.5 and 12.5. TestNonarrayArgs.test_round
  # (test_numeric.py): 1.56, 72.54, 6.35, 3.25 by 1. test_dunder_round_accuracy:
  # 5.1e73 by -73, 501 by -2. test_dunder_round_edgecases: 2^31 - 1 by -1, -9, -10.
  x <- c(1.2, 1.5, 12.2, 15.5, 12.15, 15.51, 4.5, 12.5, 1.56, 72.54, 6.35, 3.25, 5.1e73, 501,
         2^31 - 1, 2^31 - 1, 2^31 - 1)
  d <- c(0, 0, -1, -1, 1, 1, 0, -1, 1, 1, 1, 1, -73, -2, -1, -9, -10)
  differential_each(cases, "round table", rnd, list(x, d), "round")
  differential_each(cases, "signif table", sgn, list(x, abs(d) + 1), "signif")
  # Halfway cases of both signs, -0, subnormals, NaN, NA, infinities, the largest
  # double, by digits -400 to 400 (every value against every digits).
  halves <- c(0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.125, 0.375, 2.675, -2.675, 0.285, 1.005,
              -0, 5e-324, -5e-324, 2.2250738585072014e-308, 1e300, .Machine$double.xmax,
              2^52 + 0.5, 2^53, -2^53 - 2, 123456.5, NaN, NA, Inf, -Inf, -NaN)
  digits <- c(-400, -309, -308, -16, -2, -1, 0, 1, 2, 3, 7, 15, 16, 17, 22, 308, 309, 323, 324,
              400, 2.7, -0.5, NA, NaN, Inf, -Inf)
  p <- all_pairs(halves, digits)
  for (f in c("round", "signif")) {
    base_fun <- get(f, baseenv())
    gu_fun <- get(f, asNamespace("gufunc"))
    rs <- function(label, args) cases$add_masked(paste(f, label), base_fun, gu_fun, args, f)
    rs("halves by digits", p)
    cases$add(paste("1 /", f, "halves by digits"),
              function(x, d) 1 / masked(base_fun, gu_fun)(x, d), p)
    rs("integer digits", list(halves, 2L))
    rs("integer x", list(c(501L, NA, .Machine$integer.max, -15L), -2))
    rs("logical x", list(c(TRUE, NA, FALSE), 1))
    rs("matrix", list(matrix(halves[1:24], 6, dimnames = list(letters[1:6], NULL)), 1))
    cases$add(paste(f, "default digits"), function(x) masked(base_fun, gu_fun)(x), list(halves))
    # One value by many digits (recycling of x), fractional recycling, empty x.
    rs("pi by -2:17", list(pi, -2:17))
    rs("3 by 2", list(halves[1:3], c(0, 1)))
    rs("empty", list(numeric(0), 1))
  }
  cases$add("round(-x, d)", function(x, d) rnd(-x, d), p)
  cases$add("signif(x * 1, d + 0)", function(x, d) sgn(x * 1, d + 0), p)
  for_engine_settings(cases$add("round engine settings", rnd, list(rep(halves, 40), 1), "round"))
  for_engine_settings(cases$add("signif engine settings", sgn, list(rep(halves, 40), 3), "signif"))
  expect_no_mismatches(cases, 15000)
})

test_that("NumPy's floor/ceil/trunc/sign/abs tests: -0, huge values, NaN, integer NA", {
  cases <- numpy_cases("numpy test_umath.py; lib/tests/test_ufunclike.py")
  # TestSign.test_sign, TestSpecialFloats.test_abs_values, test_ufunclike.py
  # test_fix (trunc of +-1.0, 1.1, 1.5, 1.8), TestAVXUfuncs (floor/ceil/trunc/rint
  # on -100..100), plus -0, halves, values beyond 2^52 and subnormals.
  x <- c(Inf, -Inf, NaN, 0, 3, -3, -NaN, -0, -1, 1, 1.1, 1.5, 1.8, -1.1, -1.5, -1.8, 0.5, -0.5,
         -0.2, 0.2, 2^52 + 0.5, -2^52 - 0.5, 2^53 + 2, 1e300, -1e300, 5e-324, -5e-324, NA,
         -NA_real_, -99.5, 99.5)
  m <- math2(c("floor", "ceiling", "trunc", "sign", "abs"))
  add_unary(cases, m, x)
  set.seed(42)
  avx <- runif(31, -100, 100)
  # TestAbsoluteNegative: abs of integers, with NA and the integer extremes.
  ints <- c(NA, 0L, -1L, 1L, .Machine$integer.max, -.Machine$integer.max, NA)
  for (f in names(m)) {
    cases$add(paste(f, "matrix"), m[[f]], list(matrix(x[1:30], 5, dimnames = list(NULL, 1:6))), f)
    cases$add(paste(f, "avx"), m[[f]], list(avx), f)
    differential_each(cases, paste(f, "integers"), m[[f]], list(ints), f)
  }
  cases$add("abs logical", abs, list(c(TRUE, NA, FALSE)), "abs")
  cases$add("floor(-x)", function(v) floor(-v), list(x))
  cases$add("sign(abs(x) - 1)", function(v) sign(abs(v) - 1), list(x))
  for_engine_settings(cases$add("trunc engine settings", trunc, list(rep(x, 40)), "trunc"))
  expect_no_mismatches(cases, 12000)
})

test_that("NumPy's TestCumsum/TestCumprod: running totals, NA and NaN order, integer overflow", {
  cases <- numpy_cases("numpy lib/tests/test_function_base.py, TestCumsum, TestCumprod")
  m <- math2(c("cumsum", "cumprod", "cummax", "cummin"))
  # test_basic: ba and the rows and columns of ba2, as integers and doubles.
  ba <- c(1L, 2L, 10L, 11L, 6L, 5L, 4L)
  ba2 <- matrix(c(1L, 2L, 3L, 4L, 5L, 6L, 7L, 9L, 10L, 3L, 4L, 5L), 3, byrow = TRUE)
  inputs <- list(ba, ba + 0, c(ba2), c(t(ba2)) + 0, -ba,
                 # All NaN (TestNanFunctions_CumSumProd's np.full(..., nan)), NA and
                 # NaN in both orders.
                 c(NaN, NaN, NaN), c(1, NA, NaN, 2), c(1, NaN, NA, 2), c(NaN, 1, NA),
                 c(NA, 1, NaN), c(2, -NaN, NA),
                 c(-0, -0), c(0, -0), c(-0, 0), c(Inf, -Inf, 1), c(1e308, 1e308, -1e308),
                 c(-Inf, NaN, -Inf), c(1L, NA, 3L), c(TRUE, NA, FALSE), numeric(0), integer(0),
                 c(3, 1, NA, 5), c(5L, NA, 7L, 1L), ba2 + 0,
                 matrix(c(1, NA, 3, NaN), 2, dimnames = list(c("a", "b"), NULL)))
  for (f in names(m)) {
    for (i in seq_along(inputs)) {
      v <- inputs[[i]]
      # gufunc_call()'s cumsum and cumprod keep dim (documented, unlike base R).
      name <- if (is.double(v) && is.null(dim(v)) && f %in% c("cumsum", "cumprod")) f
      cases$add(sprintf("%s input %d", f, i), m[[f]], list(v), name)
    }
    cases$add(paste("1 /", f, "signed zeros"), function(v) 1 / m[[f]](v), list(c(-0, -0, 0, -0)))
    cases$add(paste(f, "named"), m[[f]], list(c(a = 1, b = NaN, c = 2)))
  }
  # Integer overflow: R's warning and NA from there on.
  big <- .Machine$integer.max
  for (v in list(c(big, 1L, 2L), c(-big, -1L, 5L), c(big - 1L, 1L, NA, 1L), rep(1e6L, 3000))) {
    cases$add("cumsum integer overflow", cumsum, list(v))
    cases$add("cumprod integer overflow", cumprod, list(v), if (is.double(v)) "cumprod")
  }
  cases$add("cumsum(abs(x))", function(v) cumsum(abs(v)), list(c(-1, NA, -0, NaN, 2)))
  cases$add("cumprod(-x)", function(v) cumprod(-v), list(c(-0, 2, NaN, NA)))
  # Long inputs with NA and NaN late (past a block boundary).
  long <- replace(rep(c(0.5, 1.25, -2, 3), 400), c(1301, 1500), c(NaN, NA))
  for (f in names(m)) {
    for_engine_settings(cases$add(paste(f, "long, engine settings"), m[[f]], list(long),
                                  if (f %in% c("cumsum", "cumprod")) f))
  }
  expect_no_mismatches(cases, 40000)
})

test_that("NumPy's TestSpecialFloats: inverse hyperbolics, pi functions, logarithms, sqrt", {
  cases <- numpy_cases("numpy test_umath.py, TestSpecialFloats, TestLog1p, TestExpm1")
  m <- math2(c("acosh", "asinh", "atanh", "sinpi", "cospi", "tanpi", "log", "log2", "log10",
               "log1p", "expm1", "sqrt"))
  # test_arcsinh, test_arccosh, test_arctanh, test_log_values, test_sqrt_values,
  # test_expm1, TestLog1p.test_special, TestExpm1.test_special and
  # test_unary_spurious_fpexception's 0.03; halves and integers for the pi functions.
  x <- c(NaN, -NaN, Inf, -Inf, 1, 0, -0, -1, 2, 1.01, -2, 0.03, 0.5, -0.5, 1.5, -1.5, 2.5, 3,
         -3, 0.25, -0.25, 1e-300, 5e-324, 1e300, 2^53, 2^53 + 2, -2^60, 1e-6, 0.2, 709.8, -745.2,
         NA, -NA_real_)
  add_unary(cases, m, x)
  # log(x, base): TestLog's powers of two by bases, scimath.logn's example
  # (logn(2, c(4, 8)), logn(2, c(-4, -8, 8))) and the special values as bases.
  lg <- function(x, base) log(x, base)
  cases$add("logn(2, c(4, 8))", lg, list(c(4, 8), 2), "log")
  differential_each(cases, "logn(2, c(-4, -8, 8))", lg, list(c(-4, -8, 8), 2), "log")
  p <- all_pairs(c(2^(0:10), special, 0.5, 1e-320), c(2, 10, exp(1), 0.5, special))
  cases$add("log(x, base) pairs", lg, p, "log")
  differential_each(cases, "log(x, base) special pairs", lg, all_pairs(special, special), "log")
  cases$add("log(x, base) integer", lg, list(c(1L, 8L, NA, -8L, 0L), 2L), "log")
  cases$add("log(x, base) matrix", lg,
            list(matrix(c(4, 8, 16, -1), 2, dimnames = list(1:2, NULL)), 2), "log")
  cases$add("log(x, base) 3 by 2", lg, list(c(8, 9, 10), c(2, 3)), "log")
  for (f in c("log2", "sqrt", "log1p", "atanh", "sinpi", "tanpi")) {
    for (v in list(c(1L, 1024L, NA, 0L, -1L), c(TRUE, NA, FALSE), numeric(0))) {
      cases$add(paste(f, typeof(v)), m[[f]], list(v), f)
    }
    for_engine_settings(cases$add(paste(f, "engine settings"), m[[f]], list(rep(x, 40)), f))
  }
  expect_no_mismatches(cases, 55000)
})

test_that("NumPy's TestFPClass and TestWhere: is.na/is.nan/is.finite/is.infinite, ifelse", {
  cases <- numpy_cases("numpy test_umath.py TestFPClass; test_multiarray.py TestWhere")
  m <- math2(c("is.na", "is.nan", "is.finite", "is.infinite"))
  # test_fpclass's values (read with strides -4, -2, -1, 1, 2, 4), with NA.
  fp <- c(NaN, -NaN, Inf, -Inf, -1, 1, -0, 0, 2.2251e-308, -2.2251e-308, NA, -NA_real_)
  for (f in names(m)) {
    for (s in c(-4, -2, -1, 1, 2, 4)) {
      cases$add(sprintf("%s stride %d", f, s), m[[f]], list(fp[seq(if (s > 0) 1 else 12, by = s,
                                                                  length.out = 12 %/% abs(s))]), f)
    }
    # Each value alone, twice (a length-1 logical result skips the lazy paths).
    for (v in fp) cases$add(sprintf("%s(c(%g, %g))", f, v, v), m[[f]], list(c(v, v)), f)
    cases$add(paste(f, "integers"), m[[f]], list(c(NA, 0L, .Machine$integer.max, -1L)), f)
    cases$add(paste(f, "logicals"), m[[f]], list(c(NA, TRUE, FALSE)), f)
    cases$add(paste(f, "matrix"), m[[f]], list(matrix(fp, 3, dimnames = list(1:3, NULL))), f)
    cases$add(paste(f, "named"), m[[f]], list(c(a = NaN, b = NA, c = 1)))
    for_engine_settings(cases$add(paste(f, "x 100"), m[[f]], list(rep(fp, 100)), f))
  }
  # TestWhere.test_basic: 53 TRUE but the 8th, read with strides 2 and 3; then
  # every third FALSE and some NA (R's three-valued test).
  ife <- masked(base::ifelse, gufunc::ifelse)
  basic <- replace(rep(TRUE, 53), 8, FALSE)
  test <- replace(seq_len(53) %% 3 != 1, c(5, 26, 53), NA)
  yes <- as.double(seq_len(53))
  no <- replace(-yes, c(3, 7), c(NaN, -0))
  ie <- function(label, args, name = "ifelse") {
    cases$add_masked(paste("ifelse", label), base::ifelse, gufunc::ifelse, args, name)
  }
  ie("basic", list(basic, yes, no))
  ie("basic stride 2", list(basic[c(TRUE, FALSE)], yes[c(TRUE, FALSE)], 0))
  ie("basic stride 3", list(basic[seq(1, 53, 3)], 1, no[seq(1, 53, 3)]))
  ie("double", list(test, yes, no))
  ie("integer", list(test, seq_len(53), c(NA, -1L)))
  ie("logical", list(test, TRUE, c(FALSE, NA)))
  ie("mixed types", list(test, 1L, 0.5))
  # Attributes, types and lengths base R takes from the test (gufunc_call() is
  # checked at the end).
  ie("all NA", list(c(NA, NA), c(1, 2), c(3, 4)), NULL)
  ie("numeric test", list(c(0, NaN, 2, NA, -0), 1, 2), NULL)
  ie("matrix test", list(matrix(test[1:52], 4, dimnames = list(1:4, NULL)), yes[1:52], no[1:52]),
     NULL)
  ie("named test", list(c(a = TRUE, b = NA, c = FALSE), c(x = 1, y = 2, z = 3), 0), NULL)
  ie("yes longer than test", list(c(TRUE, NA, FALSE), yes[1:5], no[1:2]), NULL)
  ie("empty", list(logical(0), 1, 2), NULL)
  cases$add("ifelse(is.na(x), y, -x)", function(x, y) ife(is.na(x), y, -x), list(fp, rev(fp)))
  cases$add("ifelse(x > 0, sqrt(x), x)", function(x) ife(x > 0, sqrt(x), x), list(fp))
  for_engine_settings(cases$add("ifelse engine settings", ife,
                                list(rep(test, 25), rep(yes, 25), rep(no, 25)), "ifelse"))
  expect_no_mismatches(cases, 30000)
})

# gufunc_call() of pmax, pmin (with and without na.rm) and ifelse must give base
# R's attributes (of the first argument, of the test), recycling warning, and
# ifelse's length and type (of the test; logical when no element is taken).
test_that("gufunc_call() pmax, pmin and ifelse keep base R's attributes, lengths and types", {
  cases <- differential_cases("numpy test_umath.py TestMaximum; test_multiarray.py TestWhere")
  pairs <- list(matrix = list(matrix(c(0, NaN, 1, NA), 2, dimnames = list(NULL, 1:2)),
                              c(NaN, 0, NA, 1)),
                named = list(c(a = 1, b = NaN), c(NA, 0)),
                "3 by 2" = list(c(0, NaN, NaN), c(NaN, 0)))
  for (f in c("pmax", "pmin")) {
    for (na_rm in c(FALSE, TRUE)) {
      b <- function(x, y) get(f, baseenv())(x, y, na.rm = na_rm)
      name <- if (na_rm) paste0(f, "_na_rm") else f
      for (k in names(pairs)) cases$add(paste(name, k), b, pairs[[k]], name, lazy = FALSE)
    }
  }
  tests <- list("all NA" = list(c(NA, NA), c(1, 2), c(3, 4)),
                "numeric test" = list(c(0, NaN, 2, NA, -0), 1, 2),
                "matrix test" = list(matrix(c(TRUE, NA, FALSE, TRUE), 2,
                                            dimnames = list(1:2, NULL)), c(1, 2, 3, 4), 0),
                "named test" = list(c(a = TRUE, b = NA, c = FALSE), c(x = 1, y = 2, z = 3), 0),
                "yes longer than test" = list(c(TRUE, NA, FALSE), c(1, 2, 3, 4, 5), c(-1, -2)),
                "empty" = list(logical(0), 1, 2))
  for (k in names(tests)) {
    cases$add(paste("ifelse", k), base::ifelse, tests[[k]], "ifelse", lazy = FALSE)
  }
  expect_no_mismatches(cases, 50)
})
