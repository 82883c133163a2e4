# Differential tests from R's own regression tests (wch/r-source tests/*.R; each
# group names its files) that the earlier differential files leave out, run in base
# R and with every non-empty set of their operands lazy (helper-differential.R).
# Only values and operations are taken over; expected results are base R's. The
# names gufunc masks resolve to its exports here, as after library(gufunc) (first
# test); a closure's case also runs on its plain operands with base R's versions
# of those names, which must give the same outcome.

masked <- masked_base_names()

rsource_cases <- function(source) {
  cases <- differential_cases(source)
  unmasked <- character()
  add <- function(label, fun, args, name = NULL) {
    cases$add(label, fun, args, name)
    if (is.primitive(fun)) return(invisible())
    base_fun <- with_base_masks(fun)
    same <- identical(differential_outcome(function() do.call(base_fun, args)),
                      differential_outcome(function() do.call(fun, args)),
                      num.eq = FALSE, single.NA = FALSE)
    if (!same) unmasked <<- c(unmasked, sprintf("%s [%s]: plain operands, masks", label, source))
  }
  list(add = add, mismatches = function() c(cases$mismatches(), unmasked),
       compared = cases$compared)
}

# A result in a list (length-1 logicals: their lazy paths are left out otherwise),
# lazy elements materialized; fun(x) for each x of a list.
deep <- function(v) {
  if (is_lazy(v)) return(materialize(v))
  if (is.list(v)) v[] <- lapply(v, deep)
  v
}
listed <- function(f) function(...) deep(list(f(...)))
add_each <- function(cases, label, fun, xs) {
  for (x in xs) cases$add(sprintf("%s(%s)", label, deparse(x)), fun, list(x))
}

test_that("the masked names are gufunc's exports here, the other functions base R's", {
  for (f in masked) expect_identical(get(f), getExportedValue("gufunc", f), info = f)
  for (f in c("sum", "cumsum", "max", "mean", "var", "quantile", "sort", "order", "findInterval",
              "which", "rev", "diff", "t", "aperm", "det", "log", "gamma", "all.equal", "head")) {
    expect_false(exists(f, envir = asNamespace("gufunc"), inherits = FALSE), info = f)
  }
})

test_that("R's reg-tests-1c.R, reg-tests-2.R, reg-tests-1d.R: integer overflow, sums, cumulative", {
  cases <- rsource_cases("r-source tests/reg-tests-1c.R, reg-tests-2.R, reg-tests-1d.R")
  big <- .Machine$integer.max
  x30 <- as.integer(2^30)
  # PR#15764, PR#1408, PR#17372: + - * and sum() overflowing int, alone and with doubles.
  pr15764 <- list(c(1980000020L, -1980000020L), c(222000000L, -222000000L))
  cases$add("+-1980000020L + +-222000000L", `+`, pr15764, "+")
  cases$add("-+1980000020L - +-222000000L", `-`, list(-pr15764[[1]], pr15764[[2]]), "-")
  cases$add("+-integer.max +- 1L", `+`, list(c(big, -big), c(1L, -1L)), "+")
  cases$add("integer.max * 2L", `*`, list(c(big, -big, 46341L), 2L), "*")
  sum2 <- function(a, b) sum(a, b)
  cases$add("sum(x, x)", sum2, list(x30, x30))
  cases$add("sum(c(x, x))", sum, list(c(x30, x30)))
  cases$add("sum(x, x, 0)", function(a, b) sum(a, b, 0), list(x30, x30))
  cases$add("sum(3.14, iL)", sum2, list(3.14, rep(x30, 2)))
  cases$add("sum(iL, 3.14)", sum2, list(rep(x30, 2), 3.14))
  cases$add("sum(iL, 'foo')", function(a) sum(a, "foo"), list(rep(x30, 2)))
  cases$add("sum('foo', iL)", function(a) sum("foo", a), list(rep(x30, 2)))
  cases$add("sum(max, max)", sum2, list(big, big))
  cases$add("sum(rep(max, 3000))", sum, list(rep(big, 3000L)))
  cases$add("sum(c(max, max, -max), NA)", function(a) sum(a, NA), list(c(big, big, -big)))
  cases$add("prod(c(max, max))", prod, list(c(big, big)))
  cases$add("mean(logical)", mean, list(c(TRUE, FALSE, TRUE, TRUE)))
  cases$add("+logical is integer", function(x) +x, list(c(TRUE, FALSE, NA, TRUE)))
  cases$add("diff(c(max, -max, 3L))", diff, list(c(big, -big, 3L)))
  # cummin()/cummax() propagate a leading NA; cumsum() overflow warns.
  for (f in c("cumsum", "cumprod", "cummax", "cummin")) {
    add_each(cases, f, match.fun(f), list(c(NA, 1L), c(NA, 1), c(big, 1L), rep(x30, 3),
                                          c(TRUE, FALSE, NA, TRUE), rep(1, 12), c(a = 1, b = 2)))
  }
  expect_no_mismatches(cases, 60)
})

test_that("R's reg-tests-1b.R, reg-tests-2.R, reg-tests-1d.R, any-all.R: empty inputs and NAs", {
  cases <- rsource_cases("r-source tests/reg-tests-1b.R, reg-tests-2.R, reg-tests-1d.R, any-all.R")
  for (f in c("max", "min", "range", "sum", "prod", "mean", "var")) {
    fn <- match.fun(f)
    add_each(cases, f, fn, list(numeric(0), integer(0), logical(0)))
    cases$add(sprintf("%s(NA, NaN, na.rm)", f), function(x) fn(x, na.rm = TRUE), list(c(NA, NaN)))
  }
  add_each(cases, "var", var, list(c(1, NA), c(NA, 0 / 0, Inf - Inf)))
  cases$add("sd(c(1:2, NA))", sd, list(c(1:2, NA)))
  cases$add("var(c(1:2, NA), na.rm)", function(x) var(x, na.rm = TRUE), list(c(1:2, NA)))
  add_each(cases, "weighted.mean(na.rm)", function(x) weighted.mean(x, na.rm = TRUE),
           list(0[0], NA, rep(NA_real_, 2), c(101, 102, NA)))
  cases$add("weighted.mean(Inf weight 0)", weighted.mean, list(c(0, 1, 2, Inf), c(1, 1, 1, 0)))
  for (tr in c(0.1, 0.26)) {
    cases$add(sprintf("mean(trim = %g)", tr), function(x) mean(x, trim = tr), list(10^c(0:2, NA)))
  }
  for (k in 0:5) {
    cases$add(sprintf("quantile(Inf extremes, k = %d)", k), function(x, p) quantile(x, p),
              list(c(rep(-Inf, k + 1), 0:k, rep(Inf, k)), seq(0, 1, 0.1)))
  }
  add_each(cases, "median", median, list(c(-Inf, -Inf, Inf, Inf)))
  add_each(cases, "quantile", quantile, list(c(-Inf, -Inf, Inf, Inf)))
  cases$add("range(logical, finite)", function(x) range(x, finite = TRUE), list(c(NA, TRUE, FALSE)))
  cases$add("min(character(), 3.3, -1:2)", function(a, b) min(character(), a, b), list(3.3, -1:2))
  for (x in list(logical(0), c(TRUE, TRUE), FALSE, c(NA, TRUE), c(NA, FALSE), c(TRUE, NA, FALSE))) {
    for (na_rm in c(FALSE, TRUE)) {
      cases$add(sprintf("any(%s)", deparse(x)), listed(function(v) any(v, na.rm = na_rm)), list(x))
      cases$add(sprintf("all(%s)", deparse(x)), listed(function(v) all(v, na.rm = na_rm)), list(x))
    }
  }
  expect_no_mismatches(cases, 100)
})

test_that("R's reg-tests-1b.R, reg-tests-1c.R: round, signif, special functions, formatting", {
  cases <- rsource_cases("r-source tests/reg-tests-1b.R, reg-tests-1c.R")
  x <- pi^(-6:6)
  for (d in list(-Inf, 1L, -2:10)) {
    cases$add(sprintf("signif(x, %s)", deparse(d)), signif, list(x, d))
    cases$add(sprintf("round(x, %s)", deparse(d)), round, list(x, d))
  }
  cases$add("round(d = 2, x = pi)", function(v) round(d = 2, x = v), list(pi))
  rr <- c(rep(-0.4, 5), rep(-0.4 - 1.11e-16, 14), -0.5)
  cases$add("unique(signif(rr, 12))", function(v) unique(signif(v, 12)), list(rr))
  cases$add("sinpi(2 (-10:10) - 2^-12)", sinpi, list(2 * (-10:10) - 2^-12), "sinpi")
  cases$add("tanpi((-10:10) - 2^-12)", tanpi, list((-10:10) - 2^-12), "tanpi")
  # gamma() near -12 (where R's own function may warn: base R computes those
  # inputs), tiny arguments and poles.
  tiny <- c(-3e-308, 3e-308, -12 + 1 / 1024, -1, 0, 171.7, 172)
  for (f in c("lgamma", "gamma", "digamma", "trunc", "ceiling", "sign")) {
    cases$add(sprintf("%s(tiny and poles)", f), match.fun(f), list(tiny), f)
  }
  cases$add("besselI(2.125, -5 + 1/1024)", besselI, list(2.125, -5 + 1 / 1024))
  set.seed(7)
  cases$add("outer(x, +-nu, besselI)", function(a, b) outer(a, b, besselI),
            list(rlnorm(216), c(-1, -44, -111, 1, 44, 111)))
  cases$add("choose(-1, 0:5)", choose, list(-1, 0:5))
  cases$add("lchoose(-1, 0:5)", lchoose, list(-1, 0:5))
  mi <- .Machine$integer.max
  cases$add("as.integer(near MI)", as.integer, list(c(mi + 0.99, -mi - 0.99, 100 * mi)))
  expect_no_mismatches(cases, 150)
})

test_that("R's reg-tests-1b.R, 1c.R, 1d.R, reg-tests-2.R, arith.R: matrices and arrays", {
  cases <- rsource_cases("r-source tests/reg-tests-1b.R, 1c.R, 1d.R, reg-tests-2.R, arith.R")
  m <- matrix(1:2, 1, 2)
  u <- as.matrix(1:3)
  for (uv in list(list(1:3, 1:5), list(u, 1:5), list(1:5, u), list(m, 1:2))) {
    cases$add("tcrossprod(u, v)", tcrossprod, uv)
  }
  cases$add("u %*% t(v)", function(a, b) a %*% t(b), list(1:3, 1:5))
  for (a in list(2, m)) cases$add("crossprod(a, v)", crossprod, list(a, 1:3))
  cases$add("5 %*% v", `%*%`, list(5, 1:3))
  cases$add("5 %*% t(v)", function(a, b) a %*% t(b), list(5, 1:3))
  cases$add("m %*% 1:2", `%*%`, list(m, 1:2))
  mna <- matrix(c(0, NA, 0, NA, NA, 0, 0, 0, 1), 3, 3)
  add_each(cases, "det", det, list(mna, rbind(0, cbind(0, mna))))
  # Row and column sums of the na.omit() example and of an xtabs() array (get() in
  # the closure: the base R run sees base R's version).
  mn <- matrix(c(1, 2, 3, 0, 10, NA), 3, 2)
  arr <- array(c(4, 14, 15, 17, 9, 3, 0, 2, 5, 6, 3, 0, 1, 4, 3, 3, 1, 0,
                 7, 8, 7, 6, 0, 1, 2, 1, 4, 4, 1, 0, 2, 0, 4, 6, 1, 0), c(6, 3, 2))
  for (f in c("rowSums", "colSums", "rowMeans", "colMeans")) {
    for (na_rm in c(FALSE, TRUE)) {
      cases$add(sprintf("%s(mn, na.rm = %s)", f, na_rm),
                function(x) get(f, mode = "function")(x, na.rm = na_rm), list(mn))
    }
    for (d in 1:2) {
      cases$add(sprintf("%s(arr, dims = %d)", f, d),
                function(x) get(f, mode = "function")(x, dims = d), list(arr))
    }
  }
  cases$add("which(arr == 0, arr.ind)", function(x) which(x == 0, arr.ind = TRUE), list(arr))
  # aperm() and subsets keep names(dim) (reg-tests-1c.R).
  na <- list(A = LETTERS[1:2], B = letters[1:3], C = LETTERS[21:25], D = letters[11:17])
  a <- array(1:210, dim = lengths(na), dimnames = na)
  cases$add("aperm(A)", aperm, list(a))
  cases$add("aperm(A, c(3:1, 4))", function(x) aperm(x, c(3:1, 4)), list(a))
  cases$add("A[, , , ]", function(x) x[, , , ], list(a))
  cases$add("A[, -1, -1, -1]", function(x) x[, -1, -1, -1], list(a))
  cases$add("A[1, , , ] + 0L", function(x) x[1, , , ] + 0L, list(a))
  cases$add("A[1, , , ][, 1, ]", function(x) x[1, , , ][, 1, ], list(a))
  cases$add("A[1, 2, , ][, ]", function(x) x[1, 2, , ][, ], list(a))
  cases$add("A[1, 2, , ][1, , drop = FALSE]", function(x) x[1, 2, , ][1, , drop = FALSE], list(a))
  cases$add("t(A[1, 2, , ])", t, list(a[1, 2, , ]))
  cases$add("array(1:6, c(nam = 6L))[] * 2", function(x) x[] * 2, list(array(1:6, c(nam = 6L))))
  cases$add("!matrix(FALSE, 0, 2)", function(x) !x, list(matrix(FALSE, 0, 2)))
  cases$add("!matrix(TRUE)", listed(function(x) !x), list(matrix(TRUE)))
  a11 <- array(1, c(1, 1), list("a", 1))
  cases$add("A / (pi * x)", function(a, b) a / (pi * b), list(a11, c(a = 1)))
  md <- cbind(M = c(3, 2, 7, 2), F = c(6, 2, 7, 2))
  rownames(md) <- LETTERS[1:4]
  cases$add("duplicated(m, MARGIN = 0)", function(x) duplicated(x, MARGIN = 0), list(md))
  cases$add("anyDuplicated(m, MARGIN = 0)", function(x) anyDuplicated(x, MARGIN = 0), list(md))
  mx <- rbind(x = 1:3, x = 2:4, z = 0)
  add_each(cases, "unique", unique, list(mx, rbind(mx, mx)))
  cases$add("outer(-4:12, -2:7, ^)", function(a, b) outer(a, b, "^"), list(-4:12, -2:7))
  cases$add("outer(1:8, named)", outer, list(1:8, c(tear = 2, gloss = 5, opacity = 20)))
  usj <- data.matrix(USJudgeRatings)
  cases$add("pmin(usj, 10 - usj)", function(x) pmin(x, 10 - x), list(usj))
  cases$add("pmax(usj, 10 - usj)", function(x) pmax(x, 10 - x), list(usj))
  ms <- matrix(c(83, 41), 5, 4, dimnames = list(paste0("R", 1:5), paste0("C", 1:4)))[-5, ]
  cases$add("isSymmetric(asymmetric dimnames)", listed(isSymmetric), list(ms + 3 * diag(4)))
  expect_no_mismatches(cases, 1500)
})

test_that("R's reg-tests-1b.R, 1c.R, 1d.R, simple-true.R: sorting, sets, sequences, tails", {
  cases <- rsource_cases("r-source tests/reg-tests-1b.R, 1c.R, 1d.R, simple-true.R")
  cases$add("sort(c(NA, 1L))", sort, list(c(NA, 1L)))
  cases$add("sort(c(NA, 1), radix)", function(x) sort(x, method = "radix"), list(c(NA, 1)))
  # (Not the sorted 1-d array of reg-tests-1d.R: sort.int() keeps a classed value's
  # attributes where a plain one's go, and a lazy value is classed to it; ?lazy.)
  add_each(cases, "sort.int", sort.int, list(NA_integer_, integer(0)))
  for (dec in c(TRUE, FALSE)) {
    for (nl in list(NA, TRUE, FALSE)) {
      cases$add(sprintf("sort(1:3, %s, na.last = %s)", dec, nl),
                function(x) sort(x, decreasing = dec, na.last = nl), list(c(1:3, NA)))
    }
  }
  add_each(cases, "sort", sort, list(c(a = 1, b = 2, c = 3), structure(c(a = 1, b = 2), f = "b")))
  cases$add("sort.list(decreasing)", function(x) sort.list(x, decreasing = TRUE), list(c(1, 1, 3)))
  cases$add("order(decreasing)", function(x) order(x, decreasing = TRUE), list(c(1, 1, 3)))
  cases$add("findInterval(ties, left.open)", function(x, v) findInterval(x, v, left.open = TRUE),
            list(c(6, 1, 1), c(0, 1, 3, 5, 7)))
  set.seed(4)
  vec <- cumsum(1 + rpois(6, 2))
  xr <- rpois(5000, 3) + 0.5 * rbinom(5000, 1, 1 / 4)
  for (lo in c(TRUE, FALSE)) {
    cases$add(sprintf("findInterval(5000, left.open = %s)", lo),
              function(x, v) findInterval(x, v, left.open = lo), list(xr, vec))
  }
  cases$add("tabulate(findInterval())", function(x, v) tabulate(findInterval(x, v) + 1),
            list(xr, vec))
  cases$add("cut(rep(-1, 5), 2)", function(x) cut(x, 2), list(rep(-1, 5)))
  cases$add("unique(1, incomparables = 1:2)", unique, list(1, 1:2))
  for (inc in list(NA, 3, c(3, NA))) {
    add_each(cases, sprintf("anyDuplicated(incomparables = %s)", deparse(inc)),
             function(v) anyDuplicated(v, incomparables = inc),
             list(c(1, NA, 3, NA, 5), c(1, NA, 3, NA, 3)))
  }
  for (a in list(NA, NA_integer_, NA_real_, NaN)) {
    for (tb in list(c(NA, TRUE), c(3L, NA), c(2, NA))) cases$add("in", listed(`%in%`), list(a, tb))
  }
  cases$add("rev(c(1:10, 10:1))", rev, list(c(1:10, 10:1)))
  cases$add("seq(0, 1, 0.00025 + 5e-16)", function(a, b) seq(a, 1, b), list(0, 0.00025 + 5e-16))
  cases$add("diff(1:10, differences = 2)", function(x) diff(x, differences = 2), list(1:10))
  cases$add("diff(y)", diff, list(c(-12, -10, 3.5, 4.45, 4.5, 140, 142)))
  # tail.matrix(): head()/tail() row counts, also as ifelse(x < 0, pmax(), pmin()).
  nr <- c(0L, 2L, 9L, 12L, 100001L)
  for (n in -3:3) {
    for (r in nr) {
      mt <- matrix(seq_len(r), r, 1, dimnames = if (r == 9L) list(paste0("r", 1:9), "CC"))
      cases$add(sprintf("head(%d rows, %d)", r, n), function(x) head(x, n), list(mt))
      cases$add(sprintf("tail(%d rows, %d)", r, n), function(x) tail(x, n), list(mt))
    }
  }
  tail_rows <- function(x, y) ifelse(x < 0, pmax(0L, y + x), pmin(y, x))
  cases$add("tail rows", tail_rows, list(rep(-3:3, 5), rep(nr, each = 7)))
  cases$add("outer(n, nrow, tail rows)", function(a, b) outer(a, b, tail_rows), list(-3:3, nr))
  for (z in list(0[0], 0L[0], logical())) {
    cases$add("pmax(z, z)", pmax, list(z, z))
    cases$add("pmin(z, FALSE)", pmin, list(z, FALSE))
  }
  expect_no_mismatches(cases, 15000)
})

test_that("R's reg-tests-1b.R, 1c.R, 1d.R, simple-true.R: statistics, all.equal, atan2, log", {
  cases <- rsource_cases("r-source tests/reg-tests-1b.R, 1c.R, 1d.R, simple-true.R")
  xna <- c(NA, 10.6, NA, NA, NA, 10.6, NA, NA, NA, NA, NA, 11.3, NA, NA, NA, NA, NA, NA, NA, 5.2)
  for (type in 1:9) {
    cases$add(sprintf("quantile(xN, type %d, na.rm)", type),
              function(x, p) quantile(x, p, type = type, na.rm = TRUE), list(xna, seq(0, 1, 0.1)))
    cases$add(sprintf("quantile(x2, type %d)", type), function(x, p) quantile(x, p, type = type),
              list(rep(-0.00090419678460984, 602), (0:5) / 5))
  }
  xv <- runif(3000)
  cases$add("var, sd, median, quantile", function(x) c(var(x), sd(x), median(x), quantile(x)),
            list(xv))
  # all.equal(*, tol) with a numeric attribute. The target is lazy where it differs:
  # all.equal() of a plain target reports a lazy current's class (?lazy).
  a <- structure(1:17, xtras = c(pi, exp(1)))
  b <- a * (1 + 1e-7)
  attr(b, "xtras") <- attr(a, "xtras") * (1 + 1e-7)
  cases$add("all.equal(a, b, tol = 2e-7)", function(x, y) all.equal(x, y, tol = 2e-7), list(a, b))
  cases$add("all.equal(a, b)", function(x) all.equal(x, b), list(a))
  cases$add("all.equal(1:3, c(1, 2, 3.5))", function(x) all.equal(x, c(1, 2, 3.5)), list(1:3))
  x <- 1:99 / 100
  cases$add("atan2(sin(x), cos(x))", function(a) atan2(sin(a), cos(a)), list(x))
  cases$add("atan2(y, x)", atan2, list(sin(x), cos(x)))
  cases$add("log(x, 10)", log, list(x, 10))
  cases$add("log(x, base = 2)", function(a, b) log(a, base = b), list(c(x, 0, -1, NA, Inf), 2))
  cases$add("log(2, base = x)", function(a, b) log(a, base = b), list(2, c(x, 1, 0, -1)))
  expect_no_mismatches(cases, 3500)
})

test_that("the R regression cases agree under every thread count and block size, on long inputs", {
  cases <- rsource_cases("r-source tests/reg-tests-1c.R, 1d.R, reg-tests-2.R, engine settings")
  set.seed(3)
  xi <- c(rep(as.integer(2^30), 1200), sample(c(NA, -5:5), 1800, replace = TRUE))
  xd <- c(pi^(-6:6), rnorm(1987), NA, NaN, Inf, -Inf)
  mx <- matrix(xd[1:3000], 1000, 3)
  for_engine_settings({
    cases$add("cumsum(long integers, overflow)", cumsum, list(xi))
    cases$add("sum(long integers)", sum, list(xi))
    cases$add("integer.max + long", `+`, list(.Machine$integer.max, xi), "+")
    cases$add("round(long, 3)", round, list(xd, 3))
    cases$add("signif(long, 1:13)", signif, list(xd, 1:13))
    cases$add("rowSums(1000 x 3)", rowSums, list(mx))
    cases$add("colMeans(1000 x 3, na.rm)", function(x) colMeans(x, na.rm = TRUE), list(mx))
    cases$add("pmax(long, 0)", pmax, list(xd, 0))
    cases$add("ifelse(long < 0, pmin, pmax)", function(x) ifelse(x < 0, pmin(x, -1), pmax(x, 1)),
              list(xd))
    cases$add("crossprod(1000 x 3)", crossprod, list(mx))
  })
  expect_no_mismatches(cases, 100000)
})
