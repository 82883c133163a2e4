# Differential tests from material this project did not write: the input values
# and operations of R's own regression tests and of NumPy's umath tests, each
# run in base R, through gufunc_call() and with its operands lazy, compared bit
# for bit (helper-differential.R). Only values and operations are taken over;
# the expected results are base R's on this machine.

ops <- function(names) setNames(lapply(names, match.fun), names)
arith <- ops(c("+", "-", "*", "/", "^", "%%", "%/%"))
relop <- ops(c("==", "!=", "<", "<=", ">", ">="))
logic <- ops(c("&", "|"))
math <- ops(builtin_math)

# Every operator of a family on the same operands, one call each.
add_family <- function(cases, label, family, x, y) {
  for (op in names(family)) {
    cases$add(sprintf("%s: x %s y", label, op), family[[op]], list(x, y), op)
  }
}

# Every Math builtin on `x`, all values in one call and each value alone.
add_math <- function(cases, label, x, each = length(x) <= 40L) {
  for (fn in names(math)) {
    if (each) {
      differential_each(cases, sprintf("%s: %s(x)", label, fn), math[[fn]], list(x), fn)
    } else {
      cases$add(sprintf("%s: %s(x)", label, fn), math[[fn]], list(x), fn)
    }
  }
}

test_that("R's tests/arith-true.R: IEEE infinities, NaN, log, ^ and trigonometry", {
  cases <- differential_cases("r-source tests/arith-true.R")
  # Infinities from division by zero, and what arithmetic does with them.
  inf_double <- pi / 0
  inf_int <- 1L / 0L
  cases$add("pi / 0", `/`, list(pi, 0), "/")
  cases$add("1L / 0L", `/`, list(1L, 0L), "/")
  for (v in list(inf_double, inf_int, -inf_double)) {
    add_family(cases, sprintf("Inf arithmetic (%g)", v), arith, c(v, v, 12, -12), c(v, 12, v, -v))
    add_family(cases, sprintf("Inf comparisons (%g)", v), relop, c(v, -v, v), c(12, -12, v))
  }
  cases$add("0 / 0", `/`, list(0, 0), "/")
  cases$add("-(0 / 0)", `-`, list(0 / 0), "-")
  cases$add("1 / Inf, Inf ^ -1, 0 ^ -1", `^`, list(c(Inf, 0, 1 / Inf), -1), "^")
  # log at its domain's edge (with the warning).
  differential_each(cases, "log(0), log(-1)", log, list(c(0, -1)), "log")
  # Powers with exponent 0 and base 1, on doubles and on their integer versions.
  pos <- c(1:2, Inf)
  neg <- rev(-pos)
  r <- c(neg, 0, pos, NA, NaN)
  ir <- suppressWarnings(as.integer(r))
  for (args in list(list(r, 0), list(ir, 0), list(ir, 0L), list(1, r), list(1L, r),
                    list(1L, ir), list(neg, -3), list(-neg, -3), list(neg, 0.5),
                    list(c(1.1, 2, Inf), Inf), list(c(1.1, 2, Inf), -Inf),
                    list(0.9, c(Inf, -Inf)))) {
    differential_each(cases, sprintf("%s ^ %s", typeof(args[[1]]), typeof(args[[2]])),
                      `^`, args, "^")
  }
  cases$add("-((-neg) ^ -3)", `-`, list((-neg)^-3), "-")
  # Trigonometric identities on random and on regular inputs.
  set.seed(1)
  x <- rnorm(99)
  for (fn in c("sin", "cos")) {
    cases$add(sprintf("%s(x), x ~ N(0, 1)", fn), math[[fn]], list(x), fn)
    cases$add(sprintf("%s(-x), x ~ N(0, 1)", fn), math[[fn]], list(-x), fn)
  }
  cases$add("-sin(x)", `-`, list(sin(x)), "-")
  x <- 1:99 / 100
  cases$add("cos(0), sin(3 pi / 2), cos(pi)", cos, list(c(0, 3 * pi / 2, pi)), "cos")
  cases$add("sin(1:99 / 100)", sin, list(x), "sin")
  cases$add("asin(sin(x))", asin, list(sin(x)), "asin")
  cases$add("tan(1:99 / 100)", tan, list(x), "tan")
  cases$add("atan(tan(x))", atan, list(tan(x)), "atan")
  cases$add("x / asin(sin(x))", `/`, list(x, asin(sin(x))), "/")
  cases$add("1 - x / atan(tan(x))", `-`, list(1, x / atan(tan(x))), "-")
  cases$add("abs(1 - x / asin(sin(x)))", abs, list(1 - x / asin(sin(x))), "abs")
  # Three-valued logic of NA (the && and || cases, element-wise).
  lhs <- c(NA, TRUE, NA, NA, FALSE, NA, NA, TRUE, NA, FALSE)
  rhs <- c(TRUE, NA, NA, FALSE, NA, NA, TRUE, NA, FALSE, NA)
  add_family(cases, "NA logic", logic, lhs, rhs)
  differential_each(cases, "!(NA & FALSE)", `!`, list(lhs & rhs), "!")
  # pi and its neighbour two ulps up.
  add_family(cases, "pi vs pi + 2 eps", relop, pi, pi + 2 * .Machine$double.eps)
  expect_no_mismatches(cases, 500)
})

test_that("R's tests/arith.R and tests/iec60559.R: integer powers, subnormals, -0", {
  cases <- differential_cases("r-source tests/arith.R, tests/iec60559.R")
  # outer(-4:12, -2:7, "^"): every integer power, and its double twin.
  base_int <- rep(-4:12, times = 10)
  exponent <- rep(-2:7, each = 17)
  add_family(cases, "outer(-4:12, -2:7)", arith, base_int, exponent)
  add_family(cases, "outer(-4:12, -2:7) doubles", arith, base_int + 0, exponent + 0)
  fractional <- rep(seq(-0.5, 2, 0.5), each = 17)
  cases$add("outer(-4:12, seq(-.5, 2, .5))", `^`, list(rep(-4:12, 6), fractional), "^")
  # exp() into the subnormal range and to zero.
  cases$add("exp(-745:-705)", exp, list(c(-745:-740, -730, -720, -710:-705)), "exp")
  cases$add("10 ^ -(324:307)", `^`, list(10, -(324:307)), "^")
  cases$add("2 ^ -(1022:1075)", `^`, list(2, -(1022:1075)), "^")
  cases$add("10 ^ -(324:307 - 0.01)", `^`, list(10, -(324:307 - 0.01)), "^")
  cases$add("(...) / 10 ^ 0.01", `/`, list(10^-(324:307 - 0.01), 10^0.01), "/")
  # Negative zero through sqrt and squaring.
  negative_zero <- 0 * (-1)
  cases$add("0 * -1", `*`, list(0, -1), "*")
  add_math(cases, "-0", negative_zero)
  cases$add("(-0) ^ 2", `^`, list(negative_zero, 2), "^")
  expect_no_mismatches(cases, 1500)
})

test_that("R's tests/reg-tests-1d.R: 0-extent arrays, NULL operands, 1 x 1 arrays", {
  cases <- differential_cases("r-source tests/reg-tests-1d.R")
  m <- cbind(a = 1[0], b = 2[0])
  lm <- m
  storage.mode(lm) <- "logical"
  im <- m
  storage.mode(im) <- "integer"
  all_ops <- c(arith, relop, logic)
  operands <- list("1" = 1, "1[0]" = 1[0], "NULL" = NULL, "2:3" = 2:3, "1L" = 1L,
                   "TRUE[0]" = TRUE[0])
  for (arr in list(m = m, lm = lm, im = im)) {
    for (o in names(operands)) {
      for (op in names(all_ops)) {
        cases$add(sprintf("0-extent array %s %s", op, o), all_ops[[op]], list(arr, operands[[o]]),
                  op)
      }
    }
  }
  # Non-conformable arrays (an error in every family).
  mm <- m[, c(1:2, 2:1, 2)]
  for (op in names(all_ops)) cases$add(sprintf("m %s mm", op), all_ops[[op]], list(m, mm), op)
  # A 1 x 1 (and 2 x 1) array against longer vectors, NULL and empty vectors.
  m1 <- matrix(1, 1, 1, dimnames = list("Ro", "col"))
  m2 <- matrix(1, 2, 1, dimnames = list(c("A", "B"), "col"))
  for (arr in list(m1 = m1, m2 = m2)) {
    for (o in list(1:2, NULL, numeric(0), logical(0))) {
      for (op in names(all_ops)) {
        cases$add(sprintf("1 x 1 array %s %s", op, deparse(o)), all_ops[[op]], list(arr, o), op)
      }
    }
  }
  # Integer arithmetic with NULL stays integer.
  for (op in c("+", "*", "-")) cases$add(sprintf("1L %s NULL", op), arith[[op]], list(1L, NULL), op)
  expect_no_mismatches(cases, 150)
})

test_that("NumPy's test_umath.py: floor division and remainder on exact and corner values", {
  cases <- differential_cases("numpy _core/tests/test_umath.py")
  divmod <- arith[c("%%", "%/%")]
  # TestRemainder.test_float_remainder_exact: -127..127 by every nonzero divisor in
  # range, as doubles (also scaled by a power of two) and as integers.
  dividend <- -127:127
  divisor <- c(-127:-1, 1:127)
  a <- rep(dividend, each = length(divisor))
  b <- rep(divisor, times = length(dividend))
  add_family(cases, "remainder exact, integer", divmod, a, b)
  add_family(cases, "remainder exact, double", divmod, a + 0, b + 0)
  add_family(cases, "remainder exact, scaled", divmod, a * 2^-7, b * 2^-7)
  # test_float_remainder_roundoff: 78 * 6e-8 by 6e-8, all sign combinations.
  add_family(cases, "remainder roundoff", divmod, c(1, 1, -1, -1) * 78 * 6e-8,
             c(1, -1, 1, -1) * 6e-8)
  # Corner cases: NaN, 1, 0, Inf (and their negatives) as either operand.
  corner <- c(NaN, 1, 0, Inf, -1, -0, -Inf, NA)
  for (op in names(divmod)) {
    for (x in corner) {
      differential_each(cases, sprintf("corner %g %s y", x, op), divmod[[op]], list(x, corner), op)
    }
  }
  add_family(cases, "corners, all pairs", arith, rep(corner, each = 8), rep(corner, 8))
  # The smallest subnormal below zero modulo 1 stays within the divisor.
  add_family(cases, "remainder magnitude", divmod, c(-5e-324, 5e-324), c(1, -1))
  # test_float_remainder_overflow: 4 by the smallest normal number.
  add_family(cases, "4 by tiny", divmod, 4, .Machine$double.xmin)
  # test_floor_division_signed_zero.
  add_family(cases, "signed zero", divmod, c(numeric(10), -numeric(10)), 1)
  # test_division_int_boundary: dividends at the integer limits (R's limit is
  # -INT_MAX), by ranges of divisors and by scalar divisors.
  big <- .Machine$integer.max
  top <- (big - 519L):(big - 1L)
  bottom <- (-big):(-big + 518L)
  add_family(cases, "int boundary, top", c(divmod, arith["/"]), top, 0:518)
  add_family(cases, "int boundary, bottom", c(divmod, arith["/"]), bottom, -259:259)
  for (d in c(0:14, 1L, 3L, 9L, 13L, -1L, -big, -big %/% 2L, big %/% 3L, big %/% 4L)) {
    add_family(cases, sprintf("int boundary by %d", d), c(divmod, arith["/"]), c(top, bottom), d)
  }
  # TestDivisionIntegerOverflowsAndDivideByZero: the most negative integer by -1,
  # and 1 by 0, in arrays of every length up to 128 (SIMD remainders).
  for (n in c(1:17, 31:33, 63:65, 127:128)) {
    add_family(cases, sprintf("-INT_MAX by -1, length %d", n), divmod, rep(-big, n), -1L)
    add_family(cases, sprintf("1 by 0, length %d", n), c(divmod, arith["/"]), rep(1L, n), 0L)
  }
  expect_no_mismatches(cases, 150000)
})

test_that("NumPy's test_umath.py: powers, including the fast paths and infinite exponents", {
  cases <- differential_cases("numpy _core/tests/test_umath.py")
  pow <- arith["^"]
  x <- c(1, 2, 3)
  for (e in c(0, 1, 2, -1, 0.5)) add_family(cases, sprintf("x ^ %g", e), pow, x, e)
  # test_float_to_inf_power.
  differential_each(cases, "to infinite powers", `^`,
                    list(c(1, 1, 2, 2, -2, -2, Inf, -Inf), rep(c(Inf, -Inf), 4)),
                    "^")
  # test_power_fast_paths: squares and square roots.
  fast <- c(0, 1.1, 2, 12e12, -10, Inf, -Inf)
  differential_each(cases, "^ 2", `^`, list(fast, 2), "^")
  differential_each(cases, "^ 0.5", `^`, list(fast, 0.5), "^")
  # Integer powers: 15 ^ 15, zero exponents, powers of 1 and 0, negative exponents.
  add_family(cases, "15L ^ 15L", pow, c(15L, 15L), c(15L, 15L))
  add_family(cases, "(-10:9) ^ 0L", pow, -10:9, 0L)
  add_family(cases, "1L ^ (0:9)", pow, 1L, 0:9)
  add_family(cases, "0L ^ (1:9)", pow, 0L, 1:9)
  add_family(cases, "c(0, 1, 2, 3) ^ c(0, 1, 2, -3)", pow, c(0L, 1L, 2L, 3L), c(0L, 1L, 2L, -3L))
  add_family(cases, "(0:3) ^ -1L", pow, 0:3, -1L)
  # x ^ 2 as NumPy's square, and 1 / x as its reciprocal, on special values.
  special <- c(NaN, -NaN, Inf, -Inf, 0, -0, NA, -NA_real_)
  differential_each(cases, "square", `^`, list(special, 2), "^")
  differential_each(cases, "x * x", `*`, list(special, special), "*")
  differential_each(cases, "reciprocal", `/`, list(1, special), "/")
  expect_no_mismatches(cases, 150)
})

test_that("NumPy's test_umath.py: logarithms and exponentials, values and special floats", {
  cases <- differential_cases("numpy _core/tests/test_umath.py")
  powers_of_two <- 2^(0:10)
  for (fn in c("log", "log2", "log10", "sqrt")) {
    cases$add(sprintf("%s(2 ^ (0:10))", fn), math[[fn]], list(powers_of_two), fn)
  }
  cases$add("log2(2 ^ (1:64))", log2, list(2^(1:64)), "log2")
  cases$add("exp((0:10) * log(2))", exp, list((0:10) * 0.69314718055994530943), "exp")
  cases$add("log(aliasing values)", log, list(c(2, 0.9375, 3, 0.9475, 1.054697)), "log")
  add_math(cases, "largest double", .Machine$double.xmax)
  # TestSpecialFloats: NaN of both signs, infinities, zeros, the domain edges.
  add_math(cases, "special floats", c(NaN, -NaN, Inf, -Inf, 0, -0, -1, 1, -2, 2, NA, -NA_real_))
  add_math(cases, "overflowing arguments", c(200, 1200, 2000, -1000, 800, 1e19, -1e19, 11.0899))
  add_math(cases, "underflow trigger", 0x1.f37f47a03f82ap-511)
  # test_unary_spurious_fpexception: each value alone and repeated 32 times.
  for (v in list(0.03, -1, 1, 0, -0, c(0.5, 0.5, 0.5, NaN), c(NaN, 1, 1, 1), NaN,
                 c(0.5, 0.5, 0.5, Inf), c(Inf, 1, 1, 1), Inf, c(0.5, 0.5, 0.5, -Inf),
                 c(-Inf, 1, 1, 1), -Inf)) {
    add_math(cases, sprintf("spurious exceptions, %s", deparse(v)), v, each = FALSE)
    add_math(cases, sprintf("spurious exceptions, %s x 32", deparse(v)), rep(v, 32), each = FALSE)
  }
  # test_divide_spurious_fpexception: zeros by the smallest subnormal.
  cases$add("numeric(129) / 5e-324", `/`, list(numeric(129), 5e-324), "/")
  # test_exp_strides / test_log_strides: random inputs read with strides -4..4.
  set.seed(42)
  for (n in c(2:9, 31, 64, 99)) {
    x <- runif(n, 0.01, 100)
    x_special <- x
    every_fourth <- seq_len(n - 1)
    x_special[every_fourth[every_fourth %% 4 == 0]] <- 1
    y <- runif(n, 0.01, 709.1)
    for (s in c(-4:-1, 1:4)) {
      idx <- if (s > 0) seq(1, n, by = s) else seq(n, 1, by = s)
      cases$add(sprintf("log strided (n %d, stride %d)", n, s), log, list(x[idx]), "log")
      cases$add(sprintf("log strided, ones (n %d, stride %d)", n, s), log, list(x_special[idx]),
                "log")
      cases$add(sprintf("exp strided (n %d, stride %d)", n, s), exp, list(y[idx]), "exp")
    }
  }
  expect_no_mismatches(cases, 5000)
})

test_that("NumPy's test_umath.py: classification values through comparisons, sign and !", {
  cases <- differential_cases("numpy _core/tests/test_umath.py")
  # TestFPClass.test_fpclass values, read with strides.
  values <- c(NaN, -NaN, Inf, -Inf, -1, 1, -0, 0, 2.2251e-308, -2.2251e-308)
  for (s in c(-5:-1, 1:2, 4:10)) {
    idx <- if (s > 0) seq(1, 10, by = s) else seq(10, 1, by = s)
    v <- values[idx]
    add_family(cases, sprintf("fpclass stride %d vs 0", s), relop, v, 0)
    add_family(cases, sprintf("fpclass stride %d vs -0", s), relop, -0, v)
    cases$add(sprintf("sign, stride %d", s), sign, list(v), "sign")
    cases$add(sprintf("!x, stride %d", s), `!`, list(v), "!")
    cases$add(sprintf("-x, stride %d", s), `-`, list(v), "-")
  }
  add_family(cases, "fpclass pairs", c(relop, logic), rep(values, each = 10), rep(values, 10))
  expect_no_mismatches(cases, 1000)
})

# Differences this file found outside the kernels (the lazy bridge, the eager
# recycling of R/elementwise.R), fixed there.
test_that("a lazy length-1 first operand of + or * keeps base R's NaN order", {
  cases <- differential_cases("numpy _core/tests/test_umath.py, special floats")
  cases$add("NaN + c(NA, 1, 2)", `+`, list(NaN, c(NA, 1, 2)), "+")
  cases$add("NA * c(NaN, 1)", `*`, list(NA_real_, c(NaN, 1)), "*")
  expect_no_mismatches(cases, 2)
})

test_that("gufunc_call() + and * with recycled lengths above 1 quiet an NA as base R", {
  cases <- differential_cases("numpy _core/tests/test_umath.py, special floats")
  cases$add("c(NaN, NaN, 1, 2) + c(NA, NA)", `+`, list(c(NaN, NaN, 1, 2), c(NA, NA_real_)), "+")
  cases$add("c(NaN, NA, NaN) * c(TRUE, NA, FALSE, NA, NA, TRUE)", `*`,
            list(c(NaN, NA, NaN), c(TRUE, NA, FALSE, NA, NA, TRUE)), "*")
  expect_no_mismatches(cases, 2)
})

test_that("lazy length-1 logical results", {
  with_options(list(gufunc.lazy_min_length = 0), {
    expect_identical(materialize(lazy(1) == 1), TRUE)
    expect_identical(materialize(!lazy(TRUE)), FALSE)
  })
})
