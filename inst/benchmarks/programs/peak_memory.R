# Peak resident memory of each program (programs/*.R) on plain inputs and on lazy()
# inputs, each in a fresh R process (/proc/self/status VmHWM, Linux only): the
# process's peak, and its growth over the peak before the program ran (R, gufunc
# and the inputs). gufunc's buffer pool (?gufunc_buffer_pool) counts: freed large
# results it keeps are resident.
# Usage: Rscript inst/benchmarks/programs/peak_memory.R [scale] [program ...]
args <- commandArgs(TRUE)
script <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)[1])
dir <- dirname(script)
peak_kb <- function() {
  line <- grep("^VmHWM", readLines("/proc/self/status"), value = TRUE)
  as.numeric(gsub("[^0-9]", "", line))
}

if (length(args) >= 1 && args[1] == "--child") {
  # One program, one mode: prints "peak growth" in MB.
  name <- args[2]
  suppressMessages(library(gufunc))
  env <- new.env()
  sys.source(file.path(dir, paste0(name, ".R")), envir = env)
  program <- get(name, envir = env)
  # Byte-compiled, as R's JIT compiles a function that a script defines at top level
  # before its first call (and run.R's timed runs, from a closure's second call on).
  # A function sourced into an environment runs interpreted at its first call, whose
  # many small allocations age dead versions of lazy arrays into generations that only
  # R's full collections free (point27 peaked at 198 MB interpreted, 152 compiled).
  program$run <- compiler::cmpfun(program$run)
  inputs <- program$setup(as.numeric(args[4]))
  if (args[3] == "lazy") inputs <- lapply(inputs, function(v) if (is.numeric(v)) lazy(v) else v)
  before <- peak_kb()
  result <- do.call(program$run, inputs)
  result <- if (is.list(result)) lapply(result, materialize) else materialize(result)
  after <- peak_kb()
  cat(round(after / 1024), round((after - before) / 1024), "\n")
  quit(save = "no")
}

if (!file.exists("/proc/self/status")) stop("peak_memory.R reads /proc/self/status (Linux)")
scale <- if (length(args) >= 1) args[1] else "1"
files <- setdiff(list.files(dir, pattern = "\\.R$"), c("run.R", "peak_memory.R", "cold.R"))
names <- sub("\\.R$", "", files)
if (length(args) >= 2) names <- intersect(names, args[-1])
rscript <- file.path(R.home("bin"), "Rscript")
rows <- lapply(names, function(name) {
  mb <- vapply(c("base", "lazy"), function(mode) {
    out <- system2(rscript, c(script, "--child", name, mode, scale), stdout = TRUE)
    as.numeric(strsplit(trimws(out[length(out)]), " +")[[1]])
  }, numeric(2))
  data.frame(program = name, base_peak_mb = mb[1, 1], gufunc_peak_mb = mb[1, 2],
             base_growth_mb = mb[2, 1], gufunc_growth_mb = mb[2, 2])
})
cat(sprintf("peak resident memory, scale %s, fresh processes\n", scale))
print(do.call(rbind, rows), row.names = FALSE, width = 200)
