# One command for a machine with only R: installs the CRAN packages gufunc and its
# vignettes need, installs gufunc with its vignettes, and runs the demo.
# Usage (from the repository root): Rscript tools/install.R [R CMD INSTALL options]
#   e.g. Rscript tools/install.R --strip   (no debug symbols: ~1 MB instead of ~13 MB)
install_opts <- commandArgs(trailingOnly = TRUE)
ncores <- max(1L, parallel::detectCores())
if (!nzchar(Sys.getenv("MAKEFLAGS"))) Sys.setenv(MAKEFLAGS = paste0("-j", ncores))
deps_for <- "use"
source("tools/install-deps.R")
lib <- .libPaths()[1]  # children see it too: a new personal library now exists

r <- function(args, log) {
  status <- system2(file.path(R.home("bin"), "R"), args, stdout = log, stderr = log)
  if (status != 0L) {
    writeLines(readLines(log))
    stop("R ", paste(args, collapse = " "), " failed", call. = FALSE)
  }
}
# Vignettes are built by R CMD build (an install from the source directory has none),
# so build the tarball in a temporary directory and install that.
top <- normalizePath(".")
build_dir <- tempfile("gufunc-build-")
dir.create(build_dir)
old <- setwd(build_dir)
message("building the package tarball with its vignettes (compiles gufunc once) ...")
r(c("CMD", "build", shQuote(top)), "build.log")
tarball <- list.files(build_dir, pattern = "^gufunc_.*\\.tar\\.gz$", full.names = TRUE)
message("installing ", basename(tarball), " into ", lib, " (compiles gufunc again) ...")
r(c("CMD", "INSTALL", "-l", shQuote(lib), install_opts, shQuote(tarball)), "install.log")
setwd(old)
unlink(build_dir, recursive = TRUE)

vignettes <- tools::getVignetteInfo("gufunc", lib.loc = lib)[, "Topic"]
if (!"kernels" %in% vignettes) stop("the vignettes were not installed", call. = FALSE)
message("installed gufunc with vignettes: ", paste(vignettes, collapse = ", "))
source(system.file("examples", "demo.R", package = "gufunc", lib.loc = lib), echo = TRUE,
       max.deparse.length = Inf)
