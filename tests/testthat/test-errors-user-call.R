# Errors and warnings point at the user's code: the call is the one the user
# wrote (not an internal helper's), messages say what was wrong and echo the value.

# The condition `expr` signals, or NULL.
condition_of <- function(expr) {
  tryCatch({
    expr
    NULL
  }, condition = function(cond) cond)
}

call_text <- function(cond) paste(deparse(conditionCall(cond)), collapse = " ")

x <- lazy(runif(1e5))
m <- matrix(runif(12), 3)

test_that("argument errors name the user's call", {
  expect_identical(call_text(condition_of(reduce_dims(m, "sum", dims = 5))),
                   'reduce_dims(m, "sum", dims = 5)')
  e <- condition_of(matmul(m))
  expect_s3_class(e, "gufunc_argument_error")
  expect_identical(conditionMessage(e), "argument `y` is missing, with no default")
  expect_identical(call_text(e), "matmul(m)")
  expect_identical(call_text(condition_of(inner(m))), "inner(m)")
  expect_identical(call_text(condition_of(x[1:10, 2])), "x[1:10, 2]")
})

test_that("base R's conditions on lazy values name the user's call", {
  e <- condition_of(x + "a")
  expect_identical(conditionMessage(e), "non-numeric argument to binary operator")
  expect_identical(call_text(e), 'x + "a"')
  # (A base whose length divides length(x) is recycled lazily: no fallback.)
  w <- condition_of(log(x, c(-1, 2, 3)))
  expect_s3_class(w, "warning")
  expect_identical(call_text(w), "log(x, c(-1, 2, 3))")
  # A group method gets values, not expressions: a lazy value is described.
  e <- condition_of(sum(x, "a"))
  expect_identical(conditionMessage(e), "invalid 'type' (character) of argument")
  expect_match(call_text(e), "^sum\\(`<lazy double\\[100000\\]>`, \"a\"")
})

test_that("errors raised by the engine name the user's call", {
  withr::with_options(list(gufunc.lazy_min_length = -1), {
    e <- condition_of(x + 1)
    expect_identical(call_text(e), "x + 1")
    expect_match(conditionMessage(e), "`gufunc.lazy_min_length` must be a single number >= 0, not -1",
                 fixed = TRUE)
  })
  withr::with_options(list(gufunc.sum_order = "quick"), {
    e <- condition_of(sum(x * 2))
    expect_s3_class(e, "gufunc_argument_error")
    expect_match(call_text(e), "^sum\\(")
    expect_match(conditionMessage(e), 'not "quick"', fixed = TRUE)
  })
})

test_that("absurd thread counts are rejected, with the value given", {
  for (bad in list(1000, 0, 2.5, "a", c(1, 2))) {
    withr::with_options(list(gufunc.threads = bad), {
      e <- condition_of(get_gufunc_threads())
      expect_s3_class(e, "gufunc_argument_error")
      expect_match(conditionMessage(e), "option `gufunc.threads` must be a whole number from 1 to",
                   fixed = TRUE)
    })
  }
  withr::with_options(list(gufunc.threads = 1000), {
    expect_match(conditionMessage(condition_of(get_gufunc_threads())), "not 1000$")
  })
  withr::with_options(list(gufunc.threads = 1), expect_identical(get_gufunc_threads(), 1L))
})

test_that("a wrong number of arguments says so", {
  e <- condition_of(gufunc_call("matmul", m))
  expect_s3_class(e, "gufunc_dispatch_error")
  expect_match(conditionMessage(e), "^`matmul` takes 2 arguments, not 1")
  expect_match(conditionMessage(e), "signatures of `matmul`", fixed = TRUE)
  expect_identical(call_text(e), 'gufunc_call("matmul", m)')
  e <- condition_of(gufunc_call("sqrt", m, m))
  expect_match(conditionMessage(e), "^`sqrt` takes 1 argument, not 2")
})

test_that("reduce_dims() takes the reduction as a function too", {
  a <- array(runif(24), c(2, 3, 4))
  expect_identical(reduce_dims(a, sum, dims = 2), reduce_dims(a, "sum", dims = 2))
  expect_identical(reduce_dims(a, mean, dims = c(1, 3)), reduce_dims(a, "mean", dims = c(1, 3)))
  expect_identical(reduce_dims(a, max), reduce_dims(a, "max"))
  e <- condition_of(reduce_dims(a, median))
  expect_s3_class(e, "gufunc_argument_error")
  expect_match(conditionMessage(e), "not a function$")
})
