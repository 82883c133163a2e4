# The one-call paths for what stencil code does most: element-wise operations on
# lazy matrices whose only attribute is a dim (src/r/lazy_map_bridge.cpp) and
# m[i, j] picking one run of each dimension of a matrix without dimnames
# (src/r/array_view.cpp). Values, attributes, warnings and errors are base R's,
# the same as the general paths give.

set.seed(31)
fp_m <- matrix(runif(60 * 50, -1, 2), 60)
fp_m2 <- matrix(runif(60 * 50), 60)
fp_i <- matrix(sample(c(-20:20, NA), 60 * 50, replace = TRUE), 60)
fp_a <- array(runif(20 * 15 * 10), c(20, 15, 10))

test_that("operations on matrices with only a dim give base R's values and attributes", {
  for_engine_settings({
    m <- lazy(fp_m)
    m2 <- lazy(fp_m2)
    cases <- list(
      list(m + 1, fp_m + 1), list(2 * m, 2 * fp_m), list(m - m2, fp_m - fp_m2),
      list(m / m2, fp_m / fp_m2), list(m^2, fp_m^2), list(-m, -fp_m), list(m > m2, fp_m > fp_m2),
      list(!(m > 0), !(fp_m > 0)), list(m + as.vector(fp_m2), fp_m + as.vector(fp_m2)),
      list(as.vector(fp_m2) * m, as.vector(fp_m2) * fp_m), list(m + fp_m2[, 1], fp_m + fp_m2[, 1]),
      list(sqrt(m2), sqrt(fp_m2)), list(exp(m) - m2, exp(fp_m) - fp_m2),
      list(lazy(fp_i) %/% 3L, fp_i %/% 3L), list(lazy(fp_i) * 2L + m, fp_i * 2L + fp_m),
      list(lazy(fp_a) * 2 - 1, fp_a * 2 - 1), list(atan2(m, m2), atan2(fp_m, fp_m2))
    )
    for (k in seq_along(cases)) {
      expect_identical(lazy_outcome(cases[[k]][[1]]), base_outcome(cases[[k]][[2]]), info = k)
    }
    # Warnings, once, and errors: base R's.
    expect_identical(lazy_outcome(sqrt(m)), base_outcome(sqrt(fp_m)))
    expect_identical(lazy_outcome(log(m - 1)), base_outcome(log(fp_m - 1)))
    expect_error(m + lazy(t(fp_m2)), "non-conformable arrays")
    expect_identical(tryCatch(m + lazy(matrix(1, 50, 60)), error = conditionMessage),
                     tryCatch(fp_m + matrix(1, 50, 60), error = conditionMessage))
  })
})

test_that("other attributes keep base R's rules through the general path", {
  with_options(list(gufunc.lazy_min_length = 0), {
    named <- fp_m
    dimnames(named) <- list(paste0("r", 1:60), paste0("c", 1:50))
    expect_identical(materialize(lazy(named) + 1), named + 1)
    expect_identical(materialize(lazy(fp_m) + named), fp_m + named)
    expect_identical(materialize(lazy(named) * lazy(fp_m)), named * fp_m)
    ts_like <- structure(1:3000 / 7, dim = c(60L, 50L), extra = "kept")
    expect_identical(materialize(lazy(ts_like) - 1), ts_like - 1)
    scalar_matrix <- matrix(2, 1, 1)
    expect_identical(lazy_outcome(lazy(fp_m) * scalar_matrix), base_outcome(fp_m * scalar_matrix))
  })
})

test_that("m[i, j] of one run per dimension is a view with base R's values and attributes", {
  picks <- list(
    quote(m[2:60, 2:50]), quote(m[1:59, ]), quote(m[, 3:9]), quote(m[-1, ]), quote(m[, -50]),
    quote(m[7, ]), quote(m[, 7]), quote(m[5:9, 4]), quote(m[4, 5:9]), quote(m[3, 3]),
    quote(m[TRUE, 2:4]), quote(m[2:4, TRUE]), quote(m[NULL, 1]), quote(m[c(1, 3), ]),
    quote(m[2:3, , drop = FALSE]), quote(m[, 2, drop = FALSE]), quote(m[60:1, 1]),
    quote(m[0, ]), quote(m[c(TRUE, FALSE), 1:3]), quote(m[2.5, 1]), quote(m[61, 1]),
    quote(m[, 2L:40L]), quote(m[-(1:3), -(48:50)])
  )
  for_engine_settings({
    for (values in list(fp_m, fp_i)) {
      lm <- lazy(values)
      for (p in picks) {
        got <- tryCatch(materialize(eval(p, list(m = lm))), error = conditionMessage)
        want <- tryCatch(eval(p, list(m = values)), error = conditionMessage)
        expect_identical(got, want, info = deparse(p))
      }
      # Of a deferred value, then computed.
      d <- lm * 2 - 1
      expect_identical(materialize(d[2:60, 3:50] + d[1:59, 1:48]),
                       (values * 2 - 1)[2:60, 3:50] + (values * 2 - 1)[1:59, 1:48])
    }
  })
  expect_true(is_lazy(lazy(fp_m)[2:60, 2:50]))
})

test_that("a named argument keeps m[i, drop =] base R's (one subscript: vector indexing)", {
  with_options(list(gufunc.lazy_min_length = 0), {
    m <- lazy(fp_m)
    expect_identical(materialize(m[2:3, drop = TRUE]), fp_m[2:3, drop = TRUE])
    expect_identical(materialize(m[2:3, drop = FALSE]), fp_m[2:3, drop = FALSE])
    expect_identical(materialize(m[2:30, 4, drop = FALSE]), fp_m[2:30, 4, drop = FALSE])
  })
})
