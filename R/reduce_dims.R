#' Sums, means, products and extremes over chosen dimensions
#'
#' The generalisation of [colSums()], [rowSums()] and `apply(x, MARGIN, f)` for
#' `f` one of [sum()], [mean()], [prod()], [min()] and [max()]: reduces `x` over the
#' dimensions `dims` and keeps the others, computing the slices in parallel (see
#' [get_gufunc_threads()]) with the `"double(n) -> double()"` gufuncs of the `base`
#' namespace (`sum`, `sum_na_rm`, `mean`, ...).
#'
#' Every value is exactly what base R gives for its slice as a double vector, so
#' the result is `identical()` to
#' `as.double(apply(x, setdiff(seq_along(dim(x)), dims), f, na.rm = na.rm))` with
#' apply's shape: sums and products in long double, the two-pass mean, `NA` before
#' `NaN` in `min`/`max`, and an empty slice giving `0`, `NaN`, `1`, `Inf` or `-Inf`
#' (the last two with base R's warning, raised once). Integer and logical input is
#' promoted to double first (as `%*%` does).
#'
#' Cost: when `dims` are the leading dimensions (`1`, `1:2`, ...) the slices are
#' contiguous and are read in place; with `dims = 1`, or all dimensions, nothing is
#' copied. Several leading dimensions are merged into one by setting `dim`, which
#' copies `x` once when `x` is also referenced elsewhere (R's copy-on-modify). Any
#' other choice of `dims` first moves those dimensions to the front with [aperm()],
#' a full transposing copy of `x`.
#'
#' @param x A double, integer or logical vector or array; a vector without `dim`
#'   is a 1-d array.
#' @param f The reduction: `"sum"`, `"mean"`, `"prod"`, `"min"` or `"max"`, or
#'   one of those functions itself (`sum`, as [apply()] takes it).
#' @param dims Integer indices into `dim(x)` of the dimensions to reduce over, in
#'   any order.
#' @param na.rm `TRUE` to drop `NA` and `NaN` values from each slice first.
#' @return A double scalar when every dimension is reduced; a vector (named by the
#'   `dimnames` of the remaining dimension) when one dimension remains; otherwise an
#'   array with the remaining `dim` and `dimnames`.
#' @seealso [gu_cumsum()] for cumulative sums and products.
#' @export
#' @examples
#' m <- matrix(c(1, 2, NA, 4, 5, 6), 2, dimnames = list(c("a", "b"), NULL))
#' reduce_dims(m, "sum")                 # colSums(m)
#' reduce_dims(m, "sum", dims = 2)       # rowSums(m), named a and b
#' reduce_dims(m, "max", 2, na.rm = TRUE)
#' a <- array(1:24, c(2, 3, 4))
#' reduce_dims(a, "mean", dims = c(1, 3))  # apply(a, 2, mean)
reduce_dims <- function(x, f = c("sum", "mean", "prod", "min", "max"), dims = 1L,
                        na.rm = FALSE) {
  check_operand(x, "x")
  f <- check_reduction(f)
  check_flag(na.rm, "na.rm")
  shape <- if (is.null(dim(x))) length(x) else dim(x)
  dims <- check_dims(dims, length(shape))
  dims <- sort(dims)
  kept <- setdiff(seq_along(shape), dims)
  kernel <- if (na.rm) paste0(f, "_na_rm") else f
  slices <- reduced_first(x, shape, dims, kept)
  out <- gufunc_call(kernel, slices, namespace = "base")
  reduced_shape(out, x, shape, kept)
}

reduction_names <- c("sum", "mean", "prod", "min", "max")

# x with the dims to reduce merged into one leading dim, the kept dims after it.
reduced_first <- function(x, shape, dims, kept, call = sys.call(-1L)) {
  k <- length(dims)
  if (k == 1L && dims == 1L) return(x)  # already "(n), loop dims"
  if (!identical(dims, seq_len(k))) x <- aperm(x, c(dims, kept))
  n <- prod(shape[dims])
  if (n > .Machine$integer.max && length(kept) > 0L) {
    # An empty x has a 0 among its kept dims: its result is empty whatever n is.
    if (length(x) == 0L) n <- 0
    else abort_shape(sprintf(paste0(
      "argument `x`: the dimensions reduced over hold %.0f elements per slice, more than ",
      "R's largest dim (2^31 - 1)"), n), call = call)
  }
  if (length(kept) == 0L) {
    if (!is.null(dim(x))) dim(x) <- NULL
  } else {
    dim(x) <- c(n, shape[kept])
  }
  x
}

# apply()'s shape for the values: a scalar, a vector named by the one kept dim,
# or an array with the kept dims and their dimnames.
reduced_shape <- function(out, x, shape, kept) {
  if (length(kept) == 0L) return(out)
  dn <- dimnames(x)[kept]
  if (length(kept) == 1L) {
    if (!is.null(dim(out))) dim(out) <- NULL
    if (length(dn[[1L]])) names(out) <- dn[[1L]]
    return(out)
  }
  if (is.null(dim(out))) dim(out) <- shape[kept]
  if (!is.null(dn)) dimnames(out) <- dn
  out
}

check_reduction <- function(f, call = sys.call(-1L)) {
  if (identical(f, reduction_names)) return("sum")
  # The function itself (reduce_dims(x, sum)), as apply() takes it.
  if (is.function(f)) {
    for (name in reduction_names) if (identical(f, get(name, baseenv()))) return(name)
  }
  if (!is.character(f) || length(f) != 1L || is.na(f) || !f %in% reduction_names) {
    abort_argument("f", sprintf("must be one of %s (or that function), not %s",
                                paste0("\"", reduction_names, "\"", collapse = ", "),
                                describe_value(f)), call = call)
  }
  f
}

check_flag <- function(x, arg, call = sys.call(-1L)) {
  if (!is.logical(x) || length(x) != 1L || is.na(x)) {
    abort_argument(arg, sprintf("must be TRUE or FALSE, not %s", describe_value(x)),
                   call = call)
  }
}

# dims: distinct whole numbers in 1..rank, as integers.
check_dims <- function(dims, rank, call = sys.call(-1L)) {
  if (!is.numeric(dims) || !is.null(attr(dims, "class")) || anyNA(dims) ||
      any(dims != trunc(dims))) {
    abort_argument("dims", sprintf("must be whole numbers indexing dim(x), not %s",
                                   describe_value(dims)), call = call)
  }
  bad <- dims[dims < 1 | dims > rank]
  if (length(bad)) {
    abort_argument("dims", sprintf("has %s outside 1..%d, the dimensions of `x`",
                                   paste(bad, collapse = ", "), rank), call = call)
  }
  if (anyDuplicated(dims)) {
    abort_argument("dims", sprintf("names dimension %s more than once",
                                   dims[anyDuplicated(dims)]), call = call)
  }
  as.integer(dims)
}

# A short description of a small argument value for messages.
describe_value <- function(x) {
  if (is.atomic(x) && is.null(attr(x, "class")) && length(x) >= 1L && length(x) <= 5L) {
    return(paste(deparse(x, width.cutoff = 60L), collapse = " "))
  }
  describe(x)
}
