# Progress of long evaluations. Between rounds (see src/dispatch/rounds.hpp) the
# engine reports how many items of its current pass are done; once an evaluation
# has run for half a second (option `gufunc.progress_after`), each report reaches
# progress_update() (on the main thread), which drives a cli progress bar, shown by
# cli's own rule: only when the bar has existed for `cli.progress_show_after`
# seconds (default 2), so short work shows nothing. Option `gufunc.progress`: TRUE,
# FALSE, or a function(done, total) that receives the reports instead (for a Shiny
# app, say); the default (NULL) is TRUE in interactive sessions and FALSE otherwise.
# Without cli, TRUE shows nothing.

# Whether evaluations report progress to R: read in C++ when an evaluation starts.
progress_wanted <- function() {
  opt <- getOption("gufunc.progress")
  if (is.null(opt)) opt <- interactive()
  if (is.function(opt)) return(TRUE)
  if (!isTRUE(opt) && !isFALSE(opt)) {
    stop(errorCondition(
      sprintf("option `gufunc.progress` must be TRUE, FALSE, NULL or a function, not %s",
              describe_value(opt)),
      class = c("gufunc_argument_error", "gufunc_error"), call = user_call()))
  }
  isTRUE(opt) && requireNamespace("cli", quietly = TRUE)
}

# The bar of the evaluation running now: its cli id and the frame it belongs to
# (cli closes a bar when that frame exits).
progress_bar <- new.env(parent = emptyenv())

# `done` of `total` items of the current pass are finished.
progress_update <- function(done, total) {
  opt <- getOption("gufunc.progress")
  if (is.function(opt)) return(invisible(opt(done, total)))
  frame <- entry_frame(sys.nframe() - 1L)
  env <- if (frame > 0L) sys.frame(frame) else globalenv()
  if (!identical(progress_bar$env, env) || is.null(progress_bar$id)) {
    progress_bar$env <- env
    progress_bar$id <- cli::cli_progress_bar("gufunc", total = total, .envir = env)
  }
  cli::cli_progress_update(set = done, total = total, id = progress_bar$id, .envir = env)
  if (done >= total) {
    cli::cli_progress_done(id = progress_bar$id, .envir = env)
    progress_bar$id <- NULL
  }
  invisible()
}
