# scale() of a lazy matrix (R/lazy_scale.R): deferred, with base R's values, bits
# and attributes; other arguments and values are base R's.

set.seed(21)
scale_values <- matrix(c(runif(2997) * 100, NA, NaN, -Inf), 300,
                       dimnames = list(NULL, paste0("v", 1:10)))
scale_values[, 4] <- NA  # a column with no values
scale_values[2:299, 7] <- NA  # a column with two
scale_int <- matrix(sample.int(50L, 3000, replace = TRUE), 300)
scale_int[5, 3] <- NA

test_that("scale() of a lazy matrix is deferred and gives base R's result", {
  for_engine_settings({
    for (m in list(scale_values, scale_int, scale_values[, -(4:6)] > 30)) {
      for (args in list(list(), list(center = FALSE), list(scale = FALSE),
                        list(center = FALSE, scale = FALSE),
                        list(center = seq_len(ncol(m))), list(scale = seq_len(ncol(m)) / 3),
                        list(center = seq_len(ncol(m)), scale = FALSE))) {
        got <- do.call(scale, c(list(lazy(m)), args))
        expect_true(is_lazy(got))
        expect_identical(materialize(got), do.call(scale, c(list(m), args)),
                         info = paste(typeof(m), deparse(args)))
      }
    }
  })
})

test_that("scale() of a wide lazy matrix keeps plain attributes", {
  m <- matrix(runif(3 * 2000), 3)
  got <- scale(lazy(m))
  expect_identical(materialize(got), scale(m))
  expect_false(is_lazy(attr(got, "scaled:center")))
  expect_false(is_lazy(attr(got, "scaled:scale")))
})

test_that("other scale() calls are base R's on the plain values", {
  v <- runif(100)
  expect_identical(scale(lazy(v)), scale(v))
  expect_identical(base_outcome(scale(lazy(scale_values), center = 1:3)),
                   base_outcome(scale(scale_values, center = 1:3)))
  expect_identical(base_outcome(scale(lazy(scale_values), scale = c(TRUE, FALSE))),
                   base_outcome(scale(scale_values, scale = c(TRUE, FALSE))))
  expect_identical(base_outcome(scale(lazy(scale_values), center = NA)),
                   base_outcome(scale(scale_values, center = NA)))
  expect_identical(scale(lazy(scale_values), center = as.character(1:10)),
                   suppressWarnings(scale(scale_values, center = as.character(1:10))))
})

test_that("lazy centres and scales become plain attributes", {
  withr::local_options(gufunc.lazy_min_length = 0)
  m <- matrix(c(1, 2, 3, 4, 5, 6), 2)
  s <- c(10, 20, 30)
  expect_identical(materialize(scale(lazy(m), center = lazy(s))), scale(m, center = s))
  expect_identical(materialize(scale(lazy(m), center = FALSE, scale = lazy(s))),
                   scale(m, center = FALSE, scale = s))
  big <- matrix(runif(3e5), 1e5)
  expect_identical(materialize(scale(lazy(big), center = lazy(c(1, 2, 3)))),
                   scale(big, center = c(1, 2, 3)))
})
