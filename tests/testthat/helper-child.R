# Child R processes for the interrupt tests: a script run by Rscript with this
# session's libraries, and files it writes to say how far it got.

# Writes `lines` to a script in `dir` and starts a child Rscript on it with this
# session's libraries, without waiting for it.
start_child <- function(lines, dir) {
  script <- file.path(dir, "child.R")
  writeLines(lines, script)
  old <- Sys.getenv(c("R_LIBS", "R_TESTS"), unset = NA)
  on.exit(for (v in names(old)) {
    if (is.na(old[[v]])) Sys.unsetenv(v) else do.call(Sys.setenv, as.list(old[v]))
  })
  Sys.setenv(R_LIBS = session_libs(), R_TESTS = "")
  system2(rscript(), c("--vanilla", script), wait = FALSE, stdout = FALSE, stderr = FALSE)
}

# TRUE once `path` exists, FALSE after `seconds` without it.
wait_for_file <- function(path, seconds) {
  for (i in seq_len(seconds * 20)) {
    if (file.exists(path)) return(TRUE)
    Sys.sleep(0.05)
  }
  FALSE
}

# Saves `cases` (R expressions as text, by name) in `dir` for a child; returns the
# child's lines that write its pid and read them as `cases`, with `ready[k]`, the
# file the child creates as it starts case k.
child_reads_cases <- function(cases, dir) {
  ready <- file.path(dir, paste0("ready-", seq_along(cases)))
  saveRDS(list(cases = cases, ready = ready), file.path(dir, "cases.rds"))
  c(sprintf('writeLines(as.character(Sys.getpid()), "%s")', file.path(dir, "pid")),
    sprintf('setup <- readRDS("%s")', file.path(dir, "cases.rds")),
    "cases <- setup$cases",
    "ready <- setup$ready")
}

# Sends SIGINT to that child half a second into each of its `n` cases; returns the
# times sent.
interrupt_each_case <- function(dir, n) {
  sent <- numeric(n)
  for (k in seq_len(n)) {
    expect_true(wait_for_file(file.path(dir, paste0("ready-", k)), 120), label = k)
    Sys.sleep(0.5) # the child is now inside the work
    sent[k] <- as.numeric(Sys.time())
    expect_true(tools::pskill(as.integer(readLines(file.path(dir, "pid"))), tools::SIGINT))
  }
  sent
}

# The child's line that saves `out` to `result` (complete once the file exists).
child_saves_out <- function(result) {
  sprintf('saveRDS(out, "%s.part"); file.rename("%s.part", "%s")', result, result, result)
}

# Runs `lines` as a script in a new Rscript with this session's libraries (a heap
# of its own: how often R collects depends on how large its heap has grown) and
# returns the words of the last line it printed.
child_last_line <- function(lines) {
  script <- tempfile(fileext = ".R")
  on.exit(unlink(script))
  writeLines(lines, script)
  old <- Sys.getenv(c("R_LIBS", "R_TESTS"), unset = NA)
  on.exit(for (v in names(old)) {
    if (is.na(old[[v]])) Sys.unsetenv(v) else do.call(Sys.setenv, as.list(old[v]))
  }, add = TRUE)
  Sys.setenv(R_LIBS = session_libs(), R_TESTS = "")
  out <- system2(rscript(), c("--vanilla", script), stdout = TRUE)
  strsplit(trimws(out[length(out)]), " ")[[1]]
}

# Skips a test that reads a child's resident memory where it cannot be read or
# means nothing: without /proc, or under AddressSanitizer (tools/sanitize.sh), whose
# quarantine keeps freed memory.
skip_without_rss <- function() {
  skip_if_not(file.exists("/proc/self/status"), "reads VmRSS from /proc/self/status")
  skip_if(grepl("libasan", Sys.getenv("LD_PRELOAD")), "under AddressSanitizer")
}

# Lines of a child script: rss_mb(), the process's resident memory in MB.
rss_lines <- c(
  "rss_mb <- function() as.numeric(gsub('[^0-9]', '',",
  "  grep('^VmRSS', readLines('/proc/self/status'), value = TRUE))) / 1024"
)

# Runs script lines in a child R process with gufunc attached: `setup`, then `work`,
# then `after`. Returns list(mb = the growth of its resident memory over `work` in
# MB, checks = the values of the R expressions `checks` (text) evaluated last, as
# text).
child_rss_growth <- function(setup = character(), work, checks, after = character()) {
  got <- child_last_line(c(
    "suppressMessages(library(gufunc))", rss_lines, setup,
    "before <- rss_mb()", work, "grown <- rss_mb() - before", after,
    sprintf("cat(grown, %s, '\\n')", paste(checks, collapse = ", "))
  ))
  list(mb = as.numeric(got[1]), checks = got[-1])
}
