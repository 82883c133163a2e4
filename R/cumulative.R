#' Cumulative sums and products along the first dimension
#'
#' `gu_cumsum()` and `gu_cumprod()` run the `"double(n) -> double(n)"` gufuncs
#' `cumsum` and `cumprod` of the `base` namespace: along a plain vector as a whole,
#' along each column of a matrix, and along the first dimension of every slice of a
#' higher-dimensional array, the slices in parallel (see [get_gufunc_threads()]).
#'
#' Each slice gives exactly what base R's [cumsum()] / [cumprod()] give for it as a
#' double vector: the running total is kept in long double, and an `NA` or `NaN`
#' propagates from where it occurs. Integer and logical input is promoted to double
#' first (as `%*%` does), so integer overflow cannot happen. Unlike base R, the
#' result keeps the `dim` and `dimnames` of `x` (and its `names`).
#'
#' Naming: a gufunc whose name base R already uses is exported with the `gu_`
#' prefix, so attaching gufunc masks no base R function.
#'
#' @param x A double, integer or logical vector or array.
#' @return A double vector or array with the shape of `x`.
#' @seealso [reduce_dims()] for sums, means, products and extremes over dimensions.
#' @export
#' @examples
#' gu_cumsum(c(1, 2, NA, 4))
#' m <- matrix(1:6, 3)
#' gu_cumsum(m)
#' identical(gu_cumsum(m), apply(m, 2, cumsum) + 0)
#' gu_cumprod(array(1:8, c(2, 2, 2)))
gu_cumsum <- function(x) cumulative("cumsum", x)

#' @rdname gu_cumsum
#' @export
gu_cumprod <- function(x) cumulative("cumprod", x)

cumulative <- function(name, x, call = sys.call(-1L)) {
  check_operand(x, "x", call = call)
  out <- gufunc_call(name, x, namespace = "base")
  keep_shape(out, x)
}

# The output of a "(n) -> (n)" call has the dims of x; the names go back too.
keep_shape <- function(out, x) {
  if (is.null(dim(x))) {
    if (!is.null(names(x))) names(out) <- names(x)
  } else {
    if (is.null(dim(out))) dim(out) <- dim(x)  # a 1-d array
    if (!is.null(dimnames(x))) dimnames(out) <- dimnames(x)
  }
  out
}
