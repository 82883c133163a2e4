# How blocks read files (option gufunc.file_reads): in place through the mapping or
# with pread(), the same values either way, and "auto" choosing by a measurement.

file_reads <- function(forget = FALSE) .Call(gufunc:::C_test_file_reads, forget)
mapped_bytes <- function() engine_counters()[[3]]

test_that("mapped and pread reads give the same values, with 1 and 2 threads and odd blocks", {
  n <- 200003
  v <- sin(seq_len(n)) * 1e3
  w <- cos(seq_len(n)) + 2
  path_v <- withr::local_tempfile(fileext = ".npy")
  path_w <- withr::local_tempfile(fileext = ".npy")
  materialize(lazy(v), file = path_v)
  materialize(lazy(w), file = path_w)
  x <- lazy_file(path_v)
  y <- lazy_file(path_w)
  expected_sum <- sum((v - 273.15) * 1.8 + 32 - w / 10)
  expected_values <- sqrt(v * v + 1) / w
  for (how in c("mapped", "pread", "auto")) {
    for (threads in 1:2) {
      for (block in list(NULL, 4099L)) {
        withr::local_options(gufunc.file_reads = how, gufunc.threads = threads,
                             gufunc.block_size = block)
        expect_identical(sum((x - 273.15) * 1.8 + 32 - y / 10), expected_sum)
        expect_identical(materialize(sqrt(x * x + 1) / y), expected_values)
        expect_identical(materialize(x[1000:1]), v[1000:1])
      }
    }
  }
})

test_that("mapped reads consecutive elements in place, pread does not", {
  n <- 100000
  path <- withr::local_tempfile(fileext = ".npy")
  materialize(lazy(as.numeric(seq_len(n))), file = path)
  x <- lazy_file(path)
  withr::local_options(gufunc.file_reads = "mapped")
  before <- mapped_bytes()
  expect_identical(sum(x * 2), n * (n + 1))
  expect_gte(mapped_bytes() - before, 8 * n)
  withr::local_options(gufunc.file_reads = "pread")
  before <- mapped_bytes()
  expect_identical(sum(x * 2), n * (n + 1))
  expect_identical(mapped_bytes() - before, 0)
})

test_that("a bad gufunc.file_reads is a classed error naming the option", {
  path <- withr::local_tempfile(fileext = ".npy")
  materialize(lazy(as.numeric(1:10)), file = path)
  x <- lazy_file(path)
  withr::local_options(gufunc.file_reads = "fast")
  expect_error(sum(x), class = "gufunc_argument_error")
  expect_error(sum(x), "gufunc.file_reads")
  expect_error(lazy_file(path), "\"auto\", \"mapped\" or \"pread\", not \"fast\"")
  withr::local_options(gufunc.file_reads = NA_character_)
  expect_error(sum(x), class = "gufunc_argument_error")
})

test_that("auto measures both ways once, on the first large file, and reads the faster", {
  skip_on_cran()  # writes a 64 MB file
  file_reads(forget = TRUE)
  withr::defer(file_reads(forget = TRUE))
  withr::local_options(gufunc.file_reads = "auto")
  small <- withr::local_tempfile(fileext = ".npy")
  materialize(lazy(as.numeric(1:1000)), file = small)
  lazy_file(small)
  expect_identical(file_reads()[1:2], c(0, 0))  # too small to be measured
  big <- withr::local_tempfile(fileext = ".npy")
  n <- 2^23  # 64 MiB of doubles
  materialize(lazy(as.numeric(seq_len(n))), file = big)
  x <- lazy_file(big)
  m <- file_reads()
  expect_true(all(m[1:2] > 0))
  expect_identical(m[[3]], if (m[[1]] <= m[[2]]) 1 else 0)
  expect_identical(sum(x), n * (n + 1) / 2)
  lazy_file(big)
  expect_identical(file_reads(), m)  # measured once
  # A way set by the option is used without measuring.
  file_reads(forget = TRUE)
  withr::local_options(gufunc.file_reads = "pread")
  lazy_file(big)
  expect_identical(file_reads()[1:2], c(0, 0))
})
