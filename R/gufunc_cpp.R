# gufunc_cpp(): compile a C++ kernel body with R's toolchain, cache the shared
# object (in the session and on disk), register it, return a callable.

# Compiled libraries of this session by cache key, and counters tests can read.
cpp_cache <- new.env(parent = emptyenv())
cpp_cache$libs <- list()
cpp_cache$stats <- c(compiled = 0, loaded_from_disk = 0, reused_in_session = 0)

#' Compile a gufunc kernel from a C++ body
#'
#' Wraps `body` in a strided gufunc kernel, compiles it with R's own toolchain
#' (`R CMD SHLIB`, as `Rcpp::cppFunction()` does), registers it as function `name`
#' of `namespace` and returns a callable that runs it like a builtin: in parallel
#' over the loop iterations (see [get_gufunc_threads()]), with gufunc's type promotion
#' and broadcasting. The shared object is cached by a hash of the signature, body,
#' includes, param names, generated code, gufunc's ABI and package version and R's
#' version: in the session, and on disk under `cache_dir`, so a second call with the
#' same code (in this or a later session) does not compile again.
#'
#' @section The body:
#' The body is the code of one loop iteration. It sees
#' * each named core dimension of the signature as `const R_xlen_t <name>`;
#' * the inputs' core slices as `const double* x0, x1, ...` (`const int*` for
#'   integer and logical inputs) and the outputs' as `double* out0, ...` (`int*`),
#'   contiguous and column-major (strided data is copied in and out);
#' * each param as `const double <name>`;
#' * `fail("format", ...)`, which ends the kernel with an error naming the slice
#'   (the call then fails with an error of class `gufunc_kernel_error`);
#'   `return 0;` ends the iteration early;
#' * `check_interrupt();`, which ends the kernel when the user pressed Ctrl-C or a
#'   time limit passed (the call then stops with R's own interrupt or error). Calls
#'   between iterations are checked anyway; put it in the body's own loop when one
#'   iteration may take more than a fraction of a second, every millisecond or so
#'   of work.
#'
#' The body may run on several threads at once, so it must not call R's API or
#' change shared data. NA handling is up to the body (`ISNAN()`, `NA_INTEGER`).
#'
#' @section Closure-like state:
#' `params` are bound when the kernel is registered, into a state the generated code
#' allocates and gufunc owns; the state is released by the kernel's destructor when
#' the kernel set goes: when `name` is registered again, when it or its namespace is
#' removed ([gufunc_unregister()]), or when R ends. With the default `name` (derived
#' from the code and the param values) different params give different functions;
#' with an explicit `name`, registering again replaces the kernel for every callable
#' of that name.
#'
#' @section Errors:
#' A compile error is an error of class `gufunc_compile_error` whose message shows
#' the compiler's error lines (lines of the body are reported as
#' `gufunc_cpp body:<line>`); its `output` field holds the whole compiler output.
#'
#' @param signature A signature with concrete types, e.g.
#'   `"double(n), double(n) -> double()"`, of at most 16 arguments (inputs and
#'   outputs). A signature without inputs (`"-> double(3)"`) runs the body once,
#'   as [gufunc()] runs an R kernel without inputs.
#' @param body C++ statements: the code of one loop iteration (a string, or lines
#'   that are joined).
#' @param name The function name to register (default: derived from the hash of the
#'   code and the params).
#' @param namespace The lookup table to register into (not `"base"`).
#' @param params `NULL` or a named numeric vector, bound at construction.
#' @param includes Extra headers, e.g. `"Rmath.h"` or `"<algorithm>"`.
#' @param cache_dir Directory of the disk cache (created if needed).
#' @return A function of class `gufunc_function` (see [gufunc()]).
#' @seealso [gufunc()] for R kernels.
#' @export
#' @examples
#' \donttest{
#' l1 <- gufunc_cpp("double(n), double(n) -> double()",
#'                  "double s = 0; for (R_xlen_t i = 0; i < n; ++i) s += fabs(x0[i] - x1[i]);
#'                   out0[0] = s;",
#'                  cache_dir = tempdir())
#' P <- matrix(runif(12), 3)
#' Q <- matrix(runif(12), 3)
#' l1(P, Q)
#' colSums(abs(P - Q))
#'
#' # A param bound at construction: the p-norm of every column.
#' pnorm <- gufunc_cpp("double(n) -> double()",
#'                     "double s = 0; for (R_xlen_t i = 0; i < n; ++i) s += pow(fabs(x0[i]), p);
#'                      out0[0] = pow(s, 1 / p);",
#'                     params = c(p = 3), cache_dir = tempdir())
#' pnorm(P)
#' }
gufunc_cpp <- function(signature, body, name = NULL, namespace = "user", params = NULL,
                       includes = character(),
                       cache_dir = getOption("gufunc.cache_dir",
                                             tools::R_user_dir("gufunc", "cache"))) {
  call <- sys.call()
  check_string(signature, "signature")
  if (is.character(body) && length(body) > 1L && !anyNA(body)) body <- paste(body, collapse = "\n")
  check_string(body, "body")
  check_string(namespace, "namespace")
  if (!is.null(name)) check_string(name, "name")
  if (!is.character(includes) || anyNA(includes)) {
    abort_argument("includes", sprintf("must be a character vector, not %s", describe(includes)))
  }
  check_string(cache_dir, "cache_dir")
  if (namespace == "base") {
    abort_argument("namespace", "must not be \"base\", which holds gufunc's builtins")
  }
  sig <- parse_signature(signature)
  check_cpp_signature(sig, call)
  params <- check_cpp_params(params, sig, call)

  key <- cpp_cache_key(sig, body, includes, names(params))
  lib <- cpp_library(key, sig, body, includes, names(params), cache_dir, call)
  if (is.null(name)) {
    name <- paste0("cpp_", substr(hash_text(c(key, sprintf("%.17g", params))), 1L, 12L))
  }
  # do.call: the routine lives in the user's compiled library, not in gufunc's, so
  # R CMD check's static check of .Call targets cannot resolve it. It reports
  # failures with Rf_error(), which become classed here.
  tryCatch(do.call(.Call, list(lib$register, namespace, name, params)), error = function(e) {
    stop(errorCondition(
      paste("registering the compiled kernel failed:", conditionMessage(e)),
      class = c("gufunc_registration_error", "gufunc_error"), call = call))
  })
  f <- new_gufunc_function(function(call, ...) call_registered(name, namespace, call, ...),
                           name, namespace, sig, "cpp")
  attr(f, "gufunc")$library <- lib$path
  f
}

# MD5 of some text (tools::md5sum hashes files only in R < 4.5).
hash_text <- function(text) {
  file <- tempfile("gufunc-key-")
  on.exit(unlink(file))
  writeLines(enc2utf8(text), file, useBytes = TRUE)
  unname(tools::md5sum(file))
}

# The source with a placeholder for the key covers the signature, body, includes,
# param names and the generator itself; the versions cover gufunc's ABI and build.
cpp_cache_key <- function(sig, body, includes, param_names) {
  if (is.null(cpp_cache$versions)) {
    abi <- .Call(C_user_abi_version)
    cpp_cache$versions <- c(paste("abi", abi), paste("gufunc", utils::packageVersion("gufunc")),
                            R.version.string, R.version$platform)
  }
  template <- cpp_kernel_source(sig, body, includes, param_names, key = "KEY")
  hash_text(c(format(sig), body, "--includes", includes, "--params", param_names,
              "--source", template, cpp_cache$versions))
}

# The loaded library for `key`: from this session, else from the disk cache, else
# compiled now. Returns list(path, register, states).
cpp_library <- function(key, sig, body, includes, param_names, cache_dir, call) {
  lib <- cpp_cache$libs[[key]]
  if (!is.null(lib)) {
    cpp_cache$stats[["reused_in_session"]] <- cpp_cache$stats[["reused_in_session"]] + 1
    return(lib)
  }
  dir.create(cache_dir, recursive = TRUE, showWarnings = FALSE)
  if (!dir.exists(cache_dir)) {
    abort_argument("cache_dir", sprintf("is \"%s\", a directory that cannot be created",
                                        cache_dir), call = call)
  }
  path <- file.path(cache_dir, paste0("gufunc_", key, .Platform$dynlib.ext))
  lib <- if (file.exists(path)) tryCatch(cpp_load(path, key), error = function(e) NULL)
  if (!is.null(lib)) {
    cpp_cache$stats[["loaded_from_disk"]] <- cpp_cache$stats[["loaded_from_disk"]] + 1
  } else {
    # A read-only cache serves what it holds; compiling needs to write there.
    if (file.access(cache_dir, 2L) != 0L) {
      abort_argument("cache_dir", sprintf(
        "is \"%s\", a directory that is not writable, so the kernel cannot be cached there",
        cache_dir), call = call)
    }
    source <- cpp_kernel_source(sig, body, includes, param_names, key)
    cpp_compile(source, key, path, call)
    cpp_cache$stats[["compiled"]] <- cpp_cache$stats[["compiled"]] + 1
    lib <- cpp_load(path, key)
  }
  cpp_cache$libs[[key]] <- lib
  lib
}

cpp_load <- function(path, key) {
  dll <- dyn.load(path, local = TRUE, now = TRUE)
  list(
    path = path,
    register = getNativeSymbolInfo(paste0("gufunc_cpp_register_", key), dll),
    states = getNativeSymbolInfo(paste0("gufunc_cpp_states_", key), dll)
  )
}

# Compiles `source` in a private directory and moves the library to `path`, so a
# concurrent session never sees a half-written file.
cpp_compile <- function(source, key, path, call) {
  build <- tempfile("gufunc-cpp-")
  dir.create(build)
  on.exit(unlink(build, recursive = TRUE))
  cpp <- file.path(build, paste0("gufunc_", key, ".cpp"))
  so <- file.path(build, basename(path))
  writeLines(source, cpp, sep = "")
  include <- system.file("include", package = "gufunc")
  env <- c(paste0("PKG_CPPFLAGS=", shQuote(paste0("-I", include))), "R_TESTS=")
  owd <- setwd(build)
  on.exit(setwd(owd), add = TRUE, after = FALSE)
  out <- suppressWarnings(system2(
    file.path(R.home("bin"), "R"),
    c("CMD", "SHLIB", "-o", shQuote(basename(so)), shQuote(basename(cpp))),
    stdout = TRUE, stderr = TRUE, env = env
  ))
  status <- attr(out, "status")
  if ((!is.null(status) && status != 0L) || !file.exists(so)) {
    stop(errorCondition(
      paste0("compiling the gufunc_cpp() kernel failed:\n", compiler_errors(out)),
      class = c("gufunc_compile_error", "gufunc_error"), call = call, output = out))
  }
  file.copy(cpp, file.path(dirname(path), basename(cpp)), overwrite = TRUE)
  staged <- paste0(path, ".", Sys.getpid())
  stored <- file.copy(so, staged, overwrite = TRUE) &&
    suppressWarnings(file.rename(staged, path))
  if (!stored) {
    unlink(staged)
    abort_argument("cache_dir", sprintf(
      "is \"%s\", where the compiled kernel could not be written", dirname(path)), call = call)
  }
}

# The compiler's error lines, each with the two lines after it (the source line and
# the caret), at most 40 lines; not the command lines (their -Werror=... flags).
compiler_errors <- function(out) {
  command <- grepl("-Werror|^make|^g\\+\\+ |^clang", out)
  hits <- which(grepl("error", out, ignore.case = TRUE) & !command)
  if (length(hits) == 0L) return(paste(utils::tail(out, 20L), collapse = "\n"))
  keep <- sort(unique(pmin(c(hits, hits + 1L, hits + 2L), length(out))))
  lines <- out[keep[!command[keep]]]
  paste(utils::head(lines, 40L), collapse = "\n")
}

# Counters of gufunc_cpp()'s cache in this session (a test hook), and the states
# created and released by the library of callable `f`.
gufunc_cpp_stats <- function() cpp_cache$stats

gufunc_cpp_states <- function(f) {
  path <- attr(f, "gufunc")$library
  for (lib in cpp_cache$libs) if (identical(lib$path, path)) return(do.call(.Call, list(lib$states)))
  NULL
}
