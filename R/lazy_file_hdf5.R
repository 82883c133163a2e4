# HDF5 datasets as file-backed lazy values, through hdf5r (Suggests). A dataset
# stored contiguously and unfiltered is raw values at an offset of the file: it is
# mapped where it is. A chunked or compressed one is decompressed once, slab by
# slab (bounded memory), into a raw file in tempdir(), which is mapped instead.

# lazy_file(path, dataset = ) of an HDF5 file.
lazy_hdf5 <- function(path, dataset, call) {
  if (!requireNamespace("hdf5r", quietly = TRUE)) {
    stop(errorCondition(sprintf("reading the HDF5 file '%s' needs the hdf5r package: install.packages(\"hdf5r\")", path),
                        class = c("gufunc_file_error", "gufunc_error"), call = call))
  }
  check_string(dataset, "dataset", call = call)
  h <- tryCatch(hdf5r::H5File$new(path, "r"), error = function(e) {
    stop(errorCondition(sprintf("file '%s' is not an HDF5 file hdf5r can open: %s", path,
                                conditionMessage(e)),
                        class = c("gufunc_file_format_error", "gufunc_file_error", "gufunc_error"),
                        call = call))
  })
  on.exit(h$close_all())
  if (!isTRUE(tryCatch(h$exists(dataset), error = function(e) FALSE))) {
    abort_argument("dataset", sprintf("must name a dataset of '%s': '%s' is not one", path, dataset),
                   class = "gufunc_file_error", call = call)
  }
  refuse <- function(what, class = "gufunc_file_format_error") {
    stop(errorCondition(sprintf("dataset '%s' of '%s' %s", dataset, path, what),
                        class = unique(c(class, "gufunc_file_error", "gufunc_error")), call = call))
  }
  # A group, a named datatype or a link to nothing is not a dataset.
  d <- tryCatch(h[[dataset]], error = function(e) refuse(sprintf("cannot be opened: %s",
                                                                   conditionMessage(e))))
  if (!inherits(d, "H5D")) refuse("is not a dataset (a group or a named datatype)")
  target <- d$get_filename()
  if (!identical(normalizePath(target, mustWork = FALSE), path)) {
    refuse(sprintf("is an external link to '%s' in '%s': open that file", d$get_obj_name(), target))
  }
  # The type hdf5r reads the values as decides R's; the one the file holds, whether
  # the values can be mapped (big-endian ones hdf5r converts are unpacked).
  native <- d$get_type()$to_text()
  stored <- d$get_type(native = FALSE)$to_text()
  type <- c(H5T_IEEE_F64LE = "double", H5T_STD_I32LE = "integer")[native]
  if (is.na(type)) {
    refuse(sprintf(paste0("holds %s values, which gufunc does not read: it reads 64-bit floats ",
                          "as double and 32-bit integers as integer"), stored),
           class = "gufunc_file_type_error")
  }
  space <- d$get_space()$get_simple_extent_type()
  if (identical(as.character(space), "H5S_NULL")) refuse("has no dataspace (a null one)")
  dims <- if (identical(as.character(space), "H5S_SCALAR")) 1 else d$dims
  check_dims_fit(dims, path, call, file_format = TRUE)
  plist <- d$get_create_plist()
  contiguous <- as.character(plist$get_layout()) == "H5D_CONTIGUOUS" && plist$get_nfilters() == 0L
  offset <- if (contiguous) tryCatch(as.numeric(d$get_offset()), error = function(e) NA)
  width <- if (type == "double") 8 else 4
  # Storage never written (its fill values) or not inside the file is not mapped.
  mapped <- contiguous && identical(stored, native) && !is.na(offset) &&
    d$get_storage_size() > 0 && offset + prod(dims) * width <= file.size(path)
  if (mapped) return(raw_layout(path, type, dims, offset, call))
  copy <- tempfile("hdf5-", fileext = ".raw")
  done <- FALSE
  on.exit(if (!done) unlink(copy), add = TRUE)
  unpack_hdf5(d, dims, type, copy)
  # The copy is gufunc's own: the value is saved as its values, not as the copy.
  value <- raw_layout(copy, type, dims, 0, call, by_reference = FALSE)
  done <- TRUE
  value
}

# Slabs of an array with dims `dims` along its last dim, of about 2^22 values
# each (one slice at least): list(step (slices per slab), firsts (first slice of
# each), index(first): the subscripts of the slab from slice `first`, all of the
# other dims, for `[` and hdf5r's read(args =) and write(args =)).
last_dim_slabs <- function(dims) {
  k <- length(dims)
  step <- max(1, floor(2^22 / max(prod(dims[-k]), 1)))
  whole <- rep(list(quote(expr = )), k - 1L)
  list(step = step,
       firsts = if (prod(dims) > 0) seq(1, dims[k], by = step) else numeric(0),
       index = function(first) c(whole, list(first:min(dims[k], first + step - 1))))
}

# Writes the values of dataset d (dims `dims`) to `file`, raw, a slab at a time.
unpack_hdf5 <- function(d, dims, type, file) {
  con <- file(file, "wb")
  on.exit(close(con))
  slabs <- last_dim_slabs(dims)
  for (first in slabs$firsts) {
    slab <- d$read(args = slabs$index(first))
    writeBin(if (type == "double") as.double(slab) else as.integer(slab), con)
  }
  invisible()
}

# materialize(x, file =, dataset =): a new HDF5 file at `file` with dataset
# `dataset` holding the values of x, written slab by slab along its last dim (each
# slab of a lazy x computed when written) into a temporary file renamed when complete.
write_hdf5 <- function(x, file, dataset, call) {
  if (!requireNamespace("hdf5r", quietly = TRUE)) {
    stop(errorCondition("writing HDF5 files needs the hdf5r package: install.packages(\"hdf5r\")",
                        class = c("gufunc_file_error", "gufunc_error"), call = call))
  }
  check_string(dataset, "dataset", call = call)
  dims <- if (is.null(dim(x))) length(x) else dim(x)
  k <- length(dims)
  slabs <- last_dim_slabs(dims)
  temp <- file.path(dirname(file), sprintf(".%s.part-%d", basename(file), Sys.getpid()))
  on.exit(unlink(temp))
  h <- hdf5r::H5File$new(temp, "w")
  closed <- FALSE
  on.exit(if (!closed) h$close_all(), add = TRUE, after = FALSE)
  type <- if (typeof(x) == "double") hdf5r::h5types$H5T_IEEE_F64LE else hdf5r::h5types$H5T_STD_I32LE
  chunk <- pmax(1, pmin(dims, c(dims[-k], slabs$step)))
  # A dataset in groups ("g/x") gets its groups first (hdf5r looks the name up).
  groups <- strsplit(dataset, "/", fixed = TRUE)[[1L]]
  groups <- groups[nzchar(groups)]
  for (i in seq_len(length(groups) - 1L)) {
    group <- paste(groups[seq_len(i)], collapse = "/")
    if (!h$exists(group)) h$create_group(group)
  }
  d <- h$create_dataset(dataset, dims = dims, dtype = type,
                        chunk_dims = if (prod(dims) > 0) chunk else NULL)
  for (first in slabs$firsts) {
    index <- slabs$index(first)
    slab <- if (k == 1L) x[index[[1L]]] else do.call(`[`, c(list(x), index, drop = FALSE))
    slab <- materialize(slab)
    if (typeof(slab) == "logical") storage.mode(slab) <- "integer"
    d$write(args = index, value = slab)
  }
  h$close_all()
  closed <- TRUE
  if (!file.rename(temp, file)) {
    stop(errorCondition(sprintf("file '%s': cannot give it its name", file),
                        class = c("gufunc_file_error", "gufunc_error"), call = call))
  }
  lazy_file(file, dataset = dataset)
}
