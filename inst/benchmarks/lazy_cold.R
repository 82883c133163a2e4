# The lazy benchmark's expressions (lazy.R) in fresh R processes, each started after
# the machine was idle for a while: what a user's script meets on its first runs.
# Each process times base R and gufunc `reps` times each from the first call on (no
# warm-up): in blocks (one side's calls, then the other's; which side goes first
# alternates between processes) or in turns (base, gufunc, base, ...). The driver
# prints the ratio base/gufunc of each process's medians and of its first calls, and
# the worst process against lazy.R's targets.
# Why both orders: on the development VM, after base R frees a large vector, the next
# pass over any other large vector is several times slower (base R's own sum(a) too:
# 17 ms, then 90-140 ms; see README.md), so in turns gufunc pays for base R's frees.
# Usage: Rscript inst/benchmarks/lazy_cold.R [processes] [pause_s] [n] [blocks|turns]
#        (defaults 6, 15, 1e7, blocks; threads: option gufunc.threads, default all cores)
args <- commandArgs(TRUE)
if (length(args) && args[1] == "--child") {
  suppressMessages(library(gufunc))
  n <- as.numeric(args[2])
  set.seed(1)
  a <- runif(n); b <- runif(n); c <- runif(n); d <- runif(n)
  la <- lazy(a); lb <- lazy(b); lc <- lazy(c); ld <- lazy(d)
  cases <- list(
    E1 = list(function() a * b + c, function() materialize(la * lb + lc)),
    E2 = list(function() sqrt(a * a + b * b), function() materialize(sqrt(la * la + lb * lb))),
    E3 = list(function() exp(-a * a / 2) * sin(b) + c,
              function() materialize(exp(-la * la / 2) * sin(lb) + lc)),
    E4 = list(function() sum(a * b), function() sum(la * lb)),
    E4f = list(function() sum(a * b), function() {
      old <- options(gufunc.sum_order = "fast")
      on.exit(options(old))
      sum(la * lb)
    }),
    E5 = list(function() 2 * a + 3 * b - 4 * c + 5 * d,
              function() materialize(2 * la + 3 * lb - 4 * lc + 5 * ld))
  )
  reps <- 5
  mode <- args[3]
  gufunc_first <- args[4] == "TRUE"
  for (id in names(cases)) {
    t <- matrix(NA_real_, reps, 2)
    time_it <- function(r, j) t[r, j] <<- system.time(cases[[id]][[j]]())[["elapsed"]] * 1e3
    if (mode == "turns") {
      for (r in seq_len(reps)) for (j in 1:2) time_it(r, j)
    } else {  # blocks: all of one side's calls, then the other's
      for (j in if (gufunc_first) 2:1 else 1:2) for (r in seq_len(reps)) time_it(r, j)
    }
    cat(id, t[1, 1], t[1, 2], median(t[, 1]), median(t[, 2]), "\n")
  }
  quit(save = "no")
}

processes <- if (length(args) >= 1) as.integer(args[1]) else 6L
pause <- if (length(args) >= 2) as.numeric(args[2]) else 15
n <- if (length(args) >= 3) args[3] else "1e7"
mode <- if (length(args) >= 4) match.arg(args[4], c("blocks", "turns")) else "blocks"
script <- sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)[1])
# lazy.R's targets (inst/benchmarks/README.md). E4 gives base R's bits: one chain of
# long double additions in index order, run as integer additions prepared by the
# threads (src/engine/ordered_sum.hpp; the x87 chain alone takes 17 ms for 1e7 here,
# as base R's own sum()).
targets <- c(E1 = 2, E2 = 3, E3 = 3, E4 = 3, E4f = 6, E5 = 3)
rows <- list()
for (p in seq_len(processes)) {
  Sys.sleep(pause)
  out <- system2(file.path(R.home("bin"), "Rscript"), c(script, "--child", n, mode, p %% 2 == 0), stdout = TRUE)
  for (line in out) {
    f <- strsplit(trimws(line), " +")[[1]]
    rows[[length(rows) + 1]] <- data.frame(process = p, case = f[1],
      first_base = as.numeric(f[2]), first_gufunc = as.numeric(f[3]),
      base = as.numeric(f[4]), gufunc = as.numeric(f[5]))
  }
}
res <- do.call(rbind, rows)
res$ratio <- res$base / res$gufunc
res$first_ratio <- res$first_base / res$first_gufunc
cat(sprintf("%d fresh processes, %g s idle before each, n = %s, threads: %s, %s\n", processes,
            pause, n, getOption("gufunc.threads", "all cores"),
            if (mode == "turns") "base R and gufunc in turns" else "in blocks"))
print(format(res, digits = 3), row.names = FALSE)
worst <- aggregate(cbind(ratio, first_ratio) ~ case, res, min)
worst$target <- targets[worst$case]
worst$met <- ifelse(worst$ratio >= worst$target, "yes", "NO")
cat("\nWorst process per case (base/gufunc of medians; of first calls):\n")
print(format(worst, digits = 3), row.names = FALSE)
