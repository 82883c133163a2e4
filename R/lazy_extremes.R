# pmax() and pmin() with a lazy argument, deferred: base R's pmax() (an R closure
# over .Internal(pmax()), do_pmin in summary.c) starts from the first argument and
# folds each further one into the running result element by element, so here each
# further argument adds one step kernel ("pmax" or "pmax_na_rm", src/kernels/
# extremes.cpp) and the chain fuses with its neighbours. The rules are base R's:
# the type is the highest of the arguments' (at least integer), shorter arguments
# are recycled (with base R's warning when fractionally), a zero-length argument
# makes the result empty, and the result gets the attributes of the first
# argument that fit it (mostattributes()).

# The deferred pmax() or pmin() (`fun`) of `args`, or NULL when base R must compute
# it: an argument other than NULL or a double, integer or logical vector (a class,
# character), na.rm not TRUE or FALSE, or a result shorter than
# lazy_min_length(). `call` is the user's call, for the recycling warning.
lazy_extreme <- function(fun, args, na.rm, call) {
  if (!is_flag(na.rm) || length(args) == 0L) return(NULL)
  for (a in args) {
    if (!is.null(a) && !lazy_operand(a)) return(NULL)
    if (inherits(a, "gufunc_lazy") && !is_lazy(a)) return(NULL)
  }
  # (lengths() would count a reference to each lazy argument for good: its length()
  # of an object goes through a call R makes with the object in it.)
  lens <- vapply(args, length, 0)
  shape <- extreme_shape(args, lens)
  n <- shape$length
  first <- attributes_but_class(args[[1L]])
  if (n == 0L && length(args) > 1L) return(with_most_attributes(vector(shape$type, 0L), first))
  if (n < lazy_min_length()) return(NULL)
  attrs <- fitting_attributes(n, first)
  if (isFALSE(attrs)) return(NULL)
  if (length(args) == 1L) {  # base R's pmax(x) is x, if its attributes all fit it
    return(if (identical(attrs, first)) args[[1L]])
  }
  operands <- lapply(args, recycled_operand, n = n)
  # Emptied on the way out, as the lists of Ops.gufunc_lazy.
  on.exit(.Call(C_release_operands, operands, NULL))
  if (any(vapply(operands, is.null, NA))) return(NULL)
  if (any(n %% lens != 0L)) {
    warning(warningCondition("an argument will be fractionally recycled", call = call))
  }
  step <- if (na.rm) paste0(fun, "_na_rm") else fun
  value <- operands[[1L]]
  last <- length(operands)
  for (i in 2:last) {
    pair <- list(value, operands[[i]])
    value <- .Call(C_lazy_map, step, pair, "base", if (i == last) attrs)
    .Call(C_release_operands, pair, NULL)
    if (is.null(value)) return(NULL)
  }
  value
}

# The result's length and type as do_pmin() finds them: lengths are scanned in
# order, and a zero-length argument among longer ones (or the reverse) stops the
# scan with length 0, before later arguments count towards the type.
extreme_shape <- function(args, lens) {
  types <- c("NULL", "logical", "integer", "double")
  rank <- match(typeof(args[[1L]]), types)
  len <- lens[[1L]]
  for (i in seq_along(args)[-1L]) {
    rank <- max(rank, match(typeof(args[[i]]), types))
    if ((len > 0) != (lens[[i]] > 0)) {
      len <- 0
      break
    }
    len <- max(len, lens[[i]])
  }
  list(length = len, type = types[max(rank, 3L)])
}

# The attributes of `attrs` that fit a result of n elements (mostattributes()), or
# FALSE. (A function of its own: tryCatch() keeps the frame it is called from, and
# lazy_extreme()'s would keep its arguments counted as referenced.)
fitting_attributes <- function(n, attrs) {
  tryCatch(attributes(with_most_attributes(standin_of(n), attrs)), error = function(e) FALSE)
}

# x with the attributes `attrs` that fit it, by base R's mostattributes().
with_most_attributes <- function(x, attrs) {
  mostattributes(x) <- attrs
  x
}

# An argument as an operand of length n or 1: as it is, or recycled to n, by a
# view that reads its values again when n is a multiple of its length (NULL when
# the engine cannot view it so), else (base R warns then) by a recycled copy.
recycled_operand <- function(x, n) {
  len <- length(x)
  if (len == n || len == 1L) return(x)
  values <- as.vector(materialize(x))
  if (n %% len != 0) return(rep_len(values, n))
  .Call(C_lazy_rep_view, values, n %/% len, 1)
}
