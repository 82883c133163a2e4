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
  con <- file(path, "rb")
  on.exit(close(con))
  lead <- readBin(con, "raw", 12L)
  if (length(lead) < 10L || !identical(lead[1:6], npy_magic)) {
    bad("it does not start with NumPy's magic string")
  }
  major <- as.integer(lead[7L])
  if (!major %in% 1:3) bad(sprintf("format version %d is unknown", major))
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
  text <- rawToChar(text[text != as.raw(0)])
  if (major < 3L) Encoding(text) <- "latin1" else Encoding(text) <- "UTF-8"
  field <- function(key, pattern) {
    m <- regmatches(text, regexec(sprintf("['\"]%s['\"]\\s*:\\s*%s", key, pattern), text))[[1L]]
    if (length(m) < 2L) bad(sprintf("its header has no '%s'", key))
    m[2L]
  }
  descr <- field("descr", "['\"]([^'\"]*)['\"]")
  fortran <- field("fortran_order", "(True|False)") == "True"
  shape_text <- field("shape", "\\(([^)]*)\\)")
  parts <- trimws(strsplit(shape_text, ",", fixed = TRUE)[[1L]])
  parts <- parts[nzchar(parts)]
  parts <- sub("L$", "", parts)  # Python 2 wrote long integers as 3L
  if (!all(grepl("^[0-9]+$", parts))) bad(sprintf("its shape (%s) is not a tuple of sizes", shape_text))
  shape <- as.numeric(parts)
  list(descr = descr, type = unname(npy_types[descr]), shape = shape, fortran_order = fortran,
       offset = start + size)
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
