# x[i, j] <- v where x is a lazy value whose values are computed, and nothing else
# refers to x, writes x's values in place, as base R writes a plain vector. Graphs
# made from x before the write still read x's old values (each reader that the
# write reaches gets a copy first). Anything that refers to x, or to its values,
# keeps base R's value semantics.

test_that("a subassignment writes a lazy value's own computed values in place", {
  m <- matrix(as.double(1:20000), 200)
  f <- function(m) {
    a <- lazy(m) * 1
    invisible(c(a))  # computes a's values
    a[2:50, 3:7] <- 0
    a[10, ] <- -1
    a[, 90] <- a[, 91] * 2  # a deferred value reading a
    a
  }
  in_place_counters()
  out <- f(m)
  expect_equal(in_place_counters()[1], 3)
  expected <- m * 1
  expected[2:50, 3:7] <- 0
  expected[10, ] <- -1
  expected[, 90] <- expected[, 91] * 2
  expect_identical(materialize(out), expected)
})

test_that("graphs made from x before an in-place write keep its old values", {
  m <- matrix(runif(80000), 400)
  f <- function(m) {
    a <- lazy(m) * 1
    invisible(c(a))
    v <- a[1:40, 1:40] # a view the write reaches
    u <- a[1:60, 11:30] + 1 # a deferred map over such a view
    d <- a[300:400, 100:150] # a view the write does not reach
    a[1:20, 1:20] <- 5
    list(a = a, v = v, u = u, d = d)
  }
  in_place_counters()
  r <- f(m)
  counters <- in_place_counters()
  expect_equal(counters[1], 1)
  # Copies of v's and u's elements; none of d's.
  expect_equal(counters[2], (40 * 40 + 60 * 20) * 8)
  before <- m * 1
  expect_identical(materialize(r$v), before[1:40, 1:40])
  expect_identical(materialize(r$u), before[1:60, 11:30] + 1)
  expect_identical(materialize(r$d), before[300:400, 100:150])
  after <- before
  after[1:20, 1:20] <- 5
  expect_identical(materialize(r$a), after)
})

test_that("an x that something else refers to is not written in place", {
  m <- matrix(runif(20000), 200)
  f <- function(m) {
    a <- lazy(m) * 1
    invisible(c(a))
    b <- a
    a[1:5, 1] <- 0 # R copies a first: b refers to it
    change <- function(z) {
      z[1:5, 2] <- 0
      z
    }
    h <- change(a)
    direct <- `[<-`(a, 1:5, 3, value = 0) # a called replacement function
    p <- materialize(a) # values handed out
    a[1:5, 4] <- 0
    list(a = a, b = b, h = h, direct = direct, p = p)
  }
  in_place_counters()
  r <- f(m)
  expect_equal(in_place_counters()[1], 0)
  base <- m * 1
  expect_identical(materialize(r$b), base)
  first <- base
  first[1:5, 1] <- 0
  expect_identical(r$p, first)
  h <- first
  h[1:5, 2] <- 0
  expect_identical(materialize(r$h), h)
  direct <- first
  direct[1:5, 3] <- 0
  expect_identical(materialize(r$direct), direct)
  last <- first
  last[1:5, 4] <- 0
  expect_identical(materialize(r$a), last)
})

test_that("subscripts that call functions still let x be written in place", {
  # seq() makes a complex assignment (storage.mode(by) <- "double"): byte code
  # then counts x, on its stack, once more until `[<-` returns.
  m <- matrix(runif(20000), 200)
  steps <- function(a) {
    for (i in 1:4) a[seq(1, 199, by = 2), 2:99] <- a[seq(2, 200, by = 2), 1:98] * 0.5 + i
    for (i in 1:3) a[seq(2, 200, by = 2), rev(3:40)] <- i
    a
  }
  for (f in list(compiler::cmpfun(steps), steps)) {
    a <- lazy(m) * 1
    invisible(c(a))
    in_place_counters()
    out <- f(a)
    expect_equal(in_place_counters()[1], 6) # (the first copies a: the caller's too)
    expect_identical(materialize(out), f(m * 1))
  }
  # One that keeps x still has it copied first.
  kept_by_seq <- compiler::cmpfun(function(a) {
    kept <- NULL
    a[seq({ kept <- a; 1 }, 199, by = 2), 2] <- -1
    list(a = a, kept = kept)
  })
  a <- lazy(m) * 1
  invisible(c(a))
  in_place_counters()
  r <- kept_by_seq(a)
  expect_equal(in_place_counters()[1], 0)
  expect_identical(materialize(r$kept), m * 1)
  expect_identical(materialize(r$a), kept_by_seq(m * 1)$a)
})

test_that("an operand of an operator or a math function can still be written in place", {
  # Base R's operators leave an operand's reference count as it was; gufunc's
  # methods gather operands in lists, which R would count for good.
  m <- matrix(runif(200000), 1000)
  f <- function(m) {
    a <- lazy(m) * 1
    invisible(c(a))
    # (Computed now: a graph still reading a would take a copy of all of it.)
    b <- materialize(a * 2)
    d <- materialize(-a)
    e <- materialize(a > 0.5)
    g <- materialize(exp(a))
    h <- materialize(pmax(a, 0.5))
    a[1:5, 1] <- 0
    list(a = a, b = b, d = d, e = e, g = g, h = h)
  }
  in_place_counters()
  r <- f(m)
  expect_equal(in_place_counters()[1], 1)
  expected <- m * 1
  expect_identical(r$b, expected * 2)
  expect_identical(r$d, -expected)
  expect_identical(r$e, expected > 0.5)
  expect_identical(r$g, exp(expected))
  expect_identical(r$h, pmax(expected, 0.5))
  expected[1:5, 1] <- 0
  expect_identical(materialize(r$a), expected)
})

test_that("lazy(m) is never written in place: m stays as it is", {
  m <- matrix(runif(20000), 200)
  keep <- m + 0
  f <- function(a) {
    for (k in 1:3) a[1:5, k] <- 0
    a
  }
  out <- f(lazy(m))
  expect_identical(m, keep)
  keep[1:5, 1:3] <- 0
  expect_identical(materialize(out), keep)
})

test_that("R's own writes into a lazy value leave the graphs made from it as they were", {
  m <- matrix(runif(20000), 200)
  f <- function(m) {
    y <- unclass(lazy(m) * 1) # a lazy vector without the class: R's `[<-` writes it
    invisible(c(y))
    w <- lazy(y) + 1 # reads y's values
    y[1:5] <- 0
    list(y = y, w = w)
  }
  in_place_counters()
  r <- f(m)
  expect_equal(in_place_counters()[2], 20000 * 8) # w's reader copied whole
  expect_identical(materialize(r$w), m * 1 + 1)
  y <- m * 1
  y[1:5] <- 0
  expect_identical(r$y, y)
})

test_that("the value's warnings are raised when it is written in place", {
  m <- matrix(runif(20000), 200)
  f <- function(m) {
    a <- lazy(m) * 1
    invisible(c(a))
    a[1:4, 1] <- log(lazy(c(-1, 1, 2, 3)) - 10)
    a
  }
  in_place_counters()
  expect_warning(out <- f(m), "NaNs produced")
  expect_equal(in_place_counters()[1], 1)
  expected <- m * 1
  expected[1:4, 1] <- suppressWarnings(log(c(-1, 1, 2, 3) - 10))
  expect_identical(materialize(out), expected)
})

test_that("a value of double arithmetic is computed straight into x", {
  withr::local_options(gufunc.lazy_min_length = 1000) # values of 1000 elements are deferred
  m <- matrix(runif(200000) - 0.5, 1000)
  f <- function(m) {
    a <- lazy(m) * 1
    invisible(c(a))
    kept <- a[101:160, 11:60] # a view the writes reach, bound to a name
    # Reads the positions it writes, and other elements of a.
    a[101:160, 11:60] <- a[101:160, 11:60] * 2 - a[101:160, 1] / 3
    value <- a[1:40, 1:50] - 1 # kept as a name too: it reads a's old values later
    a[1:40, 1:50] <- value
    # A shifted read: base R's copy, not a running sum.
    a[2:61, 70:119] <- a[1:60, 70:119] + 1
    list(a = a, kept = kept, value = value)
  }
  in_place_counters()
  r <- f(m)
  counters <- in_place_counters()
  expect_equal(counters[c(1, 3)], c(3, 3))
  b <- m * 1
  old <- b
  b[101:160, 11:60] <- b[101:160, 11:60] * 2 - b[101:160, 1] / 3
  value <- b[1:40, 1:50] - 1
  b[1:40, 1:50] <- value
  b[2:61, 70:119] <- b[1:60, 70:119] + 1
  expect_identical(materialize(r$a), b)
  expect_identical(materialize(r$kept), old[101:160, 11:60])
  expect_identical(materialize(r$value), value)
})

test_that("a value that may warn is computed before x is written", {
  withr::local_options(gufunc.lazy_min_length = 1000)
  m <- matrix(as.double(1:200000), 1000)
  f <- function(m, op) {
    a <- lazy(m) * 1
    invisible(c(a))
    a[1:60, 1:50] <- op(a[1:60, 1:50])
    a
  }
  cases <- list(
    function(v) v %% 7, # %% of doubles may warn
    function(v) exp(v / 1e5), # math functions
    function(v) v^2 # not flagged as never failing
  )
  for (k in seq_along(cases)) {
    in_place_counters()
    out <- f(m, cases[[k]])
    counters <- in_place_counters()
    expect_equal(counters[c(1, 3)], c(1, 0), info = k)
    expected <- m * 1
    expected[1:60, 1:50] <- cases[[k]](expected[1:60, 1:50])
    expect_identical(materialize(out), expected, info = k)
  }
  # One that warns goes into a new version (the warning comes first).
  in_place_counters()
  expect_warning(out <- f(m, function(v) sqrt(v - 10)), "NaNs produced")
  expect_equal(in_place_counters()[c(1, 3)], c(0, 0))
  expected <- m * 1
  expected[1:60, 1:50] <- suppressWarnings(sqrt(expected[1:60, 1:50] - 10))
  expect_identical(materialize(out), expected)
})

test_that("Gaussian elimination on a lazy matrix is base R's, most steps in place", {
  # The benchmark's program (inst/benchmarks/programs/gauss.R), on a smaller matrix.
  program <- new.env()
  sys.source(system.file("benchmarks", "programs", "gauss.R", package = "gufunc"), program)
  gauss <- program$gauss$run
  set.seed(3)
  n <- 120
  m <- matrix(runif(n * n), n) + diag(n, n)
  for_engine_settings({
    in_place_counters()
    expect_identical(materialize(gauss(lazy(m))), gauss(m))
    expect_gt(in_place_counters()[1], n / 2) # the steps on at most half of the matrix
  })
})

test_that("a long loop of in-place writes keeps memory and the graph bounded", {
  m <- matrix(runif(40000), 200)
  f <- function(m, steps) {
    a <- lazy(m) * 1
    invisible(c(a))
    for (k in seq_len(steps)) a[k %% 200 + 1, 1:50] <- k
    a
  }
  in_place_counters()
  out <- f(m, 10000)
  expect_equal(in_place_counters()[1], 10000)
  # One vector of values, written 10000 times: no chain of versions behind it.
  expect_true(is_materialized(out))
  expected <- m * 1
  for (k in seq_len(10000)) expected[k %% 200 + 1, 1:50] <- k
  expect_identical(materialize(out), expected)
})

test_that("a repetition kept across an in-place write reads x's old values, copied once", {
  withr::local_options(gufunc.lazy_min_length = 1000)
  withr::local_seed(5)
  v <- runif(1e5)
  f <- function(v) {
    x <- lazy(v) * 1
    invisible(c(x)) # computed: its values are its own
    r <- rep(x[1:2000], each = 3) # a view reading each element three times
    x[1:3000] <- 0
    list(x = x, r = r, again = r * 2)
  }
  in_place_counters()
  got <- f(v)
  counters <- in_place_counters()
  base <- v * 1
  expect_identical(materialize(got$r), rep(base[1:2000], each = 3))
  expect_identical(materialize(got$again), rep(base[1:2000], each = 3) * 2)
  base[1:3000] <- 0
  expect_identical(materialize(got$x), base)
  expect_equal(counters[1], 1) # written in place
  # The 2000 elements the repetition reads, once each (not 6000), and the same
  # for the view x[1:2000] if it was not collected yet.
  expect_gte(counters[2], 2000 * 8)
  expect_lte(counters[2], 2 * 2000 * 8)
})

test_that("operands made for one Math or Summary call give their graphs away, bound ones do not", {
  withr::local_seed(4)
  x <- runif(3e5)
  w <- runif(3e5)
  # The views and differences of a sum are garbage once it is computed: nothing
  # reads a afterwards, and a[-1] <- 0 writes a in place, interpreted or compiled.
  step <- function(a, b) {
    a <- a * 1
    b <- b * 1
    invisible(c(a))
    invisible(c(b))
    s <- sum(abs(a[-1] - b[-1]))
    a[-1] <- 0
    list(a = materialize(a), s = s)
  }
  expected <- list(a = c(x[1], numeric(3e5 - 1)), s = sum(abs(x[-1] - w[-1])))
  for (f in list(step, compiler::cmpfun(step))) {
    in_place_counters()
    expect_identical(f(lazy(x), lazy(w)), expected)
    expect_equal(in_place_counters()[1], 1)
  }
  # Operands that something else refers to keep their values: a promise read again,
  # a bound variable, a list's element.
  again <- function(v) {
    s <- sum(v)
    m <- max(abs(v))
    list(s, m, materialize(v), materialize(exp(v)))
  }
  for (f in list(again, compiler::cmpfun(again))) {
    expect_identical(f(lazy(x) * 2), list(sum(x * 2), max(abs(x * 2)), x * 2, exp(x * 2)))
    v <- lazy(w) - 1
    expect_identical(f(v), list(sum(w - 1), max(abs(w - 1)), w - 1, exp(w - 1)))
    expect_identical(materialize(v), w - 1)
    l <- list(p = lazy(x) / 3)
    expect_identical(c(sum(l$p), range(abs(l$p))), c(sum(x / 3), range(x / 3)))
    expect_identical(materialize(l$p), x / 3)
  }
})
