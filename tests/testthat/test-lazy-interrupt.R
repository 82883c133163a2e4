# Ctrl-C during a long evaluation: a child R process is sent SIGINT while it
# materializes a long chain; the engine must stop, cache nothing, and deliver R's
# own interrupt (which try() does not catch), and the value must materialize the
# same afterwards.

test_that("Ctrl-C stops an evaluation with R's interrupt, and the lazy value stays usable", {
  skip_on_cran()
  skip_on_os("windows")
  pid_file <- tempfile()
  out_file <- tempfile()
  script <- tempfile(fileext = ".R")
  on.exit(unlink(c(pid_file, out_file, paste0(out_file, ".part"), script)))
  writeLines(c(
    "library(gufunc)",
    "options(gufunc.threads = 2)",
    "x <- lazy(runif(1e7))",
    "for (i in 1:300) x <- sqrt(x * x + 1)", # seconds of work
    "expected <- x[1:3]",
    # The pid, written from the evaluation's first progress report: the child is
    # then inside materialize().
    sprintf('options(gufunc.progress_after = 0, gufunc.progress = function(done, total) {
               if (!file.exists("%s")) writeLines(as.character(Sys.getpid()), "%s")
             })', pid_file, pid_file),
    "tries <- 0",
    "r <- tryCatch({",
    "  for (i in 1:3) { tries <- tries + 1; try(materialize(x), silent = TRUE) }",
    "  simpleCondition('not interrupted')",
    "}, gufunc_interrupt = function(e) e, interrupt = function(e) simpleCondition('R interrupt'))",
    "caught <- as.numeric(Sys.time())",
    "y <- materialize(x)",
    sprintf('saveRDS(list(class = class(r), message = conditionMessage(r), caught = caught, tries = tries,
              second = is.double(y) && length(y) == 1e7 && identical(y[1:3], expected),
              cached = gufunc:::is_materialized(x)), "%s")', paste0(out_file, ".part")),
    sprintf('file.rename("%s", "%s")', paste0(out_file, ".part"), out_file)
  ), script)
  old <- Sys.getenv(c("R_LIBS", "R_TESTS"), unset = NA)
  on.exit(for (v in names(old)) {
    if (is.na(old[[v]])) Sys.unsetenv(v) else do.call(Sys.setenv, as.list(old[v]))
  }, add = TRUE)
  Sys.setenv(R_LIBS = session_libs(), R_TESTS = "")
  system2(rscript(), c("--vanilla", script), wait = FALSE, stdout = FALSE, stderr = FALSE)
  for (i in 1:600) {
    if (file.exists(pid_file) && length(readLines(pid_file)) == 1L) break
    Sys.sleep(0.05)
  }
  expect_true(file.exists(pid_file))
  sent <- as.numeric(Sys.time())
  expect_true(tools::pskill(as.integer(readLines(pid_file)), tools::SIGINT))
  for (i in 1:1200) {
    if (file.exists(out_file)) break
    Sys.sleep(0.05)
  }
  res <- readRDS(out_file)
  expect_identical(res$message, "R interrupt")
  expect_identical(res$tries, 1) # try() let the interrupt through
  expect_true(res$second)
  expect_true(res$cached)
  # The child stopped after the signal (how fast is measured by the benchmarks: a
  # loaded machine makes any bound here flaky).
  expect_gt(res$caught, sent)
})
