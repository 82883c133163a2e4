# User-defined gufuncs: gufunc() wraps an R function or a kernel registered through
# the C ABI as a callable; gufunc_cpp() (R/gufunc_cpp.R) compiles one. All three
# kinds return a "gufunc_function".

#' Define a gufunc from an R function or a registered kernel
#'
#' `gufunc()` turns a kernel into a function that applies it to R vectors and
#' arrays with gufunc's rules: the core dimensions of the signature are the
#' *leading* dimensions of each argument, the trailing (loop) dimensions
#' broadcast, inputs are promoted to the signature's types (logical -> integer ->
#' double, never the other way), and the outputs are allocated with the core
#' dimensions of the signature followed by the loop dimensions.
#'
#' @section R kernels (the slow path):
#' When `kernel` is an R function, it runs on the main R thread, **once per loop
#' iteration**, so it is convenient but slow: use it for prototyping, for few
#' iterations, or for work R does well per slice; use [gufunc_cpp()] or a C kernel
#' for speed. It receives one argument per input, that input's core slice for the
#' iteration (a plain vector, with its core dimensions as `dim` when it has two or
#' more), and returns the output's core slice: a double, integer or logical vector
#' of exactly the output's core length (a list of them for several outputs). A
#' value of a lower type is promoted (integer for a double output); anything else is
#' an error of class `gufunc_kernel_result_error` naming the slice. An error raised
#' by the kernel becomes an error of class `gufunc_kernel_error` whose message names
#' the failing slice, e.g. `slice [, 17]`, and whose `parent` field is the original
#' condition. Warnings from the kernel pass through unchanged.
#' A signature whose arguments all have scalar cores (`"double, double -> double"`)
#' follows base R's recycling and attribute rules, as native element-wise kernels
#' do. R kernels are not entered into the C lookup tables: `name` and `namespace`
#' only label messages and printing.
#'
#' @section Native kernels:
#' When `kernel` is a string, it names a function registered through the C ABI in
#' `namespace` (by a package calling `gufunc_register_kernels()` from
#' `<gufunc/callables.h>`, or by [gufunc_cpp()]). `signature` must be the signature
#' of one of its kernel sets (compared in canonical form, see [parse_signature()]).
#' The callable then runs `gufunc_call(kernel, ..., namespace = namespace)`.
#'
#' @param signature A typed signature, e.g. `"double(n), double(n) -> double()"`;
#'   every argument needs a type (`double`, `integer`, `logical` or a type variable
#'   bound by an input).
#' @param kernel An R function, or the name of a registered kernel.
#' @param name A label for the gufunc (default: the kernel's name for native
#'   kernels, `"r_kernel"` for R functions).
#' @param namespace The lookup table a native kernel lives in; a label for R kernels.
#' @return A function of class `gufunc_function` taking the inputs as arguments and
#'   returning the output, or a list of outputs for signatures with several.
#' @seealso [gufunc_cpp()] for compiled kernels; [gufunc_call()].
#' @export
#' @examples
#' spread <- gufunc("double(n) -> double()", function(v) max(v) - min(v))
#' spread
#' x <- matrix(c(1, 5, 2, 8, 3, 3), 2)
#' spread(x) # one value per column
#'
#' # Several outputs, and a 2-d core: per 2x2 slice, its trace and determinant.
#' td <- gufunc("double(n,n) -> double(), double()",
#'              function(m) list(sum(diag(m)), det(m)))
#' td(array(1:8, c(2, 2, 2)))
gufunc <- function(signature, kernel, name = NULL, namespace = "user") {
  check_string(signature, "signature")
  check_string(namespace, "namespace")
  if (!is.null(name)) check_string(name, "name")
  sig <- parse_signature(signature)
  if (is.function(kernel)) {
    check_typed_signature(sig, call = sys.call())
    spec <- list(sig = sig, kernel = kernel, name = name %||% "r_kernel", namespace = namespace)
    return(new_gufunc_function(function(call, ...) apply_r_kernel(spec, list(...), call),
                               spec$name, namespace, sig, "R"))
  }
  if (!is.character(kernel) || length(kernel) != 1L || is.na(kernel) || !nzchar(kernel)) {
    abort_argument("kernel", sprintf(
      "must be an R function or the name of a registered kernel, not %s", describe(kernel)))
  }
  check_native_kernel(sig, kernel, namespace, call = sys.call())
  new_gufunc_function(function(call, ...) call_registered(kernel, namespace, call, ...),
                      name %||% kernel, namespace, sig, "native")
}

`%||%` <- function(x, y) if (is.null(x)) y else x

# The callable: a plain function of the inputs; `apply(call, ...)` does the work,
# with the user's call for conditions.
new_gufunc_function <- function(apply, name, namespace, sig, kind) {
  f <- function(...) apply(sys.call(), ...)
  info <- list(name = name, namespace = namespace, signature = sig$text, kind = kind)
  structure(f, class = c("gufunc_function", "function"), gufunc = info)
}

# A registered kernel through gufunc_call(), its errors and warnings attributed to
# the user's call of the callable.
call_registered <- function(kernel, namespace, call, ...) {
  withCallingHandlers(
    with_origin(call, gufunc_call(kernel, ..., namespace = namespace)),
    gufunc_error = function(e) {
      e$call <- call
      stop(e)
    },
    warning = function(w) {
      w$call <- call
      warning(w)
      invokeRestart("muffleWarning")
    }
  )
}

#' @rdname gufunc
#' @param x A `gufunc_function`.
#' @param ... Unused.
#' @export
print.gufunc_function <- function(x, ...) {
  info <- attr(x, "gufunc")
  kind <- switch(info$kind,
    R = "R function (slow path: one R call per loop iteration)",
    native = "native kernel registered through the C ABI",
    cpp = "C++ kernel compiled by gufunc_cpp()",
    info$kind
  )
  cat(sprintf("<gufunc_function> %s (namespace \"%s\")\n  signature: %s\n  kernel:    %s\n",
              info$name, info$namespace, info$signature, kind))
  invisible(x)
}

# Every argument needs a type, as for kernels registered from C; type variables
# must be bound by an input.
check_typed_signature <- function(sig, call = sys.call(-1L)) {
  inputs <- sig$dtypes[seq_len(sig$nin)]
  for (i in seq_along(sig$dtypes)) {
    t <- sig$dtypes[[i]]
    problem <- if (is.na(t)) {
      "has no type"
    } else if (!t %in% c("double", "integer", "logical") && !t %in% inputs) {
      sprintf("has type variable %s, which no input binds", t)
    }
    if (!is.null(problem)) {
      stop(errorCondition(
        sprintf("argument %d of \"%s\" %s; user-defined gufuncs need typed signatures",
                i, sig$text, problem),
        class = c("gufunc_registration_error", "gufunc_error"), call = call))
    }
  }
}

# `kernel` must exist in `namespace` with a kernel set of signature `sig`.
check_native_kernel <- function(sig, kernel, namespace, call) {
  k <- tryCatch(gufunc_kernels(kernel, namespace), gufunc_lookup_error = function(e) {
    stop(errorCondition(
      sprintf(paste0("argument `kernel`: %s; register it first (from C with ",
                     "gufunc_register_kernels(), or with gufunc_cpp())"), conditionMessage(e)),
      class = c("gufunc_lookup_error", "gufunc_error"), call = call))
  })
  canonical <- vapply(k$signature, function(s) format(parse_signature(s)), "")
  if (!format(sig) %in% canonical) {
    stop(errorCondition(
      sprintf(paste0("argument `signature`: \"%s\" is not a signature of `%s` in namespace ",
                     "\"%s\"; its kernel sets are:\n%s"),
              sig$text, kernel, namespace, paste0("  ", k$signature, collapse = "\n")),
      class = c("gufunc_signature_error", "gufunc_error"), call = call))
  }
}

#' Remove user-defined kernels
#'
#' Drops function `name` from the lookup table of `namespace`, or the whole
#' namespace when `name` is `NULL`. Kernel states bound at construction (the
#' `params` of [gufunc_cpp()], or C kernels registered with
#' `gufunc_add_owned_kernel()`) are released by their destructors. Callables
#' created for removed kernels fail with a lookup error until they are registered
#' again. The `"base"` namespace cannot be removed.
#'
#' @param name A function name, or `NULL` for the whole namespace.
#' @param namespace The lookup table.
#' @return `TRUE` if something was removed, `FALSE` otherwise (invisibly), with a
#'   warning of class `gufunc_lookup_warning` (as [rm()] warns about an object that
#'   does not exist).
#' @export
#' @examples
#' removed <- gufunc_unregister(namespace = "no_such_namespace") # FALSE, with a warning
#' removed
gufunc_unregister <- function(name = NULL, namespace = "user") {
  if (!is.null(name)) check_string(name, "name")
  check_string(namespace, "namespace")
  removed <- .Call(C_user_remove, namespace, name)
  if (!removed) {
    what <- if (is.null(name)) "no" else sprintf("no function `%s` in", name)
    warning(warningCondition(sprintf("there is %s gufunc namespace \"%s\": nothing was removed",
                                     what, namespace),
                             class = c("gufunc_lookup_warning", "gufunc_warning"),
                             call = sys.call()))
  }
  invisible(removed)
}

# Kernel states owned by gufunc and not yet released (a test hook).
owned_states_alive <- function() .Call(C_user_owned_states)
