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
  text <- rawToChar(text[text != as.raw(0)])
  if (major < 3L) Encoding(text) <- "latin1" else Encoding(text) <- "UTF-8"
  field <- function(key, pattern) {
    m <- regmatches(text, regexec(sprintf("['\"]%s['\"]\\s*:\\s*%s", key, pattern), text))[[1L]]
    if (length(m) < 2L) bad(sprintf("its header has no '%s'", key))
    m[2L]
  }
  # A dict of exactly these three keys, as NumPy requires.
  dict <- trimws(text)
  keys <- regmatches(dict, gregexpr("['\"][A-Za-z_]+['\"]\\s*:", dict))[[1L]]
  keys <- gsub("['\":[:space:]]", "", keys)
  if (!startsWith(dict, "{") || !endsWith(dict, "}") ||
      !setequal(keys, c("descr", "fortran_order", "shape")) || anyDuplicated(keys)) {
    bad("its header is not a dict of 'descr', 'fortran_order' and 'shape'")
  }
  descr <- field("descr", "['\"]([^'\"]*)['\"]")
  fortran <- field("fortran_order", "(True|False)") == "True"
  shape_text <- field("shape", "\\(([^)]*)\\)")
  parts <- trimws(strsplit(shape_text, ",", fixed = TRUE)[[1L]])
  parts <- sub("L$", "", parts)  # Python 2 wrote long integers as 3L
  # A tuple: (), (n,) or (n, m, ...), a trailing comma allowed; (n) is a number.
  tuple <- !nzchar(trimws(shape_text)) ||
    (all(grepl("^[0-9]+$", parts)) && (length(parts) >= 2L || grepl(",\\s*$", shape_text)))
  if (!tuple) bad(sprintf("its shape (%s) is not a tuple of sizes", shape_text))
  shape <- as.numeric(parts[nzchar(parts)])
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
