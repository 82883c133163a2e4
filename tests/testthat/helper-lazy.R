# Helpers of the lazy tests (test-lazy-*.R).

# The lazy tests use inputs of a few thousand elements: operations on them are
# deferred from 1000 elements on. (The default threshold, 65536, is a speed choice;
# test-lazy-fallback.R checks it.)
options(gufunc.lazy_min_length = 1000)

# Evaluates `code` with options set, restoring them afterwards.
with_options <- function(opts, code) {
  old <- options(opts)
  tryCatch(code, finally = options(old))
}

# Runs `code` once for each thread count and block size the engine must agree on:
# 1 and 2 threads, blocks of 1, 7 and the automatic size. Operations on inputs of
# any length are deferred (no eager path for small inputs).
for_engine_settings <- function(code) {
  code <- substitute(code)
  env <- parent.frame()
  for (threads in 1:2) {
    for (block in list(1L, 7L, NULL)) {
      with_options(
        list(gufunc.threads = threads, gufunc.block_size = block, gufunc.lazy_min_length = 0),
        eval(code, env)
      )
    }
  }
}

is_materialized <- function(x) gufunc:::is_materialized(x)

# Value and distinct warning messages (sorted: the engine raises each once, after
# computing, not in the order of the operations), or the error message.
base_outcome <- function(expr) {
  outcome <- tryCatch(capture_warnings(expr), error = function(e) list(error = conditionMessage(e)))
  if (length(outcome$warnings) > 1L) outcome$warnings <- sort(outcome$warnings)
  outcome
}

# The same for a lazy expression, materialized.
lazy_outcome <- function(expr) base_outcome(materialize(expr))

# The Rscript of this R installation, for child processes.
rscript <- function() file.path(R.home("bin"), "Rscript")

# A child R process needs the libraries of this session (gufunc may be in a check
# library); returns the value for R_LIBS.
session_libs <- function() paste(.libPaths(), collapse = .Platform$path.sep)

# c(gufunc loop iterations run, largest full-length engine buffer in bytes) since the
# last call, which resets both.
engine_counters <- function() .Call(gufunc:::C_test_engine_counters, TRUE)

# c(subassignments written in place, bytes of values copied for their readers first)
# since the last call, which resets both (src/r/lazy_assign.cpp).
in_place_counters <- function() .Call(gufunc:::C_test_in_place_counters, TRUE)
