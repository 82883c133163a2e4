#' gufunc: generalized universal functions for R arrays
#'
#' gufunc applies typed kernels with core dimensions ("generalized ufuncs") to R
#' vectors and arrays. Core dimensions are the leading dimensions of each argument;
#' the trailing (loop) dimensions broadcast. Kernels live in lookup tables, one per
#' namespace; the builtin element-wise kernels are in namespace `"base"` under base
#' R's own names and give results `identical()` to base R.
#'
#' Other packages register kernels or take gufunc's kernels through the C interface
#' in `inst/include/gufunc/` (see `callables.h`).
#'
#' @keywords internal
#' @aliases gufunc-package NULL
#' @useDynLib gufunc, .registration = TRUE, .fixes = "C_"
#' @importFrom RcppParallel RcppParallelLibs
"_PACKAGE"

.onLoad <- function(libname, pkgname) {
  register_s4_class(asNamespace(pkgname))
  measure_temporary_counts()
}
