# A failed evaluation is stored and raised again, with the same condition, on every
# access (never a crash); settings are validated with classed errors.

# A lazy value whose evaluation fails: a test kernel that rejects negative input.
failing_lazy <- function(x) {
  test_kernels()
  .Call(gufunc:::C_lazy_map, "fail_negative", list(lazy(x)), "gufunc_test", NULL)
}

test_that("a failure is stored and raised again with the same message", {
  x <- c(runif(3000), -2, runif(999))
  for_engine_settings({
    z <- failing_lazy(x)
    first <- tryCatch(materialize(z), error = identity)
    expect_s3_class(first, "gufunc_error")
    expect_match(conditionMessage(first), "negative input -2")
    second <- tryCatch(materialize(z), error = identity)
    expect_identical(conditionMessage(second), conditionMessage(first))
    expect_identical(class(second), class(first))
    # Every other access of the values raises it too, as an R error.
    expect_error(sort(z), conditionMessage(first), fixed = TRUE)
    expect_error(z[1:3], conditionMessage(first), fixed = TRUE)
    expect_error(z[[1]], conditionMessage(first), fixed = TRUE)
    expect_error(sum(unclass(z)), conditionMessage(first), fixed = TRUE)
    expect_false(is_materialized(z))
    expect_match(gufunc:::lazy_state(z), "failed: .*negative input")
  })
})

test_that("a region without the failing element is computed; graphs over it fail on their own", {
  x <- c(runif(3000), -2)
  with_options(list(gufunc.lazy_min_length = 0), {
    z <- failing_lazy(x)
    expect_identical(materialize(z[1:3]), x[1:3]) # a view of the three elements
    w <- z * 2
    expect_error(materialize(w), "negative input -2")
    expect_identical(materialize(lazy(x) * 2), x * 2)
  })
})

test_that("block size and thread settings are validated, and not stored as failures", {
  a <- runif(3000)
  for (bad in list(0, -1, 1.5, NA, "8", c(8, 16), TRUE)) {
    z <- lazy(a) + 1
    with_options(list(gufunc.block_size = bad), {
      expect_error(materialize(z), "gufunc.block_size", class = "gufunc_argument_error")
      expect_error(sum(z), "gufunc.block_size", class = "gufunc_argument_error")
    })
    expect_identical(materialize(z), a + 1)
  }
  old <- Sys.getenv("GUFUNC_BLOCK_SIZE", unset = NA)
  on.exit({
    if (is.na(old)) Sys.unsetenv("GUFUNC_BLOCK_SIZE") else Sys.setenv(GUFUNC_BLOCK_SIZE = old)
  })
  for (bad in c("abc", "0", "-5", "12x", "1e3")) {
    Sys.setenv(GUFUNC_BLOCK_SIZE = bad)
    expect_error(materialize(lazy(a) * 2), "GUFUNC_BLOCK_SIZE", class = "gufunc_argument_error")
  }
  Sys.setenv(GUFUNC_BLOCK_SIZE = "13")
  expect_identical(materialize(lazy(a) * 2), a * 2)
  expect_identical(lazy_plan(lazy(a) * 2)$block_size, 13)
  with_options(list(gufunc.block_size = 21), {
    expect_identical(lazy_plan(lazy(a) * 2)$block_size, 21) # the option wins
  })
  with_options(list(gufunc.threads = 0), {
    expect_error(materialize(lazy(a) * 3), class = "gufunc_argument_error")
  })
})
