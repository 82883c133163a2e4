# NumPy's .npy format (numpy.lib.format): the magic string "\x93NUMPY", a major and
# a minor version byte, the header's length (2 bytes in version 1, 4 in versions 2
# and 3), and the header: a Python dict literal with 'descr', 'fortran_order' and
# 'shape', padded with spaces and a newline so the data start at a multiple of 64
# bytes (16 in files written by old NumPy versions). The data follow as raw bytes.

npy_magic <- as.raw(c(0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59))  # \x93NUMPY

# The element types gufunc reads, by NumPy's type string, as R types.
# ("bytes": logical values stored one byte each, 0 is FALSE, anything else TRUE.)
npy_types <- c("<f8" = "double", "<i4" = "integer", "|b1" = "bytes", "|u1" = "bytes")

# What the header of the .npy file at `path` says: list(type (R's), descr, shape
# (numbers), fortran_order, offset (of the data, in bytes)). `call` is the user's.
read_npy_header <- function(path, call) {
  bad <- function(problem) {
    stop(errorCondition(sprintf("file '%s' is not a .npy file gufunc can read: %s", path, problem),
                        class = c("gufunc_file_format_error", "gufunc_file_error", "gufunc_error"),
                        call = call))
  }
  # (Not opened when shorter than a header: a named pipe, whose size is 0, would
  # wait for a writer.)
  if (isTRUE(file.size(path) < 10)) bad("it is too short to hold a header")
  con <- tryCatch(suppressWarnings(file(path, "rb")), error = function(e) {
    stop(errorCondition(sprintf("file '%s': cannot open it (%s)", path, conditionMessage(e)),
                        class = c("gufunc_file_error", "gufunc_error"), call = call))
  })
  on.exit(close(con))
  lead <- readBin(con, "raw", 12L)
  if (!identical(lead[1:6], npy_magic)) bad("it does not start with NumPy's magic string")
  major <- as.integer(lead[7L])
  minor <- as.integer(lead[8L])
  if (!major %in% 1:3 || minor != 0L) bad(sprintf("format version %d.%d is unknown", major, minor))
  if (major == 1L) {
    size <- sum(as.integer(lead[9:10]) * c(1, 256))
    start <- 10
  } else {
    if (length(lead) < 12L) bad("its header is cut short")
    size <- sum(as.numeric(lead[9:12]) * 256^(0:3))
    start <- 12
  }
  if (size > 1e7) bad(sprintf("its header claims %.0f bytes", size))
  seek(con, start)
  text <- readBin(con, "raw", size)
  if (length(text) < size) bad("its header is cut short")
  # NumPy evaluates the header as a Python literal, which cannot hold a NUL byte.
  if (any(text == as.raw(0))) bad("its header holds a NUL byte")
  text <- rawToChar(text)
  if (major < 3L) {
    Encoding(text) <- "latin1"
  } else {
    if (!validUTF8(text)) bad("its header is not UTF-8 text")
    Encoding(text) <- "UTF-8"
  }
  # Python 2 wrote long integers as 3L; NumPy reads them in versions 1 and 2 only.
  fields <- npy_dict(text, long_integers = major < 3L, bad)
  list(descr = fields$descr, type = unname(npy_types[fields$descr]), shape = fields$shape,
       fortran_order = fields$fortran_order, offset = start + size)
}

# The header (a raw vector, version 1.0 or 2.0 when longer) of a .npy file of
# R values of `type` with dims `dim` (NULL: a 1-d array of `length` values),
# in Fortran order as R keeps arrays.
npy_header <- function(type, dim, length) {
  descr <- c(double = "<f8", integer = "<i4")[[type]]
  shape <- if (is.null(dim)) sprintf("(%.0f,)", length) else
    if (length(dim) == 1L) sprintf("(%.0f,)", dim) else
      sprintf("(%s)", paste(sprintf("%.0f", dim), collapse = ", "))
  dict <- sprintf("{'descr': '%s', 'fortran_order': True, 'shape': %s, }", descr, shape)
  for (version in 1:2) {
    lead <- if (version == 1L) 10L else 12L
    total <- ceiling((lead + nchar(dict) + 1L) / 64) * 64
    size <- total - lead
    if (version == 2L || size < 65536) break
  }
  text <- charToRaw(paste0(dict, strrep(" ", size - nchar(dict) - 1L), "\n"))
  size_bytes <- as.raw(size %/% 256^(0:(if (version == 1L) 1L else 3L)) %% 256)
  c(npy_magic, as.raw(c(version, 0L)), size_bytes, text)
}

# The fields of a .npy header `text`: the Python dict literal NumPy writes, read as
# strictly as NumPy reads it (ast.literal_eval, then its checks): exactly the keys
# 'descr' (a string), 'fortran_order' (True or False) and 'shape' (a tuple of sizes:
# (), (n,) or (n, m, ...)), in any order, a trailing comma allowed, then only spaces.
# A key given twice is refused (NumPy would keep the last; no writer repeats one).
# `bad(problem)` raises the file's error.
npy_dict <- function(text, long_integers, bad) {
  rest <- text
  # The token matching `pattern` after any spaces, consumed; NULL if there is none.
  take <- function(pattern) {
    m <- regmatches(rest, regexec(paste0("^[ \t\r\n]*(", pattern, ")"), rest, perl = TRUE))[[1L]]
    if (length(m) == 0L) return(NULL)
    rest <<- substring(rest, nchar(m[1L]) + 1L)
    m[2L]
  }
  need <- function(pattern, problem) {
    token <- take(pattern)
    if (is.null(token)) bad(problem)
    token
  }
  string <- "[uU]?'[^'\\\\\n]*'|[uU]?\"[^\"\\\\\n]*\""
  unquote <- function(s) sub("^[uU]?.(.*).$", "\\1", s)
  keys <- c("descr", "fortran_order", "shape")
  not_dict <- "its header is not a dict of 'descr', 'fortran_order' and 'shape'"
  need("\\{", not_dict)
  fields <- list()
  while (is.null(take("\\}"))) {
    key <- unquote(need(string, not_dict))
    if (!key %in% keys) bad(sprintf("its header has a key '%s' besides %s", key, not_dict))
    if (!is.null(fields[[key]])) bad(sprintf("its header gives '%s' twice", key))
    need(":", not_dict)
    fields[[key]] <- switch(key,
      descr = unquote(need(string, "its 'descr' is not a string")),
      fortran_order = need("(?:True|False)(?![A-Za-z0-9_])",
                           "its 'fortran_order' is not True or False") == "True",
      shape = npy_shape(take, need, long_integers, bad)
    )
    if (!is.null(take("\\}"))) break
    need(",", not_dict)
  }
  if (grepl("[^ \t\r\n]", rest)) bad("its header holds more than a dict")
  for (key in keys) if (is.null(fields[[key]])) bad(sprintf("its header has no '%s'", key))
  fields
}

# A tuple of sizes, (), (n,) or (n, m, ...), as numbers (take(), need() and bad()
# as in npy_dict()). Python 2's long integers (3L) where `long_integers`.
npy_shape <- function(take, need, long_integers, bad) {
  not_tuple <- "its 'shape' is not a tuple of sizes"
  size <- if (long_integers) "[0-9]+L?(?![A-Za-z0-9_])" else "[0-9]+(?![A-Za-z0-9_])"
  need("\\(", not_tuple)
  sizes <- character()
  if (is.null(take("\\)"))) {
    repeat {
      sizes <- c(sizes, need(size, not_tuple))
      if (!is.null(take("\\)"))) {
        if (length(sizes) == 1L) bad(not_tuple)  # (n) is a number, not a tuple
        break
      }
      need(",", not_tuple)
      if (!is.null(take("\\)"))) break
    }
  }
  as.numeric(sub("L$", "", sizes))
}
