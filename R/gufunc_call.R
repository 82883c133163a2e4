#' Apply a gufunc to R vectors and arrays
#'
#' Looks up the function `name` in the lookup table of `namespace`, chooses the
#' kernel set matching the argument types (exact match first, then base R's implicit
#' promotion logical -> integer -> double), resolves core and loop dimensions, and
#' runs the kernel, in parallel for large inputs (see [get_gufunc_threads()]).
#'
#' Core dimensions of a signature are the *leading* dimensions of each argument;
#' the trailing (loop) dimensions broadcast: each must be equal across arguments or 1,
#' and an argument with fewer loop dimensions is extended with 1s at the end.
#' Element-wise functions (all arguments scalar cores, like the builtins) follow
#' base R instead: recycling with its warning, and base R's rules for `names`, `dim`
#' and `dimnames` of the result, so `gufunc_call("+", x, y)` is `identical()` to
#' `x + y`. The kernels of [pmax()], [pmin()] and [ifelse()] (`"pmax"`,
#' `"pmax_na_rm"`, `"pmin"`, `"pmin_na_rm"`, `"ifelse"`) are called as those
#' functions are, with their rules for types, recycling and attributes
#' (`"pmax_na_rm"` as `pmax(..., na.rm = TRUE)`); `"gamma"` and `"lgamma"` leave
#' the inputs where R's own functions may warn to base R, as for lazy values.
#'
#' When any argument is a lazy value (see [lazy()]), nothing is computed: the result
#' is a lazy value, a node of the graph. Types and shapes are checked at once, so a
#' call with mismatched core dimensions fails here, as an eager call would; the
#' result's `dim` is known at once too. Element-wise producers of an operand (such as
#' `a * b` in `gufunc_call("inner", a * b, c)`) are then evaluated block by block of
#' loop iterations, with no full-length temporary, and only the loop iterations
#' holding the elements read are computed by `x[i]`, `head()` or `print()`; see
#' [lazy_plan()]. Functions with several outputs are the exception: their lazy
#' arguments are materialized and the outputs computed at once (fusion stops there).
#'
#' @param name Name of the function, e.g. `"+"`, `"sqrt"`, or an alias such as `"add"`.
#' @param ... The input arguments: double, integer or logical vectors or arrays.
#' @param namespace The lookup table to search.
#' @return The output, or a list of outputs for functions with several. With a lazy
#'   argument and one output, a lazy value.
#' @seealso [gufunc_kernels()] for the functions and signatures available.
#' @export
#' @examples
#' gufunc_call("add", 1:3, c(0.5, NA, 2))
#' identical(gufunc_call("+", 1:3, c(0.5, NA, 2)), 1:3 + c(0.5, NA, 2))
#' m <- matrix(c(4, 9, 16, 25), 2, dimnames = list(c("a", "b"), NULL))
#' gufunc_call("sqrt", m)
#' gufunc_call("%/%", 7L, c(2L, -2L, 0L))
gufunc_call <- function(name, ..., namespace = "base") {
  check_string(name, "name")
  check_string(namespace, "namespace")
  args <- list(...)
  is_lazy_arg <- vapply(args, is_lazy, NA)
  check_operands(args)
  names(args) <- NULL
  if (namespace == "base" && is_step_call(name, length(args))) {
    return(step_kernel_call(name, args, sys.call()))
  }
  if (namespace == "base" && name %in% c("gamma", "lgamma") && length(args) == 1L) {
    # R's own functions warn from inside for a few inputs, which their kernels
    # refuse (src/r/rmath_kernels.cpp): base R computes a call with such an input,
    # and a lazy argument goes through the Math method, which looks at its values.
    x <- args[[1L]]
    if (is_lazy(x)) return(get(name, baseenv())(x))
    if (.Call(C_math_zone, name, x)) return(with_user_call(sys.call(), get(name, baseenv())(x)))
  }
  elementwise <- .Call(C_is_elementwise, name, namespace, length(args))
  plain <- if (any(is_lazy_arg)) lapply(args, unclass) else args
  if (elementwise) elementwise_check(plain, name, call = sys.call())
  computed <- if (elementwise && namespace == "base") swap_nan_order(args, name) else args
  if (any(is_lazy_arg)) {
    value <- if (elementwise) {
      lazy_map_call(name, plain, computed, namespace, sys.call())
    } else {
      # Nested gufuncs are evaluated one level at a time, recursively: an operand
      # nesting many is computed now, so chains of any length work.
      for (a in args[is_lazy_arg]) {
        if (.Call(C_lazy_gufunc_depth, a) >= max_gufunc_nesting) materialize(a)
      }
      .Call(C_lazy_gufunc, name, args, namespace, deferred_origin())
    }
    if (!is.null(value)) return(value)
    # Not deferred (several outputs, or lengths the engine does not map): eager.
    args <- lapply(args, materialize)
    computed <- lapply(computed, materialize)
  }
  res <- .Call(C_gufunc_call, name, computed, namespace, get_gufunc_threads())
  for (w in res[[2L]]) warning(warningCondition(w, call = sys.call()))
  outs <- res[[1L]]
  if (elementwise) outs[[1L]] <- elementwise_attributes(outs[[1L]], args, name, call = sys.call())
  if (length(outs) == 1L) outs[[1L]] else outs
}

# Where a deferred gufunc call is built, for the message of its failure (which
# comes later, from another call): the user's call of a callable or of matmul()
# and friends (they set it with with_origin()), else gufunc_call()'s caller's
# call, and the function that made it: "l1(P * 2, Q), in g(x)".
origin <- new.env(parent = emptyenv())

with_origin <- function(call, expr) {
  if (is.null(origin$text)) {
    # The frame running `call` (the innermost: a recursive user function runs it
    # more than once), to name the function that called it.
    frame <- 0L
    for (k in rev(seq_len(sys.nframe()))) {
      if (identical(sys.call(k), call)) {
        frame <- k
        break
      }
    }
    origin$text <- origin_text(call, if (frame > 0L) sys.parents()[frame] else 0L)
    on.exit(origin$text <- NULL)
  }
  expr
}

deferred_origin <- function() {
  if (!is.null(origin$text)) return(origin$text)
  frame <- sys.parent(2L)  # gufunc_call()'s caller
  if (frame == 0L) return(origin_text(sys.call(-1L), 0L))
  origin_text(sys.call(frame), sys.parents()[frame])
}

origin_text <- function(call, parent) {
  short <- function(x) {
    text <- paste(deparse(x, width.cutoff = 60L, nlines = 2L), collapse = " ")
    if (nchar(text) > 80L) paste0(substr(text, 1L, 77L), "...") else text
  }
  where <- if (parent > 0L) paste0(", in ", short(sys.call(parent)))
  paste0(short(call), where)
}

# Gufunc calls a lazy operand may nest before gufunc_call() computes it.
max_gufunc_nesting <- 100L

# The lazy map of element-wise `name` over `computed` with the attributes an eager
# call gives (worked out on a stand-in that costs nothing); NULL when the engine
# does not map these operands.
lazy_map_call <- function(name, plain, computed, namespace, call) {
  standin <- elementwise_attributes(standin_of(max(lengths(plain))), plain, name, call)
  .Call(C_lazy_map, name, computed, namespace, attributes(standin))
}

#' List the kernels of a gufunc namespace
#'
#' @param name A function name, or `NULL` for every function of the namespace.
#' @param namespace The lookup table to list.
#' @return A data frame with one row per kernel set: `name`, `signature` (types and
#'   core dimensions) and `variants` (which of the C, Fortran, Xnd and Strided
#'   kernels the set provides, comma-separated).
#' @export
#' @examples
#' gufunc_kernels("add")
#' head(gufunc_kernels())
gufunc_kernels <- function(name = NULL, namespace = "base") {
  if (!is.null(name)) check_string(name, "name")
  check_string(namespace, "namespace")
  k <- .Call(C_gufunc_kernels, name, namespace)
  data.frame(name = k[[1L]], signature = k[[2L]], variants = k[[3L]],
             stringsAsFactors = FALSE)
}

#' The gufunc namespaces
#'
#' @return A character vector with the name of every lookup table: `"base"` for the
#'   builtins, plus the namespaces other packages registered kernels into.
#' @export
#' @examples
#' gufunc_namespaces()
gufunc_namespaces <- function() .Call(C_gufunc_namespaces)

# gufunc_call() of the kernels pmax(), pmin() and ifelse() are made of (builtin
# families "extreme" and "select"). Each kernel is one step of its R function, whose
# rules (the type, recycling and its warning, the attributes, the branches ifelse()
# evaluates) are applied in R (lazy_extreme(), lazy_ifelse()). So the call is that
# function's, with the same kernels: gufunc's pmax(), pmin() or ifelse() when an
# argument is lazy; else the deferred call of the same on the arguments made lazy,
# computed at once, or base R's function where that is not deferred (a result under
# lazy_min_length(), a test that is not logical).
is_step_call <- function(name, nargs) {
  family <- builtin_family(name)
  !is.na(family) && (family == "extreme" && nargs >= 1L || family == "select" && nargs == 3L)
}

step_kernel_call <- function(name, args, call) {
  select <- builtin_family(name) == "select"
  fun <- if (select) "ifelse" else if (startsWith(name, "pmax")) "pmax" else "pmin"
  na_rm <- endsWith(name, "_na_rm")
  # gufunc's function or base R's (`where`), on the arguments as given.
  call_fun <- function(where) {
    f <- get(fun, where)
    with_user_call(call, if (select) f(args[[1L]], args[[2L]], args[[3L]]) else {
      do.call(f, c(args, list(na.rm = na_rm)))
    })
  }
  if (any(vapply(args, is_lazy, NA))) return(call_fun(environment()))
  value <- if (select) {
    lazy_ifelse(lazy(args[[1L]]), args[[2L]], args[[3L]])
  } else if (max(lengths(args)) >= lazy_min_length()) {
    lazy_extreme(fun, lapply(args, lazy), na_rm, call)
  }
  if (!is.null(value)) return(materialize(value))
  call_fun(baseenv())
}
