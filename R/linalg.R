#' Linear algebra on stacks of matrices
#'
#' Builtin gufuncs of the `"base"` namespace that apply a matrix operation to every
#' matrix of a stack at once, in compiled code and on all threads (see
#' [get_gufunc_threads()]):
#' * `matmul(x, y)`: matrix products, `"(m,n),(n,p)->(m,p)"`, each slice as `%*%`;
#' * `inner(x, y)`: inner products of vectors, `"(n),(n)->()"`;
#' * `gu_det(x)`: determinants, `"(n,n)->()"`;
#' * `gu_solve(a, b)`: solutions of `a %*% x = b`, `"(n,n),(n,k)->(n,k)"`, or the
#'   inverse of every slice of `a` when `b` is missing;
#' * `gu_eigen(x)`: eigen decompositions of symmetric matrices,
#'   `"(n,n)->(n),(n,n)"`.
#'
#' @section Stacks and broadcasting:
#' The core dimensions of the signature are the *leading* dimensions of each
#' argument; the remaining (loop) dimensions trail. A stack of `k` matrices of size
#' `m` x `n` therefore has `dim = c(m, n, k)`, and `matmul(A, B)` with
#' `dim(A) = c(3, 3, 1e5)` and `dim(B) = c(3, 3, 1e5)` gives `dim = c(3, 3, 1e5)`,
#' with `C[, , i]` equal to `A[, , i] %*% B[, , i]`. Loop dimensions broadcast: each
#' must be equal across arguments or 1, and an argument with fewer loop dimensions
#' (for example a plain matrix against a stack) is extended with 1s, so it is used
#' with every slice. There may be several loop dimensions (`dim = c(3, 3, 4, 5)` is a
#' 4 x 5 grid of 3 x 3 matrices), and zero-length ones (an empty result).
#'
#' Integer and logical arguments are converted to double, as `%*%` does.
#'
#' @section Naming:
#' A gufunc whose name base R already uses is exported with the prefix `gu_`
#' (`gu_det`, `gu_solve`, `gu_eigen`), so that `library(gufunc)` masks no base R
#' function; the kernels themselves are named `det`, `solve` and `eigen_symmetric`
#' in the `"base"` namespace of [gufunc_call()].
#'
#' @details
#' `matmul()` sums each product in index order in double precision, as the
#' reference BLAS behind `%*%` does: for finite values, results agree with `%*%`
#' to rounding (they are usually identical). A plain vector `x` is taken as a
#' one-row matrix and a plain vector `y` as a one-column matrix (the usual cases of
#' `%*%`: vector times matrix, matrix times vector, vector times vector gives a
#' 1 x 1 matrix). For two plain matrices the result has the `dimnames` `%*%` gives
#' (the row names of `x`, the column names of `y`); results for stacks have none.
#'
#' `inner()` multiplies in double and sums in long double in index order, exactly
#' as `colSums(x * y)` does: for two matrices of the same dim the result is
#' `identical()` to `colSums(x * y)` (including names from the column names).
#'
#' `gu_det()` uses an LU factorization with partial pivoting of each slice. A
#' slice with `NA` or `NaN` gives `NA` (base R's `det()` may give `NaN`); an
#' exactly singular slice gives 0.
#'
#' `gu_solve()` uses an LU factorization with partial pivoting of each slice of
#' `a`. As base R's `solve()`, it refuses a slice that is exactly singular (a zero
#' pivot), computationally singular (a reciprocal condition number, estimated in
#' the 1-norm as LAPACK's `dgecon` does, below `.Machine$double.eps`), or has
#' `NA`, `NaN` or `Inf` values: the error (class `gufunc_kernel_error`) names the
#' slice, e.g. "kernel of `solve` failed for slice \[, , 17\]: the matrix is
#' exactly singular (pivot U\[2,2\] = 0)". `NA` in `b` gives `NA` in the solution.
#' A plain vector `b` is one right-hand side: the result drops that dimension (a
#' plain vector when `a` is a plain matrix, as with `solve()`).
#'
#' `gu_eigen()` uses cyclic Jacobi rotations, accurate for the small matrices of a
#' stack. As `eigen(symmetric = TRUE)`: only the lower triangle of each slice is
#' used, values are in decreasing order, vectors are the unit-norm columns
#' (each determined up to its sign), and a slice with `NA`, `NaN` or `Inf` is an
#' error naming the slice. A 0 x 0 slice gives empty results.
#'
#' Mismatched core dimensions are errors of class `gufunc_shape_error` that name
#' the argument and the core dimension; so are results longer than R's longest
#' vector (2^52 elements), which name the arguments' dims.
#'
#' @param x,y Double, integer or logical arrays (or lazy values). For `matmul()`:
#'   matrices or stacks of matrices, or plain vectors (see Details); for `inner()`:
#'   vectors or stacks of vectors (`dim = c(n, ...)`); for `gu_det()` and
#'   `gu_eigen()`: square matrices or stacks of them.
#' @param a A square matrix or a stack of square matrices.
#' @param b A matrix or stack of right-hand sides (`dim = c(n, k, ...)`), a plain
#'   vector of length `n`, or missing for the inverse.
#' @return `matmul()`: an array with `dim = c(m, p, <loop dims>)`. `inner()` and
#'   `gu_det()`: a value per slice, with the loop dims (a plain vector when there
#'   is one loop dimension, a single number for a plain matrix). `gu_solve()`: an
#'   array with `dim = c(n, k, <loop dims>)`. `gu_eigen()`: `list(values, vectors)`
#'   with `dim(values) = c(n, <loop dims>)` and `dim(vectors) = c(n, n, <loop dims>)`.
#' @seealso [gufunc_call()] to call the kernels by name, [gufunc_kernels()].
#' @name linalg
#' @examples
#' A <- array(runif(3 * 3 * 4), c(3, 3, 4))
#' B <- array(runif(3 * 3 * 4), c(3, 3, 4))
#' C <- matmul(A, B)
#' all.equal(C[, , 2], A[, , 2] %*% B[, , 2])
#' matmul(A, diag(3))[, , 1] # a plain matrix is used with every slice
#' gu_det(A)
#' X <- gu_solve(A, B) # A[, , i] %*% X[, , i] == B[, , i]
#' Ainv <- gu_solve(A)
#' all.equal(Ainv[, , 3], solve(A[, , 3]))
#' S <- matmul(A, aperm(A, c(2, 1, 3))) # symmetric slices
#' e <- gu_eigen(S)
#' e$values[, 1]
#' x <- matrix(rnorm(8 * 5), 8)
#' y <- matrix(rnorm(8 * 5), 8)
#' identical(inner(x, y), colSums(x * y))
NULL

#' @rdname linalg
#' @export
matmul <- function(x, y) {
  call <- sys.call()
  check_operand(x, "x", call = call)
  check_operand(y, "y", call = call)
  if (is.null(dim(x))) x <- vector_as_matrix(x, "x", row = TRUE, call)
  if (is.null(dim(y))) y <- vector_as_matrix(y, "y", row = FALSE, call)
  need_matrices(x, "x", "(m,n)", call)
  need_matrices(y, "y", "(n,p)", call)
  need_same_core(x, y, 2L, 1L, "x", "y", "n", 'matmul "(m,n),(n,p)->(m,p)"', call)
  res <- call_builtin("matmul", x, y, arg_names = c("x", "y"), call = call)
  if (length(dim(x)) == 2L && length(dim(y)) == 2L) {
    res <- set_matrix_dimnames(res, rownames(x), colnames(y), product_dimnames_tags(x, y))
  }
  res
}

#' @rdname linalg
#' @export
inner <- function(x, y) {
  call <- sys.call()
  check_operand(x, "x", call = call)
  check_operand(y, "y", call = call)
  need_same_core(x, y, 1L, 1L, "x", "y", "n", 'inner "(n),(n)->()"', call)
  res <- call_builtin("inner", x, y, arg_names = c("x", "y"), call = call)
  # colSums(x * y) takes names from x's column names, else y's.
  # (Assigned only when there are names: names<- on the result would copy it.)
  if (is.null(dim(res)) && length(dim(x)) == 2L && identical(dim(x), dim(y))) {
    nms <- if (is.null(colnames(x))) colnames(y) else colnames(x)
    if (!is.null(nms)) names(res) <- nms
  }
  res
}

#' @rdname linalg
#' @export
gu_det <- function(x) {
  call <- sys.call()
  need_square_stack(x, "x", call)
  call_builtin("det", x, arg_names = "x", call = call)
}

#' @rdname linalg
#' @export
gu_solve <- function(a, b) {
  call <- sys.call()
  need_square_stack(a, "a", call)
  n <- dim(a)[[1L]]
  inverse <- missing(b)
  # Identity matrices; for an empty stack an empty b (diag(1, n) may not fit).
  if (inverse) b <- if (length(a) == 0L) array(0, dim(a)) else diag(1, n)
  check_operand(b, "b", call = call)
  vector_b <- is.null(dim(b))
  if (vector_b) b <- vector_as_matrix(b, "b", row = FALSE, call)
  need_same_core(a, b, 1L, 1L, "a", "b", "n", 'solve "(n,n),(n,k)->(n,k)"', call)
  res <- call_builtin("solve", a, b, arg_names = c("a", "b"), call = call)
  plain <- length(dim(a)) == 2L && length(dim(b)) == 2L
  if (vector_b) {
    if (plain) {
      res <- as.vector(res)
      names(res) <- colnames(a)
      return(res)
    }
    dim(res) <- dim(res)[-2L]
    return(if (length(dim(res)) < 2L) as.vector(res) else res)
  }
  if (plain) {
    cols <- if (inverse) rownames(a) else colnames(b)
    res <- set_matrix_dimnames(res, colnames(a), cols)
  }
  res
}

#' @rdname linalg
#' @export
gu_eigen <- function(x) {
  call <- sys.call()
  need_square_stack(x, "x", call)
  res <- call_builtin("eigen_symmetric", x, arg_names = "x", call = call)
  list(values = res[[1L]], vectors = res[[2L]])
}
