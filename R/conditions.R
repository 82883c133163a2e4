# Classed conditions raised from C++ (src/r/guard.cpp) and from R code. Each is
# attributed to the user's call: the call of the gufunc function or method the
# user's code called, not of an internal helper between it and the C++ code.

# Signals an error of class c(class, "gufunc_error", "error", "condition").
raise_condition <- function(class, message) {
  stop(errorCondition(message, class = c(class, "gufunc_error"), call = user_call()))
}

# Errors about a user's argument: names the argument and what was wrong with it.
abort_argument <- function(arg, problem, class = "gufunc_argument_error",
                           call = sys.call(-1L)) {
  msg <- sprintf("argument `%s` %s", arg, problem)
  stop(errorCondition(msg, class = c(class, "gufunc_error"), call = call))
}

# The call of the innermost frame at or below `frame` (by default the caller of
# user_call()'s caller) that runs an entry point of gufunc (an exported function
# or an S3 method): `x + y` for the Ops method (as base R reports it),
# `materialize(z)`, `sum(x)`. Internal helpers in between (lazy_reduce(),
# lazy_builtin_map(), ...) are skipped. Falls back to the caller's caller when no
# frame runs an entry point. Frames are searched by number, not through
# sys.parents(): a function evaluated from C has no closure frame as its parent.
user_call <- function(frame = sys.nframe() - 2L) {
  entry <- entry_frame(frame)
  if (entry == 0L) return(if (frame > 0L) sys.call(frame))
  name <- entry_name(sys.function(entry), entry_points())
  as_generic_call(sys.call(entry), name, sys.frame(entry))
}

# The number of the innermost frame at or below `frame` that runs an entry point
# of gufunc, or 0.
entry_frame <- function(frame) {
  entries <- entry_points()
  while (frame > 0L) {
    if (!is.null(entry_name(sys.function(frame), entries))) return(frame)
    frame <- frame - 1L
  }
  0L
}

# The exported functions and S3 methods of the namespace, by name (cached).
entry_points <- local({
  cache <- NULL
  function() {
    if (is.null(cache)) {
      ns <- asNamespace("gufunc")
      methods <- ns[[".__NAMESPACE__."]][["S3methods"]]
      names <- unique(c(getNamespaceExports(ns), if (length(methods)) methods[, 3L]))
      names <- names[vapply(names, function(n) is.function(ns[[n]]), NA)]
      cache <<- mget(names, envir = ns)
    }
    cache
  }
})

entry_name <- function(fun, entries) {
  for (name in names(entries)) if (identical(fun, entries[[name]])) return(name)
  NULL
}

# A method's call as the user wrote it: `x + y`, not `Ops.gufunc_lazy(x, y)`.
# Group methods dispatched from C code get the argument values, not the
# expressions: a value other than a short constant is shown by its description
# (deparsing would print, and for a lazy value compute, all of it).
as_generic_call <- function(call, name, env) {
  if (!is.call(call)) return(call)
  generic <- env[[".Generic"]]
  if (is.character(generic) && endsWith(name, ".gufunc_lazy")) call[[1L]] <- as.name(generic)
  for (i in seq_along(call)[-1L]) {
    # (An empty subscript is language too, and a variable could not hold it.)
    if (is.language(call[[i]])) next
    arg <- call[[i]]
    short <- is.atomic(arg) && length(arg) <= 5L && is.null(attributes(arg))
    if (!short) call[[i]] <- as.name(value_label(arg))
  }
  call
}

# "<lazy double[100000]>", "<double[3 x 4]>": a value in a call, briefly.
value_label <- function(x) {
  kind <- if (inherits(x, "gufunc_lazy")) "lazy " else ""
  sprintf("<%s%s>", kind, value_extent(x, plain_count))
}
