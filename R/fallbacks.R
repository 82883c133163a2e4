# Counts of the calls that handed lazy values to base R (the fallback), by function:
# what a program did that the engine does not fuse.
fallback_log <- new.env(parent = emptyenv())

# Counts a fallback to `what`; `values` are the values it computes whole (said in
# verbose mode).
note_fallback <- function(what, values = list()) {
  count <- fallback_log[[what]]
  fallback_log[[what]] <- if (is.null(count)) 1L else count + 1L
  for (x in values) note_materializing(x, fallback_reason(what))
}

# materialize(x) for base R's function `what`, counted.
fallback_values <- function(x, what) {
  note_fallback(what, list(x))
  materialize(x)
}

# "anyNA()", "`[<-`".
fallback_reason <- function(what) {
  if (grepl("^[A-Za-z.][A-Za-z0-9._]*$", what)) paste0(what, "()") else paste0("`", what, "`")
}

# The values of x (attributes but the lazy class) in a new plain vector that base
# R's subassignment `what` changes in place, counted. A deferred x is computed
# straight into it (one pass into one new vector), not cached in x and then copied.
fallback_copy <- function(x, what) {
  note_fallback(what, list(x))
  y <- if (.Call(C_lazy_is_vector, x)) .Call(C_lazy_changeable_copy, x)
  if (is.null(y)) return(.Call(C_plain_copy, materialize(x)))  # values at hand
  if (is.list(y)) {
    raise_warnings(y[[2L]], sys.call(-1L))
    y <- .Call(C_plain_copy, y[[1L]])
  }
  y
}

#' Which calls handed lazy values to base R
#'
#' Counts, since the session started or the last reset, the calls that gave lazy
#' values to base R instead of the engine (see [lazy()]): functions gufunc hands to
#' base R on the plain values (`cumsum()`, `[<-` of irregular positions,
#' ...), group generics the engine does not know (for example `round`),
#' and `"data pointer"`: deferred values that base R's own code read, so that they
#' were computed whole for it. A program that fuses shows few; large counts show
#' where it leaves the engine.
#'
#' @param reset `TRUE` to set the counts to zero after reading them.
#' @return A named integer vector, largest count first (empty when nothing fell back).
#' @export
#' @examples
#' lazy_fallbacks(reset = TRUE)
#' x <- lazy(runif(1e5))
#' y <- median(x * 2) # base R computes the deferred product whole
#' z <- is.na(x)
#' lazy_fallbacks()
lazy_fallbacks <- function(reset = FALSE) {
  if (!is.logical(reset) || length(reset) != 1L || is.na(reset)) {
    stop(errorCondition("`reset` must be TRUE or FALSE", class = "gufunc_argument_error",
                        call = sys.call()))
  }
  counts <- unlist(as.list(fallback_log), use.names = TRUE)
  reads <- .Call(C_lazy_data_pointer_evaluations, reset)
  counts <- c(counts, "data pointer" = if (reads > 0) as.integer(reads))
  if (reset) rm(list = ls(fallback_log, all.names = TRUE), envir = fallback_log)
  if (is.null(counts)) return(structure(integer(0), names = character(0)))
  sort(counts, decreasing = TRUE)
}
