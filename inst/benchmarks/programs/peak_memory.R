# Peak resident memory of each program (programs/*.R) on plain inputs and on lazy()
# inputs, each in a fresh R process (/proc/self/status VmHWM, Linux only): the
# process's peak, and its growth over the peak before the program ran (R, gufunc
# and the inputs). gufunc's buffer pool (?gufunc_buffer_pool) counts: freed large
# results it keeps are resident.
#
# A peak depends on when R's collector runs, and that moves with anything allocated
# before: shallow_water's lazy peak at scale 2 was 241 MB, and 252 MB after 2000
# small lists made and dropped first. So with `processes` > 1 each mode runs in that
# many processes, process k first making and dropping k * 1000 small lists, and the
# table gives the median and the range of their peaks.
# Usage: Rscript inst/benchmarks/programs/peak_memory.R [scale] [processes] [program ...]
#        (defaults 1, 1, every program)
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
  # Heap state: garbage of `shift` small lists, so the collector's schedule moves.
  shift <- if (length(args) >= 5) as.integer(args[5]) else 0L
  if (shift > 0L) {
    junk <- lapply(seq_len(shift), function(i) c(i, i))
    rm(junk)
  }
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
numeric_arg <- length(args) >= 2 && grepl("^[0-9]+$", args[2])
processes <- if (numeric_arg) as.integer(args[2]) else 1L
files <- setdiff(list.files(dir, pattern = "\\.R$"), c("run.R", "peak_memory.R", "cold.R"))
names <- sub("\\.R$", "", files)
chosen <- args[-seq_len(if (numeric_arg) 2L else 1L)]
if (length(chosen) > 0) names <- intersect(names, chosen)
rscript <- file.path(R.home("bin"), "Rscript")
peaks <- function(name, mode) {
  vapply(seq_len(processes) - 1L, function(k) {
    out <- system2(rscript, c(script, "--child", name, mode, scale, k * 1000L), stdout = TRUE)
    as.numeric(strsplit(trimws(out[length(out)]), " +")[[1]])
  }, numeric(2))
}
shown <- function(v) {
  if (length(v) == 1L) return(sprintf("%.0f", v))
  sprintf("%.0f (%.0f-%.0f)", stats::median(v), min(v), max(v))
}
rows <- lapply(names, function(name) {
  base <- peaks(name, "base")
  lazy <- peaks(name, "lazy")
  data.frame(program = name, base_peak_mb = shown(base[1, ]), gufunc_peak_mb = shown(lazy[1, ]),
             base_growth_mb = shown(base[2, ]), gufunc_growth_mb = shown(lazy[2, ]))
})
cat(sprintf("peak resident memory, scale %s, fresh processes%s\n", scale,
            if (processes > 1) sprintf(" (median and range of %d each)", processes) else ""))
print(do.call(rbind, rows), row.names = FALSE, width = 200)
