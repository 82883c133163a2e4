# File-backed lazy values (lazy_file(), materialize(x, file =)): NumPy's own files
# (fixtures/npy, written by numpy.lib.format: make_fixtures.py), round trips, the
# same results as in memory with 1 and 2 threads and odd blocks, views, reductions,
# saving, change detection, bad files, and writes that fail or are killed.

npy <- function(name) test_path("fixtures", "npy", name)
# A version 1.0 header of n NumPy bools, as the format's description says.
npy_header_for_bytes <- function(n) {
  dict <- sprintf("{'descr': '|b1', 'fortran_order': False, 'shape': (%d,), }", n)
  size <- 64L * ceiling((10 + nchar(dict) + 1) / 64) - 10L
  c(as.raw(0x93), charToRaw("NUMPY"), as.raw(c(1, 0, size %% 256, size %/% 256)),
    charToRaw(paste0(dict, strrep(" ", size - nchar(dict) - 1L), "\n")))
}
v12 <- (0:11) * 1.5 - 2

test_that("NumPy's files read as the R values they hold", {
  expect_identical(materialize(lazy_file(npy("f8_vector.npy"))), v12)
  expect_identical(materialize(lazy_file(npy("f8_v2.npy"))), v12)
  expect_identical(materialize(lazy_file(npy("f8_v3.npy"))), v12)
  expect_identical(materialize(lazy_file(npy("f8_matrix_f.npy"))), matrix(v12, 3, 4))
  expect_identical(materialize(lazy_file(npy("f8_array3_f.npy"))), array(as.numeric(0:23), 2:4))
  expect_identical(materialize(lazy_file(npy("f8_special.npy"))),
                   c(NaN, Inf, -Inf, -0, 5e-324, 1.7976931348623157e308))
  expect_identical(1 / materialize(lazy_file(npy("f8_special.npy")))[4], -Inf)  # -0 kept
  expect_identical(materialize(lazy_file(npy("f8_scalar.npy"))), 3.25)
  expect_identical(materialize(lazy_file(npy("f8_empty.npy"))), numeric(0))
  expect_identical(materialize(lazy_file(npy("f8_empty_matrix_f.npy"))), matrix(0, 0, 3))
  expect_identical(materialize(lazy_file(npy("i4_vector.npy"))),
                   c(0L, 1L, -1L, 2147483647L, -2147483647L, NA))
  expect_identical(materialize(lazy_file(npy("b1_vector.npy"))), c(TRUE, FALSE, TRUE))
  expect_identical(materialize(lazy_file(npy("u1_vector.npy"))), c(FALSE, TRUE, TRUE))
})

test_that("C order is refused unless read transposed", {
  expect_error(lazy_file(npy("f8_matrix_c.npy")), class = "gufunc_file_order_error")
  expect_error(lazy_file(npy("f8_matrix_c.npy")), "numpy.asfortranarray")
  # NumPy's a[i, j] is v[4 * i + j]: R's t(a)[j, i], at index j + 4 * i.
  expect_identical(materialize(lazy_file(npy("f8_matrix_c.npy"), c_order = "transpose")),
                   matrix(v12, 4, 3))
  a <- materialize(lazy_file(npy("f8_array3_c.npy"), c_order = "transpose"))
  expect_identical(a, array(as.numeric(0:23), c(4, 3, 2)))
  expect_identical(a[4, 3, 2], 23)  # NumPy's a[1, 2, 3]
  expect_identical(a[2, 1, 1], 1)   # NumPy's a[0, 0, 1]
})

test_that("types gufunc does not read are named in the error", {
  for (f in c("f4_vector.npy", "i8_vector.npy", "f8_big_endian.npy")) {
    expect_error(lazy_file(npy(f)), class = "gufunc_file_type_error")
  }
  expect_error(lazy_file(npy("i8_vector.npy")), "'<i8'")
  expect_error(lazy_file(npy("f8_big_endian.npy")), "'>f8'")
})

test_that("bytes (bool, uint8) are widened wherever they are read", {
  b <- lazy_file(npy("b1_vector.npy"))
  expect_identical(materialize(!b), c(FALSE, TRUE, FALSE))
  expect_identical(sum(b), 2L)
  expect_identical(b[2], FALSE)
  expect_identical(materialize(b[2:3]), c(FALSE, TRUE))
  expect_identical(materialize(b + 0L), c(1L, 0L, 1L))
  expect_identical(which(b), c(1L, 3L))  # base R on the values
  f <- tempfile(fileext = ".npy")
  on.exit(unlink(f))
  big <- as.raw(rep(c(0, 1, 7, 0, 255), length.out = 1e5 + 3))
  writeBin(c(npy_header_for_bytes(length(big)), big), f)
  x <- lazy_file(f)
  expected <- big != as.raw(0)
  for_threads({
    expect_identical(materialize(x), expected)
    expect_identical(sum(x), sum(expected))
    expect_identical(materialize(ifelse(x, 2, 3)), ifelse(expected, 2, 3))
    expect_identical(materialize(x[5:99999]), expected[5:99999])
  })
  s <- tempfile()
  on.exit(unlink(s), add = TRUE)
  saveRDS(x, s)
  expect_identical(materialize(readRDS(s)), expected)
})

test_that("written files read back identical, with 1 and 2 threads and odd blocks", {
  set.seed(15)
  m <- matrix(rnorm(3e5), 300)
  i <- array(sample(c(-5:5, NA), 24e4, TRUE), c(40, 60, 100))
  d <- tempfile()
  dir.create(d)
  on.exit(unlink(d, recursive = TRUE))
  for (block in list(NULL, 7L, 1000L)) {
    old <- options(gufunc.block_size = block)
    for_threads({
      f <- file.path(d, "m.npy")
      x <- materialize(sqrt(abs(lazy(m))) * 2 - 1, file = f)
      expect_identical(materialize(x), sqrt(abs(m)) * 2 - 1)
      expect_identical(materialize(lazy_file(f)), sqrt(abs(m)) * 2 - 1)
      g <- file.path(d, "i.npy")
      y <- materialize(lazy(i) * 3L, file = g)
      expect_identical(materialize(y), i * 3L)
      expect_identical(sum(y, na.rm = TRUE), sum(i * 3L, na.rm = TRUE))
      expect_identical(mean(x), mean(sqrt(abs(m)) * 2 - 1))
      expect_identical(rowSums(x), rowSums(sqrt(abs(m)) * 2 - 1))
      expect_identical(colMeans(lazy_file(f) + m), colMeans(sqrt(abs(m)) * 2 - 1 + m))
      expect_identical(range(lazy_file(f) / 3), range((sqrt(abs(m)) * 2 - 1) / 3))
    })
    options(old)
  }
  # Plain values, logicals (as int32), empty values and one value.
  f <- file.path(d, "p.npy")
  expect_identical(materialize(materialize(m, file = f)), m)
  expect_identical(materialize(materialize(c(TRUE, NA, FALSE), file = f)), c(1L, NA, 0L))
  expect_identical(materialize(materialize(numeric(0), file = f)), numeric(0))
  expect_identical(materialize(materialize(lazy(2.5), file = f)), 2.5)
  expect_identical(materialize(materialize(matrix(1:6, 2, dimnames = list(c("a", "b"), NULL)),
                                           file = f)),
                   matrix(1:6, 2, dimnames = list(c("a", "b"), NULL)))
})

test_that("a written file is a .npy file by NumPy's rules", {
  f <- tempfile(fileext = ".npy")
  on.exit(unlink(f))
  materialize(lazy(array(1:24, 2:4)) + 0.5, file = f)
  bytes <- readBin(f, "raw", file.size(f))
  expect_identical(bytes[1:8], c(as.raw(c(0x93)), charToRaw("NUMPY"), as.raw(c(1, 0))))
  header_length <- as.integer(bytes[9]) + 256L * as.integer(bytes[10])
  expect_identical((10L + header_length) %% 64L, 0L)
  header <- rawToChar(bytes[11:(10 + header_length)])
  expect_match(header, "'descr': '<f8'", fixed = TRUE)
  expect_match(header, "'fortran_order': True", fixed = TRUE)
  expect_match(header, "'shape': (2, 3, 4)", fixed = TRUE)
  expect_match(header, "\n$")
  expect_identical(readBin(bytes[-(1:(10 + header_length))], "double", 24), 1:24 + 0.5)
})

test_that("views, subsets, head, print and plans read only what they need", {
  set.seed(3)
  m <- matrix(runif(2e5), 400)
  f <- tempfile(fileext = ".npy")
  on.exit(unlink(f))
  x <- materialize(lazy(m), file = f)
  expect_identical(lazy_state(x), "deferred")
  expect_identical(x[1:5], m[1:5])
  expect_identical(materialize(x[2:10, 3:7]), m[2:10, 3:7])
  expect_identical(materialize(x[-1, ]), m[-1, ])
  expect_identical(head(x), head(m))
  expect_identical(dim(x), dim(m))
  expect_output(print(x), "400 x 500")
  expect_identical(lazy_state(x), "deferred")
  p <- lazy_plan(x * 2 + m)
  expect_output(print(p), "file")
  b <- t(m[1:10, ])
  expect_identical(materialize(matmul(x, b)), materialize(matmul(m, b)))
  expect_identical(median(x), median(m))  # base R, on the values read into memory
})

test_that("raw binary files and their arguments", {
  f <- tempfile()
  on.exit(unlink(f))
  writeBin(c(as.raw(1:16), writeBin(as.double(1:12), raw())), f)
  expect_identical(materialize(lazy_file(f, "double", c(3, 4), offset = 16)),
                   matrix(as.double(1:12), 3))
  expect_identical(materialize(lazy_file(f, "double", offset = 16)), as.double(1:12))
  expect_identical(materialize(lazy_file(f, "integer", 4)), readBin(f, "integer", 4))
  expect_error(lazy_file(f, "double", c(3, 5), offset = 16), class = "gufunc_file_error")
  expect_error(lazy_file(f, "double", c(3, 5), offset = 16), "truncated")
  expect_error(lazy_file(f, "complex"), class = "gufunc_argument_error")
  expect_error(lazy_file(f, "double", offset = -1), class = "gufunc_argument_error")
  expect_error(lazy_file(f, "double", offset = 3), class = "gufunc_argument_error")
  expect_error(lazy_file(f, "double", dim = c(2, NA)), class = "gufunc_argument_error")
  expect_error(lazy_file(f, "double", dim = c(2^31, 2^31)), class = "gufunc_shape_error")
})

test_that("bad files give classed errors naming the file", {
  d <- tempfile()
  dir.create(d)
  on.exit(unlink(d, recursive = TRUE))
  expect_error(lazy_file(file.path(d, "none.npy")), class = "gufunc_file_error")
  expect_error(lazy_file(d), class = "gufunc_file_error")
  expect_error(lazy_file(3), class = "gufunc_argument_error")
  bad <- file.path(d, "bad.npy")
  writeBin(charToRaw("not a numpy file at all"), bad)
  expect_error(lazy_file(bad), class = "gufunc_file_format_error")
  good <- readBin(npy("f8_vector.npy"), "raw", 1000)
  writeBin(good[1:50], bad)  # header cut short
  expect_error(lazy_file(bad), class = "gufunc_file_format_error")
  writeBin(good[1:150], bad)  # data cut short
  expect_error(lazy_file(bad), class = "gufunc_file_error")
  expect_error(lazy_file(bad), "truncated")
  broken <- good
  broken[7] <- as.raw(9)  # format version 9
  writeBin(broken, bad)
  expect_error(lazy_file(bad), "version 9")
  text <- rawToChar(good[11:128])
  writeBin(c(good[1:10], charToRaw(sub("(12,)", "(1x,)", text, fixed = TRUE)), good[-(1:128)]), bad)
  expect_error(lazy_file(bad), "shape")
  expect_error(materialize(lazy(1:3), file = file.path(d, "no", "x.npy")),
               class = "gufunc_file_error")
  expect_error(materialize(lazy(1:3), file = NA_character_), class = "gufunc_argument_error")
  expect_error(materialize(list(1), file = file.path(d, "x.npy")), class = "gufunc_type_error")
})

test_that("a file changed after it was mapped is an error, not other values", {
  f <- tempfile(fileext = ".npy")
  g <- tempfile(fileext = ".npy")
  on.exit(unlink(c(f, g)))
  x <- materialize(lazy(as.double(1:1000)), file = f)
  y <- x * 2
  Sys.sleep(0.01)
  cat("extra", file = f, append = TRUE)
  expect_error(sum(y), class = "gufunc_file_changed_error")
  expect_error(materialize(y), class = "gufunc_file_changed_error")
  expect_error(x[3], class = "gufunc_file_changed_error")
  x <- lazy_file(f, type = "double", dim = 1000, offset = 128)  # as it is now: fine again
  expect_identical(sum(x), sum(as.double(1:1000)))
  materialize(lazy(as.double(1:1000)) + 1, file = g)
  file.rename(g, f)  # replaced: another inode
  expect_error(sum(x), class = "gufunc_file_changed_error")
  expect_error(sum(x), "call lazy_file\\(\\) again")
})

test_that("a file-backed value is saved as its path, and read back mapped", {
  f <- tempfile(fileext = ".npy")
  s <- tempfile()
  on.exit(unlink(c(f, s)))
  m <- matrix(runif(1e5), 100)
  x <- materialize(lazy(m), file = f)
  saveRDS(x, s)
  expect_lt(file.size(s), 1000)
  y <- readRDS(s)
  expect_true(is_lazy(y))
  expect_identical(lazy_state(y), "deferred")
  expect_identical(materialize(y), m)
  saveRDS(x * 2, s)  # a value computed from it: its values
  expect_gt(file.size(s), 1e5)
  expect_identical(materialize(readRDS(s)), m * 2)
  saveRDS(x, s)
  unlink(f)
  expect_error(readRDS(s), "cannot open")
})

test_that("a failed or interrupted write leaves the file there as it was", {
  d <- tempfile()
  dir.create(d)
  on.exit(unlink(d, recursive = TRUE))
  f <- file.path(d, "out.npy")
  materialize(lazy(as.double(1:10)), file = f)
  before <- readBin(f, "raw", 1e4)
  x <- lazy(runif(1e7))
  # Longer than the time limit below (0.05 s): about 0.4 s here.
  for (i in 1:60) x <- sqrt(x * x + 1)
  # Progress reports from the first round (not after half a second).
  old <- options(gufunc.progress = function(done, total) stop("stopped by the test"),
                 gufunc.progress_after = 0)
  expect_error(materialize(x, file = f), "stopped by the test")
  options(old)
  expect_identical(readBin(f, "raw", 1e4), before)
  expect_identical(list.files(d, all.files = TRUE, no.. = TRUE), "out.npy")
  expect_error(tryCatch({
    setTimeLimit(elapsed = 0.05, transient = TRUE)
    materialize(sqrt(x * x + 1) + sqrt(x + 2), file = f)
  }, finally = setTimeLimit()), "time limit|elapsed")
  expect_identical(readBin(f, "raw", 1e4), before)
  expect_identical(list.files(d, all.files = TRUE, no.. = TRUE), "out.npy")
})

test_that("a write killed in a child process leaves no file under its name", {
  skip_on_cran()
  skip_on_os("windows")
  d <- tempfile()
  dir.create(d)
  on.exit(unlink(d, recursive = TRUE))
  f <- file.path(d, "big.npy")
  writeLines("the old file", f)
  pid_file <- file.path(d, "pid")
  start_child(c(sprintf('writeLines(as.character(Sys.getpid()), "%s")', pid_file),
                "library(gufunc)",
                "x <- lazy(runif(1e8))",
                "for (i in 1:20) x <- sqrt(x * x + 1)",
                sprintf('materialize(x, file = "%s")', f)), d)
  expect_true(wait_for_file(pid_file, 60))
  pid <- readLines(pid_file)
  # The child's first temporary file (output_file.cpp names it).
  expect_true(wait_for_file(file.path(d, sprintf(".big.npy.part-%s-0", pid)), 60))
  tools::pskill(as.integer(pid), tools::SIGKILL)
  Sys.sleep(0.5)
  expect_identical(readLines(f), "the old file")
})

test_that("HDF5 datasets: contiguous ones mapped in place, chunked ones unpacked", {
  skip_if_not_installed("hdf5r")
  f <- tempfile(fileext = ".h5")
  on.exit(unlink(f))
  m <- matrix(rnorm(6e4), 300)
  a <- array(sample(c(1:9, NA), 3e5, TRUE), c(50, 60, 100))
  h <- hdf5r::H5File$new(f, "w")
  h$create_dataset("flat", robj = m, chunk_dims = NULL)
  h$create_group("packed")
  h$create_dataset("packed/ints", robj = a, chunk_dims = c(50, 10, 7), gzip_level = 4)
  h$create_dataset("single", robj = array(runif(10), c(2, 5)), dtype = hdf5r::h5types$H5T_IEEE_F32LE,
                   chunk_dims = NULL)
  h$close_all()
  x <- lazy_file(f, dataset = "flat")
  expect_identical(materialize(x), m)
  expect_identical(mean(x * 2), mean(m * 2))
  expect_output(print(x), basename(f), fixed = TRUE)  # the HDF5 file itself is mapped
  y <- lazy_file(f, dataset = "packed/ints")
  expect_identical(materialize(y), a)
  expect_identical(colSums(y, dims = 2, na.rm = TRUE), colSums(a, dims = 2, na.rm = TRUE))
  s <- tempfile()
  on.exit(unlink(s), add = TRUE)
  saveRDS(y, s)  # an unpacked copy is saved as its values
  expect_identical(materialize(readRDS(s)), a)
  expect_error(lazy_file(f, dataset = "single"), class = "gufunc_file_type_error")
  expect_error(lazy_file(f, dataset = "none"), class = "gufunc_file_error")
  expect_error(lazy_file(f, dataset = "no/such/group"), class = "gufunc_file_error")
  expect_error(lazy_file(npy("f8_vector.npy"), dataset = "x"), class = "gufunc_file_format_error")
})

test_that("bigstatsr FBMs are read where they are", {
  f <- tempfile()
  on.exit(unlink(f))
  m <- matrix(rnorm(500), 50)
  writeBin(as.vector(m), f)
  # The fields lazy_file() reads of an FBM (a reference class object in bigstatsr).
  fake <- structure(list(backingfile = f, type = c(double = 8L), nrow = 50, ncol = 10),
                    class = "FBM")
  expect_identical(materialize(lazy_file(fake)), m)
  fake$type <- c("unsigned char" = 1L)
  expect_error(lazy_file(fake), class = "gufunc_file_type_error")
  skip_if_not_installed("bigstatsr")
  X <- bigstatsr::FBM(50, 10, init = m)
  expect_identical(materialize(lazy_file(X) * 2), m * 2)
})

test_that("materialize(x, file =, dataset =) writes an HDF5 file slab by slab", {
  skip_if_not_installed("hdf5r")
  d <- tempfile()
  dir.create(d)
  on.exit(unlink(d, recursive = TRUE))
  f <- file.path(d, "out.h5")
  a <- array(runif(6e4), c(20, 30, 100))
  y <- materialize(sqrt(lazy(a)) + 1, file = f, dataset = "r")
  expect_identical(materialize(y), sqrt(a) + 1)
  h <- hdf5r::H5File$new(f, "r")
  expect_identical(h[["r"]][, , ], sqrt(a) + 1)  # hdf5r reads it back itself
  h$close_all()
  expect_identical(materialize(materialize(lazy(1:10) * 2L, file = f, dataset = "v")),
                   (1:10) * 2L)
  expect_identical(list.files(d, all.files = TRUE, no.. = TRUE), "out.h5")
  expect_warning(z <- materialize(log(lazy(c(-1, 1))), file = f, dataset = "w"), "NaNs produced")
  expect_identical(materialize(z), suppressWarnings(log(c(-1, 1))))
})

test_that("a file cut short during an evaluation stops it with an error", {
  skip_on_os("windows")
  f <- tempfile(fileext = ".npy")
  on.exit(unlink(f))
  x <- materialize(lazy(runif(4e6)), file = f)
  cut <- FALSE
  old <- options(gufunc.progress = function(done, total) {
    if (!cut) {
      cut <<- TRUE
      close(file(f, "w"))  # truncated to nothing between two rounds
    }
  }, gufunc.progress_after = 0)
  on.exit(options(old), add = TRUE)
  y <- x
  for (i in 1:20) y <- sqrt(y * y + 1)
  expect_error(sum(y), "cut short", class = "gufunc_file_changed_error")
  expect_true(cut)
  options(old)
  expect_error(sum(x), class = "gufunc_file_changed_error")
})

test_that("a matrix file cut short during rowSums(), colSums() or a map is an error, not a crash", {
  skip_on_os("windows")
  reads <- list(rowSums = rowSums, colSums = colSums, rowMeans = rowMeans,
                map = function(x) materialize(sqrt(x) + 1))
  for (threads in 1:2) {
    for (name in names(reads)) {
      f <- tempfile(fileext = ".npy")
      materialize(matrix(as.double(1:4e5), 2000), file = f)
      x <- lazy_file(f)
      withr::local_options(gufunc.threads = threads, gufunc.progress_after = 0,
                           gufunc.progress = function(done, total) close(file(f, "w")))
      expect_error(reads[[name]](x), "cut short", class = "gufunc_file_changed_error",
                   label = paste(name, threads))
      withr::local_options(gufunc.progress = FALSE)
      unlink(f)
    }
  }
})

test_that("a bus error that is not a mapped file's still reaches R's own handler", {
  # gufunc's handler (mapped_guard.hpp) catches only faults in the files it maps.
  skip_on_cran()
  skip_on_os(c("windows", "solaris"))
  f <- tempfile(fileext = ".npy")
  script <- tempfile(fileext = ".R")
  on.exit(unlink(c(f, script)))
  writeLines(c(
    "suppressMessages(library(gufunc))",
    sprintf("x <- materialize(lazy(runif(1e5)), file = '%s')", f),
    "invisible(sum(sqrt(x)))",
    "cat('mapped\\n')",
    "tools::pskill(Sys.getpid(), 7L)",  # SIGBUS (10 on macOS, below)
    "cat('survived\\n')"
  ), script)
  if (Sys.info()[["sysname"]] == "Darwin") {
    writeLines(sub("7L", "10L", readLines(script), fixed = TRUE), script)
  }
  withr::local_envvar(R_LIBS = session_libs(), R_TESTS = "")
  out <- suppressWarnings(system2(rscript(), c("--vanilla", script), stdout = TRUE, stderr = TRUE))
  expect_true("mapped" %in% out)
  expect_true(any(grepl("caught bus error", out, fixed = TRUE)))
  expect_false("survived" %in% out)
})

test_that("consecutive reads of a file cut short by another process are an error", {
  # Read through the mapping: a read past the new end is caught, not a bus error.
  skip_on_os("windows")
  skip_if(!nzchar(Sys.which("truncate")), "no truncate command")
  f <- tempfile(fileext = ".npy")
  on.exit(unlink(f))
  for (threads in 1:2) {
    x <- materialize(lazy(as.double(1:2e6)), file = f)
    withr::local_options(gufunc.threads = threads, gufunc.progress_after = 0,
                         gufunc.progress = function(done, total) {
                           system2("truncate", c("-s", "4096", shQuote(f)))
                         })
    expect_error(sum(x * 2), "cut short", class = "gufunc_file_changed_error")
    expect_error(materialize(x + 1), class = "gufunc_file_changed_error")
    withr::local_options(gufunc.progress = FALSE)
  }
})

test_that("falling back to base R reads the file into memory once, and says so", {
  f <- tempfile(fileext = ".npy")
  on.exit(unlink(f))
  v <- runif(1e5)
  x <- materialize(lazy(v), file = f)
  old <- options(gufunc.verbose = TRUE)
  on.exit(options(old), add = TRUE)
  expect_message(m <- median(x), "materializing double\\[100,000\\] \\(800 kB\\) from file '.*' into memory")
  expect_identical(m, median(v))
  expect_silent(s <- sort(x))  # read once: its values are kept
  expect_identical(s, sort(v))
})

test_that(".npy headers NumPy refuses are refused; named pipes are not waited on", {
  f <- tempfile(fileext = ".npy")
  on.exit(unlink(f))
  # Version 1.0 (or 1.1), the header padded so the data start at byte 64.
  npy <- function(dict, minor = 0L) {
    h <- charToRaw(dict)
    h <- c(h, rep(charToRaw(" "), 64 - (11 + length(h)) %% 64), charToRaw("\n"))
    writeBin(c(as.raw(0x93), charToRaw("NUMPY"), as.raw(c(1L, minor)),
               as.raw(c(length(h) %% 256, length(h) %/% 256)), h,
               writeBin(as.double(1:12), raw())), f)
  }
  bad <- c("{'descr': '<f8', 'fortran_order': True, 'shape': (3, 4), 'shape': (2, 6), }",
           "{'descr': '<f8', 'fortran_order': True, 'shape': (12), }",
           "{'descr': '<f8', 'fortran_order': True, 'shape': (3, 4), 'extra': 1, }",
           "{'descr': '<f8', 'fortran_order': True, 'shape': (3,,4), }",
           "{'descr': '<f8', 'fortran_order': True, 'shape': (3, 4)")
  for (dict in bad) {
    npy(dict)
    expect_error(lazy_file(f), class = "gufunc_file_format_error", label = dict)
  }
  npy("{'descr': '<f8', 'fortran_order': True, 'shape': (12,), }", minor = 1L)
  expect_error(lazy_file(f), "version 1.1", class = "gufunc_file_format_error")
  npy("{'descr': '<f8', 'fortran_order': True, 'shape': (3, 4,), }")
  expect_identical(materialize(lazy_file(f)), matrix(as.double(1:12), 3))
  npy("{\"shape\": (12,), \"fortran_order\": True, \"descr\": \"<f8\"}")
  expect_identical(materialize(lazy_file(f)), as.double(1:12))
  writeBin(c(as.raw(0x93), charToRaw("NUMPY"), as.raw(c(1, 0))), f)
  expect_error(lazy_file(f), "too short", class = "gufunc_file_format_error")
  skip_on_os("windows")
  pipe <- tempfile()
  skip_if_not(system2("mkfifo", pipe) == 0L, "mkfifo is missing")
  on.exit(unlink(pipe), add = TRUE)
  expect_error(lazy_file(pipe), class = "gufunc_file_error")
  expect_error(lazy_file(pipe, "double"), "not a regular file", class = "gufunc_file_error")
})

test_that("a 1-d array or a named vector written to a file comes back with its dim and names", {
  f <- tempfile(fileext = ".npy")
  on.exit(unlink(f))
  a <- array(1:3, 3, dimnames = list(c("a", "b", "c")))
  expect_identical(materialize(materialize(a, file = f)), a)
  a1 <- array(c(1.5, 2, 3), 3)
  expect_identical(materialize(materialize(a1, file = f)), a1)
  v <- c(a = 1.5, b = 2)
  expect_identical(materialize(materialize(lazy(v), file = f)), v)
  expect_identical(capture.output(print(lazy_file(f)[0])), capture.output(print(numeric(0))))
})
