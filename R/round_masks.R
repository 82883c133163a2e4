# round() and signif() dispatch on their first argument as written, so base R's
# `signif(digits = 2, x = lazy)` computes on the values and keeps the class
# "gufunc_lazy" on plain data. gufunc's versions pass x first. A plain number
# takes the short path (base R's primitive with the arguments as given; it can
# raise no condition then), everything else keeps the user's call for warnings
# and errors.
base_round <- .Primitive("round")
base_signif <- .Primitive("signif")

# `fun` (round or signif) of x and digits as the user called it (`call`).
rounded <- function(fun, call, x, digits, digits_missing, ...) {
  with_user_call(call, if (digits_missing) fun(x, ...) else fun(x, digits, ...))
}

#' @rdname base_masks
#' @param digits As for base R's `round()` and `signif()`.
#' @export
round <- function(x, digits = 0, ...) {
  if (nargs() == 0L) return(with_user_call(sys.call(), base_round()))  # base R's error
  # Numbers base R takes without dispatch or complaint (written out: a helper's
  # call would double the cost).
  if (...length() == 0L && !is.object(x) && !is.object(digits) &&
      (is.numeric(x) || is.logical(x)) && (is.numeric(digits) || is.logical(digits)) &&
      length(digits) > 0L) {
    return(base_round(x, digits))
  }
  rounded(base_round, sys.call(), x, digits, missing(digits), ...)
}

#' @rdname base_masks
#' @export
signif <- function(x, digits = 6, ...) {
  if (nargs() == 0L) return(with_user_call(sys.call(), base_signif()))  # base R's error
  # Numbers base R takes without dispatch or complaint (written out: a helper's
  # call would double the cost).
  if (...length() == 0L && !is.object(x) && !is.object(digits) &&
      (is.numeric(x) || is.logical(x)) && (is.numeric(digits) || is.logical(digits)) &&
      length(digits) > 0L) {
    return(base_signif(x, digits))
  }
  rounded(base_signif, sys.call(), x, digits, missing(digits), ...)
}
