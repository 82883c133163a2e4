# options(gufunc.verbose = TRUE): a message whenever a deferred value is computed
# whole for code that is not the engine's (a fallback to base R, or base R code
# reading its data), saying what and why:
#   gufunc: materializing double[100,000,000] (800 MB) for anyNA()
# Messages have class "gufunc_verbose_message" (suppressMessages() silences them).

verbose <- function() isTRUE(getOption("gufunc.verbose"))

# Says that deferred x is about to be computed whole for `why`, when verbose.
note_materializing <- function(x, why) {
  if (!verbose() || !.Call(C_lazy_is_vector, x) || is_materialized(x)) return(invisible())
  bytes <- length(x) * switch(typeof(x), double = 8, 4)
  file <- .Call(C_lazy_file_reference, x)
  from <- if (is.null(file)) "" else sprintf(" from file '%s' into memory", file$path)
  text <- sprintf("gufunc: materializing %s (%s)%s for %s", value_extent(x), format_bytes(bytes),
                  from, why)
  message(structure(class = c("gufunc_verbose_message", "message", "condition"),
                    list(message = paste0(text, "\n"), call = NULL)))
}

# Called from C when base R's code asks for the data of a deferred value: names
# the innermost R function running, if any.
note_data_pointer <- function(x) {
  calls <- sys.calls()
  calls <- calls[-length(calls)]  # this function
  why <- if (length(calls)) {
    sprintf("base R code (in %s)", deparse1(calls[[length(calls)]][[1L]]))
  } else {
    "base R code"
  }
  note_materializing(x, why)
}

# "double[100,000,000]", "logical[1000 x 3]"; `count` formats a vector's length.
value_extent <- function(x, count = format_count) {
  extent <- if (is.null(dim(x))) count(length(x)) else paste(dim(x), collapse = " x ")
  sprintf("%s[%s]", typeof(x), extent)
}

plain_count <- function(n) format(n, scientific = FALSE)
