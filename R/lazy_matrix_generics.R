# Base R generics whose methods for matrices (or numbers) have no default for other
# classes: S3 dispatch on a lazy value sees only the class "gufunc_lazy", so without
# these a lazy matrix would reach the default method (unique() of its elements, not
# of its rows; summary() of all values, not per column) or no method at all
# (isSymmetric(), determinant() and so det()). Each runs base R on the plain values,
# which is what the same call on the base R value does.

#' @export
summary.gufunc_lazy <- function(object, ...) summary(fallback_values(object, "summary"), ...)

#' @export
unique.gufunc_lazy <- function(x, incomparables = FALSE, ...) {
  unique(fallback_values(x, "unique"), incomparables = incomparables, ...)
}

#' @export
duplicated.gufunc_lazy <- function(x, incomparables = FALSE, ...) {
  duplicated(fallback_values(x, "duplicated"), incomparables = incomparables, ...)
}

#' @export
anyDuplicated.gufunc_lazy <- function(x, incomparables = FALSE, ...) {
  anyDuplicated(fallback_values(x, "anyDuplicated"), incomparables = incomparables, ...)
}

#' @export
isSymmetric.gufunc_lazy <- function(object, ...) {
  isSymmetric(fallback_values(object, "isSymmetric"), ...)
}

#' @export
determinant.gufunc_lazy <- function(x, logarithm = TRUE, ...) {
  determinant(fallback_values(x, "determinant"), logarithm = logarithm, ...)
}

#' @export
subset.gufunc_lazy <- function(x, ...) subset(fallback_values(x, "subset"), ...)

#' @export
as.Date.gufunc_lazy <- function(x, ...) {
  quoting_caller(as.Date(fallback_values(x, "as.Date"), ...), substitute(x))
}

#' @export
as.POSIXct.gufunc_lazy <- function(x, tz = "", ...) {
  quoting_caller(as.POSIXct(fallback_values(x, "as.POSIXct"), tz = tz, ...), substitute(x))
}

#' @export
as.POSIXlt.gufunc_lazy <- function(x, tz = "", ...) {
  quoting_caller(as.POSIXlt(fallback_values(x, "as.POSIXlt"), tz = tz, ...), substitute(x))
}

# The value of `expr`, a base R call on fallback_values(x, ...). Base R's errors
# that quote the expression given for x ("do not know how to convert '...' to
# class", and their calls) quote the caller's expression `given`, not the method's.
quoting_caller <- function(expr, given) {
  withCallingHandlers(expr, error = function(e) {
    ours <- "fallback_values\\(x, \"[A-Za-z.]+\"\\)"
    message <- gsub(ours, deparse1(given), conditionMessage(e))
    call <- if (!is.null(e$call)) gsub(ours, deparse1(given), deparse1(e$call))
    if (identical(message, conditionMessage(e)) && identical(call, deparse1(e$call))) return()
    e$message <- message
    if (!is.null(call)) e$call <- str2lang(call)
    stop(e)
  })
}

#' @rawNamespace S3method(grDevices::as.raster, gufunc_lazy)
as.raster.gufunc_lazy <- function(x, ...) grDevices::as.raster(fallback_values(x, "as.raster"), ...)

#' @rawNamespace S3method(graphics::boxplot, gufunc_lazy)
boxplot.gufunc_lazy <- function(x, ...) graphics::boxplot(fallback_values(x, "boxplot"), ...)

# all.equal() dispatches on its first argument: a lazy target is compared as its
# plain values, and so is a lazy current value next to it. (@method: roxygen2 7.2
# read the name as a method of all() for class "equal.gufunc_lazy".)
#' @method all.equal gufunc_lazy
#' @export
all.equal.gufunc_lazy <- function(target, current, ...) {
  if (inherits(current, "gufunc_lazy")) current <- fallback_values(current, "all.equal")
  all.equal(fallback_values(target, "all.equal"), current, ...)
}
