# A single gufunc slice can take seconds (one 2000 x 2000 matmul has no loop dims to
# cut into rounds), so the O(n^3) kernels ask gufunc_should_stop() as they go and the
# main thread answers with the rounds' own interrupt check. A simulated Ctrl-C at the
# third check proves it: one slice is one round, with one check after it, so only a
# kernel that asks during its work can reach the third check. A real SIGINT and
# setTimeLimit() run in a child process.

# Runs `expr` with a simulated Ctrl-C at the k-th interrupt check; returns its
# condition (NULL when it ran to the end).
interrupted_at <- function(expr, k = 3L) {
  .Call(gufunc:::C_test_interrupt_at_check, k)
  on.exit(.Call(gufunc:::C_test_interrupt_at_check, 0L))
  tryCatch({
    expr
    NULL
  }, error = identity)
}

test_that("one long matmul slice stops inside the kernel, eager and lazy", {
  set.seed(41)
  A <- matrix(runif(1500 * 1500), 1500)
  B <- matrix(runif(1500 * 1500), 1500)
  expected <- A %*% B + 1
  for_threads({
    # A product too short to ask sees only the check after its round.
    expect_null(interrupted_at(matmul(A[1:50, 1:50], B[1:50, 1:50])))
    expect_s3_class(interrupted_at(matmul(A, B)), "gufunc_interrupt")
    x <- matmul(lazy(A), lazy(B)) + 1
    expect_s3_class(interrupted_at(materialize(x)), "gufunc_interrupt")
    expect_false(gufunc:::is_materialized(x)) # nothing partial was kept
    expect_identical(materialize(x), expected) # and it evaluates again, the same
    expect_identical(matmul(diag(3) * 2, diag(3)), diag(3) * 2) # the session goes on
  })
})

test_that("long det, solve and eigen slices stop inside the kernel", {
  set.seed(42)
  M <- random_stack(1200, 1)[, , 1]
  S <- crossprod(matrix(rnorm(300 * 300), 300))
  for_threads({
    expect_s3_class(interrupted_at(gu_det(M)), "gufunc_interrupt")
    expect_s3_class(interrupted_at(gu_solve(M)), "gufunc_interrupt")
    expect_s3_class(interrupted_at(gu_solve(M, M[, 1:2])), "gufunc_interrupt")
    expect_s3_class(interrupted_at(gu_eigen(S)), "gufunc_interrupt")
  })
})

test_that("a round of big slices on two threads stops on either thread", {
  set.seed(43)
  A <- array(runif(1000 * 1000 * 2), c(1000, 1000, 2))
  for_threads({
    expect_s3_class(interrupted_at(matmul(A, A)), "gufunc_interrupt")
    expect_s3_class(interrupted_at(materialize(matmul(lazy(A), lazy(A)) * 2)),
                    "gufunc_interrupt")
  })
})

test_that("a gufunc_cpp body that calls check_interrupt() stops inside its slice", {
  skip_on_cran()
  skip_if_no_cxx_compiler()
  slow <- gufunc_cpp("double(n) -> double()", c(
    "double s = 0;",
    "for (int r = 0; r < reps; ++r) {",
    "  check_interrupt();",
    "  for (R_xlen_t i = 0; i < n; ++i) s += x0[i] * r;",
    "}",
    "out0[0] = s;"
  ), params = c(reps = 20000), cache_dir = file.path(tempdir(), "interrupt-cpp"))
  x <- runif(1e5) # 2e9 multiply-adds: seconds in one slice
  for_threads({
    expect_s3_class(interrupted_at(slow(x)), "gufunc_interrupt")
    expect_s3_class(interrupted_at(materialize(slow(lazy(x)) + 1)), "gufunc_interrupt")
  })
  expect_equal(slow(c(1, 2)), 3 * sum(0:19999))
})

test_that("matmul stays identical to %*% for every shape, on 1 and 2 threads", {
  set.seed(44)
  shapes <- list(c(1, 1, 1), c(5, 7, 3), c(7, 1, 4), c(1, 9, 1), c(300, 200, 250),
                 c(257, 129, 65), c(4, 4, 4), c(3, 3, 1), c(600, 1, 600))
  for (s in shapes) {
    x <- matrix(rnorm(s[1] * s[2]), s[1])
    y <- matrix(rnorm(s[2] * s[3]), s[2])
    xs <- array(rnorm(s[1] * s[2] * 3), c(s[1], s[2], 3))
    ref <- x %*% y
    label <- paste(s, collapse = "x")
    for_threads({
      expect_identical(matmul(x, y), ref, label = label)
      expect_identical(materialize(matmul(lazy(x), lazy(y))), ref, label = label)
      expect_identical(materialize(matmul(t(lazy(t(x))), lazy(y))), ref, label = label)
      stacked <- matmul(xs, y)
      for (i in 1:3) {
        expect_identical(matrix(stacked[, , i], s[1]), matrix(xs[, , i], s[1]) %*% y,
                         label = label)
      }
    })
  }
})

test_that("Ctrl-C and setTimeLimit() stop one long matmul slice with R's own condition", {
  skip_on_cran()
  skip_on_os("windows")
  dir <- tempfile()
  dir.create(dir)
  on.exit(unlink(dir, recursive = TRUE))
  cases <- c(eager = "matmul(A, B)", lazy = "materialize(matmul(lazy(A), lazy(B)) + 1)")
  result <- file.path(dir, "result.rds")
  # 2500 x 2500: seconds per product on any machine, so a stop at the end of the
  # product would take far longer than the bounds below.
  start_child(c(
    "library(gufunc)",
    "options(gufunc.threads = 2)",
    "A <- matrix(runif(2500 * 2500), 2500); B <- matrix(runif(2500 * 2500), 2500)",
    child_reads_cases(cases, dir),
    "out <- list()",
    "for (k in seq_along(cases)) {",
    "  work <- str2lang(cases[[k]])",
    "  res <- NULL",
    "  file.create(ready[k])",
    "  r <- tryCatch({ for (i in 1:20) res <- eval(work); 'not interrupted' },",
    "                interrupt = function(e) 'R interrupt')",
    "  caught <- as.numeric(Sys.time())",
    "  started <- proc.time()[[3]]",
    "  e <- tryCatch({",
    "    setTimeLimit(elapsed = 0.5, transient = TRUE)",
    "    for (i in 1:20) eval(work)",
    "    NULL",
    "  }, error = function(e) e)",
    "  setTimeLimit()",
    "  out[[names(cases)[k]]] <- list(r = r, caught = caught, left = !is.null(res),",
    "    limit = conditionMessage(e), limit_class = class(e),",
    "    limit_after = proc.time()[[3]] - started,",
    "    after = identical(matmul(diag(3) * 2, diag(3)), diag(3) * 2))",
    "}",
    child_saves_out(result)
  ), dir)
  sent <- interrupt_each_case(dir, length(cases))
  expect_true(wait_for_file(result, 300))
  out <- readRDS(result)
  for (k in seq_along(cases)) {
    res <- out[[names(cases)[k]]]
    label <- names(cases)[k]
    expect_identical(res$r, "R interrupt", label = label)
    expect_false(res$left, label = label) # the interrupted call returned nothing
    expect_lt(res$caught - sent[k], 3, label = label) # not after the whole product
    expect_identical(res$limit, "reached elapsed time limit", label = label)
    expect_false("gufunc_error" %in% res$limit_class, label = label)
    expect_lt(res$limit_after, 3, label = label)
    expect_true(res$after, label = label)
  }
})
