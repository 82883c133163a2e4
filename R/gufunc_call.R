#' Apply a gufunc to R vectors and arrays
#'
#' Looks up the function `name` in the lookup table of `namespace`, chooses the
#' kernel set matching the argument types (exact match first, then base R's implicit
#' promotion logical -> integer -> double), resolves core and loop dimensions, and
#' runs the kernel, in parallel for large inputs (see [gufunc_threads()]).
#'
#' Core dimensions of a signature are the *leading* dimensions of each argument;
#' the trailing (loop) dimensions broadcast: each must be equal across arguments or 1,
#' and an argument with fewer loop dimensions is extended with 1s at the end.
#' Element-wise functions (all arguments scalar cores, like the builtins) follow
#' base R instead: recycling with its warning, and base R's rules for `names`, `dim`
#' and `dimnames` of the result, so `gufunc_call("+", x, y)` is `identical()` to
#' `x + y`.
#'
#' @param name Name of the function, e.g. `"+"`, `"sqrt"`, or an alias such as `"add"`.
#' @param ... The input arguments: double, integer or logical vectors or arrays.
#' @param namespace The lookup table to search.
#' @return The output, or a list of outputs for functions with several.
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
  check_operands(args)
  names(args) <- NULL
  elementwise <- .Call(C_is_elementwise, name, namespace, length(args))
  if (elementwise) elementwise_check(args, name, call = sys.call())
  computed <- if (elementwise && namespace == "base") swap_scalar_first(args, name) else args
  res <- .Call(C_gufunc_call, name, computed, namespace, gufunc_threads())
  for (w in res[[2L]]) warning(warningCondition(w, call = sys.call()))
  outs <- res[[1L]]
  if (elementwise) outs[[1L]] <- elementwise_attributes(outs[[1L]], args, name, call = sys.call())
  if (length(outs) == 1L) outs[[1L]] else outs
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
