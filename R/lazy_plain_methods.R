# Base R functions that run on the plain values of a lazy value and give base R's
# plain result. Two reasons to have a method:
# * base R's code would copy the class "gufunc_lazy" onto a plain result
#   (subassignment, t(), diff(), the Complex group);
# * base R's loop reads a vector one element at a time, and for a lazy value each
#   read is a method call: on the plain values it runs at base R's speed.

#' @export
`[[<-.gufunc_lazy` <- function(x, ..., value) {
  y <- .Call(C_plain_copy, fallback_values(x, "[[<-"))
  y[[...]] <- value
  y
}

#' @export
t.gufunc_lazy <- function(x) t(fallback_values(x, "t"))

#' @export
diff.gufunc_lazy <- function(x, ...) diff(fallback_values(x, "diff"), ...)

#' @export
Complex.gufunc_lazy <- function(z) base_fallback(.Generic, list(z))

#' @export
aperm.gufunc_lazy <- function(a, perm = NULL, ...) aperm(fallback_values(a, "aperm"), perm, ...)

#' @export
rep.gufunc_lazy <- function(x, ...) rep(fallback_values(x, "rep"), ...)

#' @export
anyNA.gufunc_lazy <- function(x, recursive = FALSE) anyNA(fallback_values(x, "anyNA"), recursive)

#' @export
is.na.gufunc_lazy <- function(x) is.na(fallback_values(x, "is.na"))

#' @export
is.nan.gufunc_lazy <- function(x) is.nan(fallback_values(x, "is.nan"))

#' @export
is.finite.gufunc_lazy <- function(x) is.finite(fallback_values(x, "is.finite"))

#' @export
is.infinite.gufunc_lazy <- function(x) is.infinite(fallback_values(x, "is.infinite"))
