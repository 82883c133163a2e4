# gufunc_cpp() needs R's C++ compiler (R CMD config CXX) on the PATH.
skip_if_no_cxx_compiler <- function() {
  cxx <- tryCatch(
    suppressWarnings(system2(file.path(R.home("bin"), "R"), c("CMD", "config", "CXX"),
                             stdout = TRUE, stderr = TRUE)),
    error = function(e) ""
  )
  cxx <- strsplit(trimws(cxx[1L]), "[[:space:]]+")[[1L]][1L]
  if (is.na(cxx) || !nzchar(Sys.which(cxx))) skip("no C++ compiler")
}
