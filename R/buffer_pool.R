#' Reuse of large result buffers
#'
#' A large result (4 MiB or more) gets fresh memory from the operating system, and
#' the first write to each page costs a page fault and zeroing: about 35 ms per
#' 80 MB (1e7 doubles) on the machines measured, and up to 270 ms on virtual
#' machines whose host manages the guest's memory. When R frees such a result,
#' gufunc keeps its memory and gives it to the next large result of about the same
#' size, so a loop that computes one large result per step does not pay that cost
#' at every step. The values gufunc keeps of an expression read by several
#' evaluations (see [lazy()]) take such memory too where it fits, instead of new
#' memory beside it.
#'
#' Option `gufunc.buffer_pool` bounds the memory kept, in megabytes (default 256;
#' `0` keeps none); the oldest buffers are freed first. A buffer is also freed
#' when no result has taken it while gufunc made results it could not hold of four
#' times its size in all (the sizes the code computes have changed), or results of
#' any size of 32 times its size. The kept memory counts in
#' the R process's resident size, not in [gc()]'s figures. `gufunc_buffer_pool(release
#' = TRUE)` frees it now.
#'
#' R's collector does not count such memory itself. So that it collects as often as
#' for base R's vectors, gufunc makes it count each large result until its next
#' collection, and the values of a lazy value for as long as the lazy value lives
#' (a vector of their size that is never written, which takes no memory): they
#' appear in [gc()]'s figures as a base R vector would.
#'
#' @param release `TRUE` to free the kept buffers now.
#' @return A list with `buffers` (how many are kept), `megabytes` (their size) and
#'   `limit_megabytes` (the option's value): invisibly when `release = TRUE`.
#' @export
#' @examples
#' x <- lazy(runif(1e6))
#' y <- materialize(x * 2) # 8 MB: a large result
#' rm(y)
#' invisible(gc())
#' gufunc_buffer_pool() # y's buffer, kept
#' y <- materialize(x * 3) # reuses it
#' gufunc_buffer_pool(release = TRUE)
gufunc_buffer_pool <- function(release = FALSE) {
  check_flag(release, "release")
  v <- .Call(C_result_pool, release)
  out <- list(buffers = as.integer(v[[1]]), megabytes = v[[2]], limit_megabytes = v[[3]])
  if (release) invisible(out) else out
}
