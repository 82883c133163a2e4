# lazy_fallbacks(): which calls handed lazy values to base R.

test_that("lazy_fallbacks() counts the calls that gave lazy values to base R", {
  withr::local_options(gufunc.lazy_min_length = 1)
  lazy_fallbacks(reset = TRUE)
  expect_identical(lazy_fallbacks(), structure(integer(0), names = character(0)))
  x <- lazy(runif(1000))
  y <- x * 2 + 1
  s <- sum(y)
  v <- materialize(y[-1])
  expect_length(lazy_fallbacks(), 0) # all in the engine
  m <- matrix(x * 3, 10) # base R reads the deferred product's data
  na <- is.na(x)
  na <- is.na(x)
  e <- ifelse(x > 0.5, 1, 0)
  counts <- lazy_fallbacks()
  expect_identical(counts[["data pointer"]], 1L)
  expect_identical(counts[["is.na"]], 2L)
  expect_identical(counts[["ifelse"]], 1L)
  expect_identical(names(counts)[1], "is.na") # largest first
  expect_identical(lazy_fallbacks(reset = TRUE), counts)
  expect_length(lazy_fallbacks(), 0)
  expect_error(lazy_fallbacks(reset = NA), "reset", class = "gufunc_argument_error")
})

test_that("subassignment on a lazy value copies it once, as base R does", {
  h <- matrix(runif(2500), 50)
  H <- lazy(h)
  for (i in 1:20) H[, 1] <- H[, i + 1]
  base <- h
  for (i in 1:20) base[, 1] <- base[, i + 1]
  expect_identical(H, base)
  expect_false(inherits(H, "gufunc_lazy"))
  H2 <- lazy(h)
  H2[[3]] <- 0
  base2 <- h
  base2[[3]] <- 0
  expect_identical(H2, base2)
  expect_identical(h, materialize(lazy(h))) # the input is unchanged
})
