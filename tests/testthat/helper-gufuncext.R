# The example package gufuncext (inst/examples/gufuncext): a third-party package in
# plain C that registers kernels into gufunc and takes kernels from it. It is built
# and installed once per test session into a temporary library.

gufuncext_state <- new.env(parent = emptyenv())

skip_if_no_c_compiler <- function() {
  r <- file.path(R.home("bin"), "R")
  cc <- tryCatch(
    suppressWarnings(system2(r, c("CMD", "config", "CC"), stdout = TRUE, stderr = TRUE)),
    error = function(e) ""
  )
  cc <- strsplit(trimws(cc[1L]), "[[:space:]]+")[[1L]][1L]
  if (is.na(cc) || !nzchar(Sys.which(cc))) skip("no C compiler")
}

# The fixture links against gufunc's installed headers, so gufunc itself must be
# installed (not loaded from source with pkgload).
skip_if_gufunc_not_installed <- function() {
  header <- system.file("include", "gufunc", "callables.h", package = "gufunc")
  if (!nzchar(header)) skip("gufunc is not installed (its headers are not in a library)")
}

install_gufuncext <- function() {
  src <- tempfile("gufuncext-src-")
  lib <- tempfile("gufuncext-lib-")
  dir.create(src)
  dir.create(lib)
  # Build from a copy, so no object files land in the test directory.
  file.copy(system.file("examples", "gufuncext", package = "gufunc"), src, recursive = TRUE)
  # The child R must see this session's libraries (gufunc may be in a check
  # library) and not R CMD check's startup file.
  old <- Sys.getenv(c("R_LIBS", "R_TESTS"), unset = NA)
  on.exit(for (v in names(old)) {
    if (is.na(old[[v]])) Sys.unsetenv(v) else do.call(Sys.setenv, as.list(old[v]))
  })
  Sys.setenv(R_LIBS = paste(.libPaths(), collapse = .Platform$path.sep), R_TESTS = "")
  out <- suppressWarnings(system2(
    file.path(R.home("bin"), "R"),
    c("CMD", "INSTALL", "--no-multiarch", "-l", shQuote(lib), shQuote(file.path(src, "gufuncext"))),
    stdout = TRUE, stderr = TRUE
  ))
  status <- attr(out, "status")
  if (!is.null(status) && status != 0L) {
    stop("installing the gufuncext fixture failed:\n", paste(tail(out, 30L), collapse = "\n"))
  }
  lib
}

# The namespace of the installed fixture. Skips on CRAN and without a compiler.
local_gufuncext <- function() {
  skip_on_cran()
  skip_if_gufunc_not_installed()
  skip_if_no_c_compiler()
  if (is.null(gufuncext_state$lib) && is.null(gufuncext_state$error)) {
    gufuncext_state$lib <- tryCatch(install_gufuncext(), error = function(e) {
      gufuncext_state$error <- conditionMessage(e)
      NULL
    })
  }
  if (!is.null(gufuncext_state$error)) stop(gufuncext_state$error, call. = FALSE)
  pkg <- "gufuncext"  # a variable, so R CMD check does not take it for a dependency
  loadNamespace(pkg, lib.loc = gufuncext_state$lib)
}
