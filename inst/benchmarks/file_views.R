# Views of file-backed values that read across the file (t(x), x[i:j, ], rev(x),
# rep()), reductions over a scan or a gufunc of a file, and matmul() of a file (a
# square one by a vector; t(w) %*% w of a tall one): the peak resident memory each
# one adds, against the size of the file, and its time. Each case runs in a
# fresh R process (peak: VmHWM, reset just before the call), `reps` times, medians.
# Usage: Rscript inst/benchmarks/file_views.R [dir] [side] [reps]
#   (defaults tempdir(), 10000: a side x side matrix of doubles, 800 MB; 3)
suppressMessages(library(gufunc))
args <- commandArgs(TRUE)
dir <- if (length(args) >= 1) args[1] else tempdir()
side <- if (length(args) >= 2) as.integer(args[2]) else 10000L
reps <- if (length(args) >= 3) as.integer(args[3]) else 3L
stopifnot(file.exists("/proc/self/status"))

m_file <- file.path(dir, sprintf("views_m_%d.npy", side))
x_file <- file.path(dir, sprintf("views_x_%d.npy", side))
g_file <- file.path(dir, sprintf("views_g_%d.npy", side))
w_file <- file.path(dir, sprintf("views_w_%d.npy", side))
n <- as.double(side) * side
if (!file.exists(m_file)) {
  invisible(materialize(array(cos(lazy(seq_len(n)) * 1e-3), c(side, side)), file = m_file))
}
if (!file.exists(x_file)) {
  invisible(materialize(sin(lazy(seq_len(n)) * 1e-3) * 20 + 280, file = x_file))
}
if (!file.exists(g_file)) {  # 3 x 3 matrices for gu_det()
  g <- array(cos(lazy(seq_len(9 * floor(n / 9))) * 1e-3), c(3, 3, floor(n / 9)))
  invisible(materialize(g, file = g_file))
}
if (!file.exists(w_file)) {  # tall: n / 8 rows, 8 columns
  invisible(materialize(array(sin(lazy(seq_len(8 * floor(n / 8))) * 7e-4), c(floor(n / 8), 8)),
                        file = w_file))
}

cases <- c(
  "sum(t(m) * 2)", "sum(m[2:100, ])", "sum(m[-1, ] * 2)", "sum(m[5, ])",
  "sum(rev(x))", "sum(rep(x[1:(length(x) / 4)], each = 3))",
  "sum(rowSums(t(m)))", "sum(cumsum(x))", "mean(cumsum(x) * 2)", "sum(gu_det(g))",
  "sum(matmul(m, v))", "sum(matmul(t(w), w))",
  sprintf("materialize(t(m), file = '%s')", file.path(dir, "views_out.npy"))
)

child <- function(expr) {
  script <- tempfile(fileext = ".R")
  on.exit(unlink(script))
  writeLines(c(
    "suppressMessages(library(gufunc))",
    sprintf("m <- lazy_file('%s'); x <- lazy_file('%s'); g <- lazy_file('%s')",
            m_file, x_file, g_file),
    sprintf("w <- lazy_file('%s')", w_file),
    sprintf("v <- cos(seq_len(%d))", side),
    "hwm <- function() as.numeric(gsub('[^0-9]', '',",
    "  grep('^VmHWM', readLines('/proc/self/status'), value = TRUE))) / 1024",
    "invisible(gc()); cat('5', file = '/proc/self/clear_refs'); before <- hwm()",
    sprintf("s <- system.time(r <- %s)[['elapsed']]", expr),
    "cat(s, hwm() - before, '\\n')"
  ), script)
  out <- system2(file.path(R.home("bin"), "Rscript"), c("--vanilla", script), stdout = TRUE)
  as.numeric(strsplit(trimws(out[length(out)]), " +")[[1]])
}

cat(sprintf("file views: %s (%.0f MB each), %d threads, %d fresh processes per case\n",
            basename(m_file), file.size(m_file) / 2^20, get_gufunc_threads(), reps))
rows <- lapply(cases, function(expr) {
  r <- vapply(seq_len(reps), function(k) child(expr), numeric(2))
  data.frame(case = sub(", file = .*", ", file = )", expr), s = stats::median(r[1, ]),
             peak_added_mb = stats::median(r[2, ]),
             of_file = stats::median(r[2, ]) / (file.size(m_file) / 2^20))
})
print(format(do.call(rbind, rows), digits = 3), row.names = FALSE)
unlink(file.path(dir, "views_out.npy"))
