# Differential tests of the scans (cumsum, cumprod, cummax, cummin), the views
# (rev, head/tail, negative and regular subscripts, circular shifts, diff) and the
# masked choices (ifelse, pmin, pmax) on lazy values, alone and fused in chains.
# Each case runs in base R on plain operands (the oracle, with base R's versions
# of the names gufunc masks) and with every non-empty set of its numeric operands
# wrapped in lazy(); value (bit for bit: identical(num.eq = FALSE, single.NA =
# FALSE)), attributes, warnings and the error message must agree. A single
# operation's warnings are compared as often as base R gives them; a chain's as
# distinct messages (?lazy: one warning that several operations of an evaluation
# give is raised once).
#
# Sources of the inputs (values and operations only):
# - wch/r-source src/library/base/man/cumsum.Rd, diff.Rd, ifelse.Rd, Extremes.Rd
#   (examples: cummin/cummax of c(3:1, 2:0, 4:2), diff(1:10, 2), diff(1:10, 2, 2),
#   ifelse(x >= 0, sqrt(x), NA) on 6:-4 and the return modes of ifelse(NA / TRUE /
#   FALSE, 1:3, pi^(0:3)), pmin(5:1, pi), pmin(cH, quantile(x)), pmin(quantile(x),
#   cH) and the Huber function pmin(cH, pmax(-cH, x))); R's C code notes on the
#   cumsum overflow warning and on cummax/cummin propagating NA and NaN;
# - numpy/numpy numpy/lib/tests/test_function_base.py: TestDiff (test_basic's
#   integer, floating and boolean inputs and orders 1 to 3, test_n on 0:2 with
#   orders 1 to 4, test_axis's alternating rows, test_subclass's 5 x 2 matrix with
#   missing cells, test_prepend / test_append), TestSelect (test_basic's
#   conditions and choices, as nested ifelse);
# - numpy/numpy numpy/core/tests/test_numeric.py TestClip (test_clip_nan: 0..6
#   clipped with NaN bounds, as pmax/pmin, with and without na.rm).
# test-differential-numpy-2.R already has NumPy's TestCumsum/TestCumprod tables
# and TestMaximum/TestMinimum pairs; those inputs are not repeated here.

big <- .Machine$integer.max

# The element-wise collector of helper-differential.R, with grid(): one case under
# 1 and 2 threads and blocks of 7 and 1000 elements (at threshold `min_length`).
scan_cases <- function(source) {
  cases <- elementwise_cases(source)
  cases$grid <- function(label, fun, args, distinct = FALSE, min_length = 0) {
    for (threads in 1:2) {
      for (block in c(7L, 1000L)) {
        with_options(list(gufunc.threads = threads, gufunc.block_size = block), {
          cases$add(sprintf("%s (threads %d, block %d)", label, threads, block), fun, args,
                    distinct = distinct, min_length = min_length)
        })
      }
    }
  }
  cases
}

scans <- c("cumsum", "cumprod", "cummax", "cummin")

test_that("the operations under test are deferred on lazy operands", {
  withr::local_options(gufunc.lazy_min_length = 0)
  x <- lazy(c(a = 1, b = NA, c = 3, d = -2))
  m <- lazy(matrix(as.double(1:20), 4))
  deferred <- list(
    cumsum = cumsum(x), cumprod = cumprod(x), cummax = cummax(x), cummin = cummin(x),
    "x[-1]" = x[-1], "x[-n]" = x[-4], rev = rev(x), diff = diff(x),
    "m[2:3, 2:4]" = m[2:3, 2:4], "t(m)" = t(m), shift = m[, c(5, 1:4)],
    "x[seq]" = x[seq(1, 4, by = 2)], "x[4:2]" = x[4:2], "m[4:1, 5:2]" = m[4:1, 5:2],
    "m[seq(1, 4, 2), 2:4]" = m[seq(1, 4, 2), 2:4],
    ifelse = ifelse(lazy(c(TRUE, NA, FALSE, TRUE)), 1, 2),
    pmax = pmax(x, 0), pmin = pmin(x, 0, na.rm = TRUE),
    chain = pmax(cumsum(x) - cummax(x), 0)
  )
  for (k in names(deferred)) {
    expect_s3_class(deferred[[k]], "gufunc_lazy")
    expect_false(is_materialized(deferred[[k]]), label = k)
  }
  # At the default threshold a long vector's scan is deferred, a short one's not.
  withr::local_options(gufunc.lazy_min_length = 65536)
  expect_false(is_materialized(cumsum(lazy(as.double(1:70001)))))
  expect_false(inherits(cumsum(lazy(c(1, 2))), "gufunc_lazy"))
})

test_that("the collector reports differing lazy paths and counts the compared elements", {
  cases <- scan_cases("self test")
  cases$add("value", function(x) if (inherits(x, "gufunc_lazy")) rev(materialize(x)) else x,
            list(c(1, 2)))
  cases$add("names", function(x) if (inherits(x, "gufunc_lazy")) unname(materialize(x)) else x,
            list(c(a = 1)))
  cases$add("NaN for NA", function(x) if (inherits(x, "gufunc_lazy")) NaN else NA_real_, list(1))
  cases$add("warning twice", function(x) {
    if (inherits(x, "gufunc_lazy")) warning("w")
    warning("w")
    x + 0
  }, list(1))
  cases$add("same", "cumsum", list(c(1, 2, 3)))
  expect_identical(sub(" \\[.*", "", cases$mismatches()),
                   c("value", "names", "NaN for NA", "warning twice"))
  expect_identical(cases$compared(), 8)
})

test_that("cumsum.Rd, R's C notes: scans of doubles, integers and logicals with NA and NaN placed", {
  cases <- scan_cases("r-source cumsum.Rd; src/main/cum.c notes")
  # The help page's examples, as integers and doubles.
  for (f in scans) {
    cases$add(paste(f, "c(3:1, 2:0, 4:2)"), f, list(c(3:1, 2:0, 4:2)))
    cases$add(paste(f, "c(3:1, 2:0, 4:2) double"), f, list(c(3:1, 2:0, 4:2) + 0))
    cases$add(paste(f, "1:10"), f, list(1:10))
  }
  # NA, NaN and both (in either order) at the start, the middle and the end of
  # doubles: cummax/cummin carry the first NA or NaN on (an NA after a NaN wins).
  base <- c(2, -1, 5, 0.5, 7, -3, 4)
  spots <- list(start = 1, middle = 4, end = 7, "start, end" = c(1, 7),
                "middle, end" = c(4, 7), "start, middle" = c(1, 4))
  marks <- list("NA" = NA_real_, "NaN" = NaN, "-NaN" = -NaN)
  for (s in names(spots)) {
    for (a in names(marks)) {
      for (b in names(marks)) {
        pos <- spots[[s]]
        v <- replace(base, pos, c(marks[[a]], marks[[b]])[seq_along(pos)])
        if (length(pos) == 1L && b != "NA") next
        for (f in scans) cases$add(sprintf("%s, %s at %s", f, paste(a, b), s), f, list(v))
      }
    }
  }
  # Infinities met by NaN and NA (Inf - Inf is NaN inside the running sum).
  for (f in scans) {
    cases$add(paste(f, "Inf then -Inf then NA"), f, list(c(1, Inf, 2, -Inf, 3, NA, 4)))
    cases$add(paste(f, "-Inf, NaN, Inf"), f, list(c(-Inf, 5, NaN, Inf)))
    cases$add(paste(f, "zeros of both signs"), f, list(c(-0, 0, -0, -0, 0)))
  }
  # Integers and logicals with NA at the start, middle and end.
  ints <- list(c(NA, 3L, -1L, 4L), c(3L, -1L, NA, 4L, 2L), c(3L, -1L, 4L, NA), c(NA_integer_, NA),
               c(5L, 5L, -big, 1L), c(-big, -big + 1L, 0L))
  lgls <- list(c(NA, TRUE, FALSE), c(TRUE, FALSE, NA, TRUE), c(FALSE, TRUE, TRUE, NA),
               c(FALSE, FALSE), c(TRUE, TRUE, TRUE))
  for (f in scans) {
    for (i in seq_along(ints)) cases$add(sprintf("%s integers %d", f, i), f, list(ints[[i]]))
    for (i in seq_along(lgls)) cases$add(sprintf("%s logicals %d", f, i), f, list(lgls[[i]]))
  }
  # Names are kept; dim and dimnames are dropped.
  for (f in scans) {
    cases$add(paste(f, "named, NA in the middle"), f, list(c(a = 1, b = 2, c = NA, d = 0)))
    cases$add(paste(f, "named integers"), f, list(c(x = 2L, y = NA, z = 1L)))
    cases$add(paste(f, "named logicals"), f, list(c(p = TRUE, q = FALSE)))
    cases$add(paste(f, "matrix with dimnames"), f,
              list(matrix(c(1, 3, NaN, 2, 5, -1), 2, dimnames = list(c("r", "s"), c("A", "B", "C")))))
    cases$add(paste(f, "1 x 1 matrix"), f, list(matrix(7L, 1, 1)))
  }
  expect_no_mismatches(cases, 1350)
})

test_that("integer overflow in cumsum: NA from there on, R's warning once, NA before it silences it", {
  cases <- scan_cases("r-source src/main/cum.c (icumsum)")
  ov <- list("at the end" = c(big - 5L, 3L, 3L),
             "at the start, then NA" = c(big, 1L, NA, 2L),
             "downwards" = c(-big, -1L, 4L),
             "NA before it" = c(1L, NA, big, big),
             "back in range after leaving it" = c(big, 1L, -5L),
             "one past the maximum" = c(big - 1L, 1L, 1L),
             "exactly the maximum" = c(big - 1L, 1L, 0L),
             named = c(a = big, b = big, c = -1L))
  for (k in names(ov)) {
    cases$add(paste("cumsum", k), "cumsum", list(ov[[k]]))
    # cumprod of integers is double: no overflow, no warning.
    cases$add(paste("cumprod", k), "cumprod", list(ov[[k]]))
    cases$add(paste("cummax", k), "cummax", list(ov[[k]]))
  }
  cases$add("cumsum of TRUE and an integer", function(a, b) cumsum(c(a, b)), list(TRUE, big))
  # Fused: the overflow of the deferred integer sum and of the scan.
  cases$add("cumsum(x + 1L)", function(x) cumsum(x + 1L), list(c(big - 3L, 1L, 1L)), distinct = TRUE)
  cases$add("cumsum(x * 2L) (both overflow)", function(x) cumsum(x * 2L),
            list(c(big %/% 2L, 1L, big)), distinct = TRUE)
  cases$add("cumsum(x[-1])", function(x) cumsum(x[-1]), list(c(NA, big, 1L)))
  cases$add("cumsum(rev(x))", function(x) cumsum(rev(x)), list(c(NA, big, 1L)))
  # Long: the running total leaves the int range at element 65536 (32768 * 65536
  # is 2^31) or at 65537, across every engine setting, at the default threshold.
  for (k in c(65536L, 65537L)) {
    v <- rep(32768L, 70001)
    if (k == 65537L) v[1] <- 32767L
    cases$grid(sprintf("long cumsum overflowing at %d", k), "cumsum", list(v), min_length = 65536)
  }
  expect_no_mismatches(cases, 550000)
})

test_that("long scans with NA and NaN at 65536 / 65537, threads and odd block sizes", {
  cases <- scan_cases("gufunc block boundaries; NA planted at 65536/65537")
  n <- 70001L
  set.seed(1)
  d <- round(runif(n, -1, 1), 3)
  i <- sample(c(-3L, -1L, 0L, 1L, 2L), n, TRUE)
  l <- sample(c(TRUE, FALSE), n, TRUE)
  plant <- list("NA at 65536" = list(65536L, NA), "NA at 65537" = list(65537L, NA),
                "NaN at 65536, NA at 65537" = list(65536:65537, c(NaN, NA)),
                "NA at 65536, NaN at 65537" = list(65536:65537, c(NA, NaN)),
                "NaN at 1" = list(1L, NaN))
  for (k in names(plant)) {
    v <- replace(d, plant[[k]][[1]], plant[[k]][[2]])
    for (f in scans) cases$grid(paste(f, "double,", k), f, list(v), min_length = 65536)
  }
  for (f in scans) {
    cases$grid(paste(f, "integer, NA at 65537"), f, list(replace(i, 65537L, NA)), min_length = 65536)
    cases$grid(paste(f, "logical, NA at 65536"), f, list(replace(l, 65536L, NA)), min_length = 65536)
  }
  # cumprod stays finite: factors close to 1.
  cases$grid("cumprod(1 + r / 12)", function(r) cumprod(1 + r / 12), list(replace(d, 65537L, NA)),
             min_length = 65536)
  cases$grid("cumsum(x[-1] - x[-n])", function(x) cumsum(x[-1] - x[-length(x)]),
             list(replace(d, 65536L, NaN)), distinct = TRUE, min_length = 65536)
  expect_no_mismatches(cases, 8e6)
})

test_that("scans of views and deferred expressions", {
  cases <- scan_cases("r-source cumsum.Rd; R idioms (returns, drawdowns)")
  set.seed(2)
  x <- c(round(rnorm(40), 2), NA, round(rnorm(20), 2))
  r <- c(0.05, -0.02, 0.01, NaN, 0.03, -0.04)
  m <- matrix(c(x[1:59], 1), 6, dimnames = list(letters[1:6], NULL))
  ch <- function(label, fun, args) cases$add(label, fun, args, distinct = TRUE)
  for (f in scans) {
    g <- get(f, baseenv())
    ch(paste(f, "of x[-1] - x[-n]"), function(x) g(x[-1] - x[-length(x)]), list(x))
    ch(paste(f, "of rev(x)"), function(x) g(rev(x)), list(x))
    ch(paste(f, "of x[-(1:5)]"), function(x) g(x[-(1:5)]), list(x))
    ch(paste(f, "of x[seq(2, 50, by = 3)]"), function(x) g(x[seq(2, 50, by = 3)]), list(x))
    ch(paste(f, "of m[2:5, 3:7]"), function(m) g(m[2:5, 3:7]), list(m))
    ch(paste(f, "of t(m)"), function(m) g(t(m)), list(m))
    ch(paste(f, "of sqrt(x)"), function(x) g(sqrt(x)), list(x))
    ch(paste(f, "of x * y"), function(x, y) g(x * y), list(x, rev(x)))
  }
  ch("cumprod(1 + r / 12)", function(r) cumprod(1 + r / 12), list(r))
  ch("cummax(c(1, cumprod(1 + r)))[-1]", function(r) cummax(c(1, cumprod(1 + r)))[-1], list(r))
  ch("cumsum(cumsum(x))", function(x) cumsum(cumsum(x)), list(0:10))
  ch("cumsum of integer view", function(x) cumsum(x[-1] - x[-length(x)]), list(c(3L, NA, big, -big)))
  ch("cumsum(x) / seq_along(x)", function(x) cumsum(x) / seq_along(x), list(c(1, 3, 5, 2, 2)))
  expect_no_mismatches(cases, 1900)
})

test_that("diff.Rd and NumPy's TestDiff: lags, orders, matrices, empty results", {
  cases <- scan_cases("r-source diff.Rd; numpy test_function_base.py TestDiff")
  df <- function(lag, differences) function(x) diff(x, lag = lag, differences = differences)
  # diff.Rd's examples and TestDiff.test_basic / test_n at every lag and order
  # (orders beyond the length give empty results).
  inputs <- list("1:10" = 1:10, "int basic" = c(1L, 4L, 6L, 7L, 12L),
                 "double basic" = c(1, 4, 6, 7, 12), floating = c(1.1, 2.2, 3.0, -0.2, -0.1),
                 boolean = c(TRUE, TRUE, FALSE, FALSE), "0:2" = 0:2,
                 "with NA and NaN" = c(1, NA, 4, NaN, 9, Inf, -Inf, 2),
                 "integers at the limits" = c(big, -big, 0L, NA, big),
                 named = c(a = 1, b = 4, c = 9, d = 16))
  for (k in names(inputs)) {
    for (lag in 1:3) {
      for (d in 1:4) cases$add(sprintf("diff(%s, %d, %d)", k, lag, d), df(lag, d), list(inputs[[k]]))
    }
    cases$add(paste("diff default", k), function(x) diff(x), list(inputs[[k]]))
  }
  # Lags and orders past the length, and bad ones (base R's error).
  cases$add("lag = length", df(5, 1), list(c(1, 4, 6, 7, 12)))
  cases$add("lag = 0", df(0, 1), list(c(1, 4, 6)))
  cases$add("differences = 0", df(1, 0), list(c(1, 4, 6)))
  # test_axis: rows alternating 0 and 1 (R differences down the columns); the
  # masked 5 x 2 matrix of test_subclass with NA for the masked cells.
  alt <- matrix(rep(c(0, 1), length.out = 10 * 6), 10, 6, byrow = FALSE)
  cases$add("alternating rows", function(x) diff(x), list(alt))
  cases$add("alternating columns", function(x) diff(x), list(t(alt)))
  holes <- matrix(c(1, NA, 5, NA, 9, 2, 4, NA, NA, 10), 5,
                   dimnames = list(paste0("r", 1:5), c("u", "v")))
  for (lag in 1:2) {
    for (d in 1:3) cases$add(sprintf("masked matrix lag %d order %d", lag, d), df(lag, d), list(holes))
  }
  cases$add("integer matrix", function(x) diff(x, 2), list(matrix(c(1:11, big), 4)))
  cases$add("one-row matrix", function(x) diff(x), list(matrix(c(1, 2, 3), 1)))
  # test_prepend / test_append: diff(c(0, x)) and its cumsum gives x back.
  ch <- function(label, fun, args) cases$add(label, fun, args, distinct = TRUE)
  ch("cumsum(diff(c(0, x)))", function(x) cumsum(diff(c(0, x))), list(c(1, 2, 3, 4, 5)))
  ch("diff(cumsum(x))", function(x) diff(cumsum(x)), list(c(1.5, NA, 2, 7)))
  ch("diff(x * 2, lag = 2)", function(x) diff(x * 2, lag = 2), list(c(1.1, 2.2, 3.0, -0.2, -0.1)))
  ch("diff(rev(x))", function(x) diff(rev(x)), list(c(1, 4, 6, 7, 12)))
  ch("diff(x[-1])", function(x) diff(x[-1]), list(c(NaN, 4, 6, 7, 12)))
  ch("sum(diff(x)^2)", function(x) sum(diff(x)^2), list(c(1, 4, 6, 7, 12)))
  # Long, with NA at the block boundary and the default threshold.
  long <- replace(as.double(seq_len(70001))^1.5, 65536L, NA)
  cases$grid("long diff lag 3 order 2", df(3, 2), list(long), min_length = 65536)
  cases$grid("long diff of a matrix", function(x) diff(x), list(matrix(long[1:70000], 700)),
             min_length = 65536)
  expect_no_mismatches(cases, 550000)
})

test_that("views: rev, head/tail with negative n, negative and regular subscripts, shifts", {
  cases <- scan_cases("r-source head/tail notes; gufunc ?lazy views")
  v <- c(a = 1, b = NaN, c = -0, d = NA, e = 5, f = Inf, g = 7, h = -2)
  vi <- c(4L, NA, -big, big, 0L, 9L, 1L)
  vl <- c(TRUE, NA, FALSE, TRUE, FALSE)
  m <- matrix(c(1:23, NA) + 0.5, 4, dimnames = list(paste0("r", 1:4), LETTERS[1:6]))
  mi <- matrix(c(1:11, NA), 3)
  vw <- list(
    "rev" = function(x) rev(x),
    "x[-1]" = function(x) x[-1],
    "x[-length(x)]" = function(x) x[-length(x)],
    "x[-(1:3)]" = function(x) x[-(1:3)],
    "x[seq(2, 5, by = 2)]" = function(x) x[seq(2, 5, by = 2)],
    "x[seq(1, length(x), by = 3)]" = function(x) x[seq(1, length(x), by = 3)],
    "x[2:4]" = function(x) x[2:4],
    "circular shift" = function(x) x[c(length(x), 1:(length(x) - 1))],
    "head(x, -2)" = function(x) head(x, -2),
    "tail(x, -2)" = function(x) tail(x, -2),
    "head(x, 3)" = function(x) head(x, 3),
    "tail(x, 2)" = function(x) tail(x, 2),
    "head(x, -100)" = function(x) head(x, -100),
    "tail(x, 0)" = function(x) tail(x, 0),
    "rev(x) * 2" = function(x) rev(x) * 2,
    "x[-1] - x[-n]" = function(x) x[-1] - x[-length(x)],
    "x[n:1]" = function(x) x[length(x):1],
    "x[4:2]" = function(x) x[4:2],
    "x[seq(n, 1, by = -2)]" = function(x) x[seq(length(x), 1, by = -2)],
    "x[n:1] - x" = function(x) x[length(x):1] - x
  )
  for (k in names(vw)) {
    cases$add(paste(k, "named doubles"), vw[[k]], list(v))
    cases$add(paste(k, "integers"), vw[[k]], list(vi))
    cases$add(paste(k, "logicals"), vw[[k]], list(vl))
  }
  mv <- list(
    "m[2:3, 2:5]" = function(m) m[2:3, 2:5],
    "m[2:3, 4, drop = FALSE]" = function(m) m[2:3, 4, drop = FALSE],
    "m[3, 2:4]" = function(m) m[3, 2:4],
    "m[3, 2:4, drop = FALSE]" = function(m) m[3, 2:4, drop = FALSE],
    "m[, 2:3]" = function(m) m[, 2:3],
    "m[-1, ]" = function(m) m[-1, ],
    "m[, -ncol(m)]" = function(m) m[, -ncol(m)],
    "column shift" = function(m) m[, c(ncol(m), 1:(ncol(m) - 1))],
    "row shift" = function(m) m[c(2:nrow(m), 1), ],
    "both shifts" = function(m) m[c(nrow(m), 1:(nrow(m) - 1)), c(2:ncol(m), 1)],
    "t(m)" = function(m) t(m),
    "t(m)[2:4, ]" = function(m) t(m)[2:4, ],
    "head(m, -1)" = function(m) head(m, -1),
    "tail(m, 2)" = function(m) tail(m, 2),
    "tail(m, -3)" = function(m) tail(m, -3),
    "rev(m)" = function(m) rev(m),
    "m[2:3, 2:5] + 1" = function(m) m[2:3, 2:5] + 1,
    "shifted difference" = function(m) m[, c(ncol(m), 1:(ncol(m) - 1))] - m,
    "m[nrow(m):1, ]" = function(m) m[nrow(m):1, ],
    "m[, ncol(m):1]" = function(m) m[, ncol(m):1],
    "m[3:1, 5:2]" = function(m) m[3:1, 5:2],
    "m[3:2, 4]" = function(m) m[3:2, 4],
    "m[seq(1, nrow(m), 2), 2:5]" = function(m) m[seq(1, nrow(m), 2), 2:5],
    "m[seq(nrow(m), 1, by = -2), 4:2] * 2" = function(m) m[seq(nrow(m), 1, by = -2), 4:2] * 2
  )
  for (k in names(mv)) {
    cases$add(paste(k, "doubles with dimnames"), mv[[k]], list(m))
    cases$add(paste(k, "integers"), mv[[k]], list(mi))
  }
  # Long vectors at the default threshold, every engine setting.
  long <- replace(seq_len(70001) / 7, c(1, 65536, 70001), c(NA, NaN, -0))
  names(long) <- NULL
  for (k in c("rev", "x[-1]", "x[-length(x)]", "x[seq(1, length(x), by = 3)]", "circular shift",
              "x[-1] - x[-n]")) {
    cases$grid(paste("long", k), vw[[k]], list(long), min_length = 65536)
  }
  ml <- matrix(long[1:70000], 350)
  cases$grid("long m[2:300, 10:190]", mv[["m[2:3, 2:5]"]], list(ml), min_length = 65536)
  cases$grid("long column shift", mv[["column shift"]], list(ml), min_length = 65536)
  cases$grid("long x[n:1] - x", vw[["x[n:1] - x"]], list(long), min_length = 65536)
  cases$grid("long m[300:2, 190:10]", function(m) m[300:2, 190:10], list(ml))
  cases$grid("long m[seq(1, 349, 3), 2:190] + m[seq(349, 1, by = -3), 190:2]",
             function(m) m[seq(1, 349, 3), 2:190] + m[seq(349, 1, by = -3), 190:2], list(ml))
  expect_no_mismatches(cases, 2.2e6)
})

test_that("ifelse.Rd and NumPy's TestSelect: ifelse with a lazy test", {
  cases <- scan_cases("r-source ifelse.Rd; numpy test_function_base.py TestSelect")
  ie <- function(test, yes, no) ifelse(test, yes, no)
  # ifelse.Rd: the warning of sqrt on the whole of yes; NA as no.
  x <- 6:-4
  cases$add("ifelse(x >= 0, sqrt(x), NA)", function(x) ifelse(x >= 0, sqrt(x), NA), list(x),
            distinct = TRUE)
  cases$add("sqrt(ifelse(x >= 0, x, NA))", function(x) sqrt(ifelse(x >= 0, x, NA)), list(x),
            distinct = TRUE)
  # The return modes: NA, TRUE and FALSE tests against 1:3 and pi^(0:3).
  for (t in list(c(NA, NA), c(TRUE, TRUE), c(FALSE, FALSE), c(NA, TRUE, FALSE, NA))) {
    cases$add(sprintf("modes, test %s", paste(t, collapse = " ")), ie, list(t, 1:3, pi^(0:3)))
  }
  # NA in the test at the start, middle and end; yes and no of other types and
  # shorter than the test (recycled).
  tests <- list(start = c(NA, TRUE, FALSE, TRUE, FALSE, TRUE),
                middle = c(TRUE, FALSE, NA, TRUE, FALSE, FALSE),
                end = c(FALSE, TRUE, TRUE, FALSE, TRUE, NA))
  branches <- list("double, double" = list(c(1.5, NaN, -0, 4, NA, 6), -(1:6) + 0),
                   "integer, double" = list(1:6, c(0.5, -0.5)),
                   "logical, integer" = list(c(TRUE, NA), c(7L, NA, 9L)),
                   "integer, logical" = list(c(big, -big, NA), FALSE),
                   "double, integer" = list(NaN, 0L),
                   "logical, logical" = list(NA, TRUE),
                   "yes longer than test" = list(as.double(1:9), c(-1, -2)))
  for (k in names(tests)) {
    for (b in names(branches)) {
      cases$add(sprintf("NA at %s, %s", k, b), ie, c(list(tests[[k]]), branches[[b]]))
    }
  }
  # Attributes from the test: names, dim and dimnames; those of yes are dropped.
  cases$add("named test", ie, list(c(a = TRUE, b = NA, c = FALSE), c(x = 1, y = 2, z = 3), 0))
  cases$add("matrix test", ie, list(matrix(c(TRUE, NA, FALSE, TRUE, FALSE, TRUE), 2,
                                           dimnames = list(c("p", "q"), c("A", "B", "C"))),
                                    matrix(1:6, 3), 0L))
  cases$add("matrix yes", ie, list(c(TRUE, FALSE, TRUE, NA), matrix(1:4, 2), -1))
  cases$add("numeric test", ie, list(c(0, NaN, 2, NA, -0), 1L, 2L))
  cases$add("character yes", function(t, no) ifelse(t, "y", no), list(c(TRUE, NA, FALSE), 0))
  cases$add("test derived from x", function(x) ifelse(x > 2, x, -x), list(c(1, NA, 3, NaN, 5)))
  # TestSelect.test_basic: choices 1:3, 4:6, 7:9 by three conditions, default 0.
  sel <- function(c1, c2, c3, a, b, d) ifelse(c1, a, ifelse(c2, b, ifelse(c3, d, 0)))
  cases$add("select basic", sel,
            list(c(FALSE, FALSE, FALSE), c(FALSE, TRUE, FALSE), c(FALSE, FALSE, TRUE), 1:3, 4:6, 7:9),
            distinct = TRUE)
  cases$add("select with NA", sel,
            list(c(NA, FALSE, FALSE), c(FALSE, TRUE, NA), c(TRUE, FALSE, TRUE), c(1, 2, 3), 4:6, 7:9),
            distinct = TRUE)
  # Long, NA in the test at 65536, the default threshold and every engine setting.
  set.seed(3)
  lt <- replace(runif(70001) > 0.5, c(65536, 70001), NA)
  cases$grid("long ifelse", ie, list(lt, as.double(seq_len(70001)), c(-1, -2)), min_length = 65536)
  cases$grid("long ifelse(x > 0, cumsum(x), 0)", function(x) ifelse(x > 0, cumsum(x), 0),
             list(replace(runif(70001, -1, 1), 65537, NA)), distinct = TRUE, min_length = 65536)
  expect_no_mismatches(cases, 550000)
})

test_that("Extremes.Rd and NumPy's TestClip: pmin/pmax with several arguments, na.rm, NaN and NA", {
  cases <- scan_cases("r-source Extremes.Rd; numpy test_numeric.py TestClip (test_clip_nan)")
  d <- as.double(0:6)
  for (na_rm in c(FALSE, TRUE)) {
    # The closures name pmax and pmin (with na.rm) themselves, so that the oracle
    # (with_base_masks()) calls base R's; pm(f) finds `f` where it is called.
    pm <- function(f) function(...) do.call(f, list(..., na.rm = na_rm))
    mx <- pm("pmax")
    mn <- pm("pmin")
    clip <- function(x, lo, hi) pmin(pmax(x, lo, na.rm = na_rm), hi, na.rm = na_rm)
    lbl <- function(s) sprintf("%s (na.rm = %s)", s, na_rm)
    # test_clip_nan: the bounds NaN (and NA), alone and with -2 and 10.
    cases$add(lbl("clip min NaN"), mx, list(d, NaN))
    cases$add(lbl("clip max NaN"), mn, list(d, NaN))
    cases$add(lbl("clip max NA"), mn, list(d, NA))
    cases$add(lbl("clip both NaN"), clip, list(d, NaN, NaN), distinct = TRUE)
    cases$add(lbl("clip -2, NaN"), clip, list(d, -2, NaN), distinct = TRUE)
    cases$add(lbl("clip NaN, 10"), clip, list(d, NaN, 10), distinct = TRUE)
    cases$add(lbl("clip NA, NaN"), clip, list(d, NA_real_, NaN), distinct = TRUE)
    # Extremes.Rd: pmin(5:1, pi); the names of the first argument only.
    cases$add(lbl("pmin(5:1, pi)"), mn, list(5:1, pi))
    q <- c("0%" = -1.2, "25%" = -0.3, "50%" = 0.1, "75%" = 0.6, "100%" = 2.4)
    cases$add(lbl("pmin(cH, quantile(x))"), mn, list(1.35, q))
    cases$add(lbl("pmin(quantile(x), cH)"), mn, list(q, 1.35))
    set.seed(4)
    x <- sort(round(rnorm(100), 3))
    cases$add(lbl("Huber pmin(cH, pmax(-cH, x))"), function(x) clip(x, -1.35, 1.35), list(x),
              distinct = TRUE)
    cases$add(lbl("Huber, cH lazy too"), function(x, h) pmin(h, pmax(-h, x, na.rm = na_rm), na.rm = na_rm),
              list(x, 1.35), distinct = TRUE)
    # Three and four arguments with NA and NaN in different arguments and orders.
    a <- c(1, NA, NaN, 3, NA, NaN, 2, -0, 0)
    b <- c(NaN, 2, NA, NA, NaN, 1, -Inf, 0, -0)
    cc <- c(0, 0, 0, NaN, NA, NA, Inf, NA, NaN)
    for (f in c("pmax", "pmin")) {
      g <- pm(f)
      cases$add(lbl(paste(f, "a, b, c")), g, list(a, b, cc))
      cases$add(lbl(paste(f, "c, b, a")), g, list(cc, b, a))
      cases$add(lbl(paste(f, "b, a, c, 1")), g, list(b, a, cc, 1))
      cases$add(lbl(paste(f, "1 / (a, b)")), function(a, b) 1 / do.call(f, list(a, b, na.rm = na_rm)), list(a, b), distinct = TRUE)
      # Types: integers, logicals, doubles mixed; NULL; recycling and its warning.
      cases$add(lbl(paste(f, "integers with NA")), g, list(c(1L, NA, big, -big), c(NA, 2L, 0L, 0L)))
      cases$add(lbl(paste(f, "logicals")), g, list(c(TRUE, NA, FALSE), c(FALSE, FALSE, NA)))
      cases$add(lbl(paste(f, "logical and integer")), g, list(c(TRUE, NA, FALSE, TRUE), 0L))
      cases$add(lbl(paste(f, "integer and double")), g, list(c(1L, NA, 3L), c(NaN, 2.5, NA)))
      cases$add(lbl(paste(f, "with NULL")), function(x, y) do.call(f, list(x, NULL, y, na.rm = na_rm)),
                list(c(1, NA), c(0, 5)))
      cases$add(lbl(paste(f, "fractional recycling")), g, list(c(1, NA, 3), c(2, 0)))
      cases$add(lbl(paste(f, "longer second argument")), g, list(c(a = 1, b = 2), c(0, 5, NA, 3)))
      cases$add(lbl(paste(f, "matrix first")), g,
                list(matrix(a[1:8], 2, dimnames = list(c("x", "y"), NULL)), b[1:8]))
      cases$add(lbl(paste(f, "matrix second")), g, list(a[1:8], matrix(b[1:8], 2)))
      cases$add(lbl(paste(f, "empty")), g, list(numeric(0), numeric(0)))
    }
    # Long, several arguments, NA and NaN at 65536/65537, every engine setting.
    set.seed(5)
    l1 <- replace(round(runif(70001, -1, 1), 2), 65536:65537, c(NA, NaN))
    l2 <- replace(round(runif(70001, -1, 1), 2), 65536:65537, c(NaN, NA))
    cases$grid(lbl("long pmax(a, b, 0)"), function(a, b) pmax(a, b, 0, na.rm = na_rm), list(l1, l2),
               min_length = 65536)
    cases$grid(lbl("long pmin(a, b, c)"), mn, list(l1, l2, rev(l1)), min_length = 65536)
  }
  expect_no_mismatches(cases, 1.1e6)
})

test_that("chains of scans, views and choices fused together", {
  cases <- scan_cases("R idioms: drawdowns, running extremes, clipped differences")
  set.seed(6)
  x <- round(rnorm(60), 2)
  xn <- replace(x, c(1, 30, 60), c(NaN, NA, NaN))
  r <- replace(round(rnorm(60, 0, 0.05), 3), 25, NA)
  chains <- list(
    "pmax(cumsum(x) - cummax(x), 0)" = function(x) pmax(cumsum(x) - cummax(x), 0),
    "pmin(cumsum(x) - cummax(cumsum(x)), 0)" = function(x) pmin(cumsum(x) - cummax(cumsum(x)), 0),
    "cumprod(1 + r) / cummax(cumprod(1 + r)) - 1" = function(x) cumprod(1 + x) / cummax(cumprod(1 + x)) - 1,
    "ifelse(is.na(x), 0, cumsum(x))" = function(x) ifelse(is.na(x), 0, cumsum(x)),
    "cumsum(ifelse(is.na(x), 0, x))" = function(x) cumsum(ifelse(is.na(x), 0, x)),
    "pmax(diff(x), 0)" = function(x) pmax(diff(x), 0),
    "cumsum(pmax(x[-1] - x[-n], 0))" = function(x) cumsum(pmax(x[-1] - x[-length(x)], 0)),
    "rev(cummax(rev(x)))" = function(x) rev(cummax(rev(x))),
    "pmin(cummin(x), head(x, 1))" = function(x) pmin(cummin(x), head(x, 1)),
    "x - x[c(n, 1:(n - 1))]" = function(x) x - x[c(length(x), 1:(length(x) - 1))],
    "cummax(abs(diff(x, 2)))" = function(x) cummax(abs(diff(x, 2))),
    "pmax(x, rev(x), na.rm = TRUE)" = function(x) pmax(x, rev(x), na.rm = TRUE),
    "ifelse(x > 0, log(x), -cumsum(x))" = function(x) ifelse(x > 0, log(x), -cumsum(x)),
    "tail(cumsum(x), -5) - head(cumsum(x), -5)" = function(x) tail(cumsum(x), -5) - head(cumsum(x), -5),
    "sqrt(cumsum(x))" = function(x) sqrt(cumsum(x))
  )
  for (k in names(chains)) {
    cases$add(paste(k, "x"), chains[[k]], list(x), distinct = TRUE)
    cases$add(paste(k, "x with NA and NaN"), chains[[k]], list(xn), distinct = TRUE)
    cases$add(paste(k, "returns"), chains[[k]], list(r), distinct = TRUE)
  }
  cases$add("integer chain", function(x) pmax(cumsum(x) - cummax(x), 0L), list(c(3L, -1L, NA, 4L)),
            distinct = TRUE)
  cases$add("two-operand chain", function(x, y) pmin(cumsum(x), cumsum(y)) - cummin(x - y),
            list(x, rev(xn)), distinct = TRUE)
  long <- replace(round(rnorm(70001), 2), c(65536, 65537), c(NA, NaN))
  for (k in c("pmax(cumsum(x) - cummax(x), 0)", "cumsum(pmax(x[-1] - x[-n], 0))",
              "ifelse(is.na(x), 0, cumsum(x))", "rev(cummax(rev(x)))")) {
    cases$grid(paste("long", k), chains[[k]], list(long), distinct = TRUE, min_length = 65536)
  }
  expect_no_mismatches(cases, 1.1e6)
})

test_that("corner cases: long double running values, branches not taken, other types, errors", {
  cases <- scan_cases("r-source cum.c (long double sums and products); ifelse.Rd; Extremes.Rd note")
  # Running sums and products in one long double (finite again after leaving the
  # double range; small terms kept next to 1), also carried across blocks.
  ld <- list(c(1e308, 10, 0.1), c(1, 1e-17, -1), c(2^53, 1, 1, -2^53),
             c(.Machine$double.xmax, .Machine$double.xmax, -.Machine$double.xmax))
  for (i in seq_along(ld)) {
    for (f in c("cumsum", "cumprod")) cases$add(sprintf("%s long double %d", f, i), f, list(ld[[i]]))
  }
  n <- 70001
  lv <- rep(c(1, 1e-17, 1e-17, -1), length.out = n)
  lp <- replace(rep(c(1e10, 1e10, 1e-10, 1e-10), length.out = n), 65536, 1e300)
  cases$grid("long cumsum, small terms", "cumsum", list(lv), min_length = 65536)
  cases$grid("long cumprod past the double range", "cumprod", list(lp), min_length = 65536)
  # ifelse evaluates yes and no only when some element takes them (their warnings
  # and errors only then).
  ch <- function(label, fun, args) cases$add(label, fun, args, distinct = TRUE)
  ch("no not taken", function(x) ifelse(x > 0, log(x), sqrt(-x)), list(c(1, 2, 3)))
  ch("yes not taken", function(x) ifelse(x < 0, sqrt(x - 10), x), list(c(1, 2, 3)))
  ch("only NA in the test", function(x) ifelse(x > 0, sqrt(-x), sqrt(-x)), list(c(NA, NaN, NA)))
  ch("both warn", function(x) ifelse(x > 0, log(-x), sqrt(x)), list(c(1, -2, 3)))
  ch("error in no, not taken", function(x) ifelse(x > 0, x, stop("boom")), list(c(1, 2, 3)))
  ch("error in no, taken", function(x) ifelse(x > 0, x, stop("boom")), list(c(1, -2, 3)))
  ch("integer overflow in yes", function(x) ifelse(x > 0L, x + x, x), list(c(1L, big, -3L)))
  ch("ifelse(cumsum(x) > 0, cummax(x), cummin(x))",
     function(x) ifelse(cumsum(x) > 0, cummax(x), cummin(x)), list(c(-1, 2, NA, -3)))
  ie <- function(t, y, z) ifelse(t, y, z)
  cases$add("test with other attributes", function(t) ifelse(t, 1, 0),
            list(structure(c(TRUE, FALSE, NA), foo = "bar", names = c("x", "y", "z"))))
  cases$add("yes named, test a matrix", ie, list(matrix(c(TRUE, FALSE, NA, TRUE), 2), c(a = 1, b = 2, c = 3, d = 4), -1))
  cases$add("yes and no longer than test", ie, list(c(TRUE, FALSE), 1:5, 6:10))
  cases$add("yes empty", ie, list(c(TRUE, FALSE), numeric(0), 1))
  cases$add("double test", ie, list(c(0, NaN, 2, NA, -0), 1L, 2L))
  cases$add("integer test", ie, list(c(0L, NA, 2L), 1L, 2L))
  cases$add("length-one NA test", ie, list(NA, 1, 2))
  for (k in c("complex", "Date", "factor", "list", "NULL")) {
    other <- switch(k, complex = 1i, Date = as.Date("2020-01-01"), factor = factor("a"),
                    list = list(1, 2), "NULL" = NULL)
    cases$add(paste("ifelse yes", k), function(t) ifelse(t, other, 1), list(c(TRUE, FALSE)))
    cases$add(paste("pmax with", k), function(x) pmax(x, other), list(c(1, 2)))
    cases$add(paste("pmin with", k, "na.rm"), function(x) pmin(x, other, na.rm = TRUE), list(c(1, NA)))
  }
  cases$add("pmax with character", function(x) pmax(x, "a"), list(c(1, 2)))
  cases$add("pmax na.rm = NA", function(x) pmax(x, 1, na.rm = NA), list(c(1, NA)))
  cases$add("pmax one argument", function(x) pmax(x), list(c(a = 1, b = NA)))
  cases$add("pmax one argument na.rm", function(x) pmax(x, na.rm = TRUE), list(c(a = 1, b = NA)))
  cases$add("pmax other attributes", function(x, y) pmax(x, y), list(structure(c(1, 5), foo = "bar"), c(2, 2)))
  cases$add("pmax first a matrix, second longer", function(x, y) pmax(x, y), list(matrix(1:4, 2), 1:8))
  cases$add("pmax zero-length among", function(x) pmax(x, numeric(0)), list(c(1, NA)))
  # Scans, diff and views of other types and classes (base R's results).
  cases$add("cumsum of complex", function(x) cumsum(x + 1i), list(c(1, 2)))
  cases$add("cummax of complex (error)", function(x) cummax(x + 0i), list(c(1, 2)))
  cases$add("cumsum of character", function(x) cumsum(c(x, "1")), list(c(1, 2)))
  cases$add("cumsum of a factor", function(x) cumsum(factor(x)), list(c(1, 2)))
  cases$add("cumsum of ts", function(x) cumsum(ts(x)), list(c(1, 2)))
  cases$add("diff of ts", function(x) diff(ts(x)), list(c(1, 4, 9)))
  for (f in c("cumsum", "diff", "rev")) {
    cases$add(paste(f, "other attributes"), f, list(structure(c(1, 4, 9), foo = "bar")))
  }
  cases$add("x[-1] other attributes", function(x) x[-1], list(structure(c(1, 4, 9), foo = "bar")))
  cases$add("head other attributes", function(x) head(x, -1), list(structure(c(1, 4, 9), foo = "bar")))
  cases$add("diff integer overflow", function(x) diff(x), list(c(big, -big, 0L)))
  cases$add("diff order 2 integer overflow", function(x) diff(x, differences = 2), list(c(big, 0L, big)))
  cases$add("diff logical order 2", function(x) diff(x, 1, 2), list(c(TRUE, NA, FALSE, TRUE)))
  ch("cumsum(diff(x)) integer", function(x) cumsum(diff(x)), list(c(big, -big, 0L)))
  ch("x[-1] * x[-n] integer", function(x) x[-1] * x[-length(x)], list(c(big, 2L, NA, 3L)))
  ch("cummax(x > 0)", function(x) cummax(x > 0), list(c(-1, 2, NA, -3)))
  ch("cumsum(!is.na(x))", function(x) cumsum(!is.na(x)), list(c(-1, 2, NA, -3)))
  expect_no_mismatches(cases, 550000)
})

test_that("long views of deferred expressions: blocks of 1, 7 and 1000 on 1 and 2 threads", {
  cases <- scan_cases("gufunc ?lazy views of deferred expressions")
  set.seed(9)
  x <- replace(round(rnorm(70000), 2), c(1, 65536, 65537), c(NA, NaN, -0))
  m <- matrix(x, 350, dimnames = list(paste0("r", 1:350), NULL))
  fs <- list(
    "(x * 2)[-1]" = function(x) (x * 2)[-1],
    "(x - 1) shifted" = function(x) (x - 1)[c(length(x), 1:(length(x) - 1))],
    "(x / 3)[seq(5, n - 3, by = 7)]" = function(x) (x / 3)[seq(5, length(x) - 3, by = 7)],
    "cumsum(x)[-1] - cumsum(x)[-n]" = function(x) cumsum(x)[-1] - cumsum(x)[-length(x)],
    "diff(cummax(x))" = function(x) diff(cummax(x)),
    "tail(x * 2, -65535)" = function(x) tail(x * 2, -65535),
    "ifelse(is.na(x), rev(x), x)" = function(x) ifelse(is.na(x), rev(x), x)
  )
  mf <- list(
    "(m * 2)[2:300, 10:190]" = function(m) (m * 2)[2:300, 10:190],
    "t(m + 1)" = function(m) t(m + 1),
    "(m - 1) shifted both ways" = function(m) (m - 1)[c(2:350, 1), c(200, 1:199)],
    "diff(t(m))" = function(m) diff(t(m)),
    "m[-1, ] - m[-350, ]" = function(m) m[-1, ] - m[-350, ],
    "ifelse(m > 0, m, t(t(-m)))" = function(m) ifelse(m > 0, m, t(t(-m)))
  )
  for (block in c(1L, 7L, 1000L)) {
    for (threads in 1:2) {
      with_options(list(gufunc.threads = threads, gufunc.block_size = block), {
        for (k in names(fs)) {
          cases$add(sprintf("%s (%d, %d)", k, threads, block), fs[[k]], list(x), distinct = TRUE,
                    min_length = 65536)
        }
        for (k in names(mf)) {
          cases$add(sprintf("%s (%d, %d)", k, threads, block), mf[[k]], list(m), distinct = TRUE,
                    min_length = 65536)
        }
      })
    }
  }
  expect_no_mismatches(cases, 5.4e6)
})
