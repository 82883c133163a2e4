# as.vector(), as.double() (as.numeric()), as.integer() and as.logical() of a lazy
# value. Base R drops every attribute and converts the type; when that changes only
# the attributes, or turns integer or logical values into doubles, the result stays
# lazy (deferred: adding a double 0 is exact for every integer and turns NA into
# NA_real_, as as.double() does). Other conversions are base R's, on the values.

#' @export
as.vector.gufunc_lazy <- function(x, mode = "any") {
  type <- switch(mode, any = typeof(x), numeric = , double = "double", integer = "integer",
                 logical = "logical", NULL)
  # (as.vector() is a closure: its caller is the parent of its frame.)
  s4 <- sys.parent() > 0L && s4_method_frame(sys.parents()[sys.parent()])
  v <- if (is.null(type) || s4) NULL else lazy_as(x, type)
  if (is.null(v)) as.vector(fallback_values(x, "as.vector"), mode) else v
}

#' @export
as.double.gufunc_lazy <- function(x, ...) {
  v <- if (!s4_method_frame(sys.parent())) lazy_as(x, "double")
  if (is.null(v)) converted(as.double, x, "as.double", ...) else v
}

#' @export
as.integer.gufunc_lazy <- function(x, ...) {
  v <- if (!s4_method_frame(sys.parent())) lazy_as(x, "integer")
  if (is.null(v)) converted(as.integer, x, "as.integer", ...) else v
}

#' @export
as.logical.gufunc_lazy <- function(x, ...) {
  v <- if (!s4_method_frame(sys.parent())) lazy_as(x, "logical")
  if (is.null(v)) converted(as.logical, x, "as.logical", ...) else v
}

# base R's `convert` (a primitive) of x's values. Its warnings and errors name the
# call of the function running when the method was called (none at top level), as
# the primitive's own do: two frames before the method's (the primitive's dispatch
# has a frame of its own).
converted <- function(convert, x, what, ...) {
  before <- sys.parent() - 2L
  caller <- if (before > 0L) sys.call(before)
  with_user_call(caller, convert(fallback_values(x, what), ...))
}

# Whether frame number `frame` (the caller of a conversion) runs an S4 method. S4
# code takes as.vector() and as.numeric() to give a base vector: Matrix's coercion
# from "ANY" to "sparseVector" is as(as.vector(from), "sparseVector"), and a lazy
# result has from's S4 class again, so the method called itself until R stopped it.
s4_method_frame <- function(frame) {
  frame > 0L && inherits(sys.function(frame), "MethodDefinition")
}

# x without attributes, as type `type`, still lazy (integers and logicals to
# doubles through the as.double kernel); NULL for base R to convert.
lazy_as <- function(x, type) {
  if (!identical(oldClass(x), "gufunc_lazy") || !is_lazy(x)) return(NULL)
  from <- typeof(x)
  bare <- .Call(C_lazy_with_attributes, x, NULL)
  if (from == type) return(bare)
  if (type == "double" && from %in% c("integer", "logical")) {
    return(.Call(C_lazy_map, "as.double", list(bare), "base", NULL))
  }
  NULL
}
