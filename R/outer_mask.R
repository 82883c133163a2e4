# outer(X, Y) of lazy values. Base R's outer() with FUN = "*" (the default, and
# X %o% Y) multiplies through tcrossprod(as.vector(X), as.vector(Y)), a
# matrix product that does not dispatch on the class (R 4.2): it would read a lazy
# value through its data pointer, a fallback. With one inner dimension each
# element of that product is 0 + x[i] * y[j] in double (R's long double loop adds
# one product to 0; a BLAS dgemm starts from C = 0 as well), so a product -0 comes
# out +0. gufunc's outer() hands base R's outer() that function instead, which it
# applies to rep() views of X and Y: a deferred broadcast, fused with what
# follows. Other FUN were deferred already (rep() of a lazy value is a view).

#' @rdname base_masks
#' @details
#' `outer(X, Y)` with `FUN = "*"` (the default, and `X %o% Y`) multiplies in base R
#' through `tcrossprod(as.vector(X), as.vector(Y))`, which reads a lazy value as
#' plain data. Each element of that product is `0 + X[i] * Y[j]` (one product added
#' to zero, so a product `-0` is `+0`); gufunc's `outer()` gives base R's `outer()`
#' that function of `X` and `Y` (double, integer or logical), which it applies to
#' `rep()` views of them: deferred and fused with what follows, with base R's bits,
#' dims and dimnames. With `options(matprod = "blas")`, or a BLAS whose products
#' differ from that rule on a probe made once per session, base R's `outer()` runs
#' on the values. Other `FUN` are base R's `outer()`, deferred where `FUN` is
#' (`rep()` of a lazy value is a view). A result shorter than
#' `gufunc.lazy_min_length` is base R's `outer()` of the values, at once.
#' @param X,Y,FUN As for base R's `outer()`.
#' @export
outer <- function(X, Y, FUN = "*", ...) {
  if (missing(FUN) && ...length() == 0L) {
    # In one call (src/r/lazy_map_bridge.cpp): two double vectors without
    # attributes, one lazy, with a long product (an elimination step's) give
    # outer_vectors_product() below; neither lazy, or a short product, give the
    # symbol `plain`: base R's outer() of the values, whose conditions (none, for
    # "*") need no rewriting.
    value <- .Call(C_outer_product, X, Y, outer_probe_agrees())
    if (is.symbol(value)) return(base::outer(plain_values(X), plain_values(Y)))
    if (!is.null(value)) return(value)
  }
  if ((is_lazy(X) || is_lazy(Y)) && as.double(length(X)) * length(Y) < lazy_min_length()) {
    # A short result: base R's on the values, as for the operators.
    X <- plain_values(X)
    Y <- plain_values(Y)
  }
  if (is_lazy(X) || is_lazy(Y)) {
    # The other one lazy too (no copy): base R's outer() repeats both, and repeating a
    # lazy value is a view, not length(X) * length(Y) values in memory.
    if (!is_lazy(X)) X <- lazy_if_plain(X)
    if (!is_lazy(Y)) Y <- lazy_if_plain(Y)
  }
  if (is.character(FUN) && length(FUN) == 1L && FUN == "*" && ...length() == 0L &&
      (is_lazy(X) || is_lazy(Y)) && deferred_outer_product(X, Y)) {
    return(outer_product(X, Y))
  }
  with_user_call(sys.call(), base::outer(X, Y, FUN, ...))
}

# lazy(v) for a plain double, integer or logical vector or array, else v.
lazy_if_plain <- function(v) {
  if (typeof(v) %in% c("double", "integer", "logical") && !is.object(v)) lazy(v) else v
}

# outer(X, Y) as base R computes it with FUN = "*": the product of the vectors, then
# the dims (X's, then Y's; a vector's length) and dimnames (a vector's names) of
# base R's outer().
outer_product <- function(X, Y) {
  out <- outer_vectors_product(X, Y)
  if (!is.null(out)) return(out)
  out <- base::outer(as.vector(X), as.vector(Y), outer_product_elements)
  margin <- function(v) {
    if (is.array(v)) list(dim = dim(v), names = dimnames(v))
    else list(dim = length(v), names = if (!is.null(names(v))) list(names(v)))
  }
  mx <- margin(X)
  my <- margin(Y)
  dim(out) <- c(mx$dim, my$dim)
  if (!is.null(mx$names) || !is.null(my$names)) {
    if (is.null(mx$names)) mx$names <- vector("list", length(mx$dim))
    if (is.null(my$names)) my$names <- vector("list", length(my$dim))
    dimnames(out) <- c(mx$names, my$names)
  }
  out
}

# outer_product() of two double vectors without attributes (a product of at least
# gufunc.lazy_min_length elements: outer() computes shorter ones at once), built
# in a few calls: an elimination step takes one such product of two short vectors,
# where base R's outer() and its rep() of lazy values would cost ten times the
# step's own R code. NULL for other operands. (outer() asks C_outer_product first,
# which builds the same in one call where neither operand must be computed first.)
outer_vectors_product <- function(X, Y) {
  nx <- length(X)
  ny <- length(Y)
  if (typeof(X) != "double" || typeof(Y) != "double" || nx < 2L || ny < 2L ||
      !is.null(attributes_but_class(X)) || !is.null(attributes_but_class(Y))) {
    return(NULL)
  }
  product <- .Call(C_lazy_map, "*", list(repeated_view(X, ny, 1), repeated_view(Y, 1, nx)),
                   "base", NULL)
  .Call(C_lazy_map, "+", list(product, 0), "base", list(dim = c(nx, ny)))
}

#' @rdname base_masks
#' @export
`%o%` <- function(X, Y) outer(X, Y)

# Element [i, j] of tcrossprod(x, y) for vectors x and y.
outer_product_elements <- function(x, y) as.double(x) * as.double(y) + 0

# Whether outer(X, Y) can be deferred: both double, integer or logical without a
# class other than gufunc_lazy, and R's matrix products computed as described above
# (options(matprod = "blas") hands NA and Inf to the BLAS too; a probe checks the
# BLAS once per session).
deferred_outer_product <- function(X, Y) {
  numeric_kind <- function(v) {
    typeof(v) %in% c("double", "integer", "logical") &&
      (is_lazy(v) || !is.object(v))
  }
  numeric_kind(X) && numeric_kind(Y) &&
    .Call(C_default_matprod) && outer_probe_agrees()
}

outer_probe <- new.env(parent = emptyenv())

outer_probe_agrees <- function() {
  if (is.null(outer_probe$agrees)) {
    x <- c(-1, 0, 1.5, -2^-1074, 3e300, 0.1, -7)
    y <- c(0, -3, 2^-3, 1e10, -0.3, 5)
    outer_probe$agrees <- identical(num.eq = FALSE,
      base::tcrossprod(x, y),
      matrix(outer_product_elements(rep(x, times = length(y)), rep(y, each = length(x))),
             length(x))
    )
  }
  outer_probe$agrees
}
