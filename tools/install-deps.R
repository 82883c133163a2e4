# Installs the R packages gufunc needs to build, test and check, from the CRAN
# repository configured in this R (options("repos")); only missing ones.
needed <- c("Rcpp", "RcppParallel", "testthat", "withr", "knitr", "markdown", "rmarkdown",
            "bench", "roxygen2")
have <- vapply(needed, requireNamespace, logical(1), quietly = TRUE)
missing <- needed[!have]
if (length(missing)) {
  repos <- getOption("repos")
  if (is.null(repos) || identical(unname(repos["CRAN"]), "@CRAN@")) {
    stop("no CRAN mirror is configured: set options(repos = c(CRAN = <mirror URL>))",
         call. = FALSE)
  }
  # fs (needed by rmarkdown) builds its bundled libuv, so no system library is needed.
  if (!nzchar(Sys.getenv("USE_BUNDLED_LIBUV"))) Sys.setenv(USE_BUNDLED_LIBUV = "1")
  message("installing from CRAN: ", paste(missing, collapse = ", "))
  install.packages(missing, repos = repos, Ncpus = max(1L, parallel::detectCores()))
  still <- missing[!vapply(missing, requireNamespace, logical(1), quietly = TRUE)]
  if (length(still)) stop("could not install: ", paste(still, collapse = ", "), call. = FALSE)
}
