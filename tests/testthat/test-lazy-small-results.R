# Results shorter than gufunc.lazy_min_length: computed at once by base R; of 256
# elements or more they stay lazy values (values at hand), shorter ones are plain.
# Subsets of lazy values as short follow the same rule.

test_that("short results of 256 elements or more stay lazy, with base R's values", {
  with_options(list(gufunc.lazy_min_length = 65536), {
    v <- runif(1500) - 0.5
    x <- lazy(v)
    cases <- list(
      x * 2 + 1, -x, x / 0, x > 0, sqrt(abs(x)), exp(x), x %/% 0.1, !(x > 0),
      round(x, 2), x + 1:1500
    )
    expected <- list(
      v * 2 + 1, -v, v / 0, v > 0, sqrt(abs(v)), exp(v), v %/% 0.1, !(v > 0),
      round(v, 2), v + 1:1500
    )
    for (k in seq_along(cases)) {
      expect_true(is_lazy(cases[[k]]), info = k)
      expect_identical(lazy_state(cases[[k]]), "materialized", info = k)
      expect_identical(materialize(cases[[k]]), expected[[k]], info = k)
    }
  })
})

test_that("shorter results are plain vectors, as base R's", {
  with_options(list(gufunc.lazy_min_length = 65536), {
    v <- c(-1, 0, 2.5, NA, NaN, Inf)
    x <- lazy(v)
    expect_identical(x * 2, v * 2)
    expect_identical(x > 0, v > 0)
    expect_identical(lazy(runif(255)) * 0, numeric(255))
    at_256 <- lazy(runif(256)) * 0
    expect_true(is_lazy(at_256))
    expect_identical(materialize(at_256), numeric(256))
    # A loop over a tiny lazy vector is a base R loop after its first operation.
    y <- lazy(runif(10))
    for (i in 1:100) y <- y * 0.5 + 1
    expect_false(inherits(y, "gufunc_lazy"))
  })
})

test_that("short results keep base R's attributes, warnings and errors", {
  with_options(list(gufunc.lazy_min_length = 65536), {
    m <- matrix(seq_len(2000) / 7, 40, dimnames = list(NULL, paste0("c", 1:50)))
    lm <- lazy(m)
    r <- lm * 2
    expect_true(is_lazy(r))
    expect_identical(materialize(r), m * 2)
    expect_identical(dim(r), dim(m))
    n <- setNames(runif(2000), paste0("e", 1:2000))
    expect_identical(materialize(lazy(n) + 1), n + 1)
    expect_warning(w <- log(-lazy(rep(1, 2000))), "NaNs produced")
    expect_identical(materialize(w), rep(NaN, 2000))
    big <- lazy(rep(.Machine$integer.max, 2000L))
    expect_warning(s <- big + 1L, "NAs produced by integer overflow")
    expect_identical(materialize(s), rep(NA_integer_, 2000))
    expect_error(lazy(runif(2000)) + "a", "non-numeric argument")
  })
})

test_that("short results computed at once are not counted as fallbacks", {
  with_options(list(gufunc.lazy_min_length = 65536), {
    x <- lazy(runif(1500))
    lazy_fallbacks(reset = TRUE)
    y <- x * 2 + sqrt(x)
    expect_length(lazy_fallbacks(), 0)
    lazy_fallbacks(reset = TRUE)
  })
})

test_that("short vectors updated in a loop keep outer() of them deferred", {
  with_options(list(gufunc.lazy_min_length = 65536), {
    v <- runif(1500)
    x <- lazy(v)
    for (i in 1:3) {
      d <- outer(x, x, "-")
      expect_identical(lazy_state(d), "deferred")
      s <- rowSums(d * d)
      x <- x + 0.01 * s / 1500
      v <- v + 0.01 * rowSums(outer(v, v, "-")^2) / 1500
    }
    expect_identical(materialize(x), v)
  })
})

test_that("short subsets of 256 elements or more stay lazy, with base R's values", {
  with_options(list(gufunc.lazy_min_length = 65536), {
    withr::local_seed(5)
    p <- matrix(runif(400 * 300), 400, dimnames = list(NULL, paste0("c", 1:300)))
    m <- lazy(p)
    d <- m * 2  # deferred: its short subsets are computed, then kept lazy
    kept <- list(m[1:300, 7], m[7, ], m[, 9], m[20:39, 11:30], m[-(1:100), 2], m[seq(3, 120000, by = 400)],
                 rev(m[, 4]), d[1:256, 5])
    expected <- list(p[1:300, 7], p[7, ], p[, 9], p[20:39, 11:30], p[-(1:100), 2], p[seq(3, 120000, by = 400)],
                     rev(p[, 4]), (p * 2)[1:256, 5])
    for (k in seq_along(kept)) {
      expect_true(is_lazy(kept[[k]]), info = k)
      expect_identical(lazy_state(kept[[k]]), "materialized", info = k)
      expect_identical(materialize(kept[[k]]), expected[[k]], info = k)
      expect_identical(attributes(materialize(kept[[k]])), attributes(expected[[k]]), info = k)
    }
    # Base R's code reading a short lazy value (matrix() takes as.vector() of it)
    # reads values at hand: no fallback.
    lazy_fallbacks(reset = TRUE)
    expect_identical(matrix(m[1:256, 7] * 2, 16), matrix(p[1:256, 7] * 2, 16))
    v <- as.vector(m[7, ])
    expect_identical(lazy_state(v), "materialized")
    expect_identical(materialize(v), as.vector(p[7, ]))
    dim(v) <- c(20, 15)
    expect_identical(materialize(v), array(p[7, ], c(20, 15)))
    expect_length(lazy_fallbacks(reset = TRUE), 0L)
    # Logical and integer values at hand are copied whole too.
    flags <- as.vector(lazy(rep(c(TRUE, FALSE, NA), 100)))
    expect_identical(lazy_state(flags), "materialized")
    expect_identical(materialize(flags), rep(c(TRUE, FALSE, NA), 100))
    counts <- lazy(1:300 * 2L)
    dim(counts) <- c(10, 30)
    expect_identical(materialize(counts), matrix(1:300 * 2L, 10))
    # Shorter subsets are plain vectors, as base R's.
    expect_identical(m[1:255, 7], p[1:255, 7])
    expect_identical(m[7, 1:255], p[7, 1:255])
    expect_identical(m[1:15, 1:15], p[1:15, 1:15])
    expect_identical(d[1:255, 5], (p * 2)[1:255, 5])
  })
})

test_that("an elimination step's outer() of a short column and row is deferred and fused", {
  with_options(list(gufunc.lazy_min_length = 65536), {
    withr::local_seed(6)
    n <- 320
    p <- matrix(runif(n * n), n) + diag(n, n)
    step <- function(a, c) {
      rows <- c:n
      cols <- (c - 1):n
      a[rows, cols] - outer(a[rows, c - 1] / a[c - 1, c - 1], a[c - 1, cols])
    }
    value <- step(lazy(p), 2)
    expect_identical(lazy_state(value), "deferred")
    # The product is a broadcast of the column and the row in the same kernel, not
    # a matrix made first.
    plan <- paste(capture.output(print(lazy_plan(value))), collapse = "\n")
    expect_match(plan, "1 kernel")
    expect_match(plan, "each element 319 times")
    expect_identical(materialize(value), step(p, 2))
    expect_identical(materialize(eliminate(lazy(p))), eliminate(p))
  })
})
