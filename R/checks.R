# Argument checks shared by the exported functions. Each error names the argument.

check_string <- function(x, arg, call = sys.call(-1L)) {
  if (!is.character(x) || length(x) != 1L || is.na(x) || !nzchar(x)) {
    abort_argument(arg, sprintf("must be a single non-empty string, not %s", describe(x)),
                   call = call)
  }
}

# An operand of a gufunc: a double, integer or logical vector or array without a
# class, or a lazy one (see lazy()).
check_operand <- function(x, arg, call = sys.call(-1L)) {
  given <- substitute(x)
  if (is.name(given) && eval(call("missing", given), parent.frame())) {
    abort_argument(arg, "is missing, with no default", call = call)
  }
  if (!lazy_operand(x)) {
    abort_argument(arg, sprintf(
      "must be a double, integer or logical vector or array, not %s", describe(x)),
      class = "gufunc_type_error", call = call)
  }
}

describe <- function(x) {
  if (is.function(x)) return("a function")
  cls <- attr(x, "class")
  if (!is.null(cls)) return(sprintf("an object of class <%s>", paste(cls, collapse = "/")))
  if (is.null(x)) return("NULL")
  sprintf("a %s %s of length %d", typeof(x), if (is.array(x)) "array" else "vector",
          length(x))
}

# Checks every element of `args` (the `...` of a gufunc call) with check_operand();
# the labels for messages are only built when one is wrong.
check_operands <- function(args, call = sys.call(-1L)) {
  for (x in args) {
    if (lazy_operand(x)) next
    labels <- dots_labels(args)
    for (i in seq_along(args)) check_operand(args[[i]], labels[[i]], call = call)
  }
}

# Names for the elements of `...` in messages: the user's names, else ..1, ..2, ...
dots_labels <- function(args) {
  labels <- paste0("..", seq_along(args))
  given <- names(args)
  if (!is.null(given)) labels[nzchar(given)] <- given[nzchar(given)]
  labels
}
