# Whatever the engine does not know falls back to base R, with base R's result.

test_that("functions without a lazy method see the values", {
  a <- runif(5000)
  z <- lazy(a) * 2
  ref <- a * 2
  expect_identical(median(z), median(ref))
  expect_identical(quantile(z), quantile(ref))
  expect_identical(var(z), var(ref))
  expect_identical(which.max(z), which.max(ref))
  expect_identical(table(z > 1), table(ref > 1))
  # ifelse() keeps the attributes of its test: here the class, on plain values.
  expect_identical(materialize(ifelse(z > 1, z, 0)), ifelse(ref > 1, ref, 0))
})

test_that("functions the engine does not map give base R's result", {
  a <- runif(5000) * 10
  z <- lazy(a)
  expect_identical(besselJ(z, 1), besselJ(a, 1))
  expect_identical(trunc(z, 1), trunc(a, 1))
  expect_identical(choose(z, 2), choose(a, 2))
  expect_false(is_lazy(besselJ(z, 1)))
})

test_that("character, complex, factor and Date operands are base R's business", {
  i <- sample.int(5L, 3000, TRUE)
  z <- lazy(i)
  expect_identical(z == "3", i == "3")
  expect_identical(paste0(z[1:3], "x"), paste0(i[1:3], "x"))
  expect_identical(as.character(z), as.character(i))
  expect_identical(base_outcome(z + "a"), base_outcome(i + "a"))
  expect_identical(z + 1i, i + 1i)
  expect_identical(factor(z), factor(i))
  expect_identical(levels(factor(z)), as.character(1:5))
  days <- lazy(as.numeric(i))
  class(days) <- "Date" # a Date now: base R's methods only
  expect_identical(format(days), format(.Date(as.numeric(i))))
  expect_identical(days + 1, .Date(as.numeric(i)) + 1)
  expect_identical(diff(days), diff(.Date(as.numeric(i))))
  expect_error(lazy(factor(i)), class = "gufunc_type_error")
  expect_error(lazy(Sys.Date()), class = "gufunc_type_error")
})

test_that("Ops with a Date, difftime or factor give base R's result", {
  # Ops.gufunc_lazy as R >= 4.3 runs it when chooseOpsMethod() picks it over the
  # other operand's method (R < 4.3 warns about incompatible methods instead).
  ops <- function(op, e1, e2) {
    method <- gufunc:::Ops.gufunc_lazy
    environment(method) <- list2env(list(.Generic = op), parent = environment(method))
    method(e1, e2)
  }
  x <- as.numeric(sample.int(100L, 3000, TRUE))
  z <- lazy(x)
  d <- .Date(17000 + seq_len(3000))
  dt <- as.difftime(rep(3, 3000), units = "days")
  f <- factor(sample(letters, 3000, TRUE))
  expect_identical(ops("+", z, d), x + d)
  expect_identical(ops("+", d, z), d + x)
  expect_identical(ops("-", d, z), d - x)
  expect_identical(ops("*", z, dt), x * dt)
  expect_identical(base_outcome(ops("==", z, f)), base_outcome(x == f))
  expect_true(gufunc:::chooseOpsMethod.gufunc_lazy(z, d, NULL, NULL, NULL, FALSE))
  skip_if(getRversion() < "4.3.0", "chooseOpsMethod() needs R >= 4.3")
  expect_no_warning(z + d)
  expect_identical(z + d, x + d)
  expect_identical(d + z, d + x)
  expect_identical(z * dt, x * dt)
})

test_that("general recycling gives base R's result and warning", {
  a <- runif(3000)
  z <- lazy(a)
  # Lengths that divide the longer one recycle through a view and stay lazy
  # (test-lazy-recycle.R); the others are base R's, with its warning.
  expect_true(is_lazy(z + c(1, 2, 3)))
  expect_identical(materialize(z + c(1, 2, 3)), a + c(1, 2, 3))
  expect_identical(base_outcome(z * 1:7), base_outcome(a * 1:7))
  expect_false(is_lazy(suppressWarnings(z * 1:7)))
  expect_identical(base_outcome(lazy(1:7) < z), base_outcome(1:7 < a))
})

test_that("small inputs are computed at once", {
  x <- lazy(runif(10))
  y <- x * 0.5 + 1
  expect_false(is_lazy(y))
  expect_identical(y, materialize(x) * 0.5 + 1)
  expect_false(is_lazy(sqrt(lazy(c(a = 4, b = 9)))))
  expect_identical(sqrt(lazy(c(a = 4, b = 9))), c(a = 2, b = 3))
  expect_identical(sum(lazy(1:10)), 55L)
  # The issue's loop: the first operation makes x plain, the rest is base R.
  x <- lazy(runif(10))
  expected <- materialize(x)
  for (i in 1:1e4) {
    x <- x * 0.5 + 1
    expected <- expected * 0.5 + 1
  }
  expect_identical(x, expected)
  with_options(list(gufunc.lazy_min_length = 5), expect_true(is_lazy(lazy(1:5) + 1L)))
  with_options(list(gufunc.lazy_min_length = NULL), {
    # Computed at once below the threshold (a lazy value with its values at hand).
    expect_identical(lazy_state(lazy(runif(65535)) * 2), "materialized")
    expect_identical(lazy_state(lazy(runif(65536)) * 2), "deferred")
    expect_identical(lazy_state(lazy(runif(65536)) + runif(1)), "deferred")
    expect_identical(lazy_state(sqrt(lazy(runif(65535)))), "materialized")
  })
  for (bad in list("a", -1, NA, c(1, 2))) {
    with_options(list(gufunc.lazy_min_length = bad), {
      expect_error(lazy(runif(10)) * 2, "gufunc.lazy_min_length", class = "gufunc_argument_error")
    })
  }
})

test_that("base R's subassignment reads the values of many lazy vectors element by element", {
  # R reads a lazy value through Elt, one call per element; the last vector's data
  # is remembered between calls and forgotten when that vector goes away or changes.
  u <- runif(70000)
  a <- array(0, c(350, 200, 3))
  want <- a
  for (k in 1:30) {
    v <- lazy(u) * 2 + k
    i <- k %% 3 + 1
    a[, , i] <- v
    want[, , i] <- u * 2 + k
    expect_identical(a, want)
    if (k %% 7 == 0) {
      rm(v)
      invisible(gc())
    }
  }
  # Lazy vectors collected one after the other: a new one may get the address of
  # the last one read (the remembered data are forgotten when a lazy vector is made).
  w <- runif(20000)
  b <- numeric(20000)
  for (k in 1:100) {
    v <- lazy(w) + k
    materialize(v)
    b[] <- v
    expect_identical(b, w + k)
    rm(v)
    invisible(gc(full = FALSE))
  }
  # A duplicate of a materialized value shares its values until C code writes into
  # it: the written copy and the original each read their own values.
  m <- lazy(u) + 1
  materialize(m)
  m2 <- m
  b <- numeric(70000)
  b[] <- m
  m2[5] <- -1
  b2 <- numeric(70000)
  b2[] <- m2
  b[] <- m
  expect_identical(b, u + 1)
  expect_identical(b2[5], -1)
  expect_identical(b2[-5], (u + 1)[-5])
})
