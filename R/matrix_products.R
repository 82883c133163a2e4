# %*%, crossprod() and tcrossprod() of lazy values. In R 4.2 none of them dispatches
# on an S3 class (matrixOps came in R 4.4), so gufunc masks them, as it masks pmax()
# and the others (R/base_masks.R). Lazy operands are computed once (a deferred one
# in one fused pass), then base R's own function multiplies the values: the same
# code on the same values, so the bits are base R's whatever BLAS R uses and
# whatever options(matprod = ) says (R's NaN check, its dgemm/dsyrk/dgemv choices,
# long double sums for operands with NA or NaN), and so are the dims, dimnames and
# errors. gufunc's matmul() gufunc is not used: it sums in its own order, which
# agrees with a BLAS to rounding, not bit for bit. A large result is returned lazy
# (its values, no copy), so code after the product stays deferred.

# A plain argument: base R's function with no handler when it surely succeeds (one
# check in C, which also looks for lazy arguments); otherwise under
# with_user_call(), so an error names the user's call as base R's would. `%*%` is
# a primitive, kept here when the package is built; crossprod() and tcrossprod() are
# closures around .Internal() in R 4.2, which a package may not hold a copy of, so
# they are called through base::.
base_matprod <- base::`%*%`
base_crossprod <- function(x, y = NULL) base::crossprod(x, y)
base_tcrossprod <- function(x, y = NULL) base::tcrossprod(x, y)

#' @rdname base_masks
#' @export
`%*%` <- function(x, y) {
  if (nargs() < 2L) {  # base R's error, which counts the arguments given
    given <- if (nargs() == 0L) list() else if (missing(y)) list(x) else list(y)
    return(with_user_call(sys.call(), do.call(base_matprod, given)))
  }
  path <- .Call(C_matprod_path, x, y, 0L)
  if (path == 1L) return(base_matprod(x, y))
  if (path == 0L) return(lazy_matrix_product(base_matprod, x, y, sys.call(), binary = TRUE))
  with_user_call(sys.call(), base_matprod(x, y))
}

#' @rdname base_masks
#' @export
crossprod <- function(x, y = NULL) {
  path <- .Call(C_matprod_path, x, y, 1L)
  if (path == 1L) return(base_crossprod(x, y))
  if (path == 0L) return(lazy_matrix_product(base_crossprod, x, y, sys.call()))
  with_user_call(sys.call(), base_crossprod(x, y))
}

#' @rdname base_masks
#' @export
tcrossprod <- function(x, y = NULL) {
  path <- .Call(C_matprod_path, x, y, 2L)
  if (path == 1L) return(base_tcrossprod(x, y))
  if (path == 0L) return(lazy_matrix_product(base_tcrossprod, x, y, sys.call()))
  with_user_call(sys.call(), base_tcrossprod(x, y))
}

# product(x, y) (a base R function above) of the values of x and y, computed once;
# unless `binary` (%*%, for which NULL is an operand), a NULL y stays absent
# (crossprod(x) is symmetric: base R uses dsyrk for it).
lazy_matrix_product <- function(product, x, y, call, binary = FALSE) {
  what <- deparse1(call[[1L]])
  xv <- operand_values(x, what)
  out <- if (is.null(y) && !binary) {
    with_user_call(call, product(xv))
  } else {
    with_user_call(call, product(xv, operand_values(y, what)))
  }
  if (is.numeric(out) && length(out) >= lazy_min_length()) lazy(out) else out
}

# The values of a lazy operand, computed (a deferred one in one fused pass); plain
# data that a base R function gave the class, counted as a fallback; anything else
# as it is. Values at hand are given as they are stored (src/r/matprod_bridge.cpp).
operand_values <- function(v, what) {
  if (!is_lazy(v)) return(plain(v, what))
  stored <- .Call(C_lazy_product_operand, v)
  if (is.null(stored)) materialize(v) else stored
}
