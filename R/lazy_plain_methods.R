# Base R functions that run on the plain values of a lazy value and give base R's
# plain result. Two reasons to have a method:
# * base R's code would copy the class "gufunc_lazy" onto a plain result
#   (subassignment, the Complex group);
# * base R's loop reads a vector one element at a time, and for a lazy value each
#   read is a method call: on the plain values it runs at base R's speed.

#' @export
`[[<-.gufunc_lazy` <- function(x, ..., value) {
  if (missing(value) || !value_last(sys.call())) {
    return(positional_assign(x, "[[<-", sys.call(), parent.frame(), value, ...))
  }
  .Call(C_force_subscripts, environment())
  y <- fallback_copy(x, "[[<-")
  y[[...]] <- value
  y
}

#' @export
Complex.gufunc_lazy <- function(z) base_fallback(.Generic, list(z))

# sort() of an object orders it whole, whatever `partial` says: the plain values
# take sort.int()'s rules, as a plain vector does.
#' @export
sort.gufunc_lazy <- function(x, decreasing = FALSE, ...) {
  sort(fallback_values(x, "sort"), decreasing = decreasing, ...)
}

# seq() and seq.int() with a lazy argument: base R's sequence of the plain values.
# seq.int() hands an object to the method of seq(), and seq.default()'s arithmetic
# on a lazy integer would give doubles where seq.int() gives integers.
#' @export
seq.gufunc_lazy <- function(...) {
  args <- list(...)
  for (k in seq_along(args)) {
    a <- args[[k]]
    if (!inherits(a, "gufunc_lazy")) next
    # Only the length of `along.with` counts: nothing is computed for it.
    along <- identical(names(args)[k], "along.with")
    args[k] <- list(if (along) logical(length(a)) else materialize(a))
  }
  # Called by seq() (UseMethod keeps the generic's call), else by seq.int().
  by_seq <- deparse(sys.call()[[1L]]) %in% c("seq", "base::seq")
  do.call(if (by_seq) base::seq else base::seq.int, args)
}

#' @export
rep.gufunc_lazy <- function(x, ...) {
  # rep_len() and rep.int() hand an object to rep(); for the plain vector they keep
  # none of its attributes (names).
  caller <- sys.function(sys.parent())
  if (identical(caller, base::rep_len)) {
    # rep() would take a bad length.out with a warning: rep_len()'s error.
    n <- list(...)$length.out
    if (length(n) != 1L || is.na(suppressWarnings(as.numeric(n))) || as.numeric(n) <= -1) {
      stop(simpleError("invalid 'length.out' value", sys.call(sys.parent())))
    }
  }
  if (identical(caller, base::rep_len) || identical(caller, base::rep.int)) {
    x <- if (.Call(C_lazy_is_vector, x)) {
      .Call(C_lazy_with_attributes, x, structure(list(), names = character()))
    } else {
      as.vector(materialize(x))
    }
  }
  view <- rep_view(x, list(...))
  if (!is.null(view)) return(view)
  if (identical(caller, base::rep.int)) {
    # rep.int()'s own checks of `times` and their messages, not rep()'s.
    at <- sys.call(sys.parent())
    return(withCallingHandlers(base::rep.int(fallback_values(x, "rep"), ...),
                               error = function(e) stop(simpleError(conditionMessage(e), at))))
  }
  rep(fallback_values(x, "rep"), ...)
}

# rep(x, times = k), rep(x, each = k) and rep(x, <k for every element>) of a lazy x
# without attributes, with a large result: a view that reads x's values k times
# (src/r/lazy_view.cpp), not a copy; so outer(x, y, f), which repeats both, fuses
# f. NULL for anything else (base R's rep() on the values).
rep_view <- function(x, args) {
  spec <- function(times = 1, length.out = NA, each = 1) list(times, length.out, each)
  a <- tryCatch(do.call(spec, args), error = function(e) NULL)
  n <- length(x)
  if (is.null(a) || !identical(a[[2L]], NA) || n < 2L || !is.null(attributes_but_class(x)) ||
      !typeof(x) %in% c("double", "integer", "logical")) {
    return(NULL)
  }
  times <- a[[1L]]
  each <- a[[3L]]
  whole <- function(k) is.numeric(k) && length(k) == 1L && !is.na(k) && k >= 1 && k == trunc(k)
  if (is.numeric(times) && length(times) == n && n > 1L && identical(each, 1) &&
      whole(times[1L]) && isTRUE(all(times == times[1L]))) {
    each <- times[1L]
    times <- 1
  }
  if (!whole(times) || !whole(each) || (times > 1 && each > 1)) return(NULL)
  if (n * times * each < max(lazy_min_length(), 2)) return(NULL)
  repeated_view(x, times, each)
}

# rep(x, times = times) or rep(x, each = each) of x (of length 2 or more) as a view
# of its values: of x's memory, or of its values computed first where x is deferred.
repeated_view <- function(x, times, each) {
  view <- .Call(C_lazy_rep_view, x, times, each)  # NULL: not a view of plain values
  if (is.null(view)) view <- .Call(C_lazy_rep_view, materialize(x), times, each)
  view
}

#' @export
anyNA.gufunc_lazy <- function(x, recursive = FALSE) anyNA(fallback_values(x, "anyNA"), recursive)

#' @export
is.na.gufunc_lazy <- function(x) lazy_predicate("is.na", x)

#' @export
is.nan.gufunc_lazy <- function(x) lazy_predicate("is.nan", x)

#' @export
is.finite.gufunc_lazy <- function(x) lazy_predicate("is.finite", x)

#' @export
is.infinite.gufunc_lazy <- function(x) lazy_predicate("is.infinite", x)

# as.matrix() and as.array() of an object are what base R's matrix code calls first
# (apply() does, then reads a column at a time with `[`): the plain values, so that
# those loops run at base R's speed over one materialization.
#' @export
as.matrix.gufunc_lazy <- function(x, ...) as.matrix(fallback_values(x, "as.matrix"), ...)

#' @export
as.array.gufunc_lazy <- function(x, ...) as.array(fallback_values(x, "as.array"), ...)
