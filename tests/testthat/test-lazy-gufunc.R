# Gufuncs with core dimensions in lazy graphs: gufunc_call() with a lazy argument
# records a gufunc node; element-wise producers of its operands run per block of
# loop iterations; results are identical() to eager calls.

test_kernels()
lazy_test_kernels <- function() invisible(.Call(gufunc:::C_register_lazy_test_kernels))
lazy_test_kernels()
# Small operands are deferred too (see helper-lazy.R for the default threshold), in
# this file only.
withr::local_options(gufunc.lazy_min_length = 0)
t_inner <- function(...) gufunc_call("inner", ..., namespace = "gufunc_test")
t_matvec <- function(...) gufunc_call("matvec", ..., namespace = "gufunc_test")
t_spread <- function(...) gufunc_call("spread", ..., namespace = "gufunc_test")
t_running <- function(...) gufunc_call("running_sum", ..., namespace = "gufunc_test_lazy")
t_sumsq <- function(...) gufunc_call("sumsq_checked", ..., namespace = "gufunc_test_lazy")

set.seed(42)
n <- 5L
L <- 37L
A <- matrix(runif(n * L), n)
B <- matrix(runif(n * L), n)
C <- matrix(runif(n * L), n)
A[2, 3] <- NA
B[4, 5] <- NaN
M <- array(runif(3 * n * L), c(3, n, L))
I <- matrix(sample(-5:5, n * L, TRUE), n)
I[1, 2] <- NA

test_that("gufunc_call() with a lazy argument records a gufunc node", {
  z <- t_inner(lazy(A) * B, C)
  expect_true(is_lazy(z))
  expect_false(is_materialized(z))
  expect_identical(length(z), L)
  expect_null(dim(z))
  expect_match(gufunc:::lazy_state(z), "deferred")
  expect_match(.Call(gufunc:::C_lazy_describe, z), "^gufunc double\\[37\\]")
  m <- t_matvec(lazy(M), A[, 1])
  expect_identical(dim(m), dim(t_matvec(M, A[, 1])))
  expect_false(is_materialized(m))
  expect_identical(materialize(z), t_inner(A * B, C))
})

test_that("lazy gufunc results are identical to eager ones for any threads and blocks", {
  M4 <- array(runif(3 * n * 4 * 6), c(3, n, 4, 6))
  X4 <- array(runif(n * 4 * 6), c(n, 4, 6))
  cases <- list(
    inner = function(f) t_inner(f(A) * B, C),
    inner_both = function(f) t_inner(f(A) + 1, sqrt(f(B))),
    shared = function(f) { t <- f(A) * B; t_inner(t, t) },
    matvec = function(f) t_matvec(f(M) * 2, A),
    spread = function(f) t_spread(exp(f(A))),
    running = function(f) t_running(f(A) - B),
    integer = function(f) t_inner(f(I), f(I) * 2L),
    logical = function(f) t_running(f(A) > 0.5),
    broadcast_vector = function(f) t_inner(f(A) * B, C[, 1]),
    broadcast_lazy = function(f) t_inner(f(A) * B, f(C[, 1]) * 3),
    broadcast_loop = function(f) t_matvec(f(M4), f(X4[, 1:2, , drop = FALSE][, 1, , drop = FALSE]) + 1),
    multi_loop = function(f) t_matvec(f(M4) - 1, f(X4) / 2),
    scalar = function(f) t_inner(f(A[1, , drop = FALSE]), 2),
    # (element-wise operations on zero-length lazy values are computed at once)
    empty_loop = function(f) t_inner(f(A[, 0, drop = FALSE]), C[, 0, drop = FALSE]),
    empty_core = function(f) t_inner(f(A[0, , drop = FALSE]), C[0, , drop = FALSE]),
    empty_out = function(f) t_running(f(A[0, , drop = FALSE])),
    nested = function(f) t_inner(t_running(f(A)) * 2, f(B)),
    consumer = function(f) sqrt(t_inner(f(A), B)) + f(C)[1, ]
  )
  for_engine_settings({
    for (name in names(cases)) {
      expected <- cases[[name]](identity)
      got <- cases[[name]](lazy)
      expect_true(is_lazy(got), label = name)
      expect_identical(materialize(got), expected, label = name)
    }
  })
})

test_that("reductions of a lazy gufunc match base R", {
  for_engine_settings({
    z <- t_inner(lazy(A) * B, C)
    e <- t_inner(A * B, C)
    expect_identical(sum(z), sum(e))
    expect_identical(max(z, na.rm = TRUE), max(e, na.rm = TRUE))
    expect_equal(mean(t_running(lazy(C) * 2)), mean(t_running(C * 2)), tolerance = 1e-14)
  })
})

test_that("element-wise functions called through gufunc_call() map lazily", {
  x <- lazy(A)
  z <- gufunc_call("+", x, B)
  expect_true(is_lazy(z))
  expect_identical(materialize(z), A + B)
  expect_identical(materialize(gufunc_call("sqrt", x)), sqrt(A))
})

test_that("functions with several outputs are computed at once on lazy arguments", {
  mm <- function(...) gufunc_call("min_max", ..., namespace = "gufunc_test_lazy")
  res <- mm(lazy(C) * 2)
  expect_false(is_lazy(res[[1L]]))
  expect_identical(res, mm(C * 2))
})

test_that("shape and type errors are raised at the call, as for eager calls", {
  eager <- tryCatch(t_inner(A, matrix(1, 4, L)), error = identity)
  lazy_err <- tryCatch(t_inner(lazy(A), matrix(1, 4, L)), error = identity)
  expect_s3_class(lazy_err, "gufunc_shape_error")
  expect_identical(conditionMessage(lazy_err), conditionMessage(eager))
  expect_error(t_inner(lazy(A), matrix(1, n, 3)), "do not broadcast", class = "gufunc_shape_error")
  expect_error(t_spread(lazy(matrix(1, 1, 2000))), "at least 2", class = "gufunc_shape_error")
  expect_error(gufunc_call("inner", lazy(A), "a", namespace = "gufunc_test"),
               class = "gufunc_type_error")
})

test_that("a kernel error is raised at materialization and stored", {
  x <- C
  x[3, 7] <- -1
  for_threads({
    z <- t_sumsq(lazy(x) * 1)
    expect_error(materialize(z), "failed for slice \\[, 7\\]: negative value -1",
                 class = "gufunc_kernel_error")
    expect_match(gufunc:::lazy_state(z), "^failed: kernel of `sumsq_checked`")
    expect_error(z[1], "slice \\[, 7\\]", class = "gufunc_kernel_error")
    expect_error(materialize(z), "slice \\[, 7\\]", class = "gufunc_kernel_error")
    # Only the slices read are computed: the first six are fine.
    z2 <- t_sumsq(lazy(x) * 1)
    expect_identical(z2[1:6], t_sumsq(C[, 1:6]))
  })
})

test_that("reading part of a lazy gufunc runs only the loop iterations holding it", {
  big <- array(runif(3 * 3 * 2e4), c(3, 3, 2e4))
  v <- runif(3 * 2e4)
  dim(v) <- c(3, 2e4)
  z <- t_matvec(lazy(big) * 2, v)
  engine_counters()
  expect_identical(z[4:6], t_matvec(big[, , 2] * 2, v[, 2]))
  expect_identical(engine_counters()[[1]], 1)
  expect_identical(z[[7]], t_matvec(big[, , 3] * 2, v[, 3])[[1]])
  out <- capture.output(print(z))
  expect_match(out[1], "<gufunc_lazy double[3 x 20000], deferred>", fixed = TRUE)
  expect_false(is_materialized(z))
  # The printed corner: at most 40 columns (2 characters each in 80), 40 iterations.
  expect_lte(engine_counters()[[1]], 45)
  engine_counters()
  expect_identical(head(t_inner(lazy(v) * 2, v)), head(t_inner(v * 2, v)))
  expect_lte(engine_counters()[[1]], 6)
  # A consumer of the gufunc reads only its part of the gufunc's output as well.
  w <- sqrt(t_inner(lazy(v), v)) + 1
  expect_identical(w[10:12], sqrt(t_inner(v[, 10:12], v[, 10:12])) + 1)
  expect_identical(engine_counters()[[1]], 3)
})

test_that("inner(a * b, c) allocates no temporary of the operands' length", {
  nn <- 8L
  LL <- 50000L
  a <- matrix(runif(nn * LL), nn)
  b <- matrix(runif(nn * LL), nn)
  c <- matrix(runif(nn * LL), nn)
  engine_counters()
  with_options(list(gufunc.threads = 2), {
    z <- materialize(t_inner(lazy(a) * b, c))
  })
  expect_identical(z, t_inner(a * b, c))
  counters <- engine_counters()
  expect_identical(counters[[1]], as.numeric(LL))
  expect_lt(counters[[2]], nn * LL * 8 / 10) # no full-length temporary
  # A broadcast operand is computed whole first: the counter sees its buffer.
  materialize(t_inner(lazy(a) * b, lazy(c[, 1]) * 2))
  expect_identical(engine_counters()[[2]], nn * 8)
})

test_that("lazy_plan() shows gufunc nodes, their kernel and where fusion stops", {
  z <- t_inner(lazy(A) * B, C)
  p <- lazy_plan(z)
  expect_length(p$kernels, 1L)
  ins <- p$kernels[[1]]$instructions
  expect_length(ins, 2L)
  expect_match(ins[2], "out = `inner`(t1, C)  [double(n), double(n) -> double()]", fixed = TRUE)
  expect_match(ins[2], "core n = 5; 37 loop iterations", fixed = TRUE)
  expect_match(ins[1], "(5 per loop iteration)", fixed = TRUE)
  out <- capture.output(print(p))
  expect_true(any(grepl("runs in blocks of .* loop iterations", out)))

  p <- lazy_plan(sqrt(t_inner(lazy(A), B)) + 1)
  expect_length(p$kernels, 2L)
  expect_match(p$kernels[[1]]$split_reason, "output of gufunc `inner` is read whole")
  expect_match(p$kernels[[2]]$notes, "fusion stops", all = FALSE)
  expect_match(p$kernels[[2]]$notes, "instructions 1-2 run fused", all = FALSE)  # sqrt, +

  p <- lazy_plan(t_inner(lazy(A) * B, lazy(C[, 1]) * 2))
  expect_length(p$kernels, 2L)
  expect_match(p$kernels[[1]]$split_reason, "operand 2 of `inner` is computed whole first")
  out <- capture.output(print(p))
  expect_true(any(grepl("fusion stops: operand 2 of `inner`", out, fixed = TRUE)))

  p <- lazy_plan(t_matvec(lazy(array(1, c(2, 3, 4, 5))), matrix(1, 3, 4)))
  expect_match(p$kernels[[1]]$instructions, "20 loop iterations (4 x 5)", fixed = TRUE)
})

test_that("builtin gufuncs are lazy too", {
  skip_if(nrow(gufunc_kernels("matmul")) == 0L, "matmul not built in yet")
  X <- array(runif(2 * 3 * 40), c(2, 3, 40))
  Y <- array(runif(3 * 4 * 40), c(3, 4, 40))
  base_call <- function(name, ...) gufunc_call(name, ..., namespace = "base")
  cases <- list(
    matmul = function(f) base_call("matmul", f(X) * 2, Y),
    inner = function(f) base_call("inner", f(A) * B, C),
    cumsum = function(f) base_call("cumsum", f(A) + 1),
    sum = function(f) base_call("sum", f(A) * B),
    max = function(f) base_call("max", f(B) - 1),
    det = function(f) base_call("det", f(X[, 1:2, ]) * 3),
    solve = function(f) base_call("solve", f(X[, 1:2, ]) + 1, Y[1:2, , ])
  )
  for_engine_settings({
    for (name in names(cases)) {
      if (nrow(gufunc_kernels(name)) == 0L) next
      got <- cases[[name]](lazy)
      expect_true(is_lazy(got), label = name)
      expect_identical(materialize(got), cases[[name]](identity), label = name)
    }
  })
  # The R wrappers take lazy values (looked up: they may be newer than this test).
  ns <- asNamespace("gufunc")
  skip_if_not(all(c("matmul", "inner", "gu_eigen") %in% names(ns)), "wrappers not there yet")
  expect_identical(materialize(ns$matmul(lazy(X), Y)), ns$matmul(X, Y))
  expect_identical(materialize(ns$inner(lazy(A) * B, C)), ns$inner(A * B, C))
  # Several outputs: computed at once (where fusion stops).
  S <- crossprod(matrix(runif(9), 3))
  e <- ns$gu_eigen(lazy(S) * 1)
  expect_false(is_lazy(e$values))
  expect_identical(e, ns$gu_eigen(S))
})

test_that("a chain of any number of gufunc calls works", {
  m <- matrix(runif(8), 4)
  x <- lazy(m)
  y <- x
  for (i in 1:80) y <- t_running(y * 0.5)
  expect_false(is_materialized(y)) # within the nesting limit: one deferred graph
  expect_identical(materialize(y), Reduce(function(v, i) t_running(v * 0.5), 1:80, m))
  # Beyond 100 nested calls an operand is computed first, bounding the recursion.
  for (i in 1:2500) x <- t_running(x * 0.5)
  expect_identical(materialize(x), Reduce(function(v, i) t_running(v * 0.5), 1:2500, m))
})
