# Regenerates the documentation (man/*.Rd and NAMESPACE) from the roxygen comments in R/.
# A developer step, not part of the test command: run it after changing roxygen
# comments or exports, review the diff and commit it. Needs roxygen2, preferably the
# version in DESCRIPTION's RoxygenNote: another version reformats pages that did not
# change (and rewrites RoxygenNote).
# Usage (from the repository root):
#   Rscript tools/document.R           rewrites man/ and NAMESPACE
#   Rscript tools/document.R --check   changes nothing; lists the files that are not
#                                      current and exits 1 if there are any
if (!requireNamespace("roxygen2", quietly = TRUE)) {
  stop("roxygen2 is not installed: install.packages(\"roxygen2\")", call. = FALSE)
}
check <- identical(commandArgs(trailingOnly = TRUE), "--check")
note <- unname(read.dcf("DESCRIPTION", fields = "RoxygenNote")[1, 1])
have <- format(utils::packageVersion("roxygen2"))
if (!identical(note, have)) {
  message("note: roxygen2 ", have, " is not the RoxygenNote version ", note)
}

# load_source: documents the R code without compiling the package.
roxygenise <- function(dir) {
  roxygen2::roxygenise(dir, load_code = roxygen2::load_source)
}
if (!check) {
  roxygenise(".")
  quit(save = "no")
}

copy <- tempfile("gufunc-document-")
dir.create(copy)
invisible(file.copy(c("DESCRIPTION", "NAMESPACE", "R", "man"), copy, recursive = TRUE))
roxygenise(copy)
documents <- function(dir) {
  files <- c("NAMESPACE", file.path("man", list.files(file.path(dir, "man"))))
  stats::setNames(lapply(file.path(dir, files), readLines), files)
}
generated <- documents(copy)
committed <- documents(".")
unlink(copy, recursive = TRUE)
files <- union(names(generated), names(committed))
stale <- files[!vapply(files, function(f) identical(generated[[f]], committed[[f]]), TRUE)]
if (length(stale)) {
  message("not current (run Rscript tools/document.R): ", paste(stale, collapse = ", "))
  quit(save = "no", status = 1)
}
message("man/ and NAMESPACE are current")
