#' Lazy values backed by files: arrays larger than memory
#'
#' `lazy_file()` maps a file of numbers into memory without reading it and returns
#' a lazy value over it. Expressions, reductions and gufuncs over it are deferred as
#' for any lazy value, and when they are computed the engine streams the file block
#' by block: consecutive elements are read where they are mapped (or with `pread()`
#' on machines where that was timed faster: option `gufunc.file_reads` in
#' [gufunc_options]), others with
#' `pread()` (a transposed view such as `t(x)` through small per-thread caches of
#' the file), and the mapped pages are released as the evaluation goes (every 32
#' MB of file read per thread), so memory stays bounded by the blocks, not by the
#' file. [matmul()] of a long file (`matmul(x, v)`, `matmul(t(x), v)`, or
#' `matmul(t(x), x)` of a tall one) reads it a block at a time and gives the bits of
#' the whole product; `%*%` and [crossprod()] read their operands into memory and
#' call base R (see [base_masks]).
#' `materialize(x, file = )` streams a result into a new `.npy` file the same way.
#'
#' @section Files:
#' * **NumPy `.npy`** files (any version of the format): `float64` (`'<f8'`) is read
#'   as double, `int32` (`'<i4'`) as integer (NumPy's -2147483648 is R's `NA`),
#'   `bool` and `uint8` as logical (0 is `FALSE`, anything else `TRUE`; these are
#'   widened block by block as they are read, never viewed in place).
#'   Arrays in Fortran order (`numpy.asfortranarray()`, or written by gufunc) are R
#'   arrays of the same shape. An array of 2 or more dimensions in C order (NumPy's
#'   default) is laid out as the transpose of R's array of that shape; it is refused
#'   unless `c_order = "transpose"`, which reads the same bytes with the dims
#'   reversed (for a matrix, the transpose `t()` of the NumPy array; in general
#'   `aperm()` of it). Other types (`float32`, `int64`, big-endian data, ...) are
#'   refused with an error naming the type.
#' * **Raw binary files**: give `type` and `dim` (or nothing, for a vector filling
#'   the file): values in this machine's byte order, column-major, from byte
#'   `offset`.
#' * **bigstatsr's `FBM`** file-backed matrices of type `"double"` or `"integer"`:
#'   pass the `FBM` object.
#' * **HDF5** datasets (give `dataset`; needs the hdf5r package) of 64-bit floats
#'   or 32-bit integers, with hdf5r's dims (R's order; a scalar dataset is one
#'   value). A little-endian dataset stored contiguously without filters is mapped
#'   where it is in the file. Any other (chunked, compressed, big-endian, or never
#'   written: its fill values) is first read by hdf5r, a slab of about 2^22 values
#'   at a time, into a raw file in [tempdir()] (removed with the session), which is
#'   mapped instead: one pass over the dataset at `lazy_file()`, bounded memory, and
#'   disk space for the values; such a value is saved as its values. A group, a
#'   named datatype, a null dataspace or an external link to another file is
#'   refused with a `gufunc_file_error` (open the linked file itself).
#'
#' A file-backed value is read-only and stays deferred: [lazy_state()] is
#' `"deferred"`, `x[i]`, `head()`, printing and [lazy_plan()] read only what they
#' need. Base R code that needs all of its values (the fallback) materializes it
#' into memory, once, as for any lazy value.
#'
#' The file must not change while it is in use: every evaluation first checks its
#' size, modification time and inode and raises a `gufunc_file_changed_error` when
#' they differ (call `lazy_file()` again). A file truncated *during* an evaluation
#' stops it with the same error, not a bus error that would end R: while a file is
#' mapped, gufunc handles bus errors at addresses of its mappings (it maps zeros
#' over the part cut off, and the evaluation that read them raises the error), and
#' passes every other bus error on to R's own handler.
#'
#' **Saving**: [saveRDS()] / [save()] of a value from `lazy_file()` writes its
#' path, type and dims, not its data; reading it back maps the file again (it must
#' be there, unchanged in layout). Values computed from it are saved as their values.
#'
#' Not supported on Windows yet (a `gufunc_file_error`).
#'
#' @param path The file: a path, or a bigstatsr `FBM` object.
#' @param type For raw binary files: `"double"` (8 bytes) or `"integer"` (4 bytes).
#'   `NULL` (the default) for `.npy` files and `FBM`s, which say it themselves.
#' @param dim For raw binary files: the dims of the array (a vector, or `NULL` for
#'   a vector of all the values from `offset` to the end of the file).
#' @param offset For raw binary files: bytes to skip before the data.
#' @param c_order For `.npy` arrays in C order: `"refuse"` (the default) or
#'   `"transpose"` (see Files).
#' @param dataset For HDF5 files: the name of the dataset (e.g. `"temps"` or
#'   `"group/temps"`).
#' @return A lazy value (see [lazy()]) with the file's dims.
#' @seealso [materialize()] with `file =` to write results; the `out_of_core.R`
#'   benchmark in the installed `benchmarks` folder.
#' @export
#' @examples
#' f <- tempfile(fileext = ".npy")
#' x <- materialize(lazy(matrix(runif(2e5), 400)) * 2, file = f) # streamed to f
#' x
#' y <- lazy_file(f) # the same file, mapped again
#' mean(sqrt(y) + 1) # one streamed pass over the file
#' identical(materialize(y[1:3, ]), materialize(x)[1:3, ])
#' unlink(f)
lazy_file <- function(path, type = NULL, dim = NULL, offset = 0,
                      c_order = c("refuse", "transpose"), dataset = NULL) {
  call <- sys.call()
  c_order <- match.arg(c_order)
  if (inherits(path, "FBM")) return(lazy_fbm(path, call))
  check_string(path, "path")
  if (!file.exists(path) || dir.exists(path)) {
    abort_argument("path", sprintf("must name an existing file: '%s' is not one", path),
                   class = c("gufunc_file_error"), call = call)
  }
  path <- normalizePath(path, mustWork = TRUE)
  if (!is.null(dataset)) return(lazy_hdf5(path, dataset, call))
  if (is.null(type)) {
    h <- read_npy_header(path, call)
    npy_layout(h, path, c_order, call)
  } else {
    raw_layout(path, type, dim, offset, call)
  }
}

# A lazy value over the .npy file at `path` whose header is `h`.
npy_layout <- function(h, path, c_order, call) {
  if (is.na(h$type)) {
    stop(errorCondition(
      sprintf(paste0("file '%s' holds NumPy type '%s', which gufunc does not read: it reads ",
                     "float64 ('<f8') as double, int32 ('<i4') as integer, and bool ('|b1') ",
                     "and uint8 ('|u1') as logical"),
              path, h$descr),
      class = c("gufunc_file_type_error", "gufunc_file_error", "gufunc_error"), call = call))
  }
  dim <- h$shape
  check_dims_fit(dim, path, call, file_format = TRUE)
  if (length(dim) >= 2L && !h$fortran_order) {
    # One layout for both orders when at most one dim is above 1 or none is 0.
    if (c_order == "refuse" && prod(dim) > 0 && sum(dim > 1) > 1) {
      stop(errorCondition(
        sprintf(paste0("file '%s' holds a %s array in C order (NumPy's default), the ",
                       "transpose of R's layout: write it with numpy.asfortranarray(), or read ",
                       "it with c_order = \"transpose\" (dims %s)"), path,
                paste(dim, collapse = " x "), paste(rev(dim), collapse = " x ")),
        class = c("gufunc_file_order_error", "gufunc_file_error", "gufunc_error"), call = call))
    }
    dim <- if (c_order == "transpose") rev(dim) else dim
  }
  length <- prod(dim)
  attrs <- if (length(dim) >= 2L) list(dim = as.integer(dim))
  open_file_value(path, h$type, h$offset, length, attrs)
}

# A lazy value over a raw binary file of `type` values with dims `dim`.
raw_layout <- function(path, type, dim, offset, call, by_reference = TRUE) {
  if (!is.character(type) || length(type) != 1L || !type %in% c("double", "integer")) {
    abort_argument("type", sprintf("must be \"double\" or \"integer\", not %s", describe(type)),
                   call = call)
  }
  if (!is.numeric(offset) || length(offset) != 1L || is.na(offset) || offset < 0 ||
      offset != trunc(offset)) {
    abort_argument("offset", sprintf("must be a whole number of bytes >= 0, not %s",
                                     describe(offset)), call = call)
  }
  width <- if (type == "double") 8 else 4
  if (is.null(dim)) {
    length <- (file.size(path) - offset) / width
    if (length < 0 || length != trunc(length)) {
      abort_argument("dim", sprintf(paste0("is needed: the %.0f bytes of '%s' after byte %.0f ",
                                           "are not a whole number of %s values"),
                                    file.size(path), path, offset, type), call = call)
    }
    attrs <- NULL
  } else {
    if (!is.numeric(dim) || length(dim) == 0L || anyNA(dim) || any(dim < 0) ||
        any(dim != trunc(dim))) {
      abort_argument("dim", sprintf("must be a vector of whole numbers >= 0, not %s",
                                    describe(dim)), call = call)
    }
    check_dims_fit(dim, path, call)
    length <- prod(dim)
    attrs <- if (length(dim) >= 2L) list(dim = as.integer(dim))
  }
  open_file_value(path, type, offset, length, attrs, by_reference)
}

# A lazy value over a bigstatsr FBM (a raw column-major file of its type).
lazy_fbm <- function(x, call) {
  type <- names(x$type)
  if (!type %in% c("double", "integer")) {
    stop(errorCondition(sprintf("an FBM of type '%s' cannot be read: gufunc reads \"double\" and \"integer\"", type),
                        class = c("gufunc_file_type_error", "gufunc_file_error", "gufunc_error"),
                        call = call))
  }
  raw_layout(normalizePath(x$backingfile, mustWork = TRUE), type, c(x$nrow, x$ncol), 0, call)
}

check_dims_fit <- function(dim, path, call, file_format = FALSE) {
  if (any(dim > .Machine$integer.max) || prod(dim) > 2^52) {
    # A .npy header's shape is the file's format; dims given to lazy_file() are not.
    class <- c(if (file_format) c("gufunc_file_format_error", "gufunc_file_error"),
               "gufunc_shape_error", "gufunc_error")
    stop(errorCondition(sprintf("file '%s': dims %s are too large for an R array", path,
                                paste(format(dim, scientific = FALSE), collapse = " x ")),
                        class = class, call = call))
  }
}

# by_reference: saved as the file's path and layout (else as its values).
open_file_value <- function(path, type, offset, length, attrs, by_reference = TRUE) {
  .Call(C_lazy_file_open, path, type, as.numeric(offset), as.numeric(length), attrs,
        by_reference)
}

# materialize(x, file = ): the values of x streamed into a new .npy file at `file`
# (replacing one there only when complete); returns lazy_file(file). With a
# dataset name, an HDF5 file of that one dataset (lazy_file_hdf5.R).
materialize_to_file <- function(x, file, dataset, call) {
  check_string(file, "file", call = call)
  if (!typeof(x) %in% c("double", "integer", "logical") ||
      (!inherits(x, "gufunc_lazy") && !is.null(attr(x, "class")))) {
    abort_argument("x", sprintf("must be a double, integer or logical vector or array to be written to a file, not %s",
                                describe(x)), class = "gufunc_type_error", call = call)
  }
  dir <- dirname(file)
  if (!dir.exists(dir)) {
    abort_argument("file", sprintf("must be in an existing directory: '%s' is not one", dir),
                   class = "gufunc_file_error", call = call)
  }
  file <- file.path(normalizePath(dir, mustWork = TRUE), basename(file))
  if (!is.null(dataset)) {
    out <- write_hdf5(x, file, dataset, call)
  } else {
    type <- if (typeof(x) == "double") "double" else "integer"
    header <- npy_header(type, dim(x), length(x))
    warnings <- .Call(C_lazy_file_write, x, file, header)
    if (length(warnings) > 0L) raise_warnings(warnings, call)
    out <- lazy_file(file)
  }
  # The file keeps the values and the dims (of two or more); the value returned has
  # x's dim of one and its names too.
  if (length(dim(x)) == 1L) dim(out) <- dim(x)
  if (!is.null(dimnames(x))) {
    dimnames(out) <- dimnames(x)
  } else if (!is.null(names(x))) {
    names(out) <- names(x)
  }
  out
}
