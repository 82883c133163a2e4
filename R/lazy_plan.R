#' How a lazy value will be evaluated
#'
#' Describes the evaluation `materialize(x)` would run now, without running it:
#' the recorded operations are a batch of instructions, cut into *kernels* by the
#' blockability rule (all instructions of a kernel can run block by block; a kernel
#' ends where an instruction would read or overwrite data the kernel still needs
#' whole). Each kernel runs over blocks of `block_size` elements on `threads`
#' threads, with intermediate values in per-thread block scratch.
#'
#' A gufunc with core dimensions (see [gufunc_call()]) runs over blocks of its loop
#' iterations: the element-wise producers of its operands are computed per block in
#' the same kernel. Its instruction shows the function, its signature, the sizes of
#' the core dimensions and the number of loop iterations. Fusion stops at a gufunc's
#' output (its consumers read it whole, in a later kernel) and at an operand whose
#' loop dimensions broadcast (it is computed whole first); the kernel's notes say so.
#'
#' The bytes read and written by the fused evaluation are shown next to what base R
#' would move for the same expression, which allocates and writes a full-length
#' temporary for every operation and reads it back in the next.
#'
#' @param x A lazy value (see [lazy()]).
#' @return An object of class `"gufunc_lazy_plan"`: a list with `kernels` (each a
#'   list of its `instructions`, the `split_reason` that ended it and `notes` on
#'   gufunc blocks and where fusion stops), `inputs`,
#'   `block_size` (elements), `threads`, `bytes_read`, `bytes_written`,
#'   `base_r_bytes` and the `state` of `x`. Its `print()` method shows them.
#' @export
#' @examples
#' a <- lazy(runif(1e6))
#' b <- runif(1e6)
#' lazy_plan(sqrt(a * a + b * b) + 1)
#' p <- lazy_plan(exp(-a * a / 2))
#' length(p$kernels)
#' p$bytes_read
lazy_plan <- function(x) {
  if (!.Call(C_lazy_is_vector, x) && !is_lazy(x)) {
    abort_argument("x", sprintf("must be a lazy value (see lazy()), not %s", describe(x)),
                   class = "gufunc_type_error")
  }
  plan <- .Call(C_lazy_plan_data, x)
  plan$kernels <- lapply(plan$kernels, function(k) {
    list(instructions = k[[1L]], split_reason = k[[2L]], notes = k[[3L]])
  })
  structure(plan, class = "gufunc_lazy_plan")
}

#' @export
print.gufunc_lazy_plan <- function(x, ...) {
  nk <- length(x$kernels)
  cat(sprintf("<gufunc_lazy_plan> %s\n", x$state))
  cat(sprintf("%d kernel%s, blocks of %s elements, %d thread%s\n", nk, if (nk == 1L) "" else "s",
              format(x$block_size, big.mark = ",", scientific = FALSE), x$threads,
              if (x$threads == 1L) "" else "s"))
  cat("inputs:\n")
  for (input in x$inputs) cat("  ", input, "\n", sep = "")
  for (k in seq_len(nk)) {
    kernel <- x$kernels[[k]]
    cat(sprintf("kernel %d (%d instruction%s):\n", k, length(kernel$instructions),
                if (length(kernel$instructions) == 1L) "" else "s"))
    for (ins in kernel$instructions) cat("  ", ins, "\n", sep = "")
    for (note in kernel$notes) cat("  -- ", note, "\n", sep = "")
    if (nzchar(kernel$split_reason)) cat("  -- split: ", kernel$split_reason, "\n", sep = "")
  }
  cat(sprintf("memory traffic: reads %s, writes %s (base R would move %s)\n",
              format_bytes(x$bytes_read), format_bytes(x$bytes_written),
              format_bytes(x$base_r_bytes)))
  invisible(x)
}

format_bytes <- function(bytes) {
  units <- c("B", "kB", "MB", "GB", "TB")
  i <- if (bytes < 1) 1L else min(length(units), floor(log(bytes, 1000)) + 1L)
  sprintf("%s %s", format(signif(bytes / 1000^(i - 1L), 3L), scientific = FALSE), units[i])
}
