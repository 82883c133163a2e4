# The whole programs of run.R, each in fresh R processes: what a script that runs one
# of them meets, where run.R times every program in one process after the ones
# before it have warmed up R's heap and the C library's. Each process sets the
# program up once, then times base R and gufunc `reps` times each from the first
# call on, in blocks (one side's calls, then the other's); which side goes first
# alternates between processes, since on virtual machines the first side pays for
# most of the process's fresh pages. The driver prints, per program, the speedup of
# each process's medians and of its first calls (base R's first against gufunc's
# first), and whether every result was identical() to base R's.
# Usage: Rscript inst/benchmarks/programs/cold.R [scale] [processes] [reps] [program ...]
#        (defaults 1, 2, 3, every program)
args <- commandArgs(TRUE)
script <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)[1])
dir <- dirname(script)

if (length(args) >= 1 && args[1] == "--child") {
  # One program in this process: prints "base_first gufunc_first base_median
  # gufunc_median identical".
  name <- args[2]
  scale <- as.numeric(args[3])
  reps <- as.integer(args[4])
  gufunc_first <- args[5] == "TRUE"
  suppressMessages(library(gufunc))
  env <- new.env()
  sys.source(file.path(dir, paste0(name, ".R")), envir = env)
  program <- get(name, envir = env)
  # Byte-compiled, as R's JIT compiles a function a script defines at top level
  # before its first call (peak_memory.R does the same).
  run <- compiler::cmpfun(program$run)
  inputs <- program$setup(scale)
  lazy_inputs <- lapply(inputs, function(v) if (is.numeric(v) || is.logical(v)) lazy(v) else v)
  plain_result <- function(x) if (is.list(x)) lapply(x, plain_result) else materialize(x)
  calls <- list(base = function() do.call(run, inputs),
                gufunc = function() plain_result(do.call(run, lazy_inputs)))
  results <- times <- list()
  for (side in if (gufunc_first) c("gufunc", "base") else c("base", "gufunc")) {
    times[[side]] <- numeric(reps)
    for (r in seq_len(reps)) {
      times[[side]][r] <- system.time(out <- calls[[side]]())[["elapsed"]]
      if (r == 1L) results[[side]] <- out
      rm(out)
    }
  }
  same <- identical(results$gufunc, results$base)
  cat(times$base[1], times$gufunc[1], stats::median(times$base), stats::median(times$gufunc),
      same, "\n")
  quit(save = "no")
}

scale <- if (length(args) >= 1) args[1] else "1"
processes <- if (length(args) >= 2) as.integer(args[2]) else 2L
reps <- if (length(args) >= 3) args[3] else "3"
files <- setdiff(list.files(dir, pattern = "\\.R$"), c("run.R", "peak_memory.R", "cold.R"))
names <- sub("\\.R$", "", files)
if (length(args) >= 4) names <- intersect(names, args[-(1:3)])
rscript <- file.path(R.home("bin"), "Rscript")
rows <- lapply(names, function(name) {
  per_process <- vapply(seq_len(processes), function(p) {
    gufunc_first <- p %% 2 == 0
    out <- system2(rscript, c(script, "--child", name, scale, reps, gufunc_first), stdout = TRUE)
    fields <- strsplit(trimws(out[length(out)]), " +")[[1]]
    c(as.numeric(fields[1:4]), identical = as.numeric(as.logical(fields[5])))
  }, numeric(5))
  data.frame(
    program = name,
    base_s = stats::median(per_process[3, ]), gufunc_s = stats::median(per_process[4, ]),
    speedups = paste(sprintf("%.2f", per_process[3, ] / per_process[4, ]), collapse = ", "),
    first_calls = paste(sprintf("%.2f", per_process[1, ] / per_process[2, ]), collapse = ", "),
    identical = all(per_process[5, ] == 1)
  )
})
res <- do.call(rbind, rows)
cat(sprintf(paste("benchpress programs in fresh processes: scale %s, %d processes each",
                  "(base R first in odd ones), medians of %s runs in blocks\n"),
            scale, processes, reps))
print(res, row.names = FALSE, right = FALSE)
worst <- apply(do.call(rbind, lapply(strsplit(res$speedups, ", "), as.numeric)), 1, min)
cat(sprintf("geometric mean of the worst process's speedup %.2f; below 1.5x: %s\n",
            exp(mean(log(worst))), paste(res$program[worst < 1.5], collapse = ", ")))
