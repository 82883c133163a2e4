#' Number of threads gufunc uses
#'
#' gufunc runs large applications on several threads through RcppParallel. The count
#' is, in order of precedence: the option `gufunc.threads`; the value set with
#' [RcppParallel::setThreadOptions()]; all cores. Under R CMD check
#' (`_R_CHECK_LIMIT_CORES_` set) it is at most 2.
#'
#' @return An integer, at least 1.
#' @export
#' @examples
#' gufunc_threads()
#' old <- options(gufunc.threads = 1)
#' gufunc_threads()
#' options(old)
gufunc_threads <- function() {
  n <- getOption("gufunc.threads")
  if (is.null(n)) {
    env <- suppressWarnings(as.integer(Sys.getenv("RCPP_PARALLEL_NUM_THREADS", "")))
    n <- if (!is.na(env) && env > 0L) env else RcppParallel::defaultNumThreads()
  }
  if (!is.numeric(n) || length(n) != 1L || is.na(n) || n < 1) {
    abort_argument("options(gufunc.threads)", "must be a single number >= 1", call = NULL)
  }
  n <- as.integer(n)
  limit <- Sys.getenv("_R_CHECK_LIMIT_CORES_", "")
  if (nzchar(limit) && !identical(tolower(limit), "false")) n <- min(n, 2L)
  n
}
