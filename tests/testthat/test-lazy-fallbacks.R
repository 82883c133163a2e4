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
  g <- gamma(x)
  g <- gamma(x)
  e <- pmax(x, 0.5)
  counts <- lazy_fallbacks()
  expect_identical(counts[["data pointer"]], 1L)
  expect_identical(counts[["gamma"]], 2L)
  expect_identical(counts[["pmax"]], 1L)
  expect_identical(names(counts)[1], "gamma") # largest first
  expect_identical(lazy_fallbacks(reset = TRUE), counts)
  expect_length(lazy_fallbacks(), 0)
  expect_error(lazy_fallbacks(reset = NA), "reset", class = "gufunc_argument_error")
})

test_that("a loop of small subassignments is deferred a few times, then base R's", {
  h <- matrix(runif(2500), 50)
  H <- lazy(h)
  kinds <- character(20)
  for (i in 1:20) {
    H[, 1] <- H[, i + 1]
    kinds[i] <- if (is_lazy(H)) "lazy" else "plain"
  }
  base <- h
  for (i in 1:20) base[, 1] <- base[, i + 1]
  expect_identical(H, base)
  # 16 writes wait in one chain; the next is made by base R on the computed values,
  # and base R changes its plain result in place from then on.
  expect_identical(kinds, rep(c("lazy", "plain"), c(16, 4)))
  H2 <- lazy(h)
  H2[[3]] <- 0
  base2 <- h
  base2[[3]] <- 0
  expect_identical(H2, base2)
  expect_identical(h, materialize(lazy(h))) # the input is unchanged
})

test_that("writing most of a lazy value keeps the new version lazy, with value semantics", {
  withr::local_options(gufunc.lazy_min_length = 1)
  g <- matrix(runif(50 * 100), 50)
  L <- lazy(g)
  before <- L
  center <- L[2:49, 2:99] # a view of the old version
  L[2:49, 2:99] <- center * 2
  expect_true(is_lazy(L))
  expected <- g
  expected[2:49, 2:99] <- g[2:49, 2:99] * 2
  expect_identical(materialize(L), expected)
  expect_identical(materialize(center), g[2:49, 2:99]) # unchanged
  expect_identical(materialize(before), g)
  expect_identical(g, materialize(lazy(g)))
  # A small write is deferred too.
  L[1, ] <- 0
  expect_true(is_lazy(L))
  expected[1, ] <- 0
  expect_identical(materialize(L), expected)
  # A Jacobi loop stays lazy and gives base R's grid.
  jacobi <- function(grid, steps) {
    for (i in seq_len(steps)) {
      work <- 0.25 * (grid[1:48, 2:99] + grid[3:50, 2:99] + grid[2:49, 1:98] + grid[2:49, 3:100])
      grid[2:49, 2:99] <- work
    }
    grid
  }
  got <- jacobi(lazy(g), 5)
  expect_true(is_lazy(got))
  expect_identical(materialize(got), jacobi(g, 5))
})
