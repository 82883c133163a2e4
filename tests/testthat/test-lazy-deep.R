# Deep graphs: long chains of operations neither overflow the C stack when built,
# evaluated or freed, nor keep every intermediate value alive.

test_that("a chain of 2e5 operations materializes to base R's value", {
  skip_on_cran() # about ten seconds
  a <- runif(1e4)
  x <- lazy(a)
  expected <- a
  for (i in 1:1e5) {
    x <- x * 0.5 + 1
    expected <- expected * 0.5 + 1
  }
  expect_false(is_materialized(x))
  expect_identical(x[1:5], expected[1:5])
  expect_identical(materialize(x), expected)
  expect_lte(abs(sum(x) - sum(expected)), 1e-14 * sum(expected))
  rm(x)
  gc() # frees the chain of nodes iteratively
  succeed()
})

test_that("deep chains agree with base R for every engine setting", {
  a <- runif(50)
  for_engine_settings({
    x <- lazy(a)
    expected <- a
    for (i in 1:300) {
      x <- sqrt(x * x + 1) - 0.5
      expected <- sqrt(expected * expected + 1) - 0.5
    }
    expect_identical(materialize(x), expected)
  })
})

test_that("only leaves are kept alive, not intermediate lazy values", {
  a <- runif(5000)
  x <- lazy(a)
  y <- x + 1
  z <- y * 2
  materialize(y) # y's values are cached; z still reads its graph from a
  rm(x, y)
  gc()
  expect_identical(materialize(z), (a + 1) * 2)
})
