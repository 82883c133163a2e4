# Installs from CRAN (the repository configured in this R, options("repos")) the
# packages a command needs, only the missing ones.
# Usage (from the repository root): Rscript tools/install-deps.R [use|test]
#   use:  what installing gufunc with its vignettes needs (tools/install.R sources this
#         file with deps_for = "use", so the library chosen below stays on its path)
#   test: what tools/test.sh needs: R CMD check --as-cran requires every package the
#         DESCRIPTION names, Suggests included (default)
if (!exists("deps_for")) {
  deps_for <- commandArgs(trailingOnly = TRUE)
  deps_for <- if (length(deps_for)) deps_for[1] else "test"
}

# Package names of DESCRIPTION fields, without version requirements.
description_deps <- function(fields) {
  d <- read.dcf("DESCRIPTION", fields = fields)
  d <- unlist(strsplit(d[!is.na(d)], ","))
  d <- trimws(sub("\\(.*", "", d))
  setdiff(d[nzchar(d)], "R")
}
needed <- switch(deps_for,
  # The knitr::knitr engine renders the .Rmd vignettes with markdown (no pandoc).
  use = c(description_deps(c("Depends", "Imports", "LinkingTo", "VignetteBuilder")),
          "markdown"),
  test = description_deps(c("Depends", "Imports", "LinkingTo", "Suggests", "VignetteBuilder")),
  stop("unknown argument '", deps_for, "': use 'use' or 'test'", call. = FALSE))

# Without a writable library (R installed by root, no personal library yet) create the
# personal one, as install.packages() would offer to do in an interactive session.
if (file.access(.libPaths()[1], 2) != 0) {
  user_lib <- Sys.getenv("R_LIBS_USER")
  dir.create(user_lib, recursive = TRUE, showWarnings = FALSE)
  .libPaths(c(user_lib, .libPaths()))
  message("installing into the personal library ", user_lib)
}

have <- vapply(needed, requireNamespace, logical(1), quietly = TRUE)
missing <- needed[!have]
if (length(missing)) {
  repos <- getOption("repos")
  if (is.null(repos) || identical(unname(repos["CRAN"]), "@CRAN@")) {
    stop("no CRAN mirror is configured: set options(repos = c(CRAN = <mirror URL>))",
         call. = FALSE)
  }
  ncores <- max(1L, parallel::detectCores())
  # Packages with compiled code (Rcpp, RcppParallel) build faster with make -jN.
  if (!nzchar(Sys.getenv("MAKEFLAGS"))) Sys.setenv(MAKEFLAGS = paste0("-j", ncores))
  # fs (testthat -> pkgload -> fs): build the libuv it bundles, so no libuv1-dev is needed.
  if (!nzchar(Sys.getenv("USE_BUNDLED_LIBUV"))) Sys.setenv(USE_BUNDLED_LIBUV = "1")
  # install.packages() installs the dependencies that are not installed of what it
  # is asked for, but not those of a dependency that is: a library holding pillar
  # without vctrs (a site library shared with other tools) leaves bench unloadable.
  # So every package the missing ones need, at any depth, is asked for if absent.
  available <- available.packages(repos = repos)
  deep <- unlist(tools::package_dependencies(missing, db = available, recursive = TRUE,
                                             which = c("Depends", "Imports", "LinkingTo")))
  absent <- setdiff(intersect(deep, rownames(available)), rownames(installed.packages()))
  missing <- union(missing, absent)
  message("installing from CRAN: ", paste(missing, collapse = ", "))
  install.packages(missing, lib = .libPaths()[1], repos = repos, Ncpus = ncores)
  # Checked in a new R process: this one may hold older versions of packages the
  # installation has just updated (testthat loads Debian's rlang; bench needs a newer
  # one), and requireNamespace() here would fail on them.
  loads <- function(pkg) {
    code <- sprintf("quit(status = !requireNamespace('%s', quietly = TRUE))", pkg)
    system2(file.path(R.home("bin"), "Rscript"), c("-e", shQuote(code))) == 0
  }
  still <- missing[!vapply(missing, loads, logical(1))]
  if (length(still)) stop("could not install: ", paste(still, collapse = ", "), call. = FALSE)
}
