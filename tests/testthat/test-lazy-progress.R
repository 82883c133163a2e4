# Progress of long evaluations: options gufunc.progress (TRUE, FALSE, a function)
# and gufunc.progress_after, and cli's progress bar.

# An evaluation of a few rounds. Reports start after gufunc.progress_after seconds;
# the tests set it to 0, so that they need no long work (work sized by time broke
# whenever the engine got faster).
some_work <- function() {
  z <- lazy(runif(1e6))
  for (i in 1:3) z <- sin(z) + cos(z)
  z
}

report_at_once <- function(progress, env = parent.frame()) {
  withr::local_options(list(gufunc.progress = progress, gufunc.progress_after = 0,
                            gufunc.threads = 1), .local_envir = env)
}

test_that("a function option receives increasing counts that end at the total", {
  reports <- list()
  report_at_once(function(done, total) reports[[length(reports) + 1L]] <<- c(done, total))
  z <- some_work()
  invisible(materialize(z))
  expect_gt(length(reports), 0)
  done <- vapply(reports, `[`, 0, 1L)
  total <- vapply(reports, `[`, 0, 2L)
  expect_true(all(diff(done) > 0 | diff(total) != 0))
  expect_identical(done[length(done)], total[length(total)])
})

test_that("evaluations shorter than gufunc.progress_after report nothing; FALSE nothing", {
  reports <- 0L
  count <- function(done, total) reports <<- reports + 1L
  withr::local_options(list(gufunc.progress = count))
  invisible(materialize(lazy(runif(1e5)) * 2)) # the default: half a second of quiet
  expect_identical(reports, 0L)
  withr::local_options(list(gufunc.progress_after = 3600))
  invisible(materialize(some_work()))
  expect_identical(reports, 0L)
  withr::local_options(list(gufunc.progress_after = 0))
  invisible(materialize(some_work()))
  expect_gt(reports, 0L)
  reports <- 0L
  withr::local_options(list(gufunc.progress = FALSE))
  invisible(materialize(some_work()))
  expect_identical(reports, 0L)
})

test_that("an error in the progress function stops the evaluation with that error", {
  report_at_once(function(done, total) stop("no progress here"))
  z <- some_work()
  expect_error(materialize(z), "no progress here")
  expect_identical(lazy_state(z), "deferred")
  withr::local_options(list(gufunc.progress = FALSE))
  expect_identical(length(materialize(z)), 1000000L)
})

test_that("bad option values are classed errors naming the option", {
  report_at_once("yes")
  expect_error(materialize(some_work()), "option `gufunc.progress` must be TRUE, FALSE",
               class = "gufunc_argument_error")
  withr::local_options(list(gufunc.progress = FALSE))
  for (bad in list(-1, NA_real_, "1", c(0, 1), Inf, 1e6)) {
    withr::local_options(list(gufunc.progress_after = bad))
    expect_error(materialize(some_work()), "option `gufunc.progress_after` must be a single number",
                 class = "gufunc_argument_error")
  }
  withr::local_options(list(gufunc.progress_after = 2L))
  expect_true(is.double(materialize(some_work())))
})

test_that("TRUE shows cli's progress bar", {
  skip_if_not_installed("cli")
  report_at_once(TRUE)
  withr::local_options(list(cli.progress_show_after = 0, cli.dynamic = FALSE))
  z <- some_work()
  out <- capture.output(invisible(materialize(z)), type = "message")
  expect_true(any(grepl("gufunc", out)))
  expect_true(is_materialized(z))
})
