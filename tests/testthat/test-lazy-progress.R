# Progress of long evaluations: option gufunc.progress (TRUE, FALSE, a function)
# and cli's progress bar.

# A lazy evaluation of well over the quiet first 0.5 s on one thread: 60 operations,
# 40 of them sin() and cos(), over 5e6 values (1.4 s measured; 30 operations took
# 0.5-0.7 s once the math loops got faster, too close to the quiet start).
slow_value <- function() {
  z <- lazy(runif(5e6))
  for (i in 1:20) z <- sin(z) + cos(z)
  z
}

test_that("a function option receives increasing counts that end at the total", {
  skip_on_cran()
  reports <- list()
  record <- function(done, total) reports[[length(reports) + 1L]] <<- c(done, total)
  withr::local_options(list(gufunc.progress = record, gufunc.threads = 1))
  z <- slow_value()
  invisible(materialize(z))
  expect_gt(length(reports), 0)
  done <- vapply(reports, `[`, 0, 1L)
  total <- vapply(reports, `[`, 0, 2L)
  expect_true(all(diff(done) > 0 | diff(total) != 0))
  expect_identical(done[length(done)], total[length(total)])
})

test_that("short evaluations report nothing; FALSE reports nothing", {
  reports <- 0L
  withr::local_options(list(gufunc.progress = function(done, total) reports <<- reports + 1L))
  invisible(materialize(lazy(runif(1e5)) * 2))
  expect_identical(reports, 0L)
  withr::local_options(list(gufunc.progress = FALSE))
  skip_on_cran()
  invisible(materialize(slow_value()))
  expect_identical(reports, 0L)
})

test_that("an error in the progress function stops the evaluation with that error", {
  skip_on_cran()
  withr::local_options(list(gufunc.progress = function(done, total) stop("no progress here"),
                            gufunc.threads = 1))
  z <- slow_value()
  expect_error(materialize(z), "no progress here")
  expect_identical(lazy_state(z), "deferred")
  withr::local_options(list(gufunc.progress = FALSE))
  expect_true(is.double(materialize(z)))
})

test_that("a bad option value is a classed error", {
  skip_on_cran()
  withr::local_options(list(gufunc.progress = "yes", gufunc.threads = 1))
  expect_error(materialize(slow_value()), "option `gufunc.progress` must be TRUE, FALSE",
               class = "gufunc_argument_error")
})

test_that("TRUE shows cli's progress bar", {
  skip_on_cran()
  skip_if_not_installed("cli")
  withr::local_options(list(gufunc.progress = TRUE, gufunc.threads = 1,
                            cli.progress_show_after = 0, cli.dynamic = FALSE))
  z <- slow_value()
  out <- capture.output(invisible(materialize(z)), type = "message")
  expect_true(any(grepl("gufunc", out)))
  expect_true(is_materialized(z))
})
