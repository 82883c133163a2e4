#' How a lazy value will be evaluated
#'
#' Describes the evaluation `materialize(x)` would run now, without running it:
#' the recorded operations are a batch of instructions, cut into *kernels* by the
#' blockability rule (all instructions of a kernel can run block by block; a kernel
#' ends where an instruction would read or overwrite data the kernel still needs
#' whole). Each kernel runs over blocks of `block_size` elements on `threads`
#' threads, with intermediate values in per-thread block scratch.
#'
#' Inputs are named by the variables that hold them: a variable of the calling
#' function (or of the environments it is defined in, up to the global environment)
#' holding the very same vector, or a lazy value of it; a name written in the call
#' wins. Inputs no variable holds are `x1`, `x2`, ... Constants are shown exactly
#' (as `deparse()` would write them), computed values are `t1`, `t2`, ... in the
#' order they are computed, and the value of `x` is `out`.
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
#' `print()` shows at most `n` instructions (the first and the last ones, with the
#' number left out); `print(p, n = Inf)` shows all. `format(p, "r")` gives the same
#' evaluation as base R code (see [format.gufunc_lazy_plan()]), `plot(p)` draws it
#' (see [plot.gufunc_lazy_plan()]) and `format(p, "dot")` writes it for Graphviz.
#'
#' @param x A lazy value (see [lazy()]); for `print()`, a plan.
#' @param n Largest number of instructions `print()` shows.
#' @param ... Ignored.
#' @return An object of class `"gufunc_lazy_plan"`: a list with `kernels` (each a
#'   list of its `instructions`, the `split_reason` that ended it and `notes` on
#'   gufunc blocks and where fusion stops), `inputs` (named by the inputs' names),
#'   `block_size` (elements), `threads`, `bytes_read`, `bytes_written`,
#'   `base_r_bytes`, `file_bytes_read` (of `bytes_read`, those read from files of
#'   [lazy_file()] values, shown as `from file '...'` among the inputs), the `state` of `x` and `graph`: the same evaluation as
#'   `values` (with their `names`) and the `steps` computing them, kernel by kernel.
#'   Its `print()` method shows them; `print()` returns `x` invisibly.
#' @export
#' @examples
#' a <- lazy(runif(1e6))
#' b <- runif(1e6)
#' lazy_plan(sqrt(a * a + b * b) + 1e-10)
#' p <- lazy_plan(exp(-a * a / 2))
#' length(p$kernels)
#' p$bytes_read
#' print(lazy_plan(Reduce(`+`, lapply(1:40, function(i) a * i))), n = 8)
lazy_plan <- function(x) {
  if (!.Call(C_lazy_is_vector, x) && !is_lazy(x)) {
    abort_argument("x", sprintf("must be a lazy value (see lazy()), not %s", describe(x)),
                   class = "gufunc_type_error")
  }
  plan <- .Call(C_lazy_plan_data, x)
  graph <- plan$graph
  inputs <- plan_input_names(graph$inputs, all.names(substitute(x)), parent.frame())
  graph$inputs$name <- inputs$name
  graph$inputs$base <- inputs$base
  graph$values$name <- plan_value_names(graph, inputs$name)
  # Views of values computed first for several views read those values.
  shared <- !is.na(graph$inputs$source)
  graph$inputs$base[shared] <- graph$values$name[graph$inputs$source[shared]]
  graph$steps$text <- plan_step_text(graph$steps, graph$values, graph$values$name)
  graph$attributes <- plain_attributes(x)
  plan$graph <- graph
  names(plan$inputs) <- inputs$name
  plan$kernels <- lapply(seq_along(plan$kernels), function(k) {
    kernel <- plan$kernels[[k]]
    list(instructions = graph$steps$text[graph$steps$kernel == k], split_reason = kernel[[2L]],
         notes = kernel[[3L]])
  })
  structure(plan, class = "gufunc_lazy_plan")
}

# The attributes materialize(x) gives its value (no computation).
plain_attributes <- function(x) {
  attrs <- attributes(x)
  attrs$class <- setdiff(attrs$class, "gufunc_lazy")
  if (length(attrs$class) == 0L) attrs$class <- NULL
  if (length(attrs) == 0L) NULL else attrs
}

#' @rdname lazy_plan
#' @export
print.gufunc_lazy_plan <- function(x, n = 30, ...) {
  cat(format(x, "text", n = n), sep = "\n")
  invisible(x)
}

# The plan as print() shows it, at most n instructions.
format_plan_text <- function(x, n) {
  if (!is.numeric(n) || length(n) != 1L || is.na(n) || n < 1) {
    abort_argument("n", sprintf("must be a number of instructions (1 or more, or Inf), not %s",
                                describe(n)), call = sys.call(-2L))
  }
  nk <- length(x$kernels)
  lines <- c(
    sprintf("<gufunc_lazy_plan> %s", x$state),
    sprintf("%d kernel%s, blocks of %s elements, %d thread%s", nk, plural(nk),
            format(x$block_size, big.mark = ",", scientific = FALSE), x$threads,
            plural(x$threads)),
    "inputs:",
    sprintf("  %s: %s%s", names(x$inputs), x$inputs,
            ifelse(is.na(x$graph$inputs$base), "", sprintf(" of %s", x$graph$inputs$base))))
  counts <- vapply(x$kernels, function(k) length(k$instructions), 0L)
  shown <- shown_instructions(sum(counts), n)
  first <- cumsum(c(0L, counts))
  for (k in seq_len(nk)) {
    kernel <- x$kernels[[k]]
    index <- first[k] + seq_len(counts[k])
    if (!any(index %in% shown)) next
    lines <- c(lines, sprintf("kernel %d (%d instruction%s):", k, counts[k], plural(counts[k])))
    for (i in seq_along(index)) {
      if (index[i] %in% shown) {
        lines <- c(lines, paste0("  ", kernel$instructions[i]))
      } else if (index[i] == max(shown[shown < index[i]], 0L) + 1L) {
        hidden <- sum(!seq_len(sum(counts)) %in% shown)
        lines <- c(lines, sprintf("  %s %d more instruction%s (print(x, n = Inf) shows all)",
                                  ellipsis(), hidden, plural(hidden)))
      }
    }
    lines <- c(lines, sprintf("  -- %s", kernel$notes))
    if (nzchar(kernel$split_reason)) lines <- c(lines, paste0("  -- split: ", kernel$split_reason))
  }
  c(lines, sprintf("memory traffic: reads %s%s, writes %s (base R would move %s)",
                   format_bytes(x$bytes_read),
                   if (x$file_bytes_read > 0) sprintf(" (%s of it from files)",
                                                      format_bytes(x$file_bytes_read)) else "",
                   format_bytes(x$bytes_written), format_bytes(x$base_r_bytes)))
}

# Which of `total` instructions a print of at most n shows: the first two thirds
# and the last third of n.
shown_instructions <- function(total, n) {
  if (total <= n) return(seq_len(total))
  head <- ceiling(n * 2 / 3)
  c(seq_len(head), seq.int(total - (n - head) + 1L, length.out = n - head))
}

plural <- function(n) ifelse(n == 1, "", "s")

ellipsis <- function() if (isTRUE(l10n_info()$`UTF-8`)) "\u2026" else "..."

format_bytes <- function(bytes) {
  units <- c("B", "kB", "MB", "GB", "TB")
  i <- if (bytes < 1) 1L else min(length(units), floor(log(bytes, 1000)) + 1L)
  sprintf("%s %s", format(signif(bytes / 1000^(i - 1L), 3L), scientific = FALSE), units[i])
}
