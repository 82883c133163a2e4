# lazy(), is_lazy(), materialize(): the bridge into engine space and back, and
# what a lazy value looks like to base R before anything is computed.

test_that("lazy() keeps values, type and attributes; materialize() gives them back", {
  inputs <- list(
    double = c(1.5, NA, -0, Inf),
    integer = c(a = 1L, b = NA, c = .Machine$integer.max),
    logical = c(TRUE, NA, FALSE),
    matrix = matrix(1:6, 2, dimnames = list(c("r", "s"), c("x", "y", "z"))),
    array = array(runif(24), c(2, 3, 4)),
    other_attribute = structure(1:3, note = "kept"),
    empty = numeric(0)
  )
  for (x in inputs) {
    z <- lazy(x)
    expect_true(is_lazy(z))
    expect_s3_class(z, "gufunc_lazy")
    expect_identical(typeof(z), typeof(x))
    expect_identical(length(z), length(x))
    expect_identical(dim(z), dim(x))
    expect_identical(dimnames(z), dimnames(x))
    expect_identical(names(z), names(x))
    expect_identical(materialize(z), x)
  }
})

test_that("lazy() of a lazy value is that value; other input is an error naming `x`", {
  z <- lazy(1:3)
  expect_identical(lazy(z), z)
  for (bad in list("a", 1i, factor("a"), Sys.Date(), list(1), NULL, as.raw(1))) {
    expect_error(lazy(bad), "argument `x`", class = "gufunc_type_error")
  }
})

test_that("materialize() and is_lazy() of plain objects", {
  for (x in list(1:3, "a", NULL, list(1), factor("b"))) {
    expect_false(is_lazy(x))
    expect_identical(materialize(x), x)
  }
})

test_that("an expression is deferred until its values are needed", {
  a <- runif(5000)
  b <- runif(5000)
  z <- sqrt(lazy(a) * b + 1)
  expect_true(is_lazy(z))
  expect_false(is_materialized(z))
  expect_identical(length(z), 5000L)
  expect_identical(typeof(z), "double")
  expect_false(is_materialized(z))
  expect_identical(materialize(z), sqrt(a * b + 1))
  expect_true(is_materialized(z))
  expect_identical(materialize(z), sqrt(a * b + 1))
})

test_that("base R functions see the values: computed once, on first access", {
  a <- runif(4000)
  z <- lazy(a) * 2
  expect_identical(sort(z), sort(a * 2))
  expect_true(is_materialized(z))
  expect_identical(materialize(rev(z)), rev(a * 2)) # a view (test-lazy-transpose.R)
  expect_identical(materialize(diff(z)), diff(a * 2))
  expect_identical(materialize(cumsum(z)), cumsum(a * 2))
  expect_identical(materialize(as.vector(z)), a * 2) # lazy: test-lazy-coerce.R
  expect_identical(unclass(z), a * 2)
})

test_that("creating an expression over 1e7 elements computes and allocates nothing", {
  skip_if_not_installed("bench")
  skip_if_not(capabilities("profmem"))
  a <- lazy(runif(1e7))
  b <- runif(1e7)
  bytes <- sum(bench::bench_memory(z <- sqrt(a * a + b) * 2 + 1)$mem_alloc)
  # A few small objects (nodes, lists); one materialized double would be 80 MB.
  expect_lt(as.numeric(bytes), 1e5)
  expect_false(is_materialized(z))
  expect_identical(length(z), 1e7L)
})

test_that("on a matrix too: attributes, dim<- and head() allocate nothing of its size", {
  skip_if_not_installed("bench")
  skip_if_not(capabilities("profmem"))
  m <- matrix(runif(1e7), 1e4, dimnames = list(NULL, paste0("c", 1:1e3)))
  a <- lazy(m)
  v <- lazy(runif(1e7))
  # Base R's attribute rules run on a stand-in 1:n; 40 MB if it were expanded.
  bytes <- sum(bench::bench_memory({
    z <- sqrt(a * 2 + a) - 1
    dim(v) <- c(1e3, 1e4)
    h <- head(z)
    s <- z[500, 1:5]
  })$mem_alloc)
  expect_lt(as.numeric(bytes), 1e6)
  expect_false(is_materialized(z))
  expect_identical(h, head(sqrt(m * 2 + m) - 1))
  expect_identical(s, (sqrt(m * 2 + m) - 1)[500, 1:5])
  expect_identical(dim(v), c(1e3L, 1e4L))
})

test_that("operands are viewed in place, and R copies them before any change", {
  a <- runif(3000)
  b <- runif(3000)
  expected <- a + b
  z <- lazy(a) + b
  b[1] <- 100
  a[2] <- -1
  expect_identical(materialize(z), expected)
  y <- materialize(z)
  y[3] <- 0
  z2 <- z
  z2[4] <- 0
  expect_identical(z2[4], 0)
  expect_identical(materialize(z), expected)
  w <- z * 1 # reads the values z cached
  z[5] <- 0
  expect_identical(materialize(w), expected)
  expect_identical(z[5], 0)
})
