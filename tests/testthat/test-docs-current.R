# The committed documentation (man/*.Rd, NAMESPACE) is what tools/document.R generates
# from R/. Runs only in a source checkout (tools/test.sh sets GUFUNC_SOURCE_DIR;
# testthat::test_local() runs in tests/testthat of the checkout) and only with the
# roxygen2 version in RoxygenNote: other versions format pages differently, which is
# not a stale page.
source_dir <- function() {
  dir <- Sys.getenv("GUFUNC_SOURCE_DIR")
  if (!nzchar(dir)) dir <- file.path(getwd(), "..", "..")
  if (file.exists(file.path(dir, "tools", "document.R"))) dir else ""
}

# roxygen2 is a developer tool, not a dependency, so R CMD check --as-cran hides it
# from the tests: the child R gets the libraries of the caller (GUFUNC_DEV_LIBS, set by
# tools/test.sh). R_TESTS emptied: the check's startup file is not in the child's dir.
rscript <- function(args) {
  libs <- Sys.getenv("GUFUNC_DEV_LIBS", paste(.libPaths(), collapse = .Platform$path.sep))
  withr::with_envvar(c(R_LIBS = libs, R_TESTS = ""), suppressWarnings(
    system2(file.path(R.home("bin"), "Rscript"), args, stdout = TRUE, stderr = TRUE)))
}

test_that("man/ and NAMESPACE are current with the roxygen comments in R/", {
  skip_on_cran()
  src <- source_dir()
  skip_if(!nzchar(src), "not run from a source checkout")
  have <- rscript(c("-e", shQuote(paste0(
    "if (requireNamespace('roxygen2', quietly = TRUE)) ",
    "cat(format(utils::packageVersion('roxygen2')))"))))
  skip_if(length(have) == 0L, "roxygen2 is not installed")
  note <- unname(read.dcf(file.path(src, "DESCRIPTION"), fields = "RoxygenNote")[1, 1])
  skip_if(!identical(have, note), paste("roxygen2", have[1], "is not RoxygenNote", note))

  out <- withr::with_dir(src, rscript(c("tools/document.R", "--check")))
  expect(is.null(attr(out, "status")), paste(out, collapse = "\n"))
})
