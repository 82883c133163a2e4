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
  g <- choose(x, 2)
  g <- choose(x, 3)
  e <- besselJ(x, 1)
  counts <- lazy_fallbacks()
  expect_identical(counts[["data pointer"]], 1L)
  expect_identical(counts[["choose"]], 2L)
  expect_identical(counts[["besselJ"]], 1L)
  expect_identical(names(counts)[1], "choose") # largest first
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
  # The first small write waits in a chain; the next writes the same column again,
  # a loop of small writes: it is made by base R on the computed values, and base R
  # changes its plain result in place from then on.
  expect_identical(kinds, rep(c("lazy", "plain"), c(1, 19)))
  # Small writes to different places: 5 wait in one chain, then base R's.
  G <- lazy(h)
  kinds <- character(8)
  for (i in 1:8) {
    G[, i] <- G[, i + 10]
    kinds[i] <- if (is_lazy(G)) "lazy" else "plain"
  }
  expect_identical(kinds, rep(c("lazy", "plain"), c(5, 3)))
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

test_that("base R's subassignment on a deferred value computes it straight into the copy", {
  m <- matrix(runif(4000), 100, dimnames = list(NULL, paste0("c", 1:40)))
  lm <- lazy(m) * 2 - 1
  y <- lm
  y[cbind(c(1, 5, 2), c(1, 1, 3))] <- c(-5, -6, -7)  # irregular positions: base R's
  base <- m * 2 - 1
  base[cbind(c(1, 5, 2), c(1, 1, 3))] <- c(-5, -6, -7)
  expect_false(is_lazy(y))
  expect_identical(y, base)
  expect_false(is_materialized(lm))  # computed into y, not cached in lm
  expect_identical(materialize(lm), m * 2 - 1)
  # A deferred warning comes with the copy, once.
  u <- c(-1, runif(1999))
  z <- sqrt(lazy(u))
  expect_warning(z[c(TRUE, FALSE)] <- 0, "NaNs produced")
  base <- suppressWarnings(sqrt(u))
  base[c(TRUE, FALSE)] <- 0
  expect_identical(z, base)
})

test_that("a small regular subset of a deferred value gives its plain values", {
  m <- matrix(runif(3000), 30, dimnames = list(paste0("r", 1:30), NULL))
  lm <- lazy(m) + 1
  for (pick in list(quote(lm[, 2]), quote(lm[2:5, 7:9]), quote(lm[3, ]), quote(lm[4, , drop = FALSE]),
                    quote(lm[c(30, 1:29), 2]))) {
    got <- eval(pick)
    expect_false(is_lazy(got))
    expect_identical(got, eval(pick, list(lm = m + 1)))
  }
  expect_false(is_materialized(lm))  # only the picked elements were computed
  v <- sqrt(lazy(c(-1, runif(3000))))
  expect_warning(s <- v[1:10], "NaNs produced")
  expect_identical(s[1], NaN)
})

test_that("sort(), rep_len(), rep.int() and as.data.frame() give the plain vector's results", {
  x <- c(7, 2, 4, 5, 3, 6)
  expect_identical(sort(lazy(x), partial = 3), sort(x, partial = 3)) # not sorted whole
  expect_identical(sort(lazy(x), decreasing = TRUE), sort(x, decreasing = TRUE))
  y <- c(3, NA, 1, 2)
  expect_identical(sort(lazy(y), na.last = TRUE), sort(y, na.last = TRUE))
  named <- c(a = 1, b = 2)
  expect_identical(rep_len(lazy(named), 3), rep_len(named, 3)) # no names
  expect_identical(rep.int(lazy(named), 2), rep.int(named, 2))
  expect_identical(materialize(rep(lazy(named), 2)), rep(named, 2)) # names
  big <- c(a = 1, runif(69999))
  expect_identical(materialize(rep_len(lazy(big), 140000)), rep_len(big, 140000))
  a1 <- array(1:3, 3)
  expected <- as.data.frame(a1)
  a1 <- lazy(a1)
  expect_identical(as.data.frame(a1), expected) # the column named "a1"
  expect_identical(as.data.frame(a1, optional = TRUE), as.data.frame(array(1:3, 3), optional = TRUE))
})
