#' Number of threads gufunc uses
#'
#' gufunc runs large applications on several threads through RcppParallel. The count
#' is, in order of precedence: the option `gufunc.threads`; the value set with
#' [RcppParallel::setThreadOptions()]; all cores. Under R CMD check
#' (`_R_CHECK_LIMIT_CORES_` set) it is at most 2. Kernels never call R from worker
#' threads; their warnings are raised once, on the main thread.
#'
#' @return An integer, at least 1.
#' @export
#' @examples
#' gufunc_threads()
#' old <- options(gufunc.threads = 1)
#' gufunc_threads()
#' options(old)
gufunc_threads <- function() .Call(C_gufunc_threads)
