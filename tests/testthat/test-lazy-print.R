# print() of lazy matrices and arrays: base R's matrix print of the top-left
# corner, computing only the values shown; lazy_state().

test_that("a large lazy matrix prints its top-left corner as base R prints it", {
  m <- matrix(runif(3e5), 1e5)
  z <- lazy(m) * 2
  out <- withr::with_options(list(width = 80), capture.output(print(z)))
  expect_identical(out[1], "<gufunc_lazy double[100000 x 3], deferred>")
  expect_identical(out[2:12], capture.output(print((m * 2)[1:10, ])))
  expect_identical(out[13], "# ... 99,990 more rows")
  expect_length(out, 13)
  expect_identical(lazy_state(z), "deferred")
})

test_that("columns that do not fit the width are left out and counted", {
  m <- matrix(rnorm(50 * 1000), 50, dimnames = list(paste0("row", 1:50), paste0("c", 1:1000)))
  z <- lazy(m) + 1
  for (width in c(40, 80, 150)) {
    out <- withr::with_options(list(width = width), capture.output(print(z)))
    shown <- out[2:12]
    expect_true(all(nchar(shown) <= width))
    cols <- length(strsplit(trimws(shown[1]), " +")[[1]])
    expect_identical(shown, withr::with_options(list(width = width),
                                                capture.output(print((m + 1)[1:10, 1:cols]))))
    expect_identical(out[13], sprintf("# ... 40 more rows, %d more columns", 1000 - cols))
  }
  expect_false(is_materialized(z))
})

test_that("an array prints the corner of its first slice with base R's label", {
  a <- array(1:60000, c(10, 20, 300),
             dimnames = list(A = letters[1:10], B = NULL, C = paste0("k", 1:300)))
  z <- lazy(a) > 5L
  out <- withr::with_options(list(width = 200), capture.output(print(z)))
  expect_identical(out[2], ", , C = k1")
  expect_identical(out[4:15], withr::with_options(list(width = 200),
                                                  capture.output(print((a > 5L)[, , 1]))))
  expect_identical(out[16], "# ... 299 more slices")
  v <- array(runif(2e5), c(100, 20, 10, 10))
  b <- lazy(v) * 1
  out <- withr::with_options(list(width = 200), capture.output(print(b)))
  expect_identical(out[2], ", , 1, 1")
  cols <- length(strsplit(trimws(out[4]), " +")[[1]])
  expect_identical(out[4:14], withr::with_options(list(width = 200),
                                                  capture.output(print(v[1:10, 1:cols, 1, 1]))))
  expect_identical(out[length(out)],
                   sprintf("# ... 90 more rows, %d more columns, 99 more slices", 20L - cols))
  expect_false(is_materialized(b))
})

test_that("small matrices print whole, logical and integer ones too", {
  withr::with_options(list(gufunc.lazy_min_length = 0), {
    m <- lazy(matrix(1:50, 5)) + 0L
    out <- capture.output(print(m))
    expect_identical(out[-1], capture.output(print(matrix(1:50, 5))))
    l <- lazy(matrix(1:1000, 10)) > 500L
    out <- withr::with_options(list(width = 80), capture.output(print(l)))
    expect_identical(out[2:12], withr::with_options(list(width = 80),
                                                    capture.output(print((matrix(1:1000, 10) > 500L)[, 1:12]))))
    expect_identical(out[13], "# ... 88 more columns")
  })
})

test_that("lazy_state() tells deferred, materialized and failed values apart", {
  a <- lazy(runif(5000))
  expect_identical(lazy_state(a), "materialized")
  b <- sqrt(a) + 1
  expect_identical(lazy_state(b), "deferred")
  s <- sum(b)
  expect_identical(lazy_state(b), "deferred")
  invisible(materialize(b))
  expect_identical(lazy_state(b), "materialized")
  expect_error(lazy_state(1:3), class = "gufunc_type_error")
  expect_error(lazy_state(1:3), "`x` must be a lazy value")
})

test_that("plain data that a base R function gave the class prints as the plain value", {
  x <- c(a = 1, b = 2.5)
  y <- stats::dnorm(lazy(x)) # copies x's attributes, class included
  expect_false(is_lazy(y))
  expect_identical(capture.output(print(y)), capture.output(print(stats::dnorm(x))))
  m <- matrix(c(0.5, 1, 2, 4), 2)
  expect_identical(capture.output(print(stats::pnorm(lazy(m)))),
                   capture.output(print(stats::pnorm(m))))
})

test_that("empty lazy values print base R's numeric(0) or column labels", {
  out <- capture.output(print(lazy(numeric(0))))
  expect_identical(out[-1], capture.output(print(numeric(0))))
  out <- capture.output(print(lazy(matrix(0, 0, 3))))
  expect_identical(out[-1], capture.output(print(matrix(0, 0, 3))))
})
