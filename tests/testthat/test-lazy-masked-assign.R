# x[mask] <- value with a logical mask as long as x and one value: deferred
# (R/lazy_assign.R, masked_assign()), with base R's result, NAs of the mask included.

# The base R and lazy outcomes of x[mask] <- value, and whether the lazy x stayed
# lazy. `lazy_mask`: the mask given to the lazy x is lazy too.
masked_outcomes <- function(x, mask, value, lazy_mask = FALSE) {
  base <- base_outcome({
    y <- x
    y[mask] <- value
    y
  })
  still_lazy <- NA
  lazy <- base_outcome({
    y <- lazy(x)
    y[if (lazy_mask) lazy(mask) else mask] <- value
    still_lazy <- is_lazy(y)
    materialize(y)
  })
  list(base = base, lazy = lazy, still_lazy = still_lazy)
}

test_that("a mask as long as x and one value give base R's values and stay lazy", {
  n <- 3000L
  for (type in names(value_grid)) {
    x <- rep_len(value_grid[[type]], n)
    values <- unique(c(value_grid[[type]][1:3], vector(type, 1L)[NA_integer_]))
    masks <- list(
      rep_len(c(TRUE, FALSE, NA), n),
      rep_len(c(FALSE, TRUE), n),
      rep(NA, n),
      rep(FALSE, n),
      rep(TRUE, n)
    )
    for (mask in masks) {
      for (value in as.list(values)) {
        for (lazy_mask in c(FALSE, TRUE)) {
          o <- masked_outcomes(x, mask, value, lazy_mask)
          label <- sprintf("%s, value %s, lazy mask %s", type, format(value), lazy_mask)
          expect_true(identical_bits(o$lazy, o$base), label = label)
          expect_true(o$still_lazy, label = label)
        }
      }
    }
  }
})

test_that("masks computed from x itself are deferred and fuse, on 1 and 2 threads", {
  v <- c(runif(2990), NA, NaN, Inf, -Inf, 0, -0, 1e308, -1e308, 5e-324, 0.5)
  m <- matrix(v, 100, dimnames = list(NULL, paste0("c", 1:30)))
  for_engine_settings({
    base <- m
    base[is.infinite(base)] <- 0
    base[base > 0.5] <- NA
    y <- lazy(m)
    y[is.infinite(y)] <- 0
    y[y > 0.5] <- NA
    expect_true(is_lazy(y))
    expect_true(identical_bits(materialize(y), base))
  })
})

test_that("the new value leaves other references to the old x as they were", {
  x <- runif(3000)
  y <- lazy(x)
  z <- y
  y[y > 0.5] <- 0
  expect_identical(materialize(z), x)
  expect_identical(materialize(y), ifelse(x > 0.5, 0, x))
})

test_that("masks that R recycles or that lengthen x, and other values, are base R's", {
  x <- runif(3000)
  cases <- list(
    list(mask = c(TRUE, FALSE), value = 0), # recycled
    list(mask = rep(TRUE, 3001), value = 0), # lengthens x
    list(mask = rep(c(TRUE, NA), 1500), value = c(1, 2)), # NA with values: an error
    list(mask = rep(c(TRUE, FALSE), 1500), value = 1:1500), # several values
    list(mask = rep(c(TRUE, FALSE), 1500), value = "a") # changes x's type
  )
  for (case in cases) {
    o <- masked_outcomes(x, case$mask, case$value)
    expect_true(identical_bits(o$lazy, o$base), label = deparse(case$value))
  }
  # A lower type's value takes x's type; a higher one's changes x, as in base R.
  i <- seq_len(3000L)
  mask <- rep(c(TRUE, NA, FALSE), 1000)
  for (value in list(TRUE, 7L, 2.5, NA)) {
    o <- masked_outcomes(i, mask, value)
    expect_true(identical_bits(o$lazy, o$base), label = deparse(value))
  }
})

test_that("a mask's warnings come once, with base R's text", {
  x <- c(-1, runif(2999))
  base <- base_outcome({
    y <- x
    y[sqrt(y) > 0.5] <- 0
    y
  })
  lazy <- base_outcome({
    y <- lazy(x)
    y[sqrt(y) > 0.5] <- 0
    materialize(y)
  })
  expect_identical(lazy, base)
})
