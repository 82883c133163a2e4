# Argument checks and the call helper shared by the linear-algebra wrappers
# (R/linalg.R). Every error names the user's argument and, for shapes, the core
# dimension of the gufunc's signature.

abort_shape <- function(message, call) {
  stop(errorCondition(message, class = c("gufunc_shape_error", "gufunc_error"), call = call))
}

# A plain vector as the one-row (`row`) or one-column matrix %*% takes it; a vector
# longer than R's largest dim cannot be one.
vector_as_matrix <- function(x, arg, row, call) {
  if (length(x) > .Machine$integer.max) {
    abort_shape(sprintf(paste0(
      "argument `%s` is a vector of length %.0f, longer than R's largest dim (2^31 - 1), ",
      "so it cannot be taken as a matrix"), arg, length(x)), call = call)
  }
  if (row) matrix(x, nrow = 1L) else matrix(x, ncol = 1L)
}

# `x` must have at least two dims: a matrix or a stack of matrices.
need_matrices <- function(x, arg, signature, call) {
  if (length(dim(x)) < 2L) {
    abort_shape(sprintf(paste0(
      "argument `%s` must be a matrix or a stack of matrices (core dimensions %s ",
      "leading), not a vector of length %d"), arg, signature, length(x)), call = call)
  }
}

# `x` must be an operand holding a square matrix or a stack of them.
need_square_stack <- function(x, arg, call) {
  check_operand(x, arg, call = call)
  need_matrices(x, arg, "(n,n)", call)
  need_square(x, arg, call)
}

# `x` must have square core matrices: dim(x)[1] == dim(x)[2].
need_square <- function(x, arg, call) {
  d <- dim(x)
  if (d[[1L]] != d[[2L]]) {
    abort_shape(sprintf(paste0(
      "argument `%s` must hold square matrices (core dimensions (n,n)), but its first ",
      "two dimensions are %d x %d"), arg, d[[1L]], d[[2L]]), call = call)
  }
}

# Core dimension `dim_name` of `fun`'s signature is dimension `at_x` of `x` and
# `at_y` of `y`: both sizes must agree.
need_same_core <- function(x, y, at_x, at_y, x_arg, y_arg, dim_name, fun, call) {
  nx <- core_size(x, at_x)
  ny <- core_size(y, at_y)
  if (nx != ny) {
    abort_shape(sprintf(paste0(
      "argument `%s` has size %d in dimension %d but `%s` has size %d in dimension %d: ",
      "both are core dimension %s of %s"), y_arg, ny, at_y, x_arg, nx, at_x, dim_name, fun),
      call = call)
  }
}

core_size <- function(x, at) {
  d <- dim(x)
  if (is.null(d)) length(x) else d[[at]]
}

# Calls the builtin `name` of the "base" namespace. Its errors are re-raised as the
# wrapper's: "argument 2" in shape messages becomes the R name of that argument.
call_builtin <- function(name, ..., arg_names, call) {
  withCallingHandlers(
    with_origin(call, gufunc_call(name, ..., namespace = "base")),
    gufunc_error = function(e) {
      msg <- conditionMessage(e)
      for (i in seq_along(arg_names)) {
        msg <- gsub(sprintf("argument %d\\b", i), sprintf("argument `%s`", arg_names[[i]]),
                    msg, perl = TRUE)
      }
      stop(errorCondition(msg, class = setdiff(class(e), c("error", "condition")),
                          call = call))
    })
}

# The dimnames %*% and solve() give a plain 2-d result: `rows` and `cols` (NULL
# when both are NULL), named `tags` when given (%*% keeps the names of x's row and
# y's column dimnames, "" for one without).
set_matrix_dimnames <- function(res, rows, cols, tags = NULL) {
  if (is.null(rows) && is.null(cols)) return(res)
  dn <- list(rows, cols)
  names(dn) <- tags
  dimnames(res) <- dn
  res
}

# The names %*% gives the dimnames of x %*% y: those of x's rows and y's columns,
# or NULL when neither x's nor y's dimnames are named.
product_dimnames_tags <- function(x, y) {
  nx <- names(dimnames(x))
  ny <- names(dimnames(y))
  if (is.null(nx) && is.null(ny)) return(NULL)
  c(if (is.null(nx)) "" else nx[1L], if (is.null(ny)) "" else ny[2L])
}
