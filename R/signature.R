# Parsing gufunc signatures (the grammar lives in src/types/signature.cpp).

#' Parse a gufunc signature
#'
#' A signature describes the core dimensions, and optionally the types, of the
#' arguments of a generalized ufunc. Its layout part is NumPy's gufunc signature
#' grammar: inputs and outputs are comma-separated lists separated by `->`, and
#' each argument lists its core dimensions in parentheses, e.g.
#' `"(m,n),(n,p)->(m,p)"` for matrix multiplication.
#'
#' * A dimension is a name (letters, digits and `_`, not starting with a digit)
#'   or a frozen size, a positive integer such as `3`.
#' * A dimension followed by `?` is flexible (it may be missing from an
#'   argument); a dimension flexible in one place must be flexible everywhere.
#'   As in NumPy, an argument with fewer dimensions than its core drops its
#'   flexible dimensions, first to last, until it has enough, and a dimension
#'   dropped is dropped from every argument (another argument's dimension in its
#'   place is then a loop dimension).
#' * `()` is a scalar core. Spaces and tabs may stand between any two tokens.
#'
#' A type may stand before an argument's `(`:
#' `"double(m,n), double(n,p) -> double(m,p)"`. An argument written as a type
#' alone has a scalar core: `"double, double -> double"`. Types are `double`,
#' `integer`, `logical` or a type variable, a name starting with an upper-case
#' letter (`"T(n), T(n) -> T()"`), which stands for the same type wherever it
#' appears.
#'
#' @section Errors:
#' An invalid signature is an error of class `gufunc_signature_error` whose
#' message states the problem and its 0-based position and shows the signature
#' with a caret under that position. A `sig` that is not a single string is an
#' error of class `gufunc_argument_error`.
#'
#' @section Printing:
#' `format()` spells a signature canonically (one space after each comma, ` -> `
#' between inputs and outputs, frozen sizes without leading zeros); parsing that
#' spelling again gives the same signature. `print()` shows it with the number
#' of inputs and outputs.
#'
#' @param sig A single string.
#' @return An object of class `gufunc_signature`, a list with
#'   * `text`: `sig`;
#'   * `nin`, `nout`: the number of inputs and outputs (integers);
#'   * `core_dims`: a list with one character vector per argument, inputs then
#'     outputs. A frozen dimension is its size as a string (`"3"`), a flexible
#'     one keeps its `?` (`"n?"`);
#'   * `dtypes`: a character vector with the type of each argument, `NA` where
#'     none is given.
#'
#'   `format()` returns a string, `print()` returns `x` invisibly.
#' @export
#' @examples
#' s <- parse_signature("double(m,n), double(n,p) -> double(m,p)")
#' s$nin
#' s$core_dims
#' s
#'
#' parse_signature("(n?,k),(k,m?)->(n?,m?)")$core_dims
#' parse_signature("(3),(3)->(3)")$core_dims
#' parse_signature("double, double -> double")$dtypes
#'
#' try(parse_signature("(m,n),(n,p->(m,p)"))
parse_signature <- function(sig) {
  if (!is.character(sig) || length(sig) != 1L || is.na(sig)) {
    abort_argument("sig", sprintf("must be a single string, not %s", describe_signature_arg(sig)))
  }
  out <- .Call(C_parse_signature, enc2utf8(sig))
  structure(out, class = "gufunc_signature")
}

# What a bad `sig` was, for the error message.
describe_signature_arg <- function(x) {
  if (is.null(x)) {
    "NULL"
  } else if (is.character(x) && length(x) == 1L) {
    "NA"
  } else if (is.list(x)) {
    sprintf("a list of length %d", length(x))
  } else if (is.atomic(x)) {
    sprintf("a vector of type '%s' and length %d", typeof(x), length(x))
  } else {
    sprintf("an object of type '%s'", typeof(x))
  }
}

#' @rdname parse_signature
#' @param x A `gufunc_signature`.
#' @param ... Unused.
#' @export
format.gufunc_signature <- function(x, ...) {
  args <- vapply(seq_along(x$core_dims), function(i) {
    dims <- x$core_dims[[i]]
    dtype <- x$dtypes[[i]]
    if (is.na(dtype)) dtype <- ""
    # a typed scalar core is written as the bare dtype
    if (length(dims) == 0L && nzchar(dtype)) {
      return(dtype)
    }
    paste0(dtype, "(", paste(dims, collapse = ","), ")")
  }, character(1))
  inputs <- paste(args[seq_len(x$nin)], collapse = ", ")
  outputs <- paste(args[x$nin + seq_len(x$nout)], collapse = ", ")
  if (x$nin > 0L) paste(inputs, "->", outputs) else paste("->", outputs)
}

#' @rdname parse_signature
#' @export
print.gufunc_signature <- function(x, ...) {
  cat(sprintf(
    "<gufunc_signature: %d input%s, %d output%s>\n%s\n",
    x$nin, if (x$nin == 1L) "" else "s", x$nout, if (x$nout == 1L) "" else "s", format(x)
  ))
  invisible(x)
}
