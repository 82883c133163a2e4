#' Options and environment variables
#'
#' Every setting of gufunc, its default and how to change it. Each is read when an
#' evaluation starts, so a change applies to the next call. A bad value raises an
#' error of class `gufunc_argument_error` that shows the value, at the next call
#' that reads it (the setters below check it at once).
#'
#' @section Options:
#' \describe{
#'   \item{`gufunc.threads`}{Threads for large applications and lazy evaluations:
#'     a whole number from 1 to four per core (at least 16). Default: the count set
#'     with [RcppParallel::setThreadOptions()], else environment variable
#'     `RCPP_PARALLEL_NUM_THREADS`, else all cores. At most 2 when
#'     `_R_CHECK_LIMIT_CORES_` is set (R CMD check). [set_gufunc_threads()].}
#'   \item{`gufunc.block_size`}{Elements per block of a lazy evaluation, 1 to
#'     16777216. Default `NULL`: sized so a block's operands fit the cache.
#'     [set_gufunc_block_size()].}
#'   \item{`gufunc.lazy_min_length`}{Operations on lazy values shorter than this are
#'     computed at once by base R (deferring them costs more than it saves). Default
#'     65536. [set_gufunc_lazy_min_length()].}
#'   \item{`gufunc.sum_order`}{`"exact"` (default): sums and means of doubles add
#'     in index order in one long double, as base R does, so the bits are base R's;
#'     `"fast"`: chunks of 1024 values in vector additions, each thread summing its
#'     own: faster, and different in the last bits (see [lazy()]).
#'     [set_gufunc_sum_order()].}
#'   \item{`gufunc.buffer_pool`}{Megabytes of large result buffers kept for reuse;
#'     default 256, `0` keeps none. See [gufunc_buffer_pool()].}
#'   \item{`gufunc.verbose`}{`TRUE` to say, in a message, when and why a deferred
#'     value is computed whole for code that is not the engine's:
#'     `gufunc: materializing double[100,000,000] (800 MB) for anyNA()`. Default
#'     `FALSE`.}
#'   \item{`gufunc.progress`}{Progress of long evaluations (materialize, reductions,
#'     eager gufuncs over many slices): `TRUE` shows a cli progress bar (when the
#'     cli package is installed) for work that runs longer than cli's
#'     `cli.progress_show_after` (2 s); `FALSE` shows none; a `function(done,
#'     total)` receives the counts instead. Default: `TRUE` in interactive
#'     sessions, `FALSE` otherwise.}
#'   \item{`gufunc.progress_after`}{Seconds an evaluation runs before it reports
#'     progress at all (to the bar or the function above), so that short work pays
#'     nothing for it: a number from 0 to 86400, default 0.5. `0` reports from the
#'     first round, which lets a test or a function option see reports of short
#'     work.}
#'   \item{`gufunc.file_reads`}{How evaluations read consecutive values of files
#'     opened by [lazy_file()]: `"mapped"` in place through the file's mapping (no
#'     copy, but each page is mapped again in every pass), `"pread"` with `pread()`
#'     into cache-sized buffers (a copy, but no page mapping), or `"auto"` (default):
#'     the first file of at least 64 MB that `lazy_file()` opens in a session is read
#'     both ways (8 MB, a few milliseconds), and the faster way is used from then on.
#'     Which one wins depends on the machine: on virtual machines where mapping a
#'     page is dear, `"pread"` summed two files in the page cache 2.4 times as fast.
#'     The values are the same either way.}
#'   \item{`gufunc.cache_dir`}{Where [gufunc_cpp()] keeps compiled kernels; default
#'     `tools::R_user_dir("gufunc", "cache")`.}
#' }
#'
#' @section Environment variables:
#' \describe{
#'   \item{`GUFUNC_BLOCK_SIZE`}{The block size when option `gufunc.block_size` is
#'     not set.}
#'   \item{`RCPP_PARALLEL_NUM_THREADS`}{RcppParallel's thread count, used when option
#'     `gufunc.threads` is not set.}
#'   \item{`_R_CHECK_LIMIT_CORES_`}{Set by R CMD check: at most 2 threads.}
#' }
#'
#' @seealso [gufunc_errors] for the classes of the errors gufunc raises.
#' @name gufunc_options
#' @examples
#' get_gufunc_threads()
#' old <- set_gufunc_threads(1)
#' get_gufunc_threads()
#' set_gufunc_threads(old)
#' get_gufunc_block_size() # NULL: sized from the cache
NULL

#' Threads, block size, deferral threshold and sum order: get and set
#'
#' Getters return the setting in effect (the option, else its environment variable
#' or default; see [gufunc_options]). Setters set the option, check it at once and
#' return the option's previous value invisibly, so `old <- set_...(); ...;
#' set_...(old)` restores it. `NULL` returns a setting to its default.
#'
#' gufunc runs large applications and lazy evaluations on several threads through
#' RcppParallel. Kernels never call R from worker threads; their warnings are
#' raised once, on the main thread.
#'
#' @param n For `set_gufunc_threads()`: threads, a whole number from 1 to four per
#'   core (at least 16). For `set_gufunc_block_size()`: elements per block, from 1
#'   to 16777216. For `set_gufunc_lazy_min_length()`: a length, at least 0. `NULL`
#'   for the default.
#' @param order `"exact"` or `"fast"`, or `NULL` for the default (`"exact"`).
#' @return The getters: an integer (threads), a number or `NULL` (block size:
#'   `NULL` when it is sized from the cache), a number (lazy minimum length), a
#'   string (sum order). The setters: the previous value of the option, invisibly.
#' @name gufunc_settings
#' @export
#' @examples
#' get_gufunc_threads()
#' old <- set_gufunc_threads(1)
#' x <- lazy(runif(1e6))
#' s <- sum(sqrt(x)) # one thread
#' set_gufunc_threads(old)
#' old <- set_gufunc_sum_order("fast")
#' get_gufunc_sum_order()
#' set_gufunc_sum_order(old)
get_gufunc_threads <- function() .Call(C_gufunc_threads)

#' @rdname gufunc_settings
#' @export
set_gufunc_threads <- function(n = NULL) set_option("gufunc.threads", n, get_gufunc_threads)

#' @rdname gufunc_settings
#' @export
get_gufunc_block_size <- function() .Call(C_eval_settings_now)[[1L]]

#' @rdname gufunc_settings
#' @export
set_gufunc_block_size <- function(n = NULL) {
  set_option("gufunc.block_size", n, get_gufunc_block_size)
}

#' @rdname gufunc_settings
#' @export
get_gufunc_lazy_min_length <- function() lazy_min_length()

#' @rdname gufunc_settings
#' @export
set_gufunc_lazy_min_length <- function(n = NULL) {
  set_option("gufunc.lazy_min_length", n, get_gufunc_lazy_min_length)
}

#' @rdname gufunc_settings
#' @export
get_gufunc_sum_order <- function() .Call(C_eval_settings_now)[[2L]]

#' @rdname gufunc_settings
#' @export
set_gufunc_sum_order <- function(order = NULL) {
  set_option("gufunc.sum_order", order, get_gufunc_sum_order)
}

# Sets option `name` to `value`, reads it back with `get` (which raises the
# option's error for a bad value: then the old value is restored and the error
# names the setter's call) and returns the old value invisibly.
set_option <- function(name, value, get, call = sys.call(-1L)) {
  old <- options(structure(list(value), names = name))
  tryCatch(get(), error = function(e) {
    options(old)
    e$call <- call
    stop(e)
  })
  invisible(old[[1L]])
}
