# Hostile input gives a classed error, never a crash or a malformed value (issue 12,
# section 5). Arrays here are empty, so their dims may multiply to more than any
# vector R can allocate: the result's size is checked before anything is allocated.

# Four dims of 2^16: their product, 2^64, wraps around to 0 in 64-bit arithmetic.
dims_2_64 <- rep(2^16, 4)
too_large <- "more than 2\\^52 elements"

# gufunc_cpp() tests compile into a temporary cache, never the user's.
bad_input_cache <- tempfile("gufunc-cache-")
skip_unless_cpp <- function() {
  skip_on_cran()
  skip_if_gufunc_not_installed()
  skip_if_no_cxx_compiler()
}

test_that("matmul whose result has 2^64 elements is an error naming x and y, eager and lazy", {
  x <- array(0, c(2^30, 0, 16))
  y <- array(0, c(0, 2^30, 16))
  expect_error(matmul(x, y), too_large, class = "gufunc_shape_error")
  expect_error(matmul(x, y), "argument `x` of dims \\(1073741824,0,16\\)")
  expect_error(gufunc_call("matmul", x, y), too_large, class = "gufunc_shape_error")
  with_options(list(gufunc.lazy_min_length = 0), {
    expect_error(matmul(lazy(x), y), too_large, class = "gufunc_shape_error")
    expect_error(matmul(x, lazy(y)), "argument `y`", class = "gufunc_shape_error")
  })
})

test_that("results whose dims multiply to 2^64 are errors, not empty arrays", {
  core0 <- array(0, c(0, dims_2_64))
  expect_error(gu_det(array(0, c(0, 0, dims_2_64))), too_large, class = "gufunc_shape_error")
  expect_error(gufunc_call("sum", core0), too_large, class = "gufunc_shape_error")
  expect_error(reduce_dims(core0, "sum"), too_large, class = "gufunc_shape_error")
  spread <- gufunc("double(n) -> double()", function(v) max(v) - min(v))
  expect_error(spread(core0), too_large, class = "gufunc_shape_error")
  with_options(list(gufunc.lazy_min_length = 0), {
    expect_error(gu_det(lazy(array(0, c(0, 0, dims_2_64)))), too_large,
                 class = "gufunc_shape_error")
  })
})

test_that("dims of 2^31 - 1 give classed errors, not R's negative-length error", {
  x <- array(0, c(2^31 - 1, 0))
  y <- array(0, c(0, 2^31 - 1))
  expect_error(matmul(x, y), too_large, class = "gufunc_shape_error")
  x3 <- array(0, c(2^31 - 1, 0, 2^31 - 1))
  y3 <- array(0, c(0, 2^31 - 1, 2^31 - 1))
  expect_error(matmul(x3, y3), too_large, class = "gufunc_shape_error")
  mm <- gufunc("double(m,n), double(n,p) -> double(m,p)", function(a, b) a %*% b)
  expect_error(mm(x, y), too_large, class = "gufunc_shape_error")
  expect_error(mm(x3, y3), too_large, class = "gufunc_shape_error")
})

test_that("empty results with large dims are still computed, with base R's shape", {
  # A zero among the dims makes the product 0 whatever the other dims are.
  expect_identical(gu_det(array(0, c(2, 2, 2^31 - 1, 0))), array(0, c(2^31 - 1, 0)))
  x <- array(0, c(2^16, 2^16, 0))
  expect_identical(reduce_dims(x, "sum", dims = 1:2), numeric())
  expect_identical(reduce_dims(x, "max", dims = 1:2), numeric())
  det0 <- gufunc("double(n,n) -> double()", function(m) det(m))
  expect_identical(det0(array(0, c(2^31 - 1, 2^31 - 1, 0))), numeric())
  inv <- gu_solve(array(0, c(2^31 - 1, 2^31 - 1, 0)))
  expect_identical(dim(inv), c(.Machine$integer.max, .Machine$integer.max, 0L))
  # An empty inner dimension gives zeros, as %*% does (the empty operands have
  # no elements to address).
  a <- array(0, c(3, 0, 2))
  b <- array(0, c(0, 4, 2))
  expect_identical(matmul(a, b), array(0, c(3, 4, 2)))
  expect_identical(matmul(a[, , 1], b[, , 1]), a[, , 1] %*% b[, , 1])
  with_options(list(gufunc.lazy_min_length = 0), {
    expect_identical(materialize(matmul(lazy(a), b)), array(0, c(3, 4, 2)))
  })
})

test_that("block sizes beyond 2^24 elements are errors echoing the value", {
  x <- runif(1e5)
  z <- lazy(x) * 2
  for (bad in list(1e10, 1e9, 2^24 + 1)) {
    with_options(list(gufunc.block_size = bad), {
      expect_error(materialize(z), sprintf("16777216, not %.15g", bad),
                   class = "gufunc_argument_error")
    })
  }
  with_options(list(gufunc.block_size = "8"), {
    expect_error(materialize(z), "not a character vector of length 1",
                 class = "gufunc_argument_error")
  })
  with_options(list(gufunc.block_size = 2^24), expect_identical(materialize(z), x * 2))
  old <- Sys.getenv("GUFUNC_BLOCK_SIZE", unset = NA)
  on.exit(if (is.na(old)) Sys.unsetenv("GUFUNC_BLOCK_SIZE") else Sys.setenv(GUFUNC_BLOCK_SIZE = old))
  Sys.setenv(GUFUNC_BLOCK_SIZE = "10000000000")
  expect_error(materialize(lazy(x) + 1), "not \"10000000000\"", class = "gufunc_argument_error")
})

test_that("materializing an empty lazy vector gives the empty vector", {
  with_options(list(gufunc.lazy_min_length = 0), {
    expect_identical(materialize(lazy(numeric(0))), numeric(0))
    expect_identical(materialize(lazy(integer(0))), integer(0))
    expect_identical(materialize(lazy(logical(0)) & TRUE), logical(0))
    expect_identical(materialize(lazy(numeric(0)) + 1), numeric(0))
  })
})

test_that("gufunc_cpp() with no inputs computes one value, as gufunc() does", {
  skip_unless_cpp()
  answer <- gufunc_cpp("-> double()", "out0[0] = 42;", cache_dir = bad_input_cache)
  expect_identical(answer(), 42)
  expect_identical(gufunc("-> double()", function() 42)(), 42)
  triple <- gufunc_cpp("-> double(3)", "out0[0] = 1; out0[1] = a; out0[2] = 3;",
                       params = c(a = 2), cache_dir = bad_input_cache)
  expect_identical(triple(), c(1, 2, 3))
  expect_error(triple(1), class = "gufunc_dispatch_error")
})

test_that("gufunc_cpp() refuses more than GUFUNC_MAX_ARGS arguments before compiling", {
  skip_unless_cpp()
  compiled <- gufunc_cpp_stats()[["compiled"]]
  sig17 <- paste(paste(rep("double()", 16), collapse = ", "), "-> double()")
  expect_error(gufunc_cpp(sig17, "out0[0] = 1;", cache_dir = bad_input_cache),
               "argument `signature` has 17 arguments", class = "gufunc_argument_error")
  expect_identical(gufunc_cpp_stats()[["compiled"]], compiled)
  sig16 <- paste(paste(rep("double()", 15), collapse = ", "), "-> double()")
  sum15 <- gufunc_cpp(sig16, "out0[0] = x0[0] + x14[0];", cache_dir = bad_input_cache)
  expect_identical(do.call(sum15, as.list(c(1, rep(0, 13), 2))), 3)
})

test_that("gufunc_cpp() names a cache_dir it cannot use", {
  skip_unless_cpp()
  blocker <- tempfile()
  writeLines("a file, not a directory", blocker)
  on.exit(unlink(blocker))
  expect_error(
    gufunc_cpp("double(n) -> double()", "out0[0] = n;", cache_dir = file.path(blocker, "cache")),
    "argument `cache_dir` is .*cache\", a directory that cannot be created",
    class = "gufunc_argument_error"
  )
})

test_that("gufunc_cpp() names a read-only cache_dir it would have to compile into", {
  skip_unless_cpp()
  skip_if(Sys.info()[["effective_user"]] == "root", "root may write anywhere")
  read_only <- tempfile("gufunc-ro-")
  dir.create(read_only)
  Sys.chmod(read_only, "0555")
  on.exit(unlink(read_only, recursive = TRUE))
  expect_error(
    gufunc_cpp("double(n) -> double()", "out0[0] = n + 0.5;", cache_dir = read_only),
    "argument `cache_dir` .* not writable", class = "gufunc_argument_error"
  )
})
