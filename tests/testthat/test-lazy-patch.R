# A deferred write of one value (diag(m) <- 0, x[a:b] <- NA) read by another
# expression is fused into that expression's kernel: each block of the new version
# is the base's block with the written positions set.

test_that("a write of one value inside an expression gives base R's values", {
  set.seed(11)
  n <- 61
  v <- matrix(runif(n * n, -2, 2), n)
  v[c(3, 200, 1000)] <- c(NA, NaN, -Inf)
  iv <- matrix(sample(c(-5:5, NA), n * n, TRUE), n)
  for_engine_settings({
    r <- sqrt(lazy(v) * 2)
    diag(r) <- 1
    b <- suppressWarnings(sqrt(v * 2))
    diag(b) <- 1
    # (sqrt() of negative values: "NaNs produced" when each reader computes it)
    expect_identical(suppressWarnings(materialize(r^3 + 1)), b^3 + 1)
    expect_identical(suppressWarnings(sum(r * 2)), sum(b * 2))

    x <- lazy(v) * 3
    x[10:2000] <- NA
    bx <- v * 3
    bx[10:2000] <- NA
    expect_identical(materialize(x - 1), bx - 1)
    x[seq(5, 3000, by = 7)] <- -0
    bx[seq(5, 3000, by = 7)] <- -0
    expect_identical(materialize(1 / x), 1 / bx)

    m <- lazy(iv) * 2L
    m[, 4] <- 0L
    m[7, ] <- NA_integer_
    bm <- iv * 2L
    bm[, 4] <- 0L
    bm[7, ] <- NA_integer_
    expect_identical(materialize(m + 1L), bm + 1L)

    l <- lazy(v) > 0
    l[2:40, 3:9] <- TRUE
    bl <- v > 0
    bl[2:40, 3:9] <- TRUE
    expect_identical(materialize(!l), !bl)
  })
})

test_that("the write is one step of the reader's kernel", {
  with_options(list(gufunc.lazy_min_length = 0), {
    v <- matrix(runif(400), 20)
    m <- lazy(v)
    r <- sqrt(m * m + 1)
    diag(r) <- 1
    f <- 2 / r^3
    diag(f) <- 0
    p <- lazy_plan(f * m)
    expect_length(p$kernels, 1L)
    text <- paste(format(p), collapse = "\n")
    expect_match(text, "with `[<-` of 20 runs of 1 element, 21 apart, from position 1: 1", fixed = TRUE)
    code <- format(p, "r")
    expect_identical(eval(parse(text = code), list(m = v), baseenv()), materialize(f * m))
  })
})

test_that("the n-body step is one kernel and base R's values", {
  with_options(list(gufunc.lazy_min_length = 1000), {
    set.seed(6)
    x <- runif(300)
    y <- runif(300)
    mass <- runif(300, 0.5, 1.5)
    step <- function(x, y, mass) {
      dx <- outer(x, x, "-")
      dy <- outer(y, y, "-")
      r <- sqrt(dx * dx + dy * dy)
      diag(r) <- 1
      f <- 6.67e-11 * outer(mass, mass) / r^3
      diag(f) <- 0
      list(rowSums(f * dx), rowSums(f * dy))
    }
    expect_identical(lapply(step(lazy(x), lazy(y), lazy(mass)), materialize), step(x, y, mass))
  })
})
