# Subassignment to a lazy value. x[i] <- value, x[i, j] <- value, x[] <- value,
# a[, , k] <- value and a[i:j, k:l, m:n] <- value, where the subscripts pick regular
# runs (as views do: up to three levels of them, counting up or down), record a
# new version of x (src/r/lazy_assign.cpp): nothing is copied now, and the new
# version is computed when it is needed, in one pass into its own memory, with a
# deferred value computed straight into the positions it goes to. Where x's values
# are computed and nothing else refers to x, a small write goes into them instead,
# as base R writes in place (assign_in_place() in lazy_assign.cpp). x[mask] <- v
# with a mask as long as x and one value is an element-wise choice instead. Other
# subassignments are base R's, on an ordinary copy.

#' @export
`[<-.gufunc_lazy` <- function(x, ..., value) {
  if (missing(value) || !value_last(sys.call())) {
    return(positional_assign(x, "[<-", sys.call(), parent.frame(), value, ...))
  }
  # R's complex assignment x[i] <- v calls `[<-`(`*tmp*`, i, value = v) with an x
  # that nothing else refers to (it duplicates a shared x first), which may then be
  # written in place, as base R's would be. R's references to x then are the
  # variable's binding, R's `*tmp*` (not in byte-compiled code) and the .Call's
  # argument: more, and another variable refers to x (a `*tmp*` of the user's
  # called by hand); more after the subscripts are computed, and one of them keeps
  # x (a[{kept <- a; 2}] <- v), as base R finds out before it writes. Byte code
  # counts its stack's values (x among them) once more while a complex assignment
  # runs deeper down, until this method returns: a subscript calling a function
  # that makes one (seq(1, n, 2): storage.mode(by) <- ...) would look like a
  # reference that keeps x. A complex assignment here first has that counted
  # before the count the subscripts are compared with.
  complex <- identical(sys.call()[[2L]], quote(`*tmp*`))
  if (complex) {
    stack_counted <- FALSE
    stack_counted[1L] <- TRUE
  }
  references <- if (complex) .Call(C_lazy_references, x)
  # The subscripts, left to right, before the value, as base R evaluates the
  # arguments of `[<-`(x, i, value = v) (src/r/array_region.cpp); R's x[i] <- v has
  # evaluated v first already.
  .Call(C_force_subscripts, environment())
  in_place <- complex && references <= 3L && .Call(C_lazy_references, x) == references
  dots <- substitute(list(...))
  # x[i] <- v where i is a missing argument passed on: base R reads it as x[] <- v.
  whole <- length(dots) == 2L && missing(..1)
  if (whole) dots <- whole_subscript
  y <- deferred_assign(x, dots, environment(), value, in_place)
  if (!is.null(y)) return(y)
  # An ordinary copy, changed in place: one copy, as base R's x[i] <- v makes of a
  # shared x.
  y <- fallback_copy(x, "[<-")
  # A lazy value computed in one fused pass: R's subassignment would read it an
  # element at a time.
  if (is_lazy(value)) value <- materialize(value)
  if (whole) y[] <- value else y[...] <- value
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

# substitute(list(...)) of x[] <- v.
whole_subscript <- as.call(list(quote(list), quote(expr = )))

# `[<-` and `[[<-` called as functions match their arguments by position, whatever
# their names: the last one is the value (R's own x[i] <- v names it `value`, and
# last). Whether `call` names its last argument `value`, and no other.
value_last <- function(call) {
  tags <- names(call)
  n <- length(call)
  !is.null(tags) && tags[n] == "value" && !any(tags[-n] == "value")
}

# `generic`(x, ...) called with the value by position (`[<-`(x, i, v)), or named
# but not last: the call with the last argument named `value` and x's value in
# place of x's expression (evaluated once already; the others are not), evaluated
# again where it was made. Where the call passes `...` on (lapply(l, `[<-`, i, v),
# function(...) `[<-`(...)) it cannot be written out: base R's subassignment of
# the arguments as they come (a value matched by name last), on a plain copy of x.
positional_assign <- function(x, generic, call, frame, value, ...) {
  passes_dots <- any(vapply(as.list(call)[-1L], identical, NA, quote(...)))
  if (passes_dots || length(call) < 3L) {
    y <- fallback_copy(x, generic)
    base <- if (generic == "[<-") .Primitive("[<-") else .Primitive("[[<-")
    return(if (missing(value)) base(y, ...) else base(y, ..., value = value))
  }
  tags <- names(call)
  if (is.null(tags)) tags <- character(length(call))
  tags[tags == "value"] <- ""
  tags[length(call)] <- "value"
  names(call) <- tags
  call[[1L]] <- as.name(generic)
  call[[2L]] <- x
  eval(call, frame)
}

# The new version of lazy x with the elements the subscripts pick set to `value`,
# deferred; or NULL where base R's subassignment is to run: x small, another class
# or type, subscripts other than regular runs inside x (masks, names, matrices of
# positions, NA, positions past the end, which would lengthen x), a value of
# another class, of a type above x's (which would change x's type), or of a length
# that R would recycle. `dots` is substitute(list(...)) of the method and `frame`
# its environment (the subscripts are promises there, forced once). With
# `in_place`, x may be written in place where its values are its own (x itself is
# returned, changed).
deferred_assign <- function(x, dots, frame, value, in_place = FALSE) {
  rank <- type_rank(typeof(x))
  if (rank == 0L || length(x) < lazy_min_length() || !identical(oldClass(x), "gufunc_lazy")) {
    return(NULL)
  }
  value_rank <- type_rank(typeof(value))
  if (value_rank == 0L || value_rank > rank) return(NULL)
  if (is.object(value)) {
    if (!identical(oldClass(value), "gufunc_lazy") || !.Call(C_lazy_is_vector, value)) {
      return(NULL)
    }
    # R's conversion of a logical or integer value, deferred (lazy_coerce.R).
    if (value_rank < rank) {
      if (rank != 3L) return(NULL)
      value <- lazy_as(value, "double")
      if (!is_lazy(value)) return(NULL)
    }
  } else if (value_rank < rank) {
    value <- as.vector(value, typeof(x))  # R's coercion of value
  }
  if (length(dots) == 2L && length(value) == 1L && !is.object(value)) {
    masked <- masked_assign(x, dots, frame, value)
    if (!is.null(masked)) return(masked)
  }
  where <- assigned_region(x, dots, frame)
  if (is.null(where)) return(NULL)
  count <- region_count(where)
  if (count == 0) return(x) # picks nothing: x as it is, as in base R
  if (length(value) != count && length(value) != 1L) return(NULL)
  if (length(where) == 7L) {
    # Subscripts counting down: the same block written forwards, with the value in
    # that order.
    if (length(value) > 1L) value <- in_block_order(value, where)
    where <- where[1:6]
  }
  .Call(C_lazy_assign, x, where, value, attributes(x), in_place)
}

# `value` (as many elements as region `where` has, in the order of subscripts that
# count down) in the block's own storage order: reversed within each level of the
# block that where[7] says is filled last to first (1: the runs' elements, 2: the
# runs, 4: the planes). Of a lazy value a view (src/r/lazy_view.cpp), of another a
# copy, as base R's subassignment reads a value through the subscripts.
in_block_order <- function(value, where) {
  levels <- c(where[[2L]], where[[3L]], where[[5L]])
  down <- bitwAnd(as.integer(where[[7L]]), c(1L, 2L, 4L)) != 0L
  if (levels[3L] == 1) levels <- levels[1:2]
  subscripts <- lapply(seq_along(levels), function(k) {
    if (down[k]) levels[[k]]:1 else seq_len(levels[[k]])
  })
  if (!is_lazy(value)) value <- as.vector(value)
  dim(value) <- levels
  value <- do.call(`[`, c(list(value), subscripts, list(drop = FALSE)))
  dim(value) <- NULL
  value
}

# x[mask] <- value for a logical mask as long as x (r[is.infinite(r)] <- 0) and one
# value of x's type: deferred as ifelse(mask, value, x), where an NA in the mask
# leaves x's element as it is (base R skips NA subscripts when there is one value).
# NULL for other masks (shorter ones, which R recycles, and longer ones, which
# lengthen x), so that base R's rules apply.
masked_assign <- function(x, dots, frame, value) {
  args <- as.list(dots)[-1L]
  if (!is.null(names(args)) || identical(args[[1L]], quote(expr = ))) return(NULL)
  mask <- eval(call("...elt", 1L), frame)
  if (typeof(mask) != "logical" || length(mask) != length(x)) return(NULL)
  if (is_lazy(mask)) {
    if (!identical(oldClass(mask), "gufunc_lazy")) return(NULL)
    test <- mask & !is.na(mask)
  } else {
    if (is.object(mask)) return(NULL)
    test <- lazy(if (anyNA(mask)) !is.na(mask) & mask else as.vector(mask))
  }
  .Call(C_lazy_map, "ifelse", list(test, as.vector(value), x), "base", attributes_but_class(x))
}

# 1, 2, 3 for the types a subassignment can widen (logical, integer, double); 0 for
# the others.
type_rank <- function(type) switch(type, logical = 1L, integer = 2L, double = 3L, 0L)

# c(first, rows, columns, step) of the positions x[...] picks (first 0-based),
# followed by c(planes, plane_step) for a block of planes (a[i:j, k:l, m:n]), and
# by the levels filled last to first where subscripts count down (in_block_order());
# or NULL.
assigned_region <- function(x, dots, frame) {
  if (length(dots) == 2L) {
    args <- as.list(dots)[-1L]
    if (!is.null(names(args)) && any(names(args) != "")) return(NULL)
    if (identical(args[[1L]], quote(expr = ))) return(c(0, length(x), 1, 0))
    s <- eval(call("...elt", 1L), frame)
    if (is.numeric(s) && is.matrix(s) && ncol(s) == length(dim(x))) s <- matrix_positions(s, dim(x))
    if (!is.numeric(s) || !is.null(attributes(s))) return(NULL)
    pick <- .Call(C_subscript_pick, s, length(x))
    # A circular shift writes its values in another order: base R's.
    if (is.null(pick) || pick[5L] != 0) return(NULL)
    return(if (pick[6L] == 0) pick[1:4] else c(pick[1:4], 1, 0, pick[6L]))
  }
  # Named subscripts (drop = among them) are base R's, which refuses them.
  if (!is.null(names(dots)) && any(names(dots)[-1L] != "")) return(NULL)
  .Call(C_array_region, x, frame)
}

# Positions in region `where` (assigned_region()).
region_count <- function(where) {
  where[[2L]] * where[[3L]] * (if (length(where) >= 6L) where[[5L]] else 1)
}

# Elements between consecutive indices of each dimension of an array of dims `d`.
array_strides <- function(d) cumprod(c(1, d))[seq_along(d)]

# The positions of x[m] for a matrix m whose rows are indices of each dimension of
# x (diag(x) <- v writes x[cbind(i, i)]), or NULL unless every index is a whole
# number inside its dimension (R's other rules for such subscripts are left to R).
matrix_positions <- function(m, d) {
  if (anyNA(m) || nrow(m) == 0L) return(NULL)
  limits <- matrix(d, nrow(m), length(d), byrow = TRUE)
  if (any(m < 1 | m > limits | m != trunc(m))) return(NULL)
  as.vector((m - 1) %*% array_strides(d)) + 1
}
