# HDF5 datasets after the test suites of hdf5r (hhoeflin/hdf5r, formerly Novartis/hdf5r:
# tests/testthat/) and of Bioconductor's HDF5Array (inst/unitTests/): their shapes, types,
# chunkings, filters, fill values, groups, links and selections, written here with hdf5r.
# A readable dataset must read as hdf5r reads it (hdf5r's dims: d$read(drop = FALSE)),
# expressions on it must give the bits of the same expressions on those values with 1
# and 2 threads and blocks of 7 values, and hdf5r must read what materialize(file =,
# dataset =) writes. Datasets gufunc cannot read: a classed error naming the file.

h5_write <- function(f, fill, ...) {
  h <- hdf5r::H5File$new(f, "w", ...)
  on.exit(h$close_all())
  fill(h)
}
h5_read <- function(f, d) {
  h <- hdf5r::H5File$new(f, "r")
  on.exit(h$close_all())
  h[[d]]$read(drop = FALSE)
}
h5_new <- function(h, name, dtype, dims, chunk = NULL, maxdims = dims, ...) {
  h$create_dataset(name, dtype = dtype, space = hdf5r::H5S$new(dims = dims, maxdims = maxdims),
                   chunk_dims = chunk, ...)
}
f64 <- function() hdf5r::h5types$H5T_IEEE_F64LE
i32 <- function() hdf5r::h5types$H5T_STD_I32LE
# HDF5Array's element-wise expressions (test_DelayedArray-utils.R), for any values.
toto1 <- function(a) 100 / floor(abs((5 * log(abs(a) + 0.2) - 1)^3))
toto2 <- function(a) 100L + (5L * (a - 2L)) %% 7L
same <- function(object, expected, info) {
  values <- function(v) if (is.list(v)) lapply(v, materialize) else materialize(v)
  expect_identical(suppressWarnings(values(object)), suppressWarnings(expected), info = info)
}
h5_settings <- list(list(gufunc.threads = 1L), list(gufunc.threads = 2L),
                    list(gufunc.threads = 1L, gufunc.block_size = 7L),
                    list(gufunc.threads = 2L, gufunc.block_size = 7L))

# Dataset d of f against hdf5r's read of it in every setting: values, subsets (lists of
# indices), sum/mean/range, an element-wise expression, margins; and written to a new
# file by materialize(file =, dataset =) with 1 thread, and with 2 in blocks of 7.
check_h5 <- function(f, d, subsets = list()) {
  ref <- h5_read(f, d)
  fun <- if (is.integer(ref)) toto2 else toto1
  x <- lazy_file(f, dataset = d)
  out <- tempfile(fileext = ".h5")
  on.exit(unlink(out))
  for (k in seq_along(h5_settings)) withr::with_options(h5_settings[[k]], {
    info <- sprintf("'%s' with %s", d, paste(names(h5_settings[[k]]), h5_settings[[k]], collapse = ", "))
    same(x, ref, info)
    for (i in subsets) {
      same(do.call(`[`, c(list(x), i, drop = FALSE)), do.call(`[`, c(list(ref), i, drop = FALSE)), info)
    }
    same(list(sum(x), sum(x, na.rm = TRUE), mean(x), range(x, na.rm = TRUE)),
         list(sum(ref), sum(ref, na.rm = TRUE), mean(ref), range(ref, na.rm = TRUE)), info)
    same(fun(x), fun(ref), info)
    if (length(dim(ref)) >= 2L) {
      same(list(rowSums(x, na.rm = TRUE), colMeans(x)), list(rowSums(ref, na.rm = TRUE), colMeans(ref)), info)
    }
    if (k %in% c(1L, 4L)) {
      suppressWarnings(materialize(fun(x), file = out, dataset = "out"))
      same(h5_read(out, "out"), fun(ref), info)
    }
  })
}
# expr raises an error of class `class` whose message names `path`.
expect_file_error <- function(expr, class, path, info = NULL) {
  e <- tryCatch(list(expr), error = identity)
  got <- if (!inherits(e, "error")) "no error" else paste(class(e)[1], conditionMessage(e))
  expect_true(inherits(e, class) && grepl(path, conditionMessage(e), fixed = TRUE),
              info = paste(info, got, sep = ": "))
}

test_that("hdf5r DataSet-IO(-NA), Select-Subset, high_level_UI: 1-d to 4-d datasets in a group", {
  skip_if_not_installed("hdf5r")
  f <- tempfile(fileext = ".h5")
  on.exit(unlink(f))
  vn <- rnorm(120); vn[seq(1, 120, 10)] <- NA
  vi <- as.integer(runif(120) * 10000); vi[seq(1, 120, 10)] <- NA
  data <- list(vec_n = vn, vec_i = vi, vec_i_1 = 1L, mat_n = matrix(rnorm(120), ncol = 3),
               mat_i = matrix(vi, ncol = 3), arr_n = array(rnorm(120), c(3, 4, 10)),
               arr_i = array(vi, c(3, 4, 2, 5)), sel_mat = matrix(1:90, ncol = 9),
               sel_arr = array(1:90, c(3, 3, 10)))
  flat <- c("vec_n", "mat_i", "arr_n", "sel_mat")
  h5_write(f, function(h) {
    h$create_group("testgroup")
    for (n in names(data)) h[[paste0("testgroup/", n)]] <- data[[n]]  # hdf5r: chunked, gzip 4
    for (n in flat) h$create_dataset(paste0("testgroup/flat_", n), robj = data[[n]], chunk_dims = NULL)
    h[["testgroup/sel_vec"]] <- 1:90  # then written over in part, as hdf5r's test does
    d <- h[["testgroup/sel_vec"]]
    d[88:90] <- 1:3
    h[["ex_array"]] <- array(1:60, c(3, 4, 5))  # high_level_UI: logical, irregular, negative indices
    h$create_dataset("ex_array2", robj = array(as.numeric(1:3000), c(10, 15, 20)), chunk_dims = NULL)
  })
  sub <- list(vec_n = list(list(seq(1, 90, by = 2))), vec_i = list(list(c(1, 5, 6, 10))),
              mat_n = list(list(2:4, TRUE), list(TRUE, 2)), arr_i = list(list(3:1, TRUE, 2, -1)),
              sel_mat = list(list(2, 2), list(TRUE, 2:4), list(2, TRUE), list(2:4, TRUE)),
              sel_arr = list(list(2, TRUE, TRUE), list(2:3, TRUE, TRUE), list(TRUE, 2, TRUE),
                             list(TRUE, TRUE, 2:4), list(1:3, 1:3, 1:10)))
  for (n in names(data)) check_h5(f, paste0("testgroup/", n), sub[[n]])
  for (n in flat) check_h5(f, paste0("testgroup/flat_", n), sub[[n]])
  check_h5(f, "/testgroup/sel_vec", list(list(85:90)))
  expect_identical(materialize(lazy_file(f, dataset = "testgroup/sel_vec")), c(1:87, 1:3))
  lgl <- c(TRUE, FALSE, TRUE, TRUE, FALSE, TRUE, FALSE, FALSE, FALSE, TRUE)
  idx <- list(lgl, 3:6, c(3, 5, 7, 9), c(1, 5, 6, 8, 10), c(1, 3, 3, 6), c(5, 4, 2, 1), -(3:6))
  check_h5(f, "ex_array", list(list(2, TRUE, TRUE), list(TRUE, 2, TRUE), list(TRUE, TRUE, 2)))
  check_h5(f, "ex_array2", c(lapply(idx, function(i) list(i, TRUE, TRUE)),
                             list(list(lgl, lgl, TRUE), list(lgl, lgl, lgl))))
})

test_that("hdf5r DataSet-extend, h5d chunks, gzip levels 0-9, 64bit_support: values across slabs", {
  skip_if_not_installed("hdf5r")
  f <- tempfile(fileext = ".h5")
  on.exit(unlink(f))
  m <- matrix(1:90, ncol = 9)
  at <- 2^22 + (-10):10  # across gufunc's slabs of 2^22 values and hdf5r's chunks of 1e6
  h5_write(f, function(h) {
    d <- h5_new(h, "extended", i32(), dim(m), chunk = c(4, 4), maxdims = c(Inf, Inf))
    d[, ] <- m
    d$set_extent(dim(m) * 2)  # the new part holds the fill value, 0
    d <- h5_new(h, "rbind", i32(), dim(m), chunk = c(10, 9), maxdims = c(Inf, 9))
    d[, ] <- m
    d$set_extent(c(20, 9))
    d[11:20, ] <- m
    h5_new(h, "big_chunk", i32(), c(10, 10), chunk = c(20, 10), maxdims = c(Inf, 10))$write(list(1:10, 1:10), 1:100)
    h$create_dataset("chunk_9", robj = 1:10, chunk_dims = 9)
    for (i in 0:9) h$create_dataset(sprintf("cp_%d", i), robj = sin(1:500), chunk_dims = 64, gzip_level = i)
    d <- h5_new(h, "large_ds", i32(), 5e6, chunk = 1e6, gzip_level = 4)  # 64bit_support, scaled down
    d[at] <- 1:21
    h$create_dataset("testmat_n", robj = array(rnorm(347000), c(1, 1, 1, 347000)),
                     chunk_dims = c(1, 1, 1, 347000))  # DataSet-IO "BugWithChunksize"
  })
  expect_identical(materialize(lazy_file(f, dataset = "extended")),
                   rbind(cbind(m, matrix(0L, 10, 9)), matrix(0L, 10, 18)))
  expect_identical(materialize(lazy_file(f, dataset = "rbind")), rbind(m, m))
  for (d in c("extended", "rbind", "big_chunk", "chunk_9", "cp_9")) check_h5(f, d)
  for (i in 0:8) expect_identical(materialize(lazy_file(f, dataset = sprintf("cp_%d", i))[500:1]), sin(500:1))
  expect_identical(materialize(lazy_file(f, dataset = "large_ds")[at[1] - 10 + 0:40]),
                   c(rep(0L, 10), 1:21, rep(0L, 10)))
  check_h5(f, "large_ds", list(list(at)))
  check_h5(f, "testmat_n", list(list(1, 1, 1, 346990:347000)))
})

test_that("hdf5r test-h5p, test-h5d: fill values, allocation, filters, external data, user block", {
  skip_if_not_installed("hdf5r")
  f <- tempfile(fileext = ".h5")
  raw <- tempfile()
  on.exit(unlink(c(f, raw)))
  writeBin(c(as.raw(1:10), writeBin(as.numeric(1:20) / 8, raw())), raw)
  dcpl <- function(fill = NULL, type = f64()) {
    p <- hdf5r::H5P_DATASET_CREATE$new()
    if (!is.null(fill)) p$set_fill_value(type, fill)
    p
  }
  h5_write(f, function(h) {
    d <- h5_new(h, "fill_int", i32(), c(6, 4), chunk = c(3, 2), dataset_create_pl = dcpl(7L, i32()))
    d[1:3, 1:2] <- 1:6
    h5_new(h, "fill_nan", f64(), c(6, 4), dataset_create_pl = dcpl(NaN))
    d <- h5_new(h, "fill_part", f64(), c(6, 4), dataset_create_pl = dcpl(-2.5))
    d[2, ] <- c(1, -0, Inf, NA)
    p <- dcpl(9)
    p$set_alloc_time(hdf5r::h5const$H5D_ALLOC_TIME_EARLY)
    h5_new(h, "early", f64(), c(3, 3), dataset_create_pl = p)
    h5_new(h, "unwritten_chunked", i32(), c(4, 5), chunk = c(2, 2))
    h5_new(h, "unwritten_flat", f64(), c(4, 5))
    p <- dcpl(1L, i32())$set_chunk(c(10, 20))$set_shuffle()$set_deflate(3)$set_fletcher32()
    d <- h5_new(h, "filters", i32(), c(30, 50), dataset_create_pl = p)
    d[1:25, 3:50] <- 1:1200
    p <- dcpl()$set_chunk(c(7, 7))$set_scaleoffset(hdf5r::h5const$H5Z_SO_INT, 0)
    d <- h5_new(h, "scaleoffset", i32(), c(20, 20), dataset_create_pl = p)
    d[, ] <- -200:199
    h5_new(h, "external", f64(), c(4, 5), dataset_create_pl = dcpl()$set_external(raw, 10, 160))
    p <- dcpl()$set_layout(hdf5r::h5const$H5D_COMPACT)
    h$create_dataset("compact", robj = matrix(1:6, 2), dataset_create_pl = p, chunk_dims = NULL)
  })
  expect_identical(materialize(lazy_file(f, dataset = "external")), matrix((1:20) / 8, 4))
  for (d in c("fill_int", "fill_nan", "fill_part", "early", "unwritten_chunked", "unwritten_flat",
              "filters", "scaleoffset", "external", "compact")) check_h5(f, d)
  ub <- hdf5r::H5P_FILE_CREATE$new()
  ub$set_userblock(1024)
  h5_write(f, file_create_pl = ub, function(h) {  # a file with a user block of 1024 bytes
    h$create_dataset("written", robj = matrix(rnorm(50), 10), chunk_dims = NULL)
    h5_new(h, "unwritten", f64(), c(4, 5))  # no storage allocated: all fill values, 0
  })
  check_h5(f, "written")
  expect_identical(materialize(lazy_file(f, dataset = "unwritten")), h5_read(f, "unwritten"))
})

test_that("HDF5Array h5utils, writeHDF5Array: nested groups, attributes, 4-d chunkings", {
  skip_if_not_installed("hdf5r")
  f <- tempfile(fileext = ".h5")
  on.exit(unlink(f))
  a0 <- array(1:3000, c(6:4, 25))
  h5_write(f, function(h) {
    h$create_group("stuff")
    h$create_dataset("stuff/A", robj = array(1:24, 4:1), chunk_dims = NULL)
    h$create_dataset("stuff/B", robj = array(101:124, 2:4), chunk_dims = c(1, 3, 2))
    h$create_dataset("stuff/C", robj = matrix(201:206, ncol = 2), chunk_dims = NULL)
    hdf5r::h5attr(h[["stuff/B"]], "dimnames") <- c("X", "Y", "Z")
    hdf5r::h5attr(h[["stuff/C"]], "scale") <- 2.5
    h$create_dataset("m0", robj = matrix(as.numeric(1700:1001), ncol = 7), chunk_dims = c(30, 5))
    h$create_dataset("A2", robj = a0, chunk_dims = c(2, 5, 2, 5))
    h$create_dataset("A3", robj = a0 / 3, chunk_dims = c(3, 5, 4, 2), gzip_level = 9)
  })
  expect_identical(dim(lazy_file(f, dataset = "stuff/A")), 4:1)  # hdf5r's dims, none dropped
  check_h5(f, "stuff/A", list(list(4:1, TRUE, 2, 1)))
  check_h5(f, "stuff/B", list(list(2, 3:1, -1)))
  check_h5(f, "stuff/C")
  check_h5(f, "m0", list(list(c(2:6, 6:3, 1, 1, 1, 9:8), c(6:5, 5))))
  check_h5(f, "A2", list(list(6:1, TRUE, 3, -(1:20))))
  check_h5(f, "A3", list(list(TRUE, 2, TRUE, 25:1)))
})

test_that("HDF5Array DelayedArray-utils, HDF5Matrix-utils, h5mread, HDF5Array-utils; 0 extents", {
  skip_if_not_installed("hdf5r")
  f <- tempfile(fileext = ".h5")
  on.exit(unlink(f))
  a1 <- array(sample(5L, 150, replace = TRUE), c(5, 10, 3))
  a2 <- a1 + runif(150) - 0.5
  a1[2, 9, 2] <- a2[2, 9, 2] <- NA
  a2[2, 10, 2] <- Inf
  m <- matrix(runif(60), ncol = 6)
  m[2, 4] <- NA; m[5, 4] <- Inf; m[6, 3] <- -Inf
  a300 <- array(1:300, c(3, 10, 2, 5))
  h5_write(f, function(h) {
    h[["a1"]] <- a1
    h$create_dataset("a2", robj = a2, chunk_dims = NULL)
    h$create_dataset("m2", robj = m, chunk_dims = c(3, 4))
    h$create_dataset("m0", robj = matrix(1:60, ncol = 6), chunk_dims = NULL)
    h$create_dataset("a300", robj = a300, chunk_dims = c(2, 3, 2, 2))
  })
  sel <- list(list(c(2:5, 7:10), TRUE), list(TRUE, 1:2), list(7:10, c(1:2, 5)),
              list(c(2:6, 6:3, 1, 1, 1, 9:8), c(6:5, 5)), list(integer(0), integer(0)),
              list(-2, 6:3), list(0, TRUE), list(-2, 0))
  check_h5(f, "m0", sel)
  check_h5(f, "m2", sel)
  check_h5(f, "a1", list(list(5:3, TRUE, -2), list(0, 0, 0), list(TRUE, 0, TRUE)))
  check_h5(f, "a2", list(list(5:3, TRUE, -2), list(0, 0, -2)))
  A <- lazy_file(f, dataset = "a2")
  M <- lazy_file(f, dataset = "m2")
  for (s in h5_settings[c(1, 4)]) withr::with_options(s, {
    info <- paste(names(s), s, collapse = " ")
    for (op in c("+", "-", "*", "/", "^", "%%", "%/%", "==", "!=", "<=", ">=", "<", ">")) {
      g <- match.fun(op)
      same(list(g(M, M[, 1]), t(g(M[, 2], M))[, 1:3], g(t(M), 8:-1), g(A, A[, 1, 1])[5:3, , -2],
                sum(g(A, A[[1]]), na.rm = TRUE)),
           list(g(m, m[, 1]), t(g(m[, 2], m))[, 1:3], g(t(m), 8:-1), g(a2, a2[, 1, 1])[5:3, , -2],
                sum(g(a2, a2[[1]]), na.rm = TRUE)), paste(op, info))
    }
    same(toto2(toto1(A))[, 10:4, -2], toto2(toto1(a2))[, 10:4, -2], info)
    for (fn in c("max", "min", "range", "sum", "prod", "mean", "rowSums", "colSums", "rowMeans", "colMeans")) {
      g <- match.fun(fn)  # and of no values (HDF5Matrix-utils: M[, 0])
      same(list(g(t(M), na.rm = TRUE), g(M[, 0])), list(g(t(m), na.rm = TRUE), g(m[, 0])), paste(fn, info))
    }
    same(list(anyNA(lazy_file(f, dataset = "a1")), which(lazy_file(f, dataset = "a1") == 1L)),
         list(TRUE, which(a1 == 1L)), info)
  })
  x <- lazy_file(f, dataset = "a300")  # HDF5Array-utils: blocks of 1 to 120 values
  for (b in c(1:7, 29:31, 39:40, 59:60, 119:120)) withr::with_options(list(gufunc.block_size = b), same(
    list(x * 2L, x[2, c(9, 3:7), 2, -4], sum(x)), list(a300 * 2L, a300[2, c(9, 3:7), 2, -4], sum(a300)), b))
  h5_write(f, function(h) {  # zero extents: HDF5Array's a[, , 0], m[, 0]; hdf5r's integer(0)
    h5_new(h, "a_0", i32(), c(5, 10, 0))
    h5_new(h, "a_0_chunked", i32(), c(5, 10, 0), chunk = c(5, 10, 1), maxdims = c(5, 10, Inf))
    h5_new(h, "m_0", f64(), c(0, 6))
    h5_new(h, "v_0", f64(), 0, chunk = 4, maxdims = Inf)
    h5_new(h, "a4_0", f64(), c(6, 0, 4, 25), chunk = c(2, 1, 2, 5), maxdims = c(6, Inf, 4, 25))
  })
  for (d in c("a_0", "a_0_chunked", "m_0", "v_0", "a4_0")) check_h5(f, d)
})

test_that("types gufunc does not read are refused, naming the file (hdf5r test-h5d, test-convert)", {
  skip_if_not_installed("hdf5r")
  f <- tempfile(fileext = ".h5")
  on.exit(unlink(f))
  t <- hdf5r::h5types
  types <- list(int64 = t$H5T_NATIVE_LLONG, float = t$H5T_NATIVE_FLOAT, int8 = t$H5T_STD_I8LE,
                uint16 = t$H5T_STD_U16LE, short = t$H5T_NATIVE_SHORT, uint32 = t$H5T_NATIVE_UINT,
                logical = hdf5r::H5T_LOGICAL$new(include_NA = TRUE),
                factor = hdf5r::H5T_ENUM$new(labels = paste0("test", 1:10)),
                string_short = hdf5r::H5T_STRING$new()$set_size(10),
                string_variable = hdf5r::H5T_STRING$new()$set_size(Inf), complex = hdf5r::H5T_COMPLEX$new(),
                cpd = hdf5r::H5T_COMPOUND$new(dtypes = list(t$H5T_NATIVE_INT, t$H5T_NATIVE_INT), labels = c("a", "b")),
                array = hdf5r::H5T_ARRAY$new(4, t$H5T_NATIVE_INT), vlen = hdf5r::H5T_VLEN$new(t$H5T_NATIVE_INT),
                f64_big_endian = t$H5T_IEEE_F64BE, i32_big_endian = t$H5T_STD_I32BE)
  h5_write(f, function(h) {
    for (n in names(types)) h5_new(h, n, types[[n]], 20, chunk = if (n == "float") 5)
    h$create_dataset("flat_f64_big_endian", robj = c(1.5, 2), dtype = t$H5T_IEEE_F64BE, chunk_dims = NULL)
    h$create_dataset("flat_i32_big_endian", robj = 1:3, dtype = t$H5T_STD_I32BE, chunk_dims = NULL)
    h$create_dataset("logical_values", robj = c(TRUE, NA, FALSE))  # hdf5r's logicals are enums
  })
  big_endian <- c("f64_big_endian", "i32_big_endian")
  for (n in c(setdiff(names(types), big_endian), "logical_values")) {
    expect_file_error(lazy_file(f, dataset = n), "gufunc_file_type_error", normalizePath(f), n)
  }
  # Big-endian values, contiguous or chunked, are read as hdf5r reads them (converted
  # while unpacked, never mapped as they are).
  for (n in c(big_endian, paste0("flat_", big_endian))) {
    expect_identical(materialize(lazy_file(f, dataset = n)), h5_read(f, n), info = n)
  }
})

test_that("names of no dataset with a simple dataspace are classed errors naming the file", {
  skip_if_not_installed("hdf5r")
  f <- tempfile(fileext = ".h5")
  g <- tempfile(fileext = ".h5")
  on.exit(unlink(c(f, g)))
  h5_write(g, function(h) {
    h[["pad"]] <- rnorm(500)
    h$create_dataset("data", robj = matrix(as.numeric(1:12), 3), chunk_dims = NULL)
  })
  h5_write(f, function(h) {
    h$create_dataset("x", robj = runif(2000), chunk_dims = NULL)
    h$create_group("test1")$create_group("test2")  # h5file_h5group "File creation"
    hdf5r::h5attr(h[["x"]], "units") <- "cm"
    h[["test_type"]] <- hdf5r::h5types$H5T_NATIVE_INT64  # a committed datatype (high_level_UI)
    h$link_create_soft("/test1", "soft_group")
    h$link_create_soft("/test1/nothing", "dangling")
    h$link_create_external(g, "/", "ext_group")
    h$link_create_external(g, "/data", "ext_data")
    h$create_dataset("scalar", robj = 3.5, space = hdf5r::H5S$new("scalar"), chunk_dims = NULL)
    h$create_dataset("null", dtype = f64(), space = hdf5r::H5S$new("null"), chunk_dims = NULL)
  })
  for (d in c("test1", "test1/test2", "soft_group", "ext_group", "dangling", "test_type", "x/units", "null")) {
    expect_file_error(lazy_file(f, dataset = d), "gufunc_file_error", normalizePath(f), d)
  }
  x <- tryCatch(materialize(lazy_file(f, dataset = "scalar")), error = identity)  # test-print's scalar
  expect_identical(x, h5_read(f, "scalar"))  # hdf5r: 3.5
  x <- tryCatch(materialize(lazy_file(f, dataset = "ext_data")), gufunc_file_error = function(e) "refused")
  expect_true(identical(x, "refused") || identical(x, h5_read(g, "data")))  # not bytes of f
  link <- system.file("test-h5link.h5", package = "hdf5r")  # hdf5r's own file (by h5py)
  skip_if(link == "")
  expect_file_error(lazy_file(link, dataset = "softlink/test3/test"), "gufunc_file_type_error", link)
  expect_file_error(lazy_file(link, dataset = "softlink/test3"), "gufunc_file_error", link)
})

test_that("a dataset written over after lazy_file() is an error (hdf5r Select-Subset-matrix-write)", {
  skip_if_not_installed("hdf5r")
  f <- tempfile(fileext = ".h5")
  on.exit(unlink(f))
  m <- matrix(1:90, ncol = 9)
  big <- matrix(as.numeric(1:2e5), 400)
  h5_write(f, function(h) {
    h$create_dataset("testmat_n2", robj = m, chunk_dims = NULL)
    h$create_dataset("big", robj = big, chunk_dims = NULL)
  })
  # (The small one is evaluated by the engine too: below lazy_min_length, base R's
  # sum() would materialize it, a copy the file's later changes do not reach; ?lazy_file.)
  old <- options(gufunc.lazy_min_length = 0)
  on.exit(options(old), add = TRUE)
  x <- lazy_file(f, dataset = "testmat_n2")
  y <- lazy_file(f, dataset = "big")
  expect_identical(list(sum(x), sum(y)), list(sum(m), sum(big)))  # evaluated before the change
  Sys.sleep(0.05)
  h <- hdf5r::H5File$new(f, "r+")
  h[["testmat_n2"]]$write(list(2, 2), -2L)
  h[["big"]]$write(list(2, 2), -2)
  h$close_all()
  expect_file_error(sum(y), "gufunc_file_changed_error", normalizePath(f), "400 x 500")
  expect_file_error(sum(x), "gufunc_file_changed_error", normalizePath(f), "10 x 9")
  expect_file_error(materialize(x * 2L), "gufunc_file_changed_error", normalizePath(f), "10 x 9")
})

test_that("materialize(file =, dataset =) as writeHDF5Array(): dimnames, groups, logicals, 0 extent", {
  skip_if_not_installed("hdf5r")
  d <- tempfile()
  dir.create(d)
  on.exit(unlink(d, recursive = TRUE))
  f <- file.path(d, "w.h5")
  m0 <- matrix(1700:1001, ncol = 7, dimnames = list(NULL, letters[1:7]))
  a0 <- array(1:3000, c(6:4, 25), dimnames = list(letters[1:6], NULL, NULL, LETTERS[1:25]))
  for (s in h5_settings) withr::with_options(s, {
    materialize(lazy(unname(a0))[, , 0, ] + 1L, file = f, dataset = "empty")  # a new file each time
    expect_identical(h5_read(f, "empty"), unname(a0)[, , 0, ] + 1L)
    x <- materialize(lazy(c(TRUE, NA, FALSE)) & TRUE, file = f, dataset = "lgl")  # int32 in the file
    expect_identical(list(h5_read(f, "lgl"), materialize(x)), list(c(1L, NA, 0L), c(1L, NA, 0L)))
  })
  M1 <- materialize(lazy(m0) - 1L, file = f, dataset = "M1")  # "with x's dimnames", ?materialize
  expect_identical(h5_read(f, "M1"), unname(m0) - 1L)
  expect_identical(dimnames(M1), dimnames(m0))
  expect_identical(materialize(materialize(lazy(a0) * 1, file = f, dataset = "A1")), a0 * 1)
  expect_identical(materialize(materialize(lazy(c(a = 1, b = 2)) * 2, file = f, dataset = "v")), c(a = 2, b = 4))
  expect_identical(materialize(materialize(lazy(array(1:3)), file = f, dataset = "a1d")), array(1:3))
  A <- tryCatch(materialize(lazy(array(1:24, 4:1)), file = f, dataset = "stuff/A"),
                error = identity)  # h5utils: a dataset in a group: written, or a classed error
  expect_false(inherits(A, "error") && !inherits(A, "gufunc_file_error"),
               info = if (inherits(A, "error")) conditionMessage(A))
  if (!inherits(A, "error")) expect_identical(h5_read(f, "stuff/A"), array(1:24, 4:1))
  expect_identical(list.files(d, all.files = TRUE, no.. = TRUE), "w.h5")
})
