# A shorter operand whose length divides the longer one's (a length-n vector against
# an n x k matrix) is recycled as base R does, read again through a repeating view.

test_that("a column-length vector against a lazy matrix gives base R's values", {
  set.seed(3)
  m <- matrix(runif(3000, -2, 2), 60, dimnames = list(NULL, paste0("c", 1:50)))
  m[c(5, 77, 1200)] <- c(NA, NaN, Inf)
  v <- c(runif(58), 0, -0)
  iv <- sample(c(-3:3, NA), 60, TRUE)
  im <- matrix(sample(1:9, 3000, TRUE), 60)
  for_engine_settings({
    lm <- lazy(m)
    expect_identical(materialize(lm * v), m * v)
    expect_identical(materialize(v / lm), v / m)
    expect_identical(materialize(lm - lazy(v)), m - v)
    expect_identical(materialize(lm > v), m > v)
    expect_identical(materialize(lazy(im) %/% iv), im %/% iv)
    expect_identical(materialize(lazy(im) + c(1L, NA)), im + c(1L, NA))
    expect_identical(materialize(sqrt(abs(lm * v)) + v), sqrt(abs(m * v)) + v)
  })
})

test_that("recycled operands fuse, and other lengths are base R's", {
  with_options(list(gufunc.lazy_min_length = 1000), {
    m <- matrix(runif(3000), 60)
    v <- runif(60)
    lm <- lazy(m)
    x <- lm * v + 1
    expect_identical(lazy_state(x), "deferred")
    p <- lazy_plan(x)
    expect_length(p$kernels, 1L)
    expect_match(paste(format(p), collapse = "\n"), "60 elements, repeated")
    lazy_fallbacks(reset = TRUE)
    expect_identical(materialize(x), m * v + 1)
    expect_length(lazy_fallbacks(), 0)
    # A length that does not divide: base R's value and warning.
    w <- runif(7)
    expect_identical(
      tryCatch(lm + w, warning = conditionMessage),
      tryCatch(m + w, warning = conditionMessage)
    )
    expect_identical(suppressWarnings(materialize(lm + w)), suppressWarnings(m + w))
    # A deferred operand to recycle: base R's result.
    d <- lazy(runif(1500)) * 2
    big <- lazy(runif(3000))
    expect_identical(materialize(big + d), materialize(big) + materialize(d))
    lazy_fallbacks(reset = TRUE)
  })
})
