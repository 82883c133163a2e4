# Views of file-backed values read with pread(), never through the mapping
# (src/engine/file_reads.cpp): every view form gives the values base R gives on the
# array in memory, and memory stays bounded when a view reads across the file.

npy_of <- function(values, dir) {
  f <- tempfile(tmpdir = dir, fileext = ".npy")
  materialize(values, file = f)
  f
}

test_that("every view of a file reads the values of the same view in memory", {
  skip_on_os("windows")
  set.seed(21)
  d <- tempfile()
  dir.create(d)
  on.exit(unlink(d, recursive = TRUE))
  m <- matrix(rnorm(300 * 170), 300)
  m[sample(length(m), 50)] <- NA
  im <- matrix(sample(c(-9:9, NA), 120 * 70, TRUE), 120)
  x <- lazy_file(npy_of(m, d))
  xi <- lazy_file(npy_of(im, d))
  n <- nrow(m)
  for (block in list(NULL, 7L, 1000L)) {
    old <- options(gufunc.block_size = block)
    for_threads({
      expect_identical(materialize(t(x)), t(m))
      expect_identical(materialize(t(x) * 2), t(m) * 2)
      expect_identical(materialize(t(x)[2:50, 3:9]), t(m)[2:50, 3:9])
      expect_identical(materialize(rev(x)), rev(m))
      expect_identical(materialize(x[2:100, ]), m[2:100, ])
      expect_identical(materialize(x[-1, ] - x[-n, ]), m[-1, ] - m[-n, ])
      expect_identical(materialize(x[, 3:7]), m[, 3:7])
      expect_identical(materialize(x[c(n, 1:(n - 1)), ]), m[c(n, 1:(n - 1)), ])
      expect_identical(materialize(x[5, ]), m[5, ])
      expect_identical(materialize(rep(x[1:1000], each = 3)), rep(m[1:1000], each = 3))
      expect_identical(materialize(rep(x[1:1000], times = 4)), rep(m[1:1000], times = 4))
      expect_identical(sum(t(x), na.rm = TRUE), sum(t(m), na.rm = TRUE))
      expect_identical(rowSums(t(x)), rowSums(t(m)))
      expect_identical(colMeans(t(x), na.rm = TRUE), colMeans(t(m), na.rm = TRUE))
      expect_identical(materialize(t(xi) %/% 2L), t(im) %/% 2L)
      expect_identical(materialize(rev(xi)), rev(im))
      expect_identical(sum(xi[3:50, ], na.rm = TRUE), sum(im[3:50, ], na.rm = TRUE))
    })
    options(old)
  }
})

test_that("rep() of a slice of a file repeats the file's values, not a copy", {
  skip_on_os("windows")
  d <- tempfile()
  dir.create(d)
  on.exit(unlink(d, recursive = TRUE))
  v <- runif(5e4)
  x <- lazy_file(npy_of(v, d))
  for (r in list(rep(x[2:40000], each = 3), rep(x[2:40000], times = 2))) {
    expect_true(is_lazy(r))
    expect_match(capture.output(print(lazy_plan(r))), "from file", all = FALSE)
  }
  expect_identical(materialize(rep(x[2:40000], each = 3) * 2), rep(v[2:40000], each = 3) * 2)
  expect_identical(materialize(rep(x[2:40000], times = 2)), rep(v[2:40000], times = 2))
})

test_that("expressions of several transposed files read each from its own tiles", {
  skip_on_os("windows")
  d <- tempfile()
  dir.create(d)
  on.exit(unlink(d, recursive = TRUE))
  set.seed(4)
  ms <- lapply(1:5, function(k) matrix(rnorm(400 * 300), 400))
  xs <- lapply(ms, function(m) lazy_file(npy_of(m, d)))
  old <- options(gufunc.block_size = 1000L)  # blocks of a few columns of each
  on.exit(options(old), add = TRUE)
  for_threads({
    expect_identical(materialize(t(xs[[1]]) * t(xs[[2]])), t(ms[[1]]) * t(ms[[2]]))
    # Five views: more than the tiles a thread keeps, each replaced in turn.
    expect_identical(
      materialize(t(xs[[1]]) + t(xs[[2]]) + t(xs[[3]]) + t(xs[[4]]) + t(xs[[5]])),
      t(ms[[1]]) + t(ms[[2]]) + t(ms[[3]]) + t(ms[[4]]) + t(ms[[5]]))
  })
})

test_that("a transposed file of bytes is widened to logicals", {
  skip_on_os("windows")
  f <- tempfile(fileext = ".npy")
  on.exit(unlink(f))
  bits <- rep(c(0, 1, 7, 0, 255, 0, 1), length.out = 40 * 90)
  # A version 1.0 header of a 40 x 90 uint8 array in Fortran order.
  dict <- "{'descr': '|u1', 'fortran_order': True, 'shape': (40, 90), }"
  size <- 64L * ceiling((10 + nchar(dict) + 1) / 64) - 10L
  header <- c(as.raw(0x93), charToRaw("NUMPY"), as.raw(c(1, 0, size %% 256, size %/% 256)),
              charToRaw(paste0(dict, strrep(" ", size - nchar(dict) - 1L), "\n")))
  writeBin(c(header, as.raw(bits)), f)
  b <- lazy_file(f)
  expected <- matrix(bits != 0, 40)
  for_threads({
    expect_identical(materialize(t(b)), t(expected))
    expect_identical(materialize(rev(b)), rev(expected))
    expect_identical(materialize(b[3:30, 2:80]), expected[3:30, 2:80])
    expect_identical(sum(t(b)[, 5]), sum(expected[5, ]))
  })
})

test_that("lines read from a file are not reused once another file is mapped", {
  skip_on_os("windows")
  f <- tempfile(fileext = ".npy")
  on.exit(unlink(f))
  for (k in 1:4) {
    m <- matrix(k * (1:6000), 60)
    materialize(m, file = f)
    x <- lazy_file(f)
    expect_identical(materialize(t(x)), t(m))
    rm(x)
    gc()
  }
})

test_that("a transposed read of a file cut short is an error", {
  skip_on_os("windows")
  f <- tempfile(fileext = ".npy")
  on.exit(unlink(f))
  materialize(matrix(runif(4e4), 200), file = f)
  x <- lazy_file(f)
  close(file(f, "w"))
  expect_error(materialize(t(x)), class = "gufunc_file_changed_error")
})

test_that("a transposed or sliced read across a large file keeps memory bounded", {
  skip_on_cran()
  skip_on_os("windows")
  skip_without_rss()
  f <- tempfile(fileext = ".npy")
  on.exit(unlink(f))
  got <- child_last_line(c(
    "suppressMessages(library(gufunc))",
    sprintf("f <- '%s'", f),
    "m <- matrix(as.double(seq_len(2.5e7)), 2500)",  # 200 MB
    "materialize(m, file = f)",
    "expected <- c(sum(t(m) * 2), sum(m[2:100, ]), sum(m[7, ]))",
    "rm(m); invisible(gc())",
    "x <- lazy_file(f)",
    "peak <- function() as.numeric(gsub('[^0-9]', '',",
    "  grep('^VmHWM', readLines('/proc/self/status'), value = TRUE))) / 1024",
    rss_lines,
    "cat('5', file = '/proc/self/clear_refs'); before <- peak(); resident <- rss_mb()",
    "got <- c(sum(t(x) * 2), sum(x[2:100, ]), sum(x[7, ]))",
    "rm(x); invisible(gc())",  # the last file unmapped: the read caches are freed
    "cat(peak() - before, identical(got, expected), rss_mb() - resident, '\\n')"
  ))
  expect_lt(as.numeric(got[1]), 100)  # through the mapping: over 200
  expect_identical(got[2], "TRUE")
  expect_lt(as.numeric(got[3]), 12)  # the tiles and line caches (16 MB each) are gone
})

test_that("staged values are computed a chunk at a time, with base R's bits", {
  skip_on_cran()
  set.seed(5)
  v <- runif(1e7) - 0.5  # 80 MB: over the 64 MB a chunk of staged values may take
  engine_counters()
  expect_identical(sum(cumsum(lazy(v))), sum(cumsum(v)))
  expect_lt(engine_counters()[[2]], 8e7)
  expect_identical(mean(cumsum(lazy(v)) * 2), mean(cumsum(v) * 2))  # two passes
  expect_identical(materialize(cummax(lazy(v)) - lazy(v)), cummax(v) - v)
  expect_lt(engine_counters()[[2]], 8e7 + 1)  # the result itself
})

test_that("outer() with one lazy operand repeats the other as a view", {
  x <- runif(7)
  y <- lazy(runif(3e4))
  for (f in list("*", "-", function(a, b) a / b)) {
    o <- outer(x, y, f)
    expect_true(is_lazy(o))
    expect_identical(materialize(o), outer(x, materialize(y), f))
    expect_identical(materialize(outer(y, x, f)), outer(materialize(y), x, f))
  }
  plan <- capture.output(print(lazy_plan(outer(x, y, "-"))))
  expect_length(grep("^  x[0-9]+: .*view", plan), 2)
})

test_that("matmul() of a long file is computed a block of columns or of rows at a time", {
  skip_on_cran()
  skip_on_os("windows")
  f <- tempfile(fileext = ".npy")
  on.exit(unlink(f))
  set.seed(9)
  m <- matrix(runif(3000 * 3000) - 0.5, 3000)  # 72 MB: over the 64 MB that splits
  m[sample(length(m), 20)] <- c(NA, NaN, Inf, -Inf)
  materialize(m, file = f)
  x <- lazy_file(f)
  v <- runif(3000)
  b <- matrix(rnorm(3000 * 3), 3000)
  # Blocks of columns (runs of the file) sum each element on from the block before;
  # a transposed file is read by blocks of rows (its rows are runs of the file).
  expect_match(capture.output(print(lazy_plan(matmul(x, v)))), "the sums carried",
               all = FALSE)
  expect_match(capture.output(print(lazy_plan(matmul(t(x), b)))), "a block of its rows",
               all = FALSE)
  expect_no_match(capture.output(print(lazy_plan(matmul(lazy(m), v)))), "a block of")
  for_threads({
    engine_counters()
    # (m has NA, NaN and Inf: a sum that is not finite after a block of columns
    # would spoil its row, so those products go by blocks of rows instead.)
    expect_identical(materialize(matmul(x, v)), materialize(matmul(m, v)))
    expect_identical(materialize(matmul(x, b)), materialize(matmul(m, b)))
    expect_lt(engine_counters()[[2]], 64e6)  # a block of rows, not the whole file
    expect_identical(materialize(matmul(t(x), b)), materialize(matmul(t(m), b)))
    expect_identical(materialize(matmul(x[-1, ], b)), materialize(matmul(m[-1, ], b)))
  })
  m[!is.finite(m)] <- 0.5
  materialize(m, file = f)
  x <- lazy_file(f)
  for_threads({
    engine_counters()
    expect_identical(materialize(matmul(x, v)), materialize(matmul(m, v)))
    expect_identical(materialize(matmul(x, b)), materialize(matmul(m, b)))
    expect_lt(engine_counters()[[2]], 64e6)  # blocks of columns
  })
})

test_that("matmul(t(x), x) of a tall file is computed a block of its shared dim at a time", {
  skip_on_cran()
  skip_on_os("windows")
  f <- tempfile(fileext = ".npy")
  on.exit(unlink(f))
  set.seed(10)
  m <- matrix(rnorm(600000 * 8), ncol = 8)  # both operands 77 MB: over the 64 MB that splits
  materialize(m, file = f)
  x <- lazy_file(f)
  y <- matrix(runif(600000 * 3), ncol = 3)
  expect_match(capture.output(print(lazy_plan(matmul(t(x), x)))), "the sums carried",
               all = FALSE)
  expect_no_match(capture.output(print(lazy_plan(matmul(t(x), x)))), "copied whole")
  expect_no_match(capture.output(print(lazy_plan(matmul(t(lazy(m)), m)))), "the sums carried")
  for_threads({
    engine_counters()
    expect_identical(materialize(matmul(t(x), x)), materialize(matmul(t(m), m)))
    expect_lt(engine_counters()[[2]], 30e6)  # blocks, not the whole file
    expect_identical(materialize(matmul(t(x), y)), materialize(matmul(t(m), y)))
    expect_identical(materialize(matmul(t(x[-1, ]), x[-1, 2:5])),
                     materialize(matmul(t(m[-1, ]), m[-1, 2:5])))
  })
  # Integers (genotypes, say) are read as doubles, as matmul() reads them.
  g <- matrix(sample(0:2, 600000 * 8, TRUE), ncol = 8)
  materialize(g, file = f)
  x <- lazy_file(f)
  expect_identical(typeof(x), "integer")
  expect_match(capture.output(print(lazy_plan(matmul(t(x), x)))), "the sums carried",
               all = FALSE)
  expect_identical(materialize(matmul(t(x), x)), materialize(matmul(t(g), g)))
  for (rows in list(c(10, 400000), 550000)) {  # NA from the first block on; in the last only
    h <- g
    h[rows, 3] <- NA
    materialize(h, file = f)
    x <- lazy_file(f)
    expect_identical(materialize(matmul(t(x), x)), materialize(matmul(t(h), h)))
  }
  # A sum that is not finite after a block would spoil its row: computed whole.
  m[c(3, 500000), c(2, 5)] <- c(Inf, NA, -Inf, NaN)
  materialize(m, file = f)
  x <- lazy_file(f)
  expect_identical(materialize(matmul(t(x), x)), materialize(matmul(t(m), m)))
  expect_identical(materialize(matmul(t(x), y)), materialize(matmul(t(m), y)))
})
