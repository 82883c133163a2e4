# rep() of a lazy vector as a view that reads it again (times) or each element
# several times (each), and outer(), which repeats both of its operands.

test_that("rep() views give base R's values", {
  x <- runif(1500)
  i <- sample(c(1:9, NA), 1500, TRUE)
  for_engine_settings({
    for (v in list(x, i, i > 4)) {
      lv <- lazy(v)
      expect_identical(materialize(rep(lv, 3)), rep(v, 3))
      expect_identical(materialize(rep(lv, times = 2)), rep(v, times = 2))
      expect_identical(materialize(rep(lv, each = 3)), rep(v, each = 3))
      expect_identical(materialize(rep(lv, rep.int(2L, 1500))), rep(v, rep.int(2L, 1500)))
      expect_identical(materialize(rep(lv, each = 2) * 2L), rep(v, each = 2) * 2L)
    }
  })
  lx <- lazy(x)
  expect_true(is_lazy(rep(lx, 3)))
  # Other forms are base R's, with base R's errors.
  expect_identical(rep(lx, 1:1500), rep(x, 1:1500))
  expect_identical(rep(lx, length.out = 2000), rep(x, length.out = 2000))
  expect_identical(rep(lx, times = 2, each = 2), rep(x, times = 2, each = 2))
  expect_identical(rep(lazy(c(a = 1, b = 2)), 600), rep(c(a = 1, b = 2), 600))
  expect_error(rep(lx, times = -1), "invalid 'times' argument")
  expect_error(rep(lx, c(2, NA, rep(2, 1498))), "invalid 'times' argument")
  expect_identical(rep(lx, 0), rep(x, 0))
  # rep.int() keeps its own checks and messages (R's reg-tests call it with bad times).
  expect_identical(rep.int(lazy(1:3), 2:4), rep.int(1:3, 2:4))
  for (times in list(-1, c(1, 2), NA)) {
    base_error <- tryCatch(rep.int(1:3, times), error = conditionMessage)
    expect_identical(tryCatch(rep.int(lazy(1:3), times), error = conditionMessage), base_error)
  }
  expect_identical(conditionCall(tryCatch(rep.int(lazy(1:3), -1), error = identity)),
                   quote(rep.int(lazy(1:3), -1)))
})

test_that("outer() of lazy vectors fuses with what follows and gives base R's values", {
  x <- runif(300)
  y <- runif(200)
  lx <- lazy(x)
  ly <- lazy(y)
  for_engine_settings({
    expect_identical(materialize(outer(lx, ly, "-")), outer(x, y, "-"))
    expect_identical(materialize(outer(lx, ly, "/")), outer(x, y, "/"))
    expect_identical(materialize(outer(lx, ly, pmax)), outer(x, y, pmax))
    r <- sqrt(outer(lx, lx, "-")^2 + outer(ly[1:300 %% 200 + 1], ly[1:300 %% 200 + 1], "-")^2)
    expect_identical(materialize(r),
                     sqrt(outer(x, x, "-")^2 + outer(y[1:300 %% 200 + 1], y[1:300 %% 200 + 1], "-")^2))
    expect_identical(sum(outer(lx, ly, "-")), sum(outer(x, y, "-")))
  })
  plan <- paste(capture.output(print(lazy_plan(outer(lx, ly, "-") * 2))), collapse = "\n")
  expect_match(plan, "each element 300 times", fixed = TRUE)
  expect_match(plan, "1 kernel", fixed = TRUE)
})

test_that("outer() and rep(each =) operands read in place, by blocks of one column", {
  # Columns of 300 rows: blocks of one column read the operands in place (a run of
  # one element as a scalar), in rowSums() and colSums() too; runs of 4-byte values.
  x <- c(runif(297), NA, -Inf, 0)
  y <- runif(400)
  xi <- c(sample.int(100L, 299, replace = TRUE), NA)
  yl <- c(TRUE, NA, FALSE, rep(TRUE, 297))
  for_engine_settings({
    expect_identical(rowSums(outer(lazy(x), lazy(y), "-") * 2), rowSums(outer(x, y, "-") * 2))
    expect_identical(colSums(outer(lazy(x), lazy(y)) + 1), colSums(outer(x, y) + 1))
    expect_identical(rowMeans(outer(lazy(xi), lazy(xi), "+")), rowMeans(outer(xi, xi, "+")))
    expect_identical(materialize(rep(lazy(xi), each = 300) + 1L), rep(xi, each = 300) + 1L)
    expect_identical(materialize(rep(lazy(yl), each = 256) & TRUE), rep(yl, each = 256) & TRUE)
    expect_identical(sum(outer(lazy(y), lazy(x), "/")), sum(outer(y, x, "/")))
  })
})

test_that("outer() with FUN = \"*\" and %o% are deferred with base R's bits", {
  g <- c(grid_double, grid_nan_bits)
  cases <- list(
    list(g, g), list(grid_integer, g), list(grid_logical, grid_integer),
    list(matrix(g[1:12], 3, dimnames = list(letters[1:3], NULL)), c(u = -0, v = 2)),
    list(array(grid_integer[1:8], c(2, 2, 2)), grid_logical)
  )
  for_engine_settings({
    for (cs in cases) {
      x <- cs[[1]]
      y <- cs[[2]]
      got <- outer(lazy(x), y)
      expect_true(is_lazy(got))
      expect_true(identical_bits(materialize(got), base::outer(x, y)))
      expect_true(identical_bits(materialize(outer(x, lazy(y))), base::outer(x, y)))
      expect_true(identical_bits(materialize(lazy(x) %o% lazy(y)), x %o% y))
    }
  })
  x <- runif(300)
  lx <- lazy(x)
  plan <- paste(capture.output(print(lazy_plan(outer(lx, lx) / 2))), collapse = "\n")
  expect_match(plan, "1 kernel", fixed = TRUE)
  invisible(lazy_fallbacks(reset = TRUE))
  invisible(materialize(outer(lx, lx) * 2))
  expect_length(lazy_fallbacks(reset = TRUE), 0)
  # Other cases are base R's outer() on the values, with its errors naming the call.
  expect_error(outer(lx, lx, "*", 2), "using ... with FUN = \"*\" is an error", fixed = TRUE,
               class = "simpleError")
  err <- tryCatch(outer(lx, lx, "*", 2), error = identity)
  expect_identical(deparse(conditionCall(err)), "outer(lx, lx, \"*\", 2)")
  expect_identical(outer(lazy(1:3), 1:2 + 0i), outer(1:3, 1:2 + 0i))
  with_options(list(matprod = "blas"), {
    expect_identical(outer(lx, lx), base::outer(x, x))
  })
  expect_identical(outer(1:3, 1:4), base::outer(1:3, 1:4))
})

test_that("a long outer() of double vectors, built in one call, is base R's outer()", {
  set.seed(3)
  g <- c(grid_double, grid_nan_bits)
  x <- c(g, runif(300 - length(g), -5, 5))
  y <- c(rev(g), runif(260 - length(g), -5, 5))
  lx <- lazy(x)
  ly <- lazy(y)
  # Values at hand, plain against lazy, a deferred operand (computed first), and
  # FUN = "*" written out (the general path): the same bits, dim and no dimnames.
  for_engine_settings({
    for (got in list(outer(lx, ly), outer(x, ly), outer(lx, y), outer(lx, ly, "*"))) {
      expect_true(is_lazy(got))
      expect_true(identical_bits(materialize(got), base::outer(x, y)))
    }
    expect_true(identical_bits(materialize(outer(lx * 2, ly)), base::outer(x * 2, y)))
  })
  plan <- paste(capture.output(print(lazy_plan(outer(lx, ly) - 1))), collapse = "\n")
  expect_match(plan, "1 kernel", fixed = TRUE)
  # Names, integers and a short product take base R's rules as before.
  nx <- stats::setNames(x, paste0("r", seq_along(x)))
  expect_identical(materialize(outer(lazy(nx), ly)), base::outer(nx, y))
  expect_identical(materialize(outer(lazy(seq_len(300)), ly)), base::outer(seq_len(300), y))
  with_options(list(gufunc.lazy_min_length = 1000), {
    expect_identical(outer(lazy(x[1:10]), y[1:10]), base::outer(x[1:10], y[1:10]))
  })
  with_options(list(matprod = "blas"), {
    expect_identical(outer(lx, ly), base::outer(x, y))
  })
})

test_that("outer() of plain operands, or with a short product, is base R's outer() of the values", {
  x <- c(a = 1.5, b = -0, c = NaN, d = -Inf)
  y <- 1:5
  m <- matrix(c(2, -1, 0.5, 3), 2, dimnames = list(c("r", "s"), NULL))
  cases <- list(list(x, y), list(m, x), list(y, TRUE), list(x, m), list(-0, x))
  for (case in cases) {
    want <- base::outer(case[[1]], case[[2]])
    expect_identical(outer(case[[1]], case[[2]]), want)
    expect_identical(outer(lazy(case[[1]]), case[[2]]), want)
    expect_identical(outer(case[[1]], lazy(case[[2]])), want)
    expect_identical(case[[1]] %o% lazy(case[[2]]), want)
  }
  message_of <- function(code) tryCatch(code, error = conditionMessage)
  expect_identical(message_of(outer(x, "a")), message_of(base::outer(x, "a")))
  expect_identical(message_of(outer(lazy(x), "a")), message_of(base::outer(x, "a")))
})
