# Subassignment to a lazy value. x[i] <- value, x[i, j] <- value, x[] <- value and
# a[, , k] <- value, where the subscripts pick regular runs (as views do), record a
# new version of x (src/r/lazy_assign.cpp): nothing is copied now, and the new
# version is computed when it is needed, in one pass into its own memory, with a
# deferred value computed straight into the positions it goes to. Other
# subassignments are base R's, on an ordinary copy.

#' @export
`[<-.gufunc_lazy` <- function(x, ..., value) {
  y <- deferred_assign(x, substitute(list(...)), environment(), value)
  if (!is.null(y)) return(y)
  # An ordinary copy, changed in place: one copy, as base R's x[i] <- v makes of a
  # shared x. (Writing into x's own values instead is not safe from an S3 method:
  # R's reference counts cannot tell whether x is still referred to elsewhere.)
  y <- fallback_copy(x, "[<-")
  # A lazy value computed in one fused pass: R's subassignment would read it an
  # element at a time.
  if (is_lazy(value)) value <- materialize(value)
  y[...] <- value
  # Writing at least half of a large x: the new version stays lazy, so its subsets
  # are views and the next step of a loop fuses. A smaller write gives the plain
  # result, which later subassignments change in place, as base R's do (a loop of
  # small writes ends here after a few deferred ones: src/r/lazy_assign.cpp).
  if (length(value) > 1L && 2 * length(value) >= length(y) && length(y) >= lazy_min_length() &&
      is.null(oldClass(y)) && typeof(y) %in% c("double", "integer", "logical")) {
    return(lazy(y))
  }
  y
}

# The new version of lazy x with the elements the subscripts pick set to `value`,
# deferred; or NULL where base R's subassignment is to run: x small, another class
# or type, subscripts other than regular runs inside x (masks, names, matrices of
# positions, NA, positions past the end, which would lengthen x), a value of
# another class, of a type above x's (which would change x's type), or of a length
# that R would recycle. `dots` is substitute(list(...)) of the method and `frame`
# its environment (the subscripts are promises there, forced once).
deferred_assign <- function(x, dots, frame, value) {
  n <- length(x)
  type <- typeof(x)
  types <- c("logical", "integer", "double")
  if (n < lazy_min_length() || !identical(oldClass(x), "gufunc_lazy") || !type %in% types) {
    return(NULL)
  }
  if (is_lazy(value)) {
    rank <- match(typeof(value), types)
    if (!identical(oldClass(value), "gufunc_lazy") || is.na(rank) || rank > match(type, types)) {
      return(NULL)
    }
    # R's conversion of a logical or integer value, deferred (lazy_coerce.R).
    if (rank < match(type, types)) {
      if (type != "double") return(NULL)
      value <- lazy_as(value, "double")
      if (!is_lazy(value)) return(NULL)
    }
  } else {
    if (is.object(value) || !typeof(value) %in% types[seq_len(match(type, types))]) return(NULL)
    if (typeof(value) != type) value <- as.vector(value, type)  # R's coercion of value
  }
  where <- assigned_region(x, dots, frame)
  if (is.null(where)) return(NULL)
  if (length(value) != where[[2L]] * where[[3L]] && length(value) != 1L) return(NULL)
  .Call(C_lazy_assign, x, where, value, attributes(x))
}

# c(first, rows, columns, step) of the positions x[...] picks (first 0-based), or
# NULL.
assigned_region <- function(x, dots, frame) {
  args <- as.list(dots)[-1L]
  if (!is.null(names(args)) && any(names(args) != "")) return(NULL)
  if (length(args) == 1L) {
    if (identical(args[[1L]], quote(expr = ))) return(c(0, length(x), 1, 0))
    s <- eval(call("...elt", 1L), frame)
    if (is.numeric(s) && is.matrix(s) && ncol(s) == length(dim(x))) s <- matrix_positions(s, dim(x))
    if (!is.numeric(s) || !is.null(attributes(s))) return(NULL)
    pick <- .Call(C_subscript_pick, s, length(x))
    # A circular shift writes its values in another order: base R's.
    return(if (!is.null(pick) && pick[5L] == 0) pick[1:4])
  }
  d <- dim(x)
  subscripts <- array_subscripts(dots, frame)
  if (is.null(subscripts)) return(NULL)
  runs <- array_runs(d, subscripts$subscripts)
  if (is.null(runs) || any(runs$roll != 0)) return(NULL)
  array_pick(d, runs$first, runs$n, runs$by)
}

# The positions of x[m] for a matrix m whose rows are indices of each dimension of
# x (diag(x) <- v writes x[cbind(i, i)]), or NULL unless every index is a whole
# number inside its dimension (R's other rules for such subscripts are left to R).
matrix_positions <- function(m, d) {
  if (anyNA(m) || nrow(m) == 0L) return(NULL)
  limits <- matrix(d, nrow(m), length(d), byrow = TRUE)
  if (any(m < 1 | m > limits | m != trunc(m))) return(NULL)
  as.vector((m - 1) %*% array_strides(d)) + 1
}
