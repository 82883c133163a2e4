# Runs `code` once per thread count, with option gufunc.threads set.
for_threads <- function(code, threads = c(1L, 2L)) {
  code <- substitute(code)
  env <- parent.frame()
  for (n in threads) {
    old <- options(gufunc.threads = n)
    tryCatch(eval(code, env), finally = options(old))
  }
}

test_kernels <- function() invisible(.Call(gufunc:::C_register_test_kernels))
