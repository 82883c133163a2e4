# Arrays larger than memory (issue 15): expressions over two .npy files of doubles,
# streamed by gufunc from disk (lazy_file()), against the physical limit, the
# sequential read bandwidth of the same files measured in the same run and the same
# cache state, and against DelayedArray + HDF5Array block processing.
# Measured, each run in a fresh process (reps runs of each, medians):
#   read    dd of both files one after the other, and of both at once (the engine
#           reads with 2 threads); the higher is the reference bandwidth
#   copy    dd of temps.npy into a new file, fsync'ed: the limit for materialize
#   mean    mean((x - 273.15) * 1.8 + 32 - y / 10), x, y = lazy_file(): base R's
#           mean, which gufunc reproduces bit for bit, makes a second pass over the
#           values, so the files are read twice ("GB/s read" counts what the process
#           read: /proc/self/io rchar, plus what gufunc read in place through the
#           mapping; "GB/s" counts each file byte once)
#           (with sum order "fast", one pass)
#   sum     the same expression, one pass: exact order (default) and "fast"
#   materialize  materialize(sqrt(x * x + 1), file = "out.npy") (read + written)
#   DelayedArray mean of the same expression over HDF5Array (same data, hdf5_gb GB
#           per file, uncompressed, chunks of 1e6) against gufunc on .npy files of
#           that size
# in two cache states: warm (the inputs read just before) and cold (page cache
# dropped before each run, dd runs too; needs a writable /proc/sys/vm/drop_caches,
# else skipped). Peak RSS is the child's VmHWM, reset just before the timed call.
# Then checks that the file results are identical() to gufunc on the arrays loaded
# in memory (a slice if memory is short; that evaluation is timed once, the cost of
# the computing alone), and to base R on the first 5e7 values.
# Consecutive values are read in place or with pread(), as gufunc.file_reads says
# (by default the way timed faster on the first file: the report says which).
# Timings are of fresh processes, so common.R's in-process medians_ms() is not used.
# Usage: Rscript inst/benchmarks/out_of_core.R [dir] [gb_per_file] [reps] [hdf5_gb] [keep]
#        (defaults tempdir(), 4, 3, 0.5; "keep" keeps the data files; threads:
#        option gufunc.threads, default all cores)
args <- commandArgs(TRUE)
script <- normalizePath(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)[1]))
rscript <- file.path(R.home("bin"), "Rscript")

# The data: value i of each file, deterministic (temps ~ 280 +- 20, rain ~ 60 +- 50).
gen <- function(which, i) if (which == "temps") sin(i * 1e-3) * 20 + 280 else cos(i * 7e-4) * 50 + 60
piece <- 2^23  # values per piece when writing and comparing in pieces (64 MB)

# The .npy header gufunc writes for n doubles (a vector).
npy_header <- function(n) gufunc:::npy_header("double", NULL, n)

if (length(args) && args[1] == "--child") {
  # One measurement: prints "RESULT seconds peak_MB bytes_read value".
  suppressMessages(library(gufunc))
  kb <- function(field) {
    as.numeric(gsub("[^0-9]", "", grep(paste0("^", field), readLines("/proc/self/status"), value = TRUE)))
  }
  # Bytes read: with read() and pread() (/proc's rchar), and gufunc's reads in place
  # through a file's mapping (counted by the engine).
  rchar <- function() {
    io <- tryCatch(readLines("/proc/self/io"), error = function(e) "rchar: NA")
    mapped <- .Call(gufunc:::C_test_engine_counters, FALSE)[[3]]
    suppressWarnings(as.numeric(sub("rchar: *", "", grep("^rchar", io, value = TRUE)))) + mapped
  }
  timed <- function(f) {
    gc(FALSE)
    try(writeLines("5", "/proc/self/clear_refs"), silent = TRUE)  # VmHWM := VmRSS now
    r0 <- rchar()
    s <- system.time(v <- f())[["elapsed"]]
    cat(sprintf("RESULT %.4f %.1f %.0f %s\n", s, kb("VmHWM") / 1024, rchar() - r0,
                if (is.numeric(v)) sprintf("%a", v) else v))
  }
  case <- args[2]
  a <- args[-(1:2)]
  expr <- function(x, y) (x - 273.15) * 1.8 + 32 - y / 10
  if (case == "make") {
    # Writes the files in pieces (lazy(seq_len(n)) would hold R's compact sequence
    # expanded, 4 bytes per value); reuses files with the right size and values.
    n <- as.numeric(a[1])
    timed(function() paste(vapply(c("temps", "rain"), function(which) {
      path <- a[if (which == "temps") 2 else 3]
      if (file.exists(path) && file.size(path) == length(npy_header(n)) + 8 * n) {
        x <- lazy_file(path)
        ends <- c(materialize(x[1:2]), materialize(x[(n - 1):n]))
        if (identical(ends, gen(which, c(1:2, (n - 1):n)))) return("reused")
      }
      tmp <- paste0(path, ".part")
      con <- file(tmp, "wb")
      writeBin(npy_header(n), con)
      for (from in seq(1, n, by = piece)) writeBin(gen(which, from:min(n, from + piece - 1)), con)
      close(con)
      file.rename(tmp, path)
      "made"
    }, ""), collapse = ","))
  } else if (case == "h5make") {
    # HDF5 copies of two .npy files, uncompressed, chunks of 1e6 values.
    timed(function() {
      for (k in 1:2) {
        x <- lazy_file(a[k])
        n <- length(x)
        h5 <- a[k + 2]
        if (file.exists(h5) && identical(rhdf5::h5ls(h5)$dim, format(n, scientific = FALSE))) next
        unlink(h5)
        rhdf5::h5createFile(h5)
        rhdf5::h5createDataset(h5, "x", dims = n, storage.mode = "double", chunk = min(1e6, n),
                               level = 0, filter = "NONE")
        for (from in seq(1, n, by = piece)) {
          to <- min(n, from + piece - 1)
          rhdf5::h5write(materialize(x[from:to]), h5, "x", start = from, count = to - from + 1)
        }
      }
      "made"
    })
  } else if (case == "readbin") {
    timed(function() {
      con <- file(a[1], "rb")
      while (length(readBin(con, "raw", 4194304))) NULL
      close(con)
      "read"
    })
  } else if (case %in% c("mean", "mean_fast", "sum", "sum_fast")) {
    x <- lazy_file(a[1])
    y <- lazy_file(a[2])
    if (grepl("fast", case)) set_gufunc_sum_order("fast")
    f <- if (grepl("mean", case)) mean else sum
    timed(function() f(expr(x, y)))
  } else if (case == "materialize") {
    x <- lazy_file(a[1])
    timed(function() {
      materialize(sqrt(x * x + 1), file = a[2])
      "written"
    })
  } else if (case == "delayed_mean") {
    suppressMessages(library(HDF5Array))
    X <- HDF5Array(a[1], "x")
    Y <- HDF5Array(a[2], "x")
    timed(function() mean(expr(X, Y)))
  } else if (case == "check_memory") {
    # gufunc on the arrays in memory (the first m values) against the file values;
    # the seconds of the in-memory evaluation (one run): the cost of the computing
    # alone, which bounds the streamed evaluation from the page cache.
    x <- lazy_file(a[1]); y <- lazy_file(a[2]); z <- lazy_file(a[3])
    m <- as.numeric(a[4])
    if (m < length(x)) { x <- x[1:m]; y <- y[1:m]; z <- z[1:m] }
    xm <- lazy(materialize(x)); ym <- lazy(materialize(y))
    show <- function(name, f) {
      s <- system.time(memory <- f(xm, ym))[["elapsed"]]
      cat("CHECK", name, sprintf("%a", f(x, y)), sprintf("%a", memory), s, "\n")
    }
    show("mean", function(x, y) mean(expr(x, y)))
    show("sum", function(x, y) sum(expr(x, y)))
    set_gufunc_sum_order("fast")
    show("mean_fast", function(x, y) mean(expr(x, y)))
    show("sum_fast", function(x, y) sum(expr(x, y)))
    rm(ym); gc(FALSE)
    s <- system.time(om <- materialize(sqrt(xm * xm + 1)))[["elapsed"]]
    same <- all(vapply(seq(1, m, by = piece), function(from) {
      to <- min(m, from + piece - 1)
      identical(materialize(z[from:to]), om[from:to])
    }, TRUE))
    cat("CHECK materialize", same, same, s, "\n")
  } else if (case == "check_slice") {
    # Base R on the first ns values (plain vectors) against gufunc on the file views.
    ns <- as.numeric(a[4])
    x <- lazy_file(a[1])[1:ns]; y <- lazy_file(a[2])[1:ns]; z <- lazy_file(a[3])[1:ns]
    xs <- materialize(x); ys <- materialize(y)
    show <- function(name, f) cat("CHECK", name, sprintf("%a", f(x, y)), sprintf("%a", f(xs, ys)), "NA\n")
    show("mean", function(x, y) mean(expr(x, y)))
    show("sum", function(x, y) sum(expr(x, y)))
    set_gufunc_sum_order("fast")
    show("mean_fast", function(x, y) mean(expr(x, y)))
    show("sum_fast", function(x, y) sum(expr(x, y)))
    same <- identical(materialize(z), sqrt(xs * xs + 1))
    cat("CHECK materialize", same, same, "NA\n")
  }
  quit(save = "no")
}

suppressMessages(library(gufunc))
options(width = 200)
dir <- if (length(args) >= 1) normalizePath(args[1], mustWork = TRUE) else tempdir()
gb <- if (length(args) >= 2) as.numeric(args[2]) else 4
reps <- if (length(args) >= 3) as.integer(args[3]) else 3L
hdf5_gb <- if (length(args) >= 4) as.numeric(args[4]) else 0.5
keep <- length(args) >= 5 && args[5] == "keep"
n <- round(gb * 1e9 / 8)
path <- function(name) file.path(dir, name)
temps <- path("temps.npy"); rain <- path("rain.npy"); out <- path("out.npy"); copy <- path("copy.npy")

# A measurement in a fresh R process: list(s, peak, read, value), or NAs if it failed.
child <- function(...) {
  res <- suppressWarnings(system2(rscript, c(shQuote(script), "--child", ...), stdout = TRUE))
  line <- grep("^RESULT ", res, value = TRUE)
  if (length(line) != 1L) {
    message("child '", paste(..., collapse = " "), "' failed:\n", paste(res, collapse = "\n"))
    return(list(s = NA, peak = NA, read = NA, value = NA))
  }
  f <- strsplit(line, " ")[[1]]
  list(s = as.numeric(f[2]), peak = as.numeric(f[3]), read = as.numeric(f[4]), value = f[5])
}
checks <- function(...) {
  res <- system2(rscript, c(shQuote(script), "--child", ...), stdout = TRUE)
  f <- do.call(rbind, strsplit(trimws(grep("^CHECK ", res, value = TRUE)), " +"))
  if (is.null(f)) stop("check failed:\n", paste(res, collapse = "\n"))
  data.frame(case = f[, 2], file = f[, 3], reference = f[, 4], s = suppressWarnings(as.numeric(f[, 5])))
}

# Readers for the bandwidth reference: dd, else cat, else R's readBin (in a child).
dd <- Sys.which("dd")
reader <- if (nzchar(dd)) {
  function(f) sprintf("%s if=%s of=/dev/null bs=4M 2>/dev/null", dd, shQuote(f))
} else if (nzchar(Sys.which("cat"))) {
  function(f) sprintf("cat %s > /dev/null", shQuote(f))
} else {
  function(f) sprintf("%s %s --child readbin %s > /dev/null", rscript, shQuote(script), shQuote(f))
}
shell_s <- function(cmd) system.time(system(cmd))[["elapsed"]]
drop_caches <- function() {
  system("sync")
  tryCatch({ writeLines("3", "/proc/sys/vm/drop_caches"); TRUE },
           error = function(e) FALSE, warning = function(w) FALSE)
}

cat("Making the data files in", dir, "...\n")
made <- child("make", n, temps, rain)
stopifnot(!is.na(made$s))
cat(sprintf("  %s (%.1f s, peak RSS %.0f MB)\n", made$value, made$s, made$peak))
# How blocks read the files (option gufunc.file_reads; "auto" times both ways on the
# first large file of each process, so each child makes the same measurement).
how <- local({
  invisible(lazy_file(temps))
  .Call(gufunc:::C_test_file_reads, FALSE)
})
cat(sprintf("  files read %s (gufunc.file_reads = \"%s\"; timed per 8 MiB: in place %.2f ms, pread() %.2f ms)\n",
            if (how[[3]] == 1) "in place through the mapping" else "with pread()",
            getOption("gufunc.file_reads", "auto"), 1e3 * how[[1]], 1e3 * how[[2]]))
hdf5 <- requireNamespace("HDF5Array", quietly = TRUE) && requireNamespace("rhdf5", quietly = TRUE)
hn <- round(hdf5_gb * 1e9 / 8)
if (hdf5) {
  small <- if (hn == n) c(temps, rain) else c(path("temps_small.npy"), path("rain_small.npy"))
  h5 <- c(path("temps.h5"), path("rain.h5"))
  if (hn != n) child("make", hn, small[1], small[2])
  h5made <- child("h5make", small, h5)
  cat(sprintf("  HDF5 copies of %.2f GB per file: %.1f s\n", hdf5_gb, h5made$s))
}
fsize <- file.size(temps) + file.size(rain)
bytes_of <- function(files) sum(file.size(files))

# The cases: the files whose cache state matters, and how to run one measurement.
shell_case <- function(cmd, read) function() list(s = shell_s(cmd), peak = NA, read = read, value = NA)
cases <- list(
  dd_seq = list(label = "dd read, one file then the other", files = c(temps, rain), bytes = fsize,
                run = shell_case(paste(reader(temps), ";", reader(rain)), fsize)),
  dd_both = list(label = "dd read, both files at once", files = c(temps, rain), bytes = fsize,
                 run = shell_case(paste(reader(temps), "&", reader(rain), "& wait"), fsize)),
  mean = list(label = "mean(expr)", files = c(temps, rain), bytes = fsize,
              run = function() child("mean", temps, rain)),
  mean_fast = list(label = "mean(expr), fast order (one pass)", files = c(temps, rain), bytes = fsize,
                   run = function() child("mean_fast", temps, rain)),
  sum = list(label = "sum(expr)", files = c(temps, rain), bytes = fsize,
             run = function() child("sum", temps, rain)),
  sum_fast = list(label = "sum(expr), fast order", files = c(temps, rain), bytes = fsize,
                  run = function() child("sum_fast", temps, rain)),
  materialize = list(label = "materialize(sqrt(x*x+1), file)", files = temps,
                     bytes = 2 * file.size(temps), written = file.size(temps),
                     run = function() { unlink(out); child("materialize", temps, out) })
)
if (nzchar(dd)) {
  cases$copy <- list(label = "dd copy of temps.npy, fsync", files = temps,
                     bytes = 2 * file.size(temps), run = function() {
                       unlink(copy)
                       on.exit(unlink(copy))
                       cmd <- sprintf("%s if=%s of=%s bs=4M conv=fsync 2>/dev/null", dd, shQuote(temps), shQuote(copy))
                       list(s = shell_s(cmd), peak = NA, read = 2 * file.size(temps), value = NA)
                     })
}
if (hdf5) {
  cases$delayed <- list(label = sprintf("DelayedArray mean, .h5 %.2g GB/file", hdf5_gb),
                        files = h5, bytes = bytes_of(h5), run = function() child("delayed_mean", h5))
  cases$small <- list(label = sprintf("mean(expr), .npy %.2g GB/file", hdf5_gb),
                      files = small, bytes = bytes_of(small), run = function() child("mean", small))
}

states <- "warm"
if (drop_caches()) states <- c(states, "cold") else cat("Cold cache skipped: /proc/sys/vm/drop_caches is not writable\n")
load <- character()
rows <- list()
for (state in states) {
  load[state] <- paste(strsplit(readLines("/proc/loadavg"), " ")[[1]][1:3], collapse = " ")
  for (rep in seq_len(reps)) {
    for (id in names(cases)[(seq_along(cases) + rep - 2) %% length(cases) + 1]) {
      k <- cases[[id]]
      if (state == "warm") for (f in k$files) system(reader(f)) else drop_caches()
      r <- k$run()
      rows[[length(rows) + 1]] <- data.frame(id = id, state = state, rep = rep, s = r$s,
                                             peak = r$peak, read = r$read, value = r$value)
    }
  }
  load[state] <- paste(load[state], "->", paste(strsplit(readLines("/proc/loadavg"), " ")[[1]][1:3], collapse = " "))
}
runs <- do.call(rbind, rows)

# Correctness: the file results against gufunc on the arrays in memory (all of them
# if the machine has 2 x gb_per_file free and 1 GB to spare, else a slice), and
# against base R on the first 5e7 values.
avail <- as.numeric(gsub("[^0-9]", "", grep("^MemAvailable", readLines("/proc/meminfo"), value = TRUE))) * 1024
m <- if (avail > 2 * 8 * n + 1e9) n else max(1e6, floor((avail - 1e9) / 16 / 1e6) * 1e6)
ns <- min(5e7, n)
if (!file.exists(out)) child("materialize", temps, out)
mem <- checks("check_memory", temps, rain, out, m)
base <- checks("check_slice", temps, rain, out, ns)
value <- function(id) as.numeric(runs$value[runs$id == id][1])
same_runs <- function(id) { v <- runs$value[runs$id == id]; all(v == v[1]) }
verdict <- function(id) {
  if (id %in% c("dd_seq", "dd_both", "copy")) return("")
  if (id == "small") return("")
  if (id == "delayed") return(paste("all.equal:", isTRUE(all.equal(value("delayed"), value("small")))))
  ok <- mem$file[mem$case == id] == mem$reference[mem$case == id]
  if (id != "materialize" && m == n) ok <- ok && runs$value[runs$id == id][1] == mem$file[mem$case == id]
  paste0(ok && same_runs(id), if (m < n) sprintf(" (first %.0f)", m))
}

# The table: medians over the runs, peak RSS the highest of them. The reference
# bandwidth of a cache state is the faster of dd's two medians.
med <- function(id, state) stats::median(runs$s[runs$id == id & runs$state == state])
best_read <- vapply(states, function(state) fsize / min(med("dd_seq", state), med("dd_both", state)), 0)
tab <- do.call(rbind, lapply(split(runs, list(runs$id, runs$state), drop = TRUE), function(r) {
  k <- cases[[r$id[1]]]
  s <- stats::median(r$s)
  rd <- stats::median(r$read) + if (is.null(k$written)) 0 else k$written
  big <- !r$id[1] %in% c("delayed", "small")
  data.frame(case = k$label, cache = r$state[1], s = s, `GB/s` = k$bytes / s / 1e9,
             `GB/s read` = rd / s / 1e9,
             `vs read bw` = if (big) k$bytes / s / best_read[[r$state[1]]] else NA,
             `peak RSS MB` = if (all(is.na(r$peak))) NA else max(r$peak),
             identical = verdict(r$id[1]), check.names = FALSE, order = match(r$id[1], names(cases)))
}))
# The same evaluations on the arrays in memory (the correctness check's, one run).
if (m == n) {
  tab <- rbind(tab, do.call(rbind, lapply(which(mem$case %in% names(cases)), function(i) {
    k <- cases[[mem$case[i]]]
    data.frame(case = k$label, cache = "in memory (1 run)", s = mem$s[i], `GB/s` = k$bytes / mem$s[i] / 1e9,
               `GB/s read` = NA, `vs read bw` = NA, `peak RSS MB` = NA, identical = "",
               check.names = FALSE, order = match(mem$case[i], names(cases)))
  })))
}
tab <- tab[order(match(tab$cache, c("warm", "cold")), tab$order), setdiff(names(tab), "order")]

cpu <- sub(".*: ", "", grep("^model name", readLines("/proc/cpuinfo"), value = TRUE)[1])
cat(sprintf("\n%s; %d cores, gufunc threads %d; %.1f GiB RAM; gufunc %s\n", cpu, parallel::detectCores(),
            get_gufunc_threads(), as.numeric(gsub("[^0-9]", "", grep("^MemTotal", readLines("/proc/meminfo"), value = TRUE))) / 2^20,
            packageVersion("gufunc")))
cat(sprintf("Files: 2 x %.2f GB (%.0f doubles each) in %s; %d runs per case, medians; reader: %s\n",
            fsize / 2e9, n, dir, reps, if (nzchar(dd)) "dd bs=4M" else "cat/readBin"))
for (state in names(load)) cat(sprintf("Load average (1, 5, 15 min) during %s runs: %s\n", state, load[[state]]))
cat("GB/s: bytes of the files involved (read once, + written) / s; GB/s read: bytes the process read\n",
    "(rchar + read in place) + written / s; vs read bw: GB/s / the faster dd read of the same state.\n\n", sep = "")
shown <- tab
for (col in c("GB/s", "GB/s read", "vs read bw")) shown[[col]] <- ifelse(is.na(tab[[col]]), "", sprintf("%.2f", tab[[col]]))
shown$s <- sprintf("%.3g", tab$s)
shown$`peak RSS MB` <- ifelse(is.na(tab$`peak RSS MB`), "", sprintf("%.0f", tab$`peak RSS MB`))
print(shown, row.names = FALSE, right = FALSE)

cat("\nTargets:\n")
for (state in states) {
  t <- function(id) med(id, state)
  cat(sprintf("  %s: read bandwidth %.2f GB/s (one after the other %.2f, both at once %.2f)\n", state,
              best_read[[state]] / 1e9, fsize / t("dd_seq") / 1e9, fsize / t("dd_both") / 1e9))
  for (id in c("mean", "mean_fast", "sum", "sum_fast")) {
    cat(sprintf("    %-10s %.0f %% of read bandwidth (target >= 70 %%); the bytes it read: %.0f %%\n", id,
                100 * fsize / t(id) / best_read[[state]],
                100 * stats::median(runs$read[runs$id == id & runs$state == state]) / t(id) / best_read[[state]]))
  }
  if (!is.null(cases$copy)) cat(sprintf("    materialize takes %.2fx the time of dd's fsync'ed copy\n", t("materialize") / t("copy")))
  if (hdf5) cat(sprintf("    gufunc %.1fx faster than DelayedArray + HDF5Array on %.2f GB per file (target >= 3)\n",
                        t("delayed") / t("small"), hdf5_gb))
}
cat(sprintf("  peak RSS of mean(): %.0f MB (target < 512 MB)\n", max(runs$peak[runs$id == "mean"])))
if ("cold" %in% states && fsize < avail) {
  cat("  Cold mean(): its second pass finds the files in the page cache (they fit in memory)\n")
}
cat("\nSeconds of each run, in the order run:\n")
for (state in states) for (id in names(cases)) {
  cat(sprintf("  %-5s %-35s %s\n", state, cases[[id]]$label,
              paste(sprintf("%.3g", runs$s[runs$id == id & runs$state == state]), collapse = "  ")))
}

cat(sprintf("\nCorrectness, file values against gufunc on the arrays in memory (%s):\n",
            if (m == n) "all values" else sprintf("the first %.0f values: memory is short", m)))
for (i in seq_len(nrow(mem))) cat(sprintf("  %-11s identical: %s\n", mem$case[i], mem$file[i] == mem$reference[i]))
cat(sprintf("Against base R on the first %.0f values (plain vectors):\n", ns))
for (i in seq_len(nrow(base))) {
  same <- base$file[i] == base$reference[i]
  cat(sprintf("  %-11s identical: %s%s\n", base$case[i], same,
              if (!same && grepl("fast", base$case[i])) sprintf(" (relative difference %.2g; fast order is not base R's)",
                abs(as.numeric(base$file[i]) / as.numeric(base$reference[i]) - 1)) else ""))
}
if (hdf5) {
  d <- value("delayed"); g <- value("small")
  cat(sprintf("DelayedArray mean %.17g, gufunc %.17g: all.equal %s (relative difference %.2g); block size %.0f MB (setAutoBlockSize() default), serial\n",
              d, g, isTRUE(all.equal(d, g)), abs(d / g - 1), DelayedArray::getAutoBlockSize() / 1e6))
} else {
  cat("DelayedArray + HDF5Array not installed: that comparison skipped\n")
}

if (!keep) unlink(c(temps, rain, out, copy, if (hdf5) c(h5, if (hn != n) small)))
