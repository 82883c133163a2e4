# Whole array programs (R translations of Bohrium's benchpress programs, one file
# each beside this script), each run on plain inputs (base R) and on the same inputs
# wrapped in lazy() (gufunc) with nothing else changed, in turns, in one process.
# Prints seconds (medians), the speedup, whether the results are identical(), and
# the calls that handed lazy values to base R in one gufunc run (lazy_fallbacks()).
# Usage: Rscript inst/benchmarks/programs/run.R [scale] [reps] [program ...]
#        (defaults 1, 3, every program; scale multiplies the data size)
args <- commandArgs(TRUE)
scale <- if (length(args) >= 1) as.numeric(args[1]) else 1
reps <- if (length(args) >= 2) as.integer(args[2]) else 3L
wanted <- if (length(args) >= 3) args[-(1:2)] else NULL
script <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)[1])
dir <- dirname(script)
suppressMessages(library(gufunc))

files <- setdiff(list.files(dir, pattern = "\\.R$"), c("run.R", "peak_memory.R", "cold.R"))
names(files) <- sub("\\.R$", "", files)
if (!is.null(wanted)) files <- files[names(files) %in% wanted]

as_lazy <- function(v) if (is.numeric(v) || is.logical(v)) lazy(v) else v
plain_result <- function(x) if (is.list(x)) lapply(x, plain_result) else materialize(x)

rows <- list()
for (name in names(files)) {
  env <- new.env()
  sys.source(file.path(dir, files[[name]]), envir = env)
  program <- get(name, envir = env)
  inputs <- program$setup(scale)
  lazy_inputs <- lapply(inputs, as_lazy)
  base_result <- do.call(program$run, inputs)
  invisible(lazy_fallbacks(reset = TRUE))
  gufunc_result <- plain_result(do.call(program$run, lazy_inputs))
  fell_back <- lazy_fallbacks(reset = TRUE)
  same <- identical(gufunc_result, base_result)
  times <- matrix(NA_real_, reps, 2)
  for (r in seq_len(reps)) {
    gc(FALSE)
    times[r, 1] <- system.time(do.call(program$run, inputs))[["elapsed"]]
    gc(FALSE)
    times[r, 2] <- system.time(plain_result(do.call(program$run, lazy_inputs)))[["elapsed"]]
  }
  top <- utils::head(fell_back, 4)
  rows[[name]] <- data.frame(
    program = name, base_s = stats::median(times[, 1]), gufunc_s = stats::median(times[, 2]),
    speedup = stats::median(times[, 1]) / stats::median(times[, 2]), identical = same,
    fallbacks = sum(fell_back),
    most = if (length(top)) paste0(names(top), " x", top, collapse = ", ") else ""
  )
}
res <- do.call(rbind, rows)
cat(sprintf("benchpress programs: scale %g, %d threads, medians of %d runs in turns\n",
            scale, get_gufunc_threads(), reps))
print(format(res, digits = 3), row.names = FALSE, right = FALSE)
cat(sprintf("geometric mean speedup %.2f; identical %d of %d; below 1.5x: %s\n",
            exp(mean(log(res$speedup))), sum(res$identical), nrow(res),
            paste(res$program[res$speedup < 1.5], collapse = ", ")))
