# One command for a fresh machine with only R: installs the CRAN packages gufunc
# needs, installs gufunc from this checkout, and runs the demo.
# Usage (from the repository root): Rscript tools/install.R
source("tools/install-deps.R")
status <- system2(file.path(R.home("bin"), "R"), c("CMD", "INSTALL", "--preclean", "."))
if (status != 0L) stop("R CMD INSTALL failed", call. = FALSE)
source(system.file("examples", "demo.R", package = "gufunc"), echo = TRUE,
       max.deparse.length = Inf)
