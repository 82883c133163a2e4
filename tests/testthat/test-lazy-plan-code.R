# lazy_plan() names, constants and summaries; format(p, "r") as base R code.

test_that("inputs are named by the variables holding them, constants exactly", {
  v <- runif(1e5)
  a <- lazy(v)
  b <- runif(1e5)
  p <- lazy_plan(sqrt(a * a + b) / 273.15 + 1e-10 * 0.1)
  expect_named(p$inputs, c("a", "b"))
  out <- capture.output(print(p))
  expect_true("  a: double[100000]" %in% out)
  expect_true(any(grepl("(t3, 273.15)", out, fixed = TRUE)))
  expect_true(any(grepl("(t4, 1.0000000000000001e-11)", out, fixed = TRUE)))
  expect_false(any(grepl("0.000000", out, fixed = TRUE)))
  # temporaries t1, t2, ... without gaps; the value itself is `out`
  steps <- p$graph$steps
  temps <- setdiff(p$graph$values$name[steps$out], "out")
  expect_identical(temps, paste0("t", seq_along(temps)))
  expect_identical(p$graph$values$name[p$graph$result], "out")
  # a name the call does not write: the lazy value wins over the vector it wraps
  y <- a * 2 + b
  expect_named(lazy_plan(y)$inputs, c("a", "b"))
})

test_that("inputs no variable holds are x1, x2, ...", {
  p <- (function() lazy_plan(lazy(runif(1e5)) * 2 + lazy(runif(1e5))))()
  expect_named(p$inputs, c("x1", "x2"))
})

test_that("constants print as R reads them back", {
  expect_identical(gufunc:::format_constant(c(1e-10, 0.1, 273.15, 0.1 + 0.2, -2, NA, NaN, Inf),
                                            rep("double", 8)),
                   c("1e-10", "0.1", "273.15", "0.30000000000000004", "-2", "NA_real_",
                     "NaN", "Inf"))
  expect_identical(gufunc:::format_constant(c(3, NA, 1, 0, NA), rep(c("integer", "logical"),
                                                                     c(2, 3))),
                   c("3L", "NA_integer_", "TRUE", "FALSE", "NA"))
  values <- c(1 / 3, pi, 1e300, 2^-40)
  for (k in seq_along(values)) {
    expect_identical(as.numeric(gufunc:::format_constant(values[k], "double")), values[k])
  }
})

test_that("long plans print the first and last instructions; n = Inf prints all", {
  a <- lazy(runif(1e5))
  p <- lazy_plan(Reduce(`+`, lapply(1:40, function(i) a * i)))
  total <- length(unlist(lapply(p$kernels, `[[`, "instructions")))
  expect_gt(total, 30)
  out <- capture.output(print(p))
  expect_true(any(grepl(sprintf("%d more instructions", total - 30), out, fixed = TRUE)))
  expect_true(any(grepl("^  t1 = ", out)))
  expect_true(any(grepl("^  out = ", out)))
  shown <- grepl("^  (t[0-9]+|out) = ", out)
  expect_identical(sum(shown), 30L)
  all <- capture.output(print(p, n = Inf))
  expect_identical(sum(grepl("^  (t[0-9]+|out) = ", all)), total)
  expect_identical(sum(grepl("^  (t[0-9]+|out) = ", capture.output(print(p, n = 5)))), 5L)
  expect_error(print(p, n = 0), "argument `n`", class = "gufunc_argument_error")
})

# The code, evaluated with the inputs bound to their names, gives materialize(x).
# (The plan is made by the caller, whose variables name the inputs.)
expect_code_computes <- function(plan, x, inputs) {
  code <- format(plan, "r")
  expect_identical(eval(parse(text = code), inputs, baseenv()), materialize(x))
  invisible(code)
}

test_that("format(p, 'r') is base R code computing the value", {
  v <- runif(1e5)
  a <- lazy(v)
  b <- runif(1e5)
  x <- sqrt(a * a + b) / 273.15 + 1e-10
  code <- expect_code_computes(lazy_plan(x), x, list(a = v, b = b))
  expect_true(any(grepl("sqrt(a * a + b)/273.15 + 1e-10", code, fixed = TRUE)))
  # a value read twice is computed once, as a statement of its own
  t <- a * 0.1 + b
  x <- exp(-t) * t - (0.1 + 0.2)
  expect_code_computes(lazy_plan(x), x, list(a = v, b = b))
  # casts, comparisons and element-wise functions of several arguments
  i <- lazy(sample(100L, 1e5, TRUE))
  iv <- materialize(i)
  x <- ifelse(i > 50L, a, -a) + i %/% 7L
  expect_code_computes(lazy_plan(x), x, list(a = v, b = b, i = iv))
  x <- (a - b) * (i == 3L) + !(i > 7L)
  expect_code_computes(lazy_plan(x), x, list(a = v, b = b, i = iv))
  # attributes come out as materialize() gives them
  m <- matrix(runif(2e5), 100, dimnames = list(NULL, paste0("c", 1:2000)))
  lm <- lazy(m)
  x <- lm / 3 - 1
  expect_code_computes(lazy_plan(x), x, list(lm = m))
})

test_that("views of a variable are written as subsets of it", {
  M <- matrix(runif(2e5), 100)
  lm <- lazy(M)
  z <- lm[, 3:2000] * 2 - lm[, 1:1998]
  x <- z
  code <- expect_code_computes(lazy_plan(x), x, list(lm = M))
  expect_true(any(grepl("lm[201:200000]", code, fixed = TRUE)))
})

test_that("gufuncs and subassignments are written as R code", {
  m <- matrix(runif(8e5), 8)
  x <- inner(lazy(m) * 2, m) + 0.1
  code <- expect_code_computes(lazy_plan(x), x, list(m = m))
  expect_true(any(grepl("gufunc_call(\"inner\"", code, fixed = TRUE)))
  v <- runif(1e5)
  a <- lazy(v)
  y <- a * 2
  y[11:20] <- 0
  y[1:7e4] <- a[1:7e4] * 3
  x <- y
  expect_code_computes(lazy_plan(x), x, list(a = v))
})

test_that("an input no variable holds is named in a comment", {
  code <- format((function() lazy_plan(lazy(runif(1e5)) * 2))(), "r")
  expect_true(any(grepl("^# x1: double\\[100000\\], held by no variable", code)))
})

test_that("format() takes the styles it documents", {
  p <- lazy_plan(lazy(runif(1e5)) + 1)
  expect_identical(format(p), capture.output(print(p)))
  expect_error(format(p, "svg"), "should be one of")
})

test_that("transposed and reversed views are written as subsets of their variable", {
  M <- matrix(runif(2e5), 100)
  lm <- lazy(M)
  x <- t(lm) * 2 + 1
  code <- expect_code_computes(lazy_plan(x), x, list(lm = M))
  expect_true(any(grepl("lm[rep(", code, fixed = TRUE)))
  v <- runif(1e5)
  a <- lazy(v)
  x <- rev(a) - a
  expect_code_computes(lazy_plan(x), x, list(a = v))
  # Runs read backwards or spaced (m[n:1, ], m[, k:1], m[seq(n, 1, by = -3), j:k]).
  expect_code_computes(lazy_plan(lm[100:1, ] * 2), lm[100:1, ] * 2, list(lm = M))
  expect_code_computes(lazy_plan(lm[, 2000:1] + 1), lm[, 2000:1] + 1, list(lm = M))
  y <- lm[seq(100, 1, by = -3), 7:40] - lm[seq(1, 100, by = 3), 40:7]
  expect_code_computes(lazy_plan(y), y, list(lm = M))
})
