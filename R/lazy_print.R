# Printing a lazy value: a header with its type, extent and state, then its values
# as base R prints them, all of them when there are few (up to 100), else the
# first 10 of a vector, or the top-left corner of a matrix (the first slice's corner
# of an array) as base R's matrix print shows it, with the dimnames. Only the values
# shown are computed.

# A value of at most this many elements prints whole.
kPrintWhole <- 100L
# A long vector prints this many values; a matrix's corner this many rows.
kPrintFirst <- 10L

#' @export
print.gufunc_lazy <- function(x, ...) {
  # Plain data that a base R function gave the class (dnorm(lazy(x)) copies x's
  # attributes onto its result) is not lazy: it prints as base R prints the values.
  if (!.Call(C_lazy_is_vector, x)) {
    print(unclass(x), ...)
    return(invisible(x))
  }
  cat(lazy_header(x), "\n", sep = "")
  n <- length(x)
  if (n > kPrintWhole && length(dim(x)) >= 2L) {
    print_corner(x, ...)
    return(invisible(x))
  }
  shown <- if (n <= kPrintWhole) n else kPrintFirst
  if (n == 0L) {
    # numeric(0), or an empty matrix's column labels, as base R prints them.
    values <- vector(typeof(x), 0L)
    attributes(values) <- attributes_but_class(x)
    print(values, ...)
  } else {
    # Only the values shown are computed (a region read).
    values <- .Call(C_lazy_region, x, 0, shown)
    if (shown == n) {
      attributes(values) <- attributes_but_class(x)
    } else if (!is.null(names(x))) {
      names(values) <- names(x)[seq_len(shown)]
    }
    print(values, ...)
  }
  if (shown < n) {
    cat(sprintf("# ... %s more values\n", format_count(n - shown)))
  }
  invisible(x)
}

# The first rows and the columns that fit the console's width of a matrix (of the
# first matrix slice of an array), printed by base R, and what is not shown.
print_corner <- function(x, ...) {
  d <- dim(x)
  rows <- min(d[1L], kPrintFirst)
  # More columns than can fit are never computed: each takes at least 2 characters.
  cols <- min(d[2L], max(1L, getOption("width", 80L) %/% 2L))
  corner <- leading_columns(x, rows, cols)
  dn <- dimnames(x)
  if (!is.null(dn)) {
    corner_names <- list(dn[[1L]][seq_len(rows)], dn[[2L]][seq_len(cols)])
    names(corner_names) <- names(dn)[1:2]
    dimnames(corner) <- corner_names
  }
  cols <- columns_that_fit(corner, getOption("width", 80L))
  corner <- corner[, seq_len(cols), drop = FALSE]
  if (length(d) > 2L) cat(slice_label(dn, length(d)), "\n\n", sep = "")
  print(corner, ...)
  more <- c(rows = d[1L] - rows, columns = d[2L] - cols, slices = prod(d[-(1:2)]) - 1)
  more <- more[more > 0]
  if (length(more)) {
    cat("# ... ", paste(format_count(more), "more", names(more), collapse = ", "), "\n", sep = "")
  }
}

# The first `rows` rows of the first `cols` columns of x (of its first slice) as a
# plain matrix. With short columns these are one run of x's values, computed in
# one evaluation; long ones are read column by column.
kPrintRun <- 10000
leading_columns <- function(x, rows, cols) {
  n <- dim(x)[1L]
  if (n * cols <= kPrintRun) {
    run <- .Call(C_lazy_region, x, 0, n * cols)
    return(matrix(run, n, cols)[seq_len(rows), , drop = FALSE])
  }
  slice <- rep(list(1L), length(dim(x)) - 2L)
  corner <- do.call(`[`, c(list(x, seq_len(rows), seq_len(cols)), slice, list(drop = FALSE)))
  corner <- materialize(corner)
  dim(corner) <- c(rows, cols)
  corner
}

# How many leading columns of `corner` base R prints in `width` characters on one
# line: the row labels, then each column as wide as its widest entry or name, plus
# a space (print.default formats each column of a matrix separately).
columns_that_fit <- function(corner, width) {
  labels <- rownames(corner)
  if (is.null(labels)) labels <- sprintf("[%d,]", nrow(corner))
  used <- max(nchar(labels, type = "width"))
  names <- colnames(corner)
  for (j in seq_len(ncol(corner))) {
    name <- if (is.null(names)) sprintf("[,%d]", j) else names[j]
    used <- used + 1L + max(nchar(c(format(corner[, j]), name), type = "width"))
    if (used >= width) return(max(1L, j - 1L))  # R prints a line shorter than width
  }
  ncol(corner)
}

# ", , 1" (or ", , C = c1" with named dimnames), as base R labels an array's slice.
slice_label <- function(dn, rank) {
  at <- vapply(seq.int(3L, rank), function(k) {
    level <- if (is.null(dn[[k]])) "1" else dn[[k]][1L]
    name <- names(dn)[k]
    if (is.null(name) || !nzchar(name)) level else paste(name, "=", level)
  }, "")
  paste0(", , ", paste(at, collapse = ", "))
}

format_count <- function(n) format(n, big.mark = ",", scientific = FALSE, trim = TRUE)

# "<gufunc_lazy double[1000 x 3], deferred>", "... deferred, file 'x.npy'>"
lazy_header <- function(x) {
  file <- .Call(C_lazy_file_reference, x)
  sprintf("<gufunc_lazy %s, %s%s>", value_extent(x, plain_count),
          if (.Call(C_lazy_is_vector, x)) lazy_state(x) else "materialized",
          if (is.null(file)) "" else sprintf(", file '%s'", file$path))
}
