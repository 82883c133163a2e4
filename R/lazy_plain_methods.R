# Base R functions that run on the plain values of a lazy value and give base R's
# plain result. Two reasons to have a method:
# * base R's code would copy the class "gufunc_lazy" onto a plain result
#   (subassignment, t(), diff(), the Complex group);
# * base R's loop reads a vector one element at a time, and for a lazy value each
#   read is a method call: on the plain values it runs at base R's speed.

#' @export
`[<-.gufunc_lazy` <- function(x, ..., value) `[<-`(materialize(x), ..., value = value)

#' @export
`[[<-.gufunc_lazy` <- function(x, ..., value) `[[<-`(materialize(x), ..., value = value)

#' @export
t.gufunc_lazy <- function(x) t(materialize(x))

#' @export
diff.gufunc_lazy <- function(x, ...) diff(materialize(x), ...)

#' @export
Complex.gufunc_lazy <- function(z) base_fallback(.Generic, list(z))

#' @export
aperm.gufunc_lazy <- function(a, perm = NULL, ...) aperm(materialize(a), perm, ...)

#' @export
rep.gufunc_lazy <- function(x, ...) rep(materialize(x), ...)

#' @export
anyNA.gufunc_lazy <- function(x, recursive = FALSE) anyNA(materialize(x), recursive)

#' @export
is.na.gufunc_lazy <- function(x) is.na(materialize(x))

#' @export
is.nan.gufunc_lazy <- function(x) is.nan(materialize(x))

#' @export
is.finite.gufunc_lazy <- function(x) is.finite(materialize(x))

#' @export
is.infinite.gufunc_lazy <- function(x) is.infinite(materialize(x))
