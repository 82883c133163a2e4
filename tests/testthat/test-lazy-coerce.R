# as.vector() and as.double()/as.integer()/as.logical() of lazy values: base R's
# values and attributes; lazy where only attributes change or integers become
# doubles.

test_that("conversions give base R's values and keep the value lazy where they can", {
  m <- matrix(runif(3000), 30, dimnames = list(letters[1:30], NULL))
  i <- matrix(sample(c(1:9, NA), 3000, TRUE), 30)
  l <- i > 4
  for_engine_settings({
    for (v in list(m, i, l)) {
      y <- lazy(v) * 1L # deferred, of the type of v * 1L
      base <- v * 1L
      for (convert in list(as.vector, as.double, as.numeric,
                           function(z) as.vector(z, "numeric"),
                           function(z) as.vector(z, "double"))) {
        got <- convert(y)
        expect_true(is_lazy(got))
        expect_identical(materialize(got), convert(base))
      }
      expect_identical(materialize(as.vector(lazy(v))), as.vector(v))
    }
    expect_true(is_lazy(as.integer(lazy(i))))
    expect_identical(materialize(as.integer(lazy(i))), as.integer(i))
    expect_identical(materialize(as.logical(lazy(l))), as.logical(l))
  })
  # Conversions that need a kernel gufunc has not: base R's, plain.
  y <- lazy(m) * 3
  expect_identical(as.integer(y), as.integer(m * 3))
  expect_identical(as.logical(y), as.logical(m * 3))
  expect_identical(as.vector(y, "list"), as.vector(m * 3, "list"))
  expect_identical(as.vector(y, "character"), as.vector(m * 3, "character"))
  expect_identical(as.vector(lazy(i), "logical"), as.vector(i, "logical"))
})

test_that("integers and logicals converted to double keep NA_real_'s own bits", {
  bits <- function(x) readBin(writeBin(x, raw()), "raw", 8)
  v <- c(1L, NA, rep(3L, 80000))
  l <- c(TRUE, NA, rep(FALSE, 80000))
  expect_identical(bits(materialize(as.numeric(lazy(v)))[2]), bits(as.numeric(v)[2]))
  expect_identical(bits(materialize(as.double(lazy(l)))[2]), bits(as.double(l)[2]))
  expect_true(is_lazy(as.numeric(lazy(v))))
  x <- lazy(as.numeric(1:80000))
  x[1:2] <- c(NA, 5L)
  y <- as.numeric(1:80000)
  y[1:2] <- c(NA, 5L)
  expect_identical(bits(materialize(x)[1]), bits(y[1]))
})

test_that("a conversion's warning names the call base R's would name", {
  # R's primitive conversions name the function running (none at top level).
  withr::local_options(gufunc.lazy_min_length = 0)
  # The call of the warning of code(y), y being x or lazy(x).
  call_of <- function(x, code) {
    y <- x
    tryCatch(eval(code), warning = function(w) conditionCall(w))
  }
  f <- function(v) as.integer(v)
  cases <- list(quote(f(y)), quote(as.integer(y)), quote(sapply(list(y), as.integer)),
                quote(vapply(list(y), function(v) sum(as.integer(v), na.rm = TRUE), 1L)))
  for (x in list(c(1e10, 1), c(NaN, 3e9))) {
    for (code in cases) {
      expect_identical(call_of(lazy(x), code), call_of(x, code), label = deparse(code))
    }
  }
  expect_identical(call_of(lazy(3e9), quote(f(y))), quote(f(y)))
})
