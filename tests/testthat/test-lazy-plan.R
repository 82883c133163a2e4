# lazy_plan(): kernels, instructions, inputs, block size, threads and bytes moved.

test_that("a plan describes the fused evaluation of an expression", {
  a <- lazy(runif(1e6))
  b <- runif(1e6)
  with_options(list(gufunc.threads = 2, gufunc.block_size = 4096), {
    p <- lazy_plan(sqrt(a * a + b) + 1)
    expect_s3_class(p, "gufunc_lazy_plan")
    expect_identical(p$threads, 2L)
    expect_identical(p$block_size, 4096)
    expect_length(p$inputs, 2L)
    instructions <- unlist(lapply(p$kernels, `[[`, "instructions"))
    expect_length(instructions, 4L)
    expect_true(any(grepl("sqrt", instructions, fixed = TRUE)))
    # read a and b once, write the result once: 24 MB; base R moves a temporary
    # per operation.
    expect_identical(p$bytes_read + p$bytes_written, 24e6)
    expect_gt(p$base_r_bytes, p$bytes_read + p$bytes_written)
    out <- capture.output(print(p))
    expect_match(out[1], "<gufunc_lazy_plan> map double[1000000], deferred", fixed = TRUE)
    expect_match(out[2], "kernel.*blocks of 4,096 elements, 2 threads")
    expect_true(any(grepl("memory traffic: reads 16 MB, writes 8 MB", out, fixed = TRUE)))
    expect_true(any(grepl("sqrt", out, fixed = TRUE)))
  })
})

test_that("a plain vector used by several operations is one input, read once", {
  x <- runif(1e6)
  a <- lazy(x)
  b <- runif(1e6)
  p <- lazy_plan((a + b) * b - b)
  expect_length(p$inputs, 2L)
  expect_identical(p$bytes_read, 16e6)
  for_engine_settings(expect_identical(materialize((a + b) * b - b), (x + b) * b - b))
  m <- matrix(runif(8e4), 8)
  w <- inner(lazy(m) * 2, m)
  expect_length(lazy_plan(w)$inputs, 1L)
  expect_identical(materialize(w), inner(m * 2, m))
})

test_that("every kernel of a plan prints with its instructions and split reason", {
  a <- lazy(runif(1e5))
  p <- lazy_plan(exp(-a * a / 2) * sin(a) + a)
  out <- capture.output(print(p))
  for (k in seq_along(p$kernels)) {
    expect_true(any(grepl(sprintf("^kernel %d ", k), out)))
    for (ins in p$kernels[[k]]$instructions) expect_true(ins %in% trimws(out))
    reason <- p$kernels[[k]]$split_reason
    if (nzchar(reason)) expect_true(any(grepl(reason, out, fixed = TRUE)))
  }
})

test_that("lazy_plan() takes lazy values only", {
  expect_error(lazy_plan(1:3), "argument `x`", class = "gufunc_type_error")
  expect_error(lazy_plan("a"), "argument `x`", class = "gufunc_type_error")
})
