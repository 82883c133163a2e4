# rowSums(), colSums(), rowMeans() and colMeans() of a lazy array: one pass over
# its deferred graph (src/engine/reduce_margin.cpp) instead of materializing it,
# with base R's values, attributes and warnings. Base R's functions are not
# generic, so gufunc masks them (see base_masks); without a lazy `x` each is base
# R's function, called as written.

#' @rdname base_masks
#' @export
rowSums <- function(x, na.rm = FALSE, dims = 1L) {
  margin_sums("rowSums", x, na.rm, dims, sys.call())
}

#' @rdname base_masks
#' @export
colSums <- function(x, na.rm = FALSE, dims = 1L) {
  margin_sums("colSums", x, na.rm, dims, sys.call())
}

#' @rdname base_masks
#' @export
rowMeans <- function(x, na.rm = FALSE, dims = 1L) {
  margin_sums("rowMeans", x, na.rm, dims, sys.call())
}

#' @rdname base_masks
#' @export
colMeans <- function(x, na.rm = FALSE, dims = 1L) {
  margin_sums("colMeans", x, na.rm, dims, sys.call())
}

margin_sums <- function(what, x, na.rm, dims, call) {
  if (is_lazy(x)) {
    value <- lazy_margin_sums(what, x, na.rm, dims, call)
    if (!is.null(value)) return(value)
  }
  base_function <- get(what, envir = baseenv(), mode = "function")
  with_user_call(call, base_function(plain(x, what), na.rm = na.rm, dims = dims))
}

# base R's `what` of lazy array x in one pass over its graph, or NULL for base R to
# handle (and raise its errors): dims not a whole number in 1..(rank - 1), na.rm not
# TRUE or FALSE.
lazy_margin_sums <- function(what, x, na.rm, dims, call) {
  d <- dim(x)
  if (length(d) < 2L || !is.numeric(dims) || length(dims) != 1L || is.object(dims) ||
      is.na(dims) || dims != trunc(dims) || dims < 1 || dims > length(d) - 1L ||
      !(isTRUE(na.rm) || isFALSE(na.rm))) {
    return(NULL)
  }
  id <- seq_len(dims)
  rows <- what %in% c("rowSums", "rowMeans")
  res <- .Call(C_lazy_reduce_margin, x, prod(d[id]), prod(d[-id]), what, na.rm)
  raise_warnings(res[[2L]], call)
  z <- res[[1L]]
  kept <- if (rows) id else -id
  if (length(d[kept]) > 1L) {
    dim(z) <- d[kept]
    dimnames(z) <- dimnames(x)[kept]
  } else {
    names(z) <- dimnames(x)[[if (rows) 1L else dims + 1L]]
  }
  z
}
