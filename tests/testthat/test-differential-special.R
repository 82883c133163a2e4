# Differential tests of the special and rounding functions on lazy values: the
# Bessel functions, beta(), lbeta(), choose(), lchoose() (masks of base R's, see
# ?base_masks), gamma(), lgamma(), digamma(), trigamma(), cospi(), sinpi(),
# tanpi(), log1p(), expm1() (deferred Math group functions), round(), signif(),
# log(x, base) and atan2() (deferred two-operand functions). Each case runs in
# base R (the oracle: base R's own functions on plain operands), through gufunc's
# names on plain operands and with every non-empty set of its numeric operands
# wrapped in lazy(); value (bit for bit, attributes, NA apart from NaN), the
# warnings (each message as often as base R gives it; for a chain of several
# operations the distinct messages, as ?lazy documents that one warning of an
# evaluation is raised once) and the error message must agree.
#
# The inputs are taken from other projects' tests (only values and operations;
# the expected results are base R's on this machine):
# - R: wch/r-source tests/arith-true.R, tests/reg-tests-1c.R, and
#   r-devel/r-svn tests/reg-tests-1d.R (PR#17668 round() "to even" block,
#   choose() near-integer n, thread of 2020-01), src/library/base/man/Round.Rd;
# - SciPy: scipy/special/tests/test_basic.py (test_ticket_623, test_ticket_853,
#   test_ticket_854, test_ticket_503, test_iv_series, test_negv_ive, test_i0,
#   test_i1, TestLog1p).

test_that("the functions under test are gufunc's masks or base R's primitives here", {
  for (f in c("besselI", "besselJ", "besselK", "besselY", "beta", "lbeta", "choose",
              "lchoose", "round", "signif", "atan2")) {
    expect_identical(get(f, mode = "function"), getExportedValue("gufunc", f), info = f)
  }
  for (f in c("gamma", "lgamma", "digamma", "trigamma", "cospi", "sinpi", "tanpi",
              "log", "log1p", "expm1")) {
    expect_identical(get(f, mode = "function"), get(f, envir = baseenv()), info = f)
  }
  # Lazy operands are deferred at gufunc.lazy_min_length = 0 (so the kernels are
  # what the cases below test), and not below the threshold.
  with_options(list(gufunc.lazy_min_length = 0), {
    expect_s3_class(round(lazy(c(0.15, 2.5)), 1), "gufunc_lazy")
    expect_false(is_materialized(gamma(lazy(c(0.5, 3)))))
    expect_false(is_materialized(atan2(lazy(c(1, 2)), 1)))
    expect_false(is_materialized(log(lazy(c(8, 9)), 2)))
  })
  with_options(list(gufunc.lazy_min_length = 65536), {
    expect_false(inherits(round(lazy(c(0.15, 2.5)), 1), "gufunc_lazy"))
  })
})

test_that("round() and signif(): R 4.0.0's algorithm (reg-tests-1d.R PR#17668, Round.Rd)", {
  cases <- elementwise_cases("r-svn tests/reg-tests-1d.R PR#17668; r-source Round.Rd, reg-tests-1c.R")
  rnd <- function(x, d) round(x, d)
  sig <- function(x, d) signif(x, d)
  # 55.5, 55.55, ... rounded to 0, 1, ... digits: digits vectorised with x.
  dd <- 0:12
  x55 <- 55 + as.numeric(vapply(dd + 1, function(k) paste0(".", strrep("5", k)), ""))
  cases$each("round(x55, dd)", rnd, list(x55, dd))
  cases$add("round(x55, dd) as doubles", rnd, list(x55, as.numeric(dd)))
  cases$add("round(CRAN cases)", rnd, list(c(10.7775, 12345 / 1000, 9.18665), c(3, 2, 4)))
  # pi / 10^e rounded to e + d digits, and pi to d digits.
  EE <- c(-307, -300, -250, -200, -100, -50, -20, -10, -2:2, 10, 20, 50, 100, 200, 250, 290:307)
  g <- expand.grid(e = EE, d = 0:16)
  g <- g[g$e + g$d <= 308, ]
  cases$add("round(pi / 10^e, e + d)", rnd, list(pi / 10^g$e, g$e + g$d))
  cases$add("round(pi, 0:16)", rnd, list(pi, 0:16))
  # Integers (as doubles) and i + 1/4 under large digits.
  i <- c(-2^(33:10), -10:10, 2^(10:33))
  for (digi in c(0:10, 500L, 1000L, 100000L, .Machine$integer.max)) {
    cases$add(sprintf("round(i, %d)", digi), rnd, list(i, digi))
    cases$add(sprintf("round(i + 1/4, %d)", digi), rnd, list(i + 1 / 4, digi))
  }
  cases$add("round(7e-304, 307:322)", rnd, list(7e-304, 307:322))
  e <- 5.555555555555555555555e-308
  cases$add("signif(e, 20:1)", sig, list(e, 20:1))
  cases$add("round(e, 310:305)", rnd, list(e, 310:305))
  cases$add("round(e * 1e298, 12:7)", rnd, list(e * 1e298, 12:7))
  cases$add("round(xmax, -(1:400))", rnd, list(.Machine$double.xmax, -(1:400)))
  cases$add("round(2^-1074, 301:500)", rnd, list(2^-1074, 301:500))
  # Round.Rd's examples and halfway cases.
  cases$add("round(.5 + -2:4)", round, list(.5 + -2:4))
  cases$add("round(seq(-2, 4, by = .5))", round, list(seq(-2, 4, by = .5)))
  x2 <- pi * 100^(-1:3)
  cases$add("round(x2, 3)", rnd, list(x2, 3))
  cases$add("signif(x2, 3)", sig, list(x2, 3))
  cases$add("signif(x2) (6 digits)", signif, list(x2))
  halves <- c(0.15, 0.25, 0.35, 0.45, 0.55, 0.65, 0.75, 0.85, 0.95, 2.5, 0.285, 1.005, 2.675,
              1.125, 0.125, 0.0005, 5e-324, -0.15, -2.5, -0.285)
  for (d in list(0, 1, 2, 3, -1, 1L)) {
    cases$add(sprintf("round(halves, %s)", deparse(d)), rnd, list(halves, d))
    cases$add(sprintf("signif(halves, %s)", deparse(d)), sig, list(halves, d))
  }
  x <- pi^(-6:6)
  for (d in list(-Inf, 1L, -2:10)) {
    cases$add(sprintf("signif(pi^k, %s)", deparse(d)), sig, list(x, d))
    cases$add(sprintf("round(pi^k, %s)", deparse(d)), rnd, list(x, d))
  }
  rr <- c(rep(-0.4, 5), rep(-0.4 - 1.11e-16, 14), -0.5)
  cases$add("signif(rr, 12)", sig, list(rr, 12))
  expect_no_mismatches(cases, 3500)
})

test_that("round() and signif(): special digits and x, types, attributes, recycling", {
  cases <- elementwise_cases("reg-tests-1d.R, Round.Rd: special digits")
  rnd <- function(x, d) round(x, d)
  sig <- function(x, d) signif(x, d)
  xs <- c(123.456, -0.15, 2.5, 0.285, 1e308, -1e308, 1e-320, 0, -0, NA, NaN, Inf, -Inf,
          .Machine$double.xmax, 2^52 + 0.5, 4503599627370497, 1 / 3)
  digits <- list(NA, NA_integer_, NA_real_, NaN, Inf, -Inf, 1.5, 2.5, -0.5, 0.5, 1.4999, 1e10,
                 -1e10, 22, 23, 0, -1, -2, -308, -309, 15, 16, 17, 308, 309, 323, 400, 2L,
                 -3L, TRUE, FALSE, .Machine$integer.max, -.Machine$integer.max)
  for (d in digits) {
    cases$add(sprintf("round(xs, %s)", deparse(d)), rnd, list(xs, d))
    cases$add(sprintf("signif(xs, %s)", deparse(d)), sig, list(xs, d))
  }
  p <- pairs_of(xs, unlist(digits[-c(1, 2)]))
  cases$add("round(xs x digits)", rnd, p)
  cases$add("signif(xs x digits)", sig, p)
  # Integer and logical x, integer results where base R gives them.
  ints <- c(-123456789L, -15L, -5L, 0L, 5L, 15L, 25L, 1234567L, NA, .Machine$integer.max)
  for (d in list(0L, 1L, -1L, -2L, 2, -9, -10, NA, 0.5)) {
    cases$add(sprintf("round(int, %s)", deparse(d)), rnd, list(ints, d))
    cases$add(sprintf("signif(int, %s)", deparse(d)), sig, list(ints, d))
  }
  cases$add("round(int)", round, list(ints))
  cases$add("signif(int)", signif, list(ints))
  cases$add("round(logical, 1)", rnd, list(c(TRUE, FALSE, NA), 1))
  cases$add("signif(logical)", signif, list(c(TRUE, FALSE, NA)))
  # Attributes: of x, of the longer operand, names, dims.
  m <- matrix(c(1.25, 2.35, -3.45, 4.55, NA, 6.65), 2, 3, dimnames = list(c("a", "b"), NULL))
  cases$add("round(matrix, 1)", rnd, list(m, 1))
  cases$add("signif(matrix, 2)", sig, list(m, 2))
  cases$add("round(matrix, 1:6)", rnd, list(m, 1:6))
  cases$add("round(named, 1)", rnd, list(c(a = 0.15, b = 0.25, c = 2.5), 1))
  cases$add("round(1.2345, named digits)", rnd, list(1.2345, c(a = 1, b = 2, c = 3)))
  cases$add("signif(x, named digits, equal lengths)", sig, list(c(1.25, 2.5, 3.75), c(a = 1, b = 2, c = 3)))
  cases$add("round(matrix 1x2, 1:3)", rnd, list(matrix(c(1.55, 2.45), 1, 2), 1:3))
  # Recycling with lengths that are no multiple of each other.
  cases$add("round(1:3 / 7, 1:2)", rnd, list(1:3 / 7, 1:2))
  cases$add("signif(1:7 / 3, 1:3)", sig, list(1:7 / 3, 1:3))
  cases$add("round(numeric(0), 1:2)", rnd, list(numeric(0), 1:2))
  cases$add("round(1:3 / 7, integer(0))", rnd, list(1:3 / 7, integer(0)))
  # Errors and the call forms the masks take.
  cases$add("round(x, 'a')", function(x) round(x, "a"), list(c(1.5, 2.5)))
  cases$add("round(x, list())", function(x) round(x, list(1)), list(c(1.5, 2.5)))
  cases$add("round(x, digits =, extra)", function(x) round(x, 1, 2), list(c(1.5, 2.5)))
  cases$add("round(digits = 2, x = x)", function(x) round(digits = 2, x = x), list(c(pi, exp(1))))
  cases$add("signif(digits = d, x)", function(x, d) signif(digits = d, x = x), list(c(pi, exp(1)), 3))
  cases$add("round(x, d = 2)", function(x) round(x, d = 2), list(c(pi, exp(1))))
  cases$add("round(x, d + 0) (deferred digits)", function(x, d) round(x, d + 0), list(xs, c(1, 0, 2, -1, NA)))
  cases$add("signif(x * 1, d / 2) (deferred both)", function(x, d) signif(x * 1, d / 2), list(xs, c(1, 4, 5, 0, 3)))
  cases$add("round(x, digits = named)", function(x) round(x, digits = c(a = 1, b = 2, c = 3)), list(c(0.15, 0.25, 0.35)))
  cases$add("round(x, NULL)", function(x) round(x, NULL), list(c(1.5, 2.5)))
  cases$add("signif(x, NULL)", function(x) signif(x, NULL), list(c(1.5, 2.5)))
  cases$add("round(x, character())", function(x) round(x, character()), list(c(1.5, 2.5)))
  cases$add("round(x, 1+2i)", function(x) round(x, 1 + 2i), list(c(1.55, 2.45)))
  cases$add("round(x, factor)", function(x) round(x, factor(1)), list(c(1.55, 2.45)))
  cases$add("round(x = , digits = , 3)", function(x) round(x = x, digits = 1, 3), list(c(1.55, 2.45)))
  # Fused: rounding after arithmetic, and arithmetic after rounding.
  halves_x <- c(0.15, 2.5, 0.285, 1.005, -2.675)
  cases$add("round(x * 100, 1) / 100", function(x) round(x * 100, 1) / 100, list(halves_x), distinct = TRUE)
  cases$add("signif(x / 3, d) + 1", function(x, d) signif(x / 3, d) + 1, list(halves_x, 1:5), distinct = TRUE)
  cases$add("round(sqrt(x), 2)", function(x) round(sqrt(x), 2), list(c(-1, 2, 3, NA)), distinct = TRUE)
  expect_no_mismatches(cases, 2400)
})

test_that("gamma(), lgamma(), digamma(), trigamma() (arith-true.R, reg-tests-1c.R)", {
  cases <- elementwise_cases("r-source tests/arith-true.R, reg-tests-1c.R")
  set.seed(1)
  r <- rlnorm(5000)
  for (f in c("gamma", "lgamma", "digamma", "trigamma")) {
    cases$add(sprintf("%s(rlnorm)", f), f, list(r))
    cases$add(sprintf("%s(1:172)", f), f, list(1:172))
    cases$add(sprintf("%s(0:-47)", f), f, list(0:-47))
    cases$add(sprintf("%s(1:n + 1/2)", f), f, list(1:12 + 1 / 2))
    x <- c(-100, -3:2, -99.9, -7.7, seq(-3, 3, length.out = 61), 5.1, 77)
    cases$each(sprintf("%s(psigamma grid)", f), f, list(x))
    cases$add(sprintf("%s(1e30^(1:10))", f), f, list(1e30^(1:10)))
    special <- c(-3e-308, 3e-308, -12 + 1 / 1024, -1, 0, -0, 171.6, 171.7, 172, -170.5, -171.5,
                 -180.5, 1e-308, -1e-308, 1e306, -1e306, 2^-1074, NA, NaN, Inf, -Inf, 0.5, 1, 2)
    cases$each(sprintf("%s(special)", f), f, list(special))
    cases$add(sprintf("%s(integer)", f), f, list(c(-2L, 0L, 1L, 5L, NA)))
    cases$add(sprintf("%s(logical)", f), f, list(c(TRUE, FALSE, NA)))
    cases$add(sprintf("%s(matrix)", f), f, list(matrix(c(0.5, 1.5, 2.5, 3.5), 2, dimnames = list(c("a", "b"), c("u", "v")))))
    cases$add(sprintf("%s(named)", f), f, list(c(a = 0.1, b = -0.5, c = 10)))
  }
  cases$add("lgamma(1:10000)", "lgamma", list(1:10000))
  cases$add("gamma('a')", function(x) gamma("a"), list(1))
  cases$add("gamma(x, 2)", function(x) gamma(x, 2), list(c(1, 2)))
  # Fused.
  cases$add("gamma(r + 1) / (r * gamma(r))", function(r) gamma(r + 1) / (r * gamma(r)), list(r[1:500]), distinct = TRUE)
  cases$add("lgamma(x) - digamma(x)", function(x) lgamma(x) - digamma(x), list(c(-1, 0, 0.5, 3)), distinct = TRUE)
  cases$add("gamma(x - 13)", function(x) gamma(x - 13), list(c(1 / 1024, 1, 0.5, 2)), distinct = TRUE)
  expect_no_mismatches(cases, 30000)
})

test_that("cospi(), sinpi(), tanpi(), log1p(), expm1() (reg-tests-1c.R, arith-true.R, SciPy TestLog1p)", {
  cases <- elementwise_cases("r-source tests/reg-tests-1c.R, arith-true.R; scipy test_basic.py TestLog1p")
  trig <- c(seq(-4, 4, by = 0.25), 2 * (-10:10) - 2^-12, (-10:10) - 2^-12, 2^52 + 0.5, 2^53,
            1e300, -0, 0, 1e-300, NA, NaN, Inf, -Inf, 0.5 + 2^-52, 1 / 3)
  for (f in c("cospi", "sinpi", "tanpi")) {
    cases$each(sprintf("%s(grid)", f), f, list(trig))
    cases$add(sprintf("%s(integer)", f), f, list(c(-3L, 0L, 1L, NA)))
    cases$add(sprintf("%s(matrix)", f), f, list(matrix(c(0.25, 0.5, 1, 1.5), 2)))
  }
  lp <- c(10, 11, 12, 1, 1.1, 1.2, -1, -2, -1 + 1e-16, -0.5, 1e-300, -1e-300, 1e-10, 0, -0,
          5e-324, 1e308, Inf, -Inf, NA, NaN)
  cases$each("log1p(grid)", "log1p", list(lp))
  em <- c(1e-10, -1e-10, 709, 709.78, 710, -745, -746, 0, -0, 1, -1, 5e-324, Inf, -Inf, NA, NaN)
  cases$each("expm1(grid)", "expm1", list(em))
  cases$add("log1p(integer)", "log1p", list(c(-2L, -1L, 0L, 3L, NA)))
  cases$add("expm1(named)", "expm1", list(c(a = 1, b = 2)))
  cases$add("log1p(expm1(x))", function(x) log1p(expm1(x)), list(em), distinct = TRUE)
  cases$add("sinpi(x)^2 + cospi(x)^2", function(x) sinpi(x)^2 + cospi(x)^2, list(trig), distinct = TRUE)
  cases$add("tanpi(x / 2) + log1p(x)", function(x) tanpi(x / 2) + log1p(x), list(c(-3, -1, 1, 2)), distinct = TRUE)
  expect_no_mismatches(cases, 700)
})

test_that("log(x, base) and atan2(y, x) (arith-true.R): bases, signed zeros, NA order, recycling", {
  cases <- elementwise_cases("r-source tests/arith-true.R")
  rp <- c(1:2, Inf)
  r <- c(-rev(rp), 0, rp, NA, NaN)
  xs <- c(1000, 1024, 8, 0.001, 1e-300, 5e-324, 0, -0, -1, 1, Inf, r, 1e308)
  bases <- c(2, 10, exp(1), 8, 0.5, 1, 0, -1, -0, Inf, NA, NaN, 1e-300)
  for (b in bases) cases$add(sprintf("log(xs, %s)", deparse(b)), function(x, b) log(x, b), list(xs, b))
  cases$add("log(xs x bases)", function(x, b) log(x, b), pairs_of(xs, bases))
  cases$add("log(x = , base = )", function(x, b) log(x = x, base = b), list(xs, 10))
  cases$add("log(base = , x)", function(x, b) log(base = b, x), list(xs, 2))
  cases$add("log(x) (no base)", function(x) log(x), list(xs))
  cases$add("log(integer, integer)", function(x, b) log(x, b), list(c(1L, 8L, 1000L, NA, -1L), c(2L, 10L)))
  cases$add("log(1:3, c(2, 10)) recycled", function(x, b) log(x, b), list(1:3, c(2, 10)))
  cases$add("log(matrix, 2)", function(x, b) log(x, b), list(matrix(c(1, 2, 4, 8), 2), 2))
  cases$add("log(named, base vector)", function(x, b) log(x, b), list(c(a = 8, b = 100), c(2, 10, 3)))
  cases$add("log(x, 'a')", function(x) log(x, "a"), list(c(1, 2)))
  cases$add("log(x, base = numeric(0))", function(x) log(x, numeric(0)), list(c(1, 2)))
  cases$add("log(x, b = 2)", function(x) log(x, b = 2), list(xs))
  cases$add("log(base = x, 8)", function(b) log(base = b, 8), list(bases))
  cases$add("log(x, 2, 3)", function(x) log(x, 2, 3), list(c(1, 2)))
  cases$add("log(x, NULL)", function(x) log(x, NULL), list(c(1, 2)))
  cases$add("log(x, 2+0i)", function(x) log(x, 2 + 0i), list(c(1, 2, -1)))
  cases$add("log(x + 3, d + 2) (deferred both)", function(x, b) log(x + 3, b + 2), list(c(-4, 0, 5, NA), c(0, 8, -1, 1)), distinct = TRUE)
  cases$add("atan2(x, NULL)", function(x) atan2(x, NULL), list(c(1, 2)))
  cases$add("atan2(x = x, 1)", function(x) atan2(x = x, 1), list(c(1, -2)))
  cases$add("atan2(named, named)", "atan2", list(c(a = 1, b = 2), c(c = 3, d = 4)))
  cases$add("log(x, 2) + log(x, 10)", function(x) log(x, 2) + log(x, 10), list(xs), distinct = TRUE)
  # atan2: signed zeros, infinities, NA and NaN in either order.
  ys <- c(0, -0, 1, -1, Inf, -Inf, NA, NaN, 1e-320, 1e308)
  p <- pairs_of(ys, ys)
  cases$add("atan2(ys x xs)", "atan2", p)
  cases$each("atan2 on NAs", "atan2", list(c(NA, NaN, NA, NaN, 1, NA), c(NaN, NA, NA, NaN, NaN, 1)))
  cases$add("atan2(1:3, 1:2)", "atan2", list(1:3, 1:2))
  cases$add("atan2(y = , x = )", function(a, b) atan2(x = b, y = a), list(c(1, -1), c(-0, 0)))
  cases$add("atan2(matrix, named)", "atan2", list(matrix(1:4, 2), c(a = 1, b = 2, c = 3, d = 4)))
  cases$add("atan2(named, 1)", "atan2", list(c(a = 1, b = -1), 1))
  cases$add("atan2(logical, integer)", "atan2", list(c(TRUE, FALSE, NA), c(0L, -1L, 2L)))
  cases$add("atan2(numeric(0), 1)", "atan2", list(numeric(0), 1))
  cases$add("atan2('a', 1)", function(x) atan2("a", x), list(c(1, 2)))
  cases$add("atan2(sinpi(x), cospi(x))", function(x) atan2(sinpi(x), cospi(x)), list(seq(-1, 1, by = 0.125)), distinct = TRUE)
  expect_no_mismatches(cases, 800)
})

test_that("Bessel functions (SciPy test_basic.py, reg-tests-1c.R): nu, x = 0, Inf, NA, negative x", {
  cases <- elementwise_cases("scipy special/tests/test_basic.py; r-source tests/reg-tests-1c.R")
  bI <- function(x, nu) besselI(x, nu)
  bIe <- function(x, nu) besselI(x, nu, expon.scaled = TRUE)
  bK <- function(x, nu) besselK(x, nu)
  bKe <- function(x, nu) besselK(x, nu, TRUE)
  bJ <- function(x, nu) besselJ(x, nu)
  bY <- function(x, nu) besselY(x, nu)
  all_b <- list(bI = bI, bIe = bIe, bK = bK, bKe = bKe, bJ = bJ, bY = bY)
  # test_ticket_623, test_ticket_853 (negative orders), test_ticket_854 (x < 0),
  # test_ticket_503 (overflow), test_negv_ive.
  scipy <- list(c(4, 3), c(1300, 301), c(1296.0682, 301), c(1, -1), c(1, -2), c(1, -0.5),
                c(-1, 0.5), c(-1, 1), c(700, 1), c(1120, 1000), c(2, 3), c(2, -3))
  xs <- vapply(scipy, `[`, 0, 1)
  nus <- vapply(scipy, `[`, 0, 2)
  for (b in names(all_b)) cases$each(sprintf("%s(scipy tickets)", b), all_b[[b]], list(xs, nus))
  # test_iv_series orders and arguments; test_i0, test_i1 arguments.
  p <- pairs_of(c(1, 10, 200.5), c(-20, -10, -1, 0, 1, 12.49, 120))
  for (b in names(all_b)) cases$add(sprintf("%s(iv_series grid)", b), all_b[[b]], p)
  ix <- c(0, 1e-10, 0.1, 0.5, 1, 2.5, 5, 20)
  for (b in names(all_b)) {
    cases$add(sprintf("%s(i0 grid, 0)", b), all_b[[b]], list(ix, 0))
    cases$add(sprintf("%s(i1 grid, 1)", b), all_b[[b]], list(ix, 1))
  }
  # Special x and nu: 0, Inf, NA, NaN, negative x, non-integer, large and
  # negative nu (warnings of large nu, of x < 0 and NaNs).
  sx <- c(0, -0, 1e-300, 0.5, 2, 50, 1e5, 1e6, Inf, -1, -Inf, NA, NaN)
  snu <- c(0, 0.5, 1, 2.5, -0.5, -1, -2.5, -7.3, 30.2, 1e3, 1e5, -1e3, NA, NaN)
  for (b in names(all_b)) {
    for (nu in snu) cases$add(sprintf("%s(sx, %s)", b, deparse(nu)), all_b[[b]], list(sx, nu))
    cases$add(sprintf("%s(sx x snu)", b), all_b[[b]], pairs_of(sx, snu))
  }
  # Orders past the algorithms' range (warnings). Base R's besselI() and besselK()
  # take about a second for nu = 1e8 and crash R for nu = +-Inf or 1e300: those
  # are left to besselJ() and besselY().
  for (b in c("bJ", "bY")) {
    cases$add(sprintf("%s(x, huge nu)", b), all_b[[b]],
              list(c(0.5, 2, 1e5, -1, 0), c(1e7 + 0.5, 1e8, Inf, -Inf, 1e300)))
    cases$add(sprintf("%s(x, 1e8)", b), all_b[[b]], list(c(0.5, 2, 1e5, NA), 1e8))
  }
  for (b in c("bI", "bK", "bKe")) cases$add(sprintf("%s(1e6, 1e7 + 0.5)", b), all_b[[b]], list(1e6, 1e7 + 0.5))
  cases$add("besselI(2.125, -5 + 1/1024)", bI, list(2.125, -5 + 1 / 1024))
  set.seed(7)
  cases$add("outer(x, +-nu, besselI)", function(a, b) outer(a, b, besselI),
            list(rlnorm(216), c(-1, -44, -111, 1, 44, 111)))
  # Vectorised and recycled, integers, attributes, and errors.
  for (b in names(all_b)) {
    cases$add(sprintf("%s(1:3, 1:2)", b), all_b[[b]], list(1:3, 1:2))
    cases$add(sprintf("%s(1:2, c(0.5, 1.5, 2.5))", b), all_b[[b]], list(1:2, c(0.5, 1.5, 2.5)))
    cases$add(sprintf("%s(matrix, 1)", b), all_b[[b]], list(matrix(1:4, 2, dimnames = list(c("a", "b"), NULL)), 1))
    cases$add(sprintf("%s(named, 0)", b), all_b[[b]], list(c(a = 1, b = 2), 0))
    cases$add(sprintf("%s(1, nu vector)", b), all_b[[b]], list(1, c(n1 = 0, n2 = 1)))
    cases$add(sprintf("%s(numeric(0), 1)", b), all_b[[b]], list(numeric(0), 1))
    cases$add(sprintf("%s('a', 1)", b), function(nu) all_b[[b]]("a", nu), list(c(1, 2)))
  }
  cases$add("besselJ(nu = , x = )", function(x) besselJ(nu = 1, x = x), list(c(1, 2)))
  cases$add("besselI(x, 1, expon.scaled = c(TRUE, FALSE))", function(x) besselI(x, 1, c(TRUE, FALSE)), list(c(1, 2)))
  cases$add("besselY(x, NULL)", function(x) besselY(x, NULL), list(c(1, 2)))
  cases$add("besselI(x, nu, expon.scaled = NA)", function(x) besselI(x, 1, NA), list(c(1, 2)))
  cases$add("besselK(x, nu, expon.scaled = 'yes')", function(x) besselK(x, 1, "yes"), list(c(1, 2)))
  cases$add("besselJ(x, nu) * 2 + besselY(x, nu)", function(x, nu) besselJ(x, nu) * 2 + besselY(x, nu),
            list(c(0, 1, 10, -1), c(0.5, 2)), distinct = TRUE)
  expect_no_mismatches(cases, 2800)
})

test_that("beta(), lbeta(), choose(), lchoose() (arith-true.R, reg-tests-1c.R, reg-tests-1d.R)", {
  cases <- elementwise_cases("r-source tests/arith-true.R, reg-tests-1c.R; r-svn tests/reg-tests-1d.R")
  cases$add("choose(51, 23:28)", "choose", list(51, 23:28))
  cases$add("choose(0:4, 2)", "choose", list(0:4, 2))
  cases$add("choose(-1, 0:5)", "choose", list(-1, 0:5))
  cases$add("lchoose(-1, 0:5)", "lchoose", list(-1, 0:5))
  # choose(~4, 4) for n within 1e-6 .. 1e-9 * (-20:20) of 4.
  eps <- c(outer(10^-(6:9), -20:20))
  cases$add("choose(4 + eps, 4)", "choose", list(4 + eps, 4))
  cases$add("lchoose(4 + eps, 4)", "lchoose", list(4 + eps, 4))
  cases$add("choose(4 + eps, 2)", "choose", list(4 + eps, 2))
  ns <- c(0.5, -0.5, -2.5, -4, 4 + 1e-7, 4 - 1e-7, 5, 50, 1e10, 1e15, 1e300, -1e10, 0, NA, NaN, Inf, -Inf)
  ks <- c(0, 1, 2, 3, 5, 30, -1, 2.5, 2 + 1e-8, 2 - 1e-8, 2 + 1e-6, 1.5, 0.4, NA, NaN, Inf, 1e10)
  for (f in c("choose", "lchoose")) {
    cases$add(sprintf("%s(ns x ks)", f), f, pairs_of(ns, ks))
    for (k in ks) cases$each(sprintf("%s(ns, %s)", f, deparse(k)), f, list(ns, k))
    cases$add(sprintf("%s(50, 0:50)", f), f, list(50, 0:50))
    cases$add(sprintf("%s(integer, integer)", f), f, list(c(5L, -3L, NA, 10L), c(2L, 3L)))
    cases$add(sprintf("%s(named, matrix)", f), f, list(c(a = 5, b = 6), matrix(1:4, 2)))
    cases$add(sprintf("%s(1:3, 1:2)", f), f, list(1:3, 1:2))
    cases$add(sprintf("%s('a', 1)", f), function(k) match.fun(f)("a", k), list(c(1, 2)))
  }
  # beta() and lbeta(): scipy test_basic.py's beta/betaln points and edge cases.
  ab <- c(2, 4, 0.0342, 170, 171, 1e-40, 1e-200, 1e300, 1, 0, -0, -1, -0.5, 0.5, -2.5, 1e6, NA, NaN, Inf)
  for (f in c("beta", "lbeta")) {
    cases$add(sprintf("%s(ab x ab)", f), f, pairs_of(ab, ab))
    cases$each(sprintf("%s(ab, 2)", f), f, list(ab, 2))
    cases$each(sprintf("%s(-ab, 0.5)", f), f, list(-ab, 0.5))
    cases$add(sprintf("%s(1:3, 1:2)", f), f, list(1:3, 1:2))
    cases$add(sprintf("%s(matrix, named)", f), f, list(matrix(1:4, 2), c(a = 1, b = 2, c = 3, d = 4)))
    cases$add(sprintf("%s(logical, 1)", f), f, list(c(TRUE, FALSE), 1))
    cases$add(sprintf("%s(1, 'a')", f), function(a) match.fun(f)(a, "a"), list(c(1, 2)))
  }
  cases$add("choose(k = , n = )", function(n) choose(k = 2, n = n), list(c(5, 6)))
  cases$add("lchoose(k = x, n = 5)", function(k) lchoose(k = k, n = 5), list(c(2, 3)))
  cases$add("beta(b = x, a = 2)", function(b) beta(b = b, a = 2), list(c(2, 3)))
  cases$add("choose(x, NULL)", function(n) choose(n, NULL), list(c(5, 6)))
  cases$add("choose(n, k) * beta(k + 1, n - k + 1)", function(n, k) choose(n, k) * beta(k + 1, n - k + 1),
            list(c(5, 10, 20), c(2, 3, 4)), distinct = TRUE)
  expect_no_mismatches(cases, 3200)
})

test_that("long lazy vectors (> 65536, threads 1 and 2, small blocks) agree with base R", {
  cases <- elementwise_cases("long vectors from the grids above")
  n <- 70001L
  set.seed(11)
  halves <- c(0.15, 0.25, 2.5, 0.285, -2.675, 1.005, 55.55, NA, NaN, Inf, -0, 1e-320, 1e308)
  xr <- rep_len(c(halves, round(rnorm(50) * 1000, 3) + 0.5), n)
  xg <- rep_len(c(seq(-3, 3, length.out = 61) + 1e-3, 0.5, 171.5, 1e-300, 1:40 / 7), n)
  xt <- rep_len(c(seq(-4, 4, by = 0.25), 2 * (-10:10) - 2^-12, 2^52 + 0.5, NA), n)
  xl <- rep_len(c(10, 1, -1 + 1e-16, 1e-300, 1e-10, 709, 0, -0, 5, 100, 1e3), n)
  d7 <- c(0, 1, 2, -1, 3, 15, NA)
  for (threads in 1:2) {
    for (block in list(NULL, 7L)) {
      with_options(list(gufunc.threads = threads, gufunc.block_size = block), {
        lbl <- function(s) sprintf("%s, %d threads, block %s", s, threads, if (is.null(block)) "auto" else format(block))
        cases$add(lbl("round(x, 2)"), function(x) round(x, 2), list(xr), min_length = 65536)
        cases$add(lbl("round(x, d7) recycled"), function(x, d) round(x, d), list(xr, d7), min_length = 65536)
        cases$add(lbl("signif(x, d7) recycled"), function(x, d) signif(x, d), list(xr, d7), min_length = 65536)
        cases$add(lbl("signif(x)"), function(x) signif(x), list(xr), min_length = 65536)
        for (f in c("gamma", "lgamma", "digamma", "trigamma")) {
          cases$add(lbl(sprintf("%s(x)", f)), f, list(xg), min_length = 65536)
        }
        cases$add(lbl("gamma(x with poles)"), "gamma", list(replace(xg, c(5, 40000, n), c(-2, -3, 0))), min_length = 65536)
        cases$add(lbl("round(0.15 * i, long digits) recycled"), function(x, d) round(x, d),
                  list(0.15 * 1:7, rep_len(d7, n)), min_length = 65536)
        # A value in gamma()'s warning zone at the very end.
        cases$add(lbl("gamma(x with -12 + 1/1024 last)"), "gamma", list(c(xg[-n], -12 + 1 / 1024)), min_length = 65536)
        for (f in c("cospi", "sinpi", "tanpi")) cases$add(lbl(sprintf("%s(x)", f)), f, list(xt), min_length = 65536)
        cases$add(lbl("log1p(x)"), "log1p", list(xl - 1), min_length = 65536)
        cases$add(lbl("expm1(x)"), "expm1", list(xl), min_length = 65536)
        cases$add(lbl("log(x, 10)"), function(x, b) log(x, b), list(xl, 10), min_length = 65536)
        cases$add(lbl("log(x, base vector) recycled"), function(x, b) log(x, b), list(xl, c(2, 10, exp(1))), min_length = 65536)
        cases$add(lbl("atan2(y, x)"), "atan2", list(xt, rev(xl)), min_length = 65536)
        cases$add(lbl("atan2(y, x[1:3]) recycled"), "atan2", list(xt, c(-0, 0, -1)), min_length = 65536)
        cases$add(lbl("round(lgamma(x) * 100, 1)"), function(x) round(lgamma(x) * 100, 1), list(xg),
                  distinct = TRUE, min_length = 65536)
        cases$add(lbl("signif(log1p(x) / expm1(x), 3)"), function(x) signif(log1p(x) / expm1(x), 3), list(xl),
                  distinct = TRUE, min_length = 65536)
        cases$add(lbl("besselJ(x, 1) (mask on long lazy)"), "besselJ", list(xl[1:66000], 1), min_length = 65536)
        cases$add(lbl("choose(x, 2) (mask on long lazy)"), "choose", list(xl[1:66000], 2), min_length = 65536)
      })
    }
  }
  expect_no_mismatches(cases, 4 * 22 * 65536)
})

test_that("round() and signif() called without arguments give base R's error", {
  cases <- elementwise_cases("call forms")
  cases$add("round()", function(x) round(), list(1))
  cases$add("signif()", function(x) signif(), list(1))
  expect_no_mismatches(cases, 2)
})
