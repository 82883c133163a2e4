# The traits of gufunc's builtin element-wise functions, declared in C++ where
# their kernels are registered (src/dispatch/builtin_traits.hpp): the family whose
# attribute rules their results follow, and whether lazy values defer them. R
# keeps no list of its own; adding a builtin adds it here.
builtin_registry <- new.env(parent = emptyenv())

builtin_traits <- function() {
  traits <- builtin_registry$traits
  if (is.null(traits)) {
    t <- .Call(C_builtin_traits)
    traits <- list(family = stats::setNames(t[[2L]], t[[1L]]), deferred = t[[1L]][t[[3L]]])
    builtin_registry$traits <- traits
  }
  traits
}

# The family of builtin `name` ("arithmetic", "math", "math2", "predicate", ...),
# NA for any other function.
builtin_family <- function(name) unname(builtin_traits()$family[name])

is_deferred_builtin <- function(name) name %in% builtin_traits()$deferred

# The parameter math2() functions take when the call gives none.
math2_defaults <- c(round = 0, signif = 6)

# The operands a deferred Math group function `name` maps: list(x), or for round,
# signif and log(x, base) x and the parameter (the default when absent). NULL when
# base R computes it (other functions, other arguments, a parameter that is not a
# plain number of length >= 1).
deferred_math_operands <- function(name, x, ...) {
  if (!is_deferred_builtin(name)) return(NULL)
  family <- builtin_family(name)
  n <- ...length()
  if (family == "math") return(if (n == 0L) list(x))
  if (family != "math2" || n > 1L) return(NULL)
  if (n == 0L) {
    default <- math2_defaults[name]
    return(if (is.na(default)) list(x) else list(x, unname(default)))
  }
  p <- ..1
  if (!lazy_operand(p) || length(p) == 0L) return(NULL)
  list(x, p)
}

# `name` over `args` as a lazy value with base R's attributes, or NULL when the
# engine does not map it. `computed`: the operands in the order the kernel takes
# them (see swap_nan_order()).
lazy_builtin_map <- function(name, args, call, computed = args) {
  # NULL: base R computes it; FALSE: mappable, with base R's attribute rules (a
  # lazy result is an object, so is.object() tells them apart without dispatch).
  value <- .Call(C_lazy_ops, name, computed)
  if (is.null(value)) return(NULL)
  if (!is.object(value)) {
    if (is.na(value)) return(small_result(name, args))
    value <- lazy_elementwise(name, args, call, computed)
  }
  value
}

# Results shorter than gufunc.lazy_min_length are base R's, computed at once; from
# 256 elements on they stay lazy values with their values at hand, shorter ones are
# plain (the rule and its reasons: short_result(), src/r/lazy_altrep.hpp).
small_result <- function(name, args) {
  value <- quiet_arithmetic(name, args)
  if (is.null(value)) value <- base_fallback(name, args, count = FALSE)
  .Call(C_lazy_short_result, value)
}

# Arithmetic of two double operands that can neither warn nor fail: base R's
# operator on their values, without base_fallback()'s condition handlers, which
# cost tens of microseconds (an elimination step divides a short view by its
# pivot). That is where the operands are of one length (with the same dims where
# both have dims), or one of them is a single value without attributes, and
# neither has a class but the lazy one nor attributes but dims and dimnames
# (base R's own operator then gives the attributes). NULL for others.
quiet_arithmetic <- function(name, args) {
  if (length(args) != 2L || !name %in% c("+", "-", "*", "/", "^")) return(NULL)
  x <- args[[1L]]
  y <- args[[2L]]
  if (typeof(x) != "double" || typeof(y) != "double") return(NULL)
  plain_kind <- function(v) {
    cls <- oldClass(v)
    (is.null(cls) || identical(cls, "gufunc_lazy")) &&
      all(names(attributes(v)) %in% c("class", "dim", "dimnames"))
  }
  if (!plain_kind(x) || !plain_kind(y)) return(NULL)
  nx <- length(x)
  ny <- length(y)
  if (nx == ny) {
    if (!is.null(dim(x)) && !is.null(dim(y)) && !identical(dim(x), dim(y))) return(NULL)
  } else if (!(nx == 1L && is.null(dim(x))) && !(ny == 1L && is.null(dim(y)))) {
    return(NULL)
  }
  get(name, baseenv())(plain_values(x), plain_values(y))
}

# is.na() and the like on a lazy value: deferred, or base R's on its values.
lazy_predicate <- function(name, x) {
  value <- if (lazy_operand(x)) lazy_builtin_map(name, list(x), call(name, quote(x)))
  if (is.null(value)) get(name, baseenv())(fallback_values(x, name)) else value
}
