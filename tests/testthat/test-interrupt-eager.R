# Everything long stops on Ctrl-C and at setTimeLimit()'s limit: eager gufunc calls
# (builtin and gufunc_cpp kernels) and lazy graphs with heavy gufunc cores or
# reductions run in rounds with R's interrupt check between them. A child R process
# runs each case, the parent sends SIGINT; R's own interrupt (or time-limit error)
# must arrive, the interrupted call must leave no result, and the session must go on.
# How fast it stops is measured by the benchmarks, not asserted here.

# The child's setup: small enough for a test machine, each case a few seconds of
# work repeated, so that the signal comes during the work however fast the machine.
# (x's values are kept once read twice, engine/reused_values.hpp: each lazy case
# computes sin() of them, 4e6 values a call, so that every call is work.)
child_setup <- c(
  "library(gufunc)",
  "options(gufunc.threads = 2)",
  "A <- array(runif(9 * 2e6), c(3, 3, 2e6))",
  "S <- array(0, c(20, 20, 2e4)); for (i in 1:20) S[i, i, ] <- i + runif(2e4)",
  "M <- array(runif(1000 * 1000 * 4), c(1000, 1000, 4))",
  "x <- lazy(matrix(runif(4e6), 2000)); for (i in 1:20) x <- sqrt(x * x + 1)"
)
child_cases <- c(
  matmul = "matmul(A, A)",
  gu_eigen = "gu_eigen(S)",
  lazy_gufunc = "materialize(matmul(lazy(M), lazy(M)) + 1)",
  lazy_rowsums = "rowSums(sin(x) * 2)",
  lazy_sum = "sum(sin(x) * 3)"
)

test_that("Ctrl-C stops eager gufuncs and heavy lazy graphs with R's interrupt", {
  skip_on_cran()
  skip_on_os("windows")
  dir <- tempfile()
  dir.create(dir)
  on.exit(unlink(dir, recursive = TRUE))
  cases <- child_cases
  cpp <- NULL
  if (tryCatch({ skip_if_no_cxx_compiler(); TRUE }, skip = function(e) FALSE)) {
    # Compiled here, loaded from the disk cache by the child.
    cache <- file.path(dir, "cache")
    body <- paste("double s = 0; for (int r = 0; r < 50; ++r)",
                  "for (R_xlen_t i = 0; i < n; ++i) s += sin(x0[i] + r); out0[0] = s;")
    gufunc_cpp("double(n) -> double()", body, cache_dir = cache)
    cpp <- sprintf("slow <- gufunc_cpp('double(n) -> double()', '%s', cache_dir = '%s')",
                   body, cache)
    cases <- c(cases, cpp_kernel = "slow(X)")
  }
  result <- file.path(dir, "result.rds")
  start_child(c(
    child_setup, cpp, "X <- matrix(runif(1000 * 2000), 1000)",
    child_reads_cases(cases, dir),
    "out <- list()",
    "for (k in seq_along(cases)) {",
    "  work <- str2lang(cases[[k]])",
    "  tries <- 0",
    "  file.create(ready[k])",
    "  r <- tryCatch({",
    "    for (i in 1:100) { res <- NULL; tries <- tries + 1; try(res <- eval(work), silent = TRUE) }",
    "    'not interrupted'",
    "  }, interrupt = function(e) 'R interrupt')",
    "  out[[names(cases)[k]]] <- list(r = r, tries = tries, left = !is.null(res),",
    "    after = isTRUE(all.equal(matmul(diag(3) * 2, diag(3)), diag(3) * 2)))",
    "}",
    child_saves_out(result)
  ), dir)
  interrupt_each_case(dir, length(cases))
  expect_true(wait_for_file(result, 300))
  out <- readRDS(result)
  for (case in names(cases)) {
    res <- out[[case]]
    expect_identical(res$r, "R interrupt", label = case)
    expect_false(res$left, label = case) # the interrupted call returned nothing
    expect_true(res$after, label = case) # and the session goes on
  }
})

test_that("setTimeLimit() stops eager gufuncs and lazy evaluations with R's own error", {
  skip_on_cran()
  skip_on_os("windows")
  dir <- tempfile()
  dir.create(dir)
  on.exit(unlink(dir, recursive = TRUE))
  result <- file.path(dir, "result.rds")
  saveRDS(child_cases, file.path(dir, "cases.rds"))
  start_child(c(
    child_setup,
    sprintf('cases <- readRDS("%s")', file.path(dir, "cases.rds")),
    "out <- list()",
    "for (k in seq_along(cases)) {",
    "  work <- str2lang(cases[[k]])",
    "  e <- tryCatch({",
    "    setTimeLimit(elapsed = 0.5, transient = TRUE)",
    "    for (i in 1:100) eval(work)",
    "    NULL",
    "  }, error = function(e) e)",
    "  setTimeLimit()",
    "  out[[names(cases)[k]]] <- list(class = class(e), message = conditionMessage(e),",
    "    after = isTRUE(all.equal(matmul(diag(3) * 2, diag(3)), diag(3) * 2)))",
    "}",
    child_saves_out(result)
  ), dir)
  expect_true(wait_for_file(result, 300))
  out <- readRDS(result)
  for (case in names(child_cases)) {
    res <- out[[case]]
    expect_identical(res$message, "reached elapsed time limit", label = case)
    expect_false("gufunc_error" %in% res$class, label = case)
    expect_true(res$after, label = case)
  }
})

test_that("rounds are sized by time and report increasing progress ending at the total", {
  # 400 items of 200 microseconds, the first round of 2: rounds grow at most 64-fold
  # (8-fold after a round of a millisecond or more).
  r <- .Call(C_test_rounds, 400, 2, 200)
  rounds <- r[[1]]
  expect_identical(rounds[1], 2)
  expect_identical(sum(rounds), 400)
  expect_true(all(rounds[-1] <= 64 * rounds[-length(rounds)]))
  expect_gt(length(rounds), 2) # 400 items take 80 ms: more than one long round
  expect_identical(r[[2]], cumsum(rounds))
  expect_true(all(r[[3]] == 400))

  x <- lazy(runif(3e5))
  for (i in 1:5) x <- sqrt(x * x + 1)
  p <- .Call(C_test_eval_progress, x)
  expect_true(length(p[[1]]) >= 1)
  expect_true(all(diff(p[[1]]) > 0))
  expect_identical(p[[1]][length(p[[1]])], p[[2]][1])
})
