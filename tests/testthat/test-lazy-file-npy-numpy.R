# .npy files built after NumPy's own tests of the format (numpy/lib/tests/test_format.py
# in numpy/numpy; the layout as numpy/lib/format.py describes it): the header forms
# NumPy reads and the malformed files it refuses. Each file is written here byte by
# byte: magic string, version bytes, little-endian header length, header text,
# padding, data. Valid files must read as NumPy reads them (with 1 and 2 threads);
# bad ones must give a classed error naming the file when lazy_file() opens them.

npy_dir <- function() {
  d <- tempfile("npyfmt-")
  if (dir.create(d)) d
}
npy_magic_bytes <- c(as.raw(0x93), charToRaw("NUMPY"))
# The file `name` in `dir`: `header` (a string, or raw bytes as they are) padded with
# spaces and a newline to a multiple of `align` bytes (align = 1: no padding), the
# length field `size` (default: the padded header's length), then `data`.
npy_file <- function(dir, header, data = raw(), version = c(1L, 0L), align = 64L,
                     size = NULL, magic = npy_magic_bytes, name = "a.npy") {
  h <- if (is.raw(header)) header else charToRaw(enc2utf8(header))
  lead <- if (version[1] == 1L) 10L else 12L
  if (align > 0L) h <- c(h, charToRaw(strrep(" ", (-(lead + length(h) + 1L)) %% align)), as.raw(10))
  n <- if (is.null(size)) length(h) else size
  path <- file.path(dir, name)
  writeBin(c(magic, as.raw(version), as.raw((n %/% 256^(0:(lead - 9L))) %% 256), h, data), path)
  path
}
npy_dict <- function(descr, shape, fortran = FALSE) {
  s <- if (length(shape) == 1L) sprintf("(%s,)", shape) else
    sprintf("(%s)", paste(shape, collapse = ", "))
  sprintf("{'descr': '%s', 'fortran_order': %s, 'shape': %s, }", descr,
          if (fortran) "True" else "False", s)
}
# NumPy's bytes of values x of type `descr`, and the R values gufunc promises for them.
npy_data <- function(x, descr) {
  endian <- if (startsWith(descr, ">")) "big" else "little"
  if (descr %in% c("|b1", "|u1")) as.raw(x) else if (grepl("f8", descr))
    writeBin(as.double(x), raw(), endian = endian) else
      writeBin(as.integer(x), raw(), size = 4L, endian = endian)
}
r_values <- function(x, descr) switch(descr, "<f8" = as.double(x), "<i4" = as.integer(x), x != 0)

# A valid file: its values, dims, a subset and two expressions, with 1 and 2 threads.
expect_reads_as <- function(path, expected, info, c_order = "refuse") {
  old <- getOption("gufunc.threads")
  on.exit(options(gufunc.threads = old))
  for (threads in 1:2) {
    options(gufunc.threads = threads)
    x <- tryCatch(lazy_file(path, c_order = c_order), error = function(e) e)
    if (inherits(x, "error")) return(fail(paste0(info, ": lazy_file() failed: ", conditionMessage(x))))
    expect_identical(materialize(x), expected, info = info)
    expect_identical(dim(x), dim(expected), info = info)
    d <- dim(expected)
    i <- intersect(2:3, seq_along(expected))
    if (is.null(d)) expect_identical(materialize(x[i]), expected[i], info = info)
    if (length(d) == 2L && d[1] > 0L) expect_identical(materialize(x[1, ]), expected[1, ], info = info)
    if (length(d) == 3L) expect_identical(materialize(x[1, , ]), expected[1, , ], info = info)
    expect_identical(sum(x), sum(expected), info = info)
    expect_identical(materialize(x * 2), expected * 2, info = info)
  }
}
# A bad file: lazy_file() raises an error of `class` whose message names the file
# (one expectation, saying what happened instead).
expect_refused <- function(path, info, class = "gufunc_file_error", c_order = "refuse") {
  e <- tryCatch(lazy_file(path, c_order = c_order), error = function(e) e)
  if (!inherits(e, "error")) e <- NULL
  got <- if (is.null(e)) "no error: the file was read" else
    sprintf("<%s> %s", paste(class(e), collapse = "/"), conditionMessage(e))
  name <- file.path(basename(dirname(path)), basename(path))
  expect(!is.null(e) && inherits(e, class) && grepl(name, conditionMessage(e), fixed = TRUE),
         sprintf("%s: expected a <%s> naming the file; got %s", info, class, got))
}

types <- c("<f8", "<i4", "|u1", "|b1")

# test_format.py: basic_arrays and test_roundtrip / test_memmap_roundtrip (empty,
# rank-0, 1-d, 2-d C-contiguous, 2-d F-contiguous (the transpose), 2-d non-contiguous
# (saved in C order)) for the types gufunc reads; 3-d arrays in both orders.
test_that("NumPy's basic arrays of each type read with NumPy's values and shape", {
  skip_on_os("windows")
  d <- npy_dir()
  on.exit(unlink(d, recursive = TRUE))
  for (descr in types) {
    v <- switch(descr, "<f8" = (0:14) * 1.5 - 7.25, "<i4" = (0:14) * 3L - 20L,
                "|u1" = c(0:13, 255L), "|b1" = as.integer((0:14) %% 3 != 0))
    r <- r_values(v, descr)
    f <- npy_file(d, npy_dict(descr, 0), name = "empty.npy")
    expect_reads_as(f, r[0], paste(descr, "empty"))
    f <- npy_file(d, npy_dict(descr, character(0)), npy_data(v[15], descr))
    expect_reads_as(f, r[15], paste(descr, "rank-0"))
    f <- npy_file(d, npy_dict(descr, 15), npy_data(v, descr))
    expect_reads_as(f, r, paste(descr, "1-d"))
    # basic.reshape((3, 5)).T: shape (5, 3) in Fortran order, the bytes of v.
    f <- npy_file(d, npy_dict(descr, c(5, 3), fortran = TRUE), npy_data(v, descr))
    expect_reads_as(f, matrix(r, 5, 3), paste(descr, "2-d F"))
    # basic.reshape((3, 5)): C order, A[i, j] = v[5 i + j]; refused, or read as t(A).
    a <- matrix(r, 3, 5, byrow = TRUE)
    f <- npy_file(d, npy_dict(descr, c(3, 5)), npy_data(v, descr))
    expect_refused(f, paste(descr, "2-d C"), class = "gufunc_file_order_error")
    expect_reads_as(f, t(a), paste(descr, "2-d C transposed"), c_order = "transpose")
    # basic.reshape((3, 5))[::-1, ::2], written in C order.
    b <- a[3:1, c(1, 3, 5)]
    f <- npy_file(d, npy_dict(descr, c(3, 3)), npy_data(v[c(11, 13, 15, 6, 8, 10, 1, 3, 5)], descr))
    expect_reads_as(f, t(b), paste(descr, "non-contiguous"), c_order = "transpose")
    # C order with at most one dim above 1, or an empty one: R's layout too.
    for (shape in list(c(1, 5), c(5, 1), c(0, 3))) {
      n <- prod(shape)
      f <- npy_file(d, npy_dict(descr, shape), npy_data(v[seq_len(n)], descr))
      expect_reads_as(f, array(r[seq_len(n)], shape), paste(descr, shape[1], shape[2], "C"))
    }
    # 3-d: np.arange(24).reshape((2, 3, 4)) in C order (A[i, j, k] = w[12 i + 4 j + k])
    # and its np.asfortranarray() copy.
    w <- rep(v, 2)[1:24]
    idx <- outer(outer(0:1 * 12, 0:2 * 4, "+"), 0:3, "+") + 1
    a3 <- array(r_values(w, descr)[idx], c(2, 3, 4))
    f <- npy_file(d, npy_dict(descr, c(2, 3, 4)), npy_data(w, descr))
    expect_refused(f, paste(descr, "3-d C"), class = "gufunc_file_order_error")
    expect_reads_as(f, aperm(a3), paste(descr, "3-d C transposed"), c_order = "transpose")
    f <- npy_file(d, npy_dict(descr, c(2, 3, 4), fortran = TRUE), npy_data(w[idx], descr))
    expect_reads_as(f, a3, paste(descr, "3-d F"))
  }
  # Special values keep their bits: NumPy's NaN, R's NA (a NaN payload), -0,
  # subnormals; int32's -2147483648 is R's NA, as documented.
  s <- c(NaN, NA, Inf, -Inf, -0, 5e-324, .Machine$double.xmax)
  f <- npy_file(d, npy_dict("<f8", 7), npy_data(s, "<f8"))
  expect_reads_as(f, s, "f8 specials")
  expect_identical(npy_data(materialize(lazy_file(f)), "<f8"), npy_data(s, "<f8"))
  i <- c(NA, .Machine$integer.max, -7L)
  expect_reads_as(npy_file(d, npy_dict("<i4", 3), npy_data(i, "<i4")), i, "i4 specials")
})

# test_version_2_0 / test_read_array_header_1_0 / _2_0 (versions 1.0, 2.0 and 3.0:
# 2- and 4-byte length fields, utf8 in 3.0), the doctest's headers of old NumPy
# (padding to 16 bytes, no trailing ", "), and what format.py says a reader must
# not depend on (key order); safe_eval() also takes other quotes, spaces and
# newlines (the doctest's record headers), and _filter_header() Python 2's 3L.
test_that("header forms NumPy reads are read the same", {
  skip_on_os("windows")
  d <- npy_dir()
  on.exit(unlink(d, recursive = TRUE))
  v <- (1:15) / 4
  m <- matrix(v, 5, 3)
  std <- "{'descr': '<f8', 'fortran_order': True, 'shape': (5, 3), }"
  old <- "{'descr': '<f8', 'fortran_order': True, 'shape': (5, 3)}"
  variants <- list(
    "1.0, 64" = list(std),
    "1.0, 16 (old NumPy)" = list(old, align = 16L),
    "2.0" = list(std, version = c(2L, 0L)),
    "2.0, header over 65535 bytes" = list(paste0(std, strrep(" ", 70000)), version = c(2L, 0L)),
    "3.0" = list(std, version = c(3L, 0L)),
    "3.0, 16" = list(old, version = c(3L, 0L), align = 16L),
    "keys s, f, d" = list("{'shape': (5, 3), 'fortran_order': True, 'descr': '<f8'}"),
    "keys f, d, s" = list("{'fortran_order': True, 'descr': '<f8', 'shape': (5, 3), }"),
    "double quotes" = list("{\"descr\": \"<f8\", \"fortran_order\": True, \"shape\": (5, 3)}"),
    "newlines" = list("{'descr': '<f8',\n 'fortran_order': True,\n 'shape': (5, 3)}"),
    "spaces" = list("{ 'descr' :  '<f8' ,\t'fortran_order' : True , 'shape' : ( 5 , 3 ) , }"),
    "Python 2 longs" = list("{'descr': '<f8', 'fortran_order': True, 'shape': (5L, 3L)}"),
    "no padding: data at an odd offset" = list(std, align = 1L))
  for (label in names(variants)) {
    a <- variants[[label]]
    f <- do.call(npy_file, c(list(d), a, list(data = npy_data(v, "<f8"))))
    expect_reads_as(f, m, label)
  }
  # Unaligned data of the other types, read transposed.
  for (descr in types[-1]) {
    f <- npy_file(d, npy_dict(descr, c(3, 5)), npy_data(c(0:14), descr), align = 1L)
    expect_reads_as(f, matrix(r_values(0:14, descr), 5, 3), paste(descr, "odd offset"),
                    c_order = "transpose")
  }
})

# basic_arrays' '>' half, and the scalars list's other types; record_arrays (Pdescr),
# test_pickle_disallow's object arrays, and test_unicode_field_names (format 3.0).
test_that("types gufunc does not read are refused, naming the file", {
  skip_on_os("windows")
  d <- npy_dir()
  on.exit(unlink(d, recursive = TRUE))
  for (descr in c(">f8", ">i4", "<u2", "|i1", "<u4", "<c16", "|O", "O", "x")) {
    f <- npy_file(d, npy_dict(descr, 3), npy_data(1:3, if (descr == ">i4") ">i4" else ">f8"))
    expect_refused(f, descr, class = "gufunc_file_type_error")
  }
  structured <- c(
    "{'descr': [('a', '<i4')], 'fortran_order': False, 'shape': (3,), }",
    paste("{'descr': [('x', '<i4', (2,)), ('y', '<f8', (2, 2)), ('z', '|u1')],",
          "\n 'fortran_order': False,\n 'shape': (2,)}"),
    "{'descr': [('', '<f8')], 'fortran_order': False, 'shape': (3,), }",
    "{'descr': ('<f8', (2,)), 'fortran_order': False, 'shape': (3,), }")
  for (h in structured) expect_refused(npy_file(d, h, raw(200)), h)
  h <- "{'descr': [('\u00e9t\u00e9', '<f8'), ('\u4e2d', '<i4')], 'fortran_order': False, 'shape': (2,), }"
  expect_refused(npy_file(d, h, raw(24), version = c(3L, 0L)), "3.0 unicode field names")
})

# test_read_magic_bad_magic (malformed_magic), test_read_version_1_0_bad_magic
# (bad_version_magic) and test_write_version's bad versions.
test_that("bad magic strings and versions are refused", {
  skip_on_os("windows")
  d <- npy_dir()
  on.exit(unlink(d, recursive = TRUE))
  body <- npy_data(1:3, "<f8")
  for (magic in c("\x92NUMPY", "\001NUMPY", "\x93numpy", "\x93MATLB")) {
    f <- npy_file(d, npy_dict("<f8", 3), body, magic = charToRaw(magic))
    expect_refused(f, paste(charToRaw(magic), collapse = " "), class = "gufunc_file_format_error")
  }
  for (stub in list(c(npy_magic_bytes, as.raw(1)), npy_magic_bytes, raw())) {
    f <- file.path(d, "stub.npy")
    writeBin(stub, f)
    expect_refused(f, paste(length(stub), "bytes"), class = "gufunc_file_format_error")
  }
  for (version in list(c(1, 1), c(0, 0), c(0, 1), c(2, 2), c(3, 1), c(4, 0), c(255, 255))) {
    f <- npy_file(d, npy_dict("<f8", 3), body, version = as.integer(version))
    expect_refused(f, paste(version, collapse = "."), class = "gufunc_file_format_error")
  }
})

# test_bad_header, and _read_array_header()'s checks of the dict, the shape
# ("shape is not valid"), fortran_order ("not a valid bool") and descr.
test_that("malformed headers are refused", {
  skip_on_os("windows")
  d <- npy_dir()
  on.exit(unlink(d, recursive = TRUE))
  body <- npy_data(1:15, "<f8")
  # A length field cut short, and a header shorter than its length says.
  f <- file.path(d, "short.npy")
  writeBin(c(npy_magic_bytes, as.raw(c(1, 0, 1))), f)
  expect_refused(f, "1-byte length field", class = "gufunc_file_format_error")
  writeBin(c(npy_magic_bytes, as.raw(c(1, 0, 1, 0))), f)
  expect_refused(f, "length 1, no header", class = "gufunc_file_format_error")
  writeBin(c(npy_magic_bytes, as.raw(c(2, 0, 64, 0))), f)
  expect_refused(f, "2.0, 2-byte length field", class = "gufunc_file_format_error")
  bad <- c(
    "{'shape': (1, 2), 'descr': 'x'}", "{'shape': (15,), 'fortran_order': False}",
    "{'descr': '<f8', 'fortran_order': False}",
    "{'shape': (1, 2), 'fortran_order': False, 'descr': 'x', 'extrakey': -1}",
    "{}", "", "[('descr', '<f8')]", "('<f8', False, (15,))",
    "{'descr': '<f8', 'fortran_order': False, 'shape': (15,)",
    sprintf("{'descr': '<f8', 'fortran_order': False, 'shape': %s}",
            c("(-15,)", "(3, -5)", "(15.0,)", "(3, 5.5)", "('15',)", "(None,)", "[15]", "15",
              "((15,),)")),
    sprintf("{'descr': '<f8', 'fortran_order': %s, 'shape': (15,)}", c("0", "'True'", "None")))
  for (h in bad) expect_refused(npy_file(d, h, body), h)
})

# test_roundtrip_truncated (one byte short), test_bad_header ("header shorter than
# indicated size") and a length field beyond the end of the file.
test_that("headers and data cut short are refused", {
  skip_on_os("windows")
  d <- npy_dir()
  on.exit(unlink(d, recursive = TRUE))
  for (descr in types) {
    v <- npy_data(0:14, descr)
    for (shape in list(15, character(0), c(5, 3))) {
      n <- if (length(shape) == 0L) 1L else 15L
      f <- npy_file(d, npy_dict(descr, shape, fortran = TRUE),
                    v[seq_len(n * length(v) / 15 - 1L)])
      expect_refused(f, paste(descr, paste(shape, collapse = "x"), "one byte short"))
    }
  }
  f <- npy_file(d, npy_dict("<f8", 2^20), npy_data(1:15, "<f8"))
  expect_refused(f, "(2^20,) holding 15 values")
  for (a in list(list(size = 65535), list(size = 2^20, version = c(2L, 0L)),
                 list(size = 2^24, version = c(3L, 0L)),
                 list(size = 2^32 - 1, version = c(2L, 0L)))) {
    f <- do.call(npy_file, c(list(d, npy_dict("<f8", 15), npy_data(1:15, "<f8")), a))
    expect_refused(f, paste("header length", a$size), class = "gufunc_file_format_error")
  }
})

# test_large_archive (gh-7598: a shape whose product does not fit in 32 bits) and
# shapes whose product overflows 64 bits: refused, never a wrap-around to a small size.
test_that("shapes too large for R or whose product overflows are refused", {
  skip_on_os("windows")
  d <- npy_dir()
  on.exit(unlink(d, recursive = TRUE))
  body <- npy_data(1:15, "<f8")
  warnings <- NULL
  shapes <- list(c("4294967296", "4294967296"), c("3037000500", "3037000500"),
                 "18446744073709551616", "99999999999999999999999",
                 c("4294967296", "0"), c("2", "2147483648"), c("65536", "65536", "65536", "65536"))
  for (shape in shapes) {
    for (fortran in c(TRUE, FALSE)) {
      f <- npy_file(d, npy_dict("<f8", shape, fortran = fortran), body)
      info <- paste(paste(shape, collapse = "x"), if (fortran) "F" else "C")
      # A shape R cannot hold is a format error of the file, in either order.
      for (order in c("refuse", "transpose")) {
        withCallingHandlers(
          expect_refused(f, info, class = "gufunc_file_format_error", c_order = order),
          warning = function(w) {
            warnings <<- c(warnings, sprintf("%s: %s", info, conditionMessage(w)))
            invokeRestart("muffleWarning")
          })
      }
    }
  }
  # No warning on the way to the error.
  expect_identical(warnings, NULL)
})

# Headers that NumPy's reader (safe_eval, i.e. ast.literal_eval, then the exact-keys
# and type checks of _read_array_header) refuses with a ValueError; test_bad_header's
# "headers without the exact keys required should fail", and format 3.0's utf8
# (test_unicode_field_names) decoded strictly.
test_that("headers that are not Python literals NumPy accepts are refused", {
  skip_on_os("windows")
  d <- npy_dir()
  on.exit(unlink(d, recursive = TRUE))
  body <- npy_data(1:15, "<f8")
  bad <- c(
    "extra key with a digit" = "{'descr': '<f8', 'fortran_order': False, 'shape': (15,), 'key2': 0}",
    "extra integer key" = "{'descr': '<f8', 'fortran_order': False, 'shape': (15,), 1: 0}",
    "fortran_order not a bool" = "{'descr': '<f8', 'fortran_order': Falsey, 'shape': (15,)}",
    "missing comma" = "{'descr': '<f8' 'fortran_order': False, 'shape': (15,)}",
    "trailing junk" = "{'descr': '<f8', 'fortran_order': False, 'shape': (15,), junk}",
    "shape an expression" = "{'descr': '<f8', 'fortran_order': False, 'shape': (15,) + (1,)}",
    "mismatched quotes" = "{'descr': '<f8\", 'fortran_order': False, 'shape': (15,)}")
  for (label in names(bad)) expect_refused(npy_file(d, bad[[label]], body), label)
  # A NUL byte in the header (ast.literal_eval refuses it).
  h <- c(charToRaw("{'descr': '<f8', 'fortran_order': False,"), as.raw(0), charToRaw(" 'shape': (15,)}"))
  expect_refused(npy_file(d, h, body), "NUL in the header")
  # Format 3.0 does not filter Python 2's 3L (_filter_header is for 1.0 and 2.0).
  f <- npy_file(d, "{'descr': '<f8', 'fortran_order': False, 'shape': (15L,)}", body,
                version = c(3L, 0L))
  expect_refused(f, "3.0 with 15L")
  # Bytes that are not UTF-8 in a format 3.0 header: a classed error, not R's own.
  h <- c(charToRaw("{'descr': [('"), as.raw(c(0xe9, 0xff)),
         charToRaw("', '<f8')], 'fortran_order': False, 'shape': (15,)}"))
  expect_refused(npy_file(d, h, body, version = c(3L, 0L)), "3.0, invalid utf8 in a field name")
  h <- c(charToRaw("{'descr': '<f8', 'fortran_order': False, 'shape': (15,)} "), as.raw(0xff))
  expect_refused(npy_file(d, h, body, version = c(3L, 0L)), "3.0, invalid utf8 in the padding")
})
