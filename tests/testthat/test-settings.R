# Getters and setters of the evaluation settings (R/settings.R).

test_that("setters set, check at once and return the previous value", {
  withr::local_options(list(gufunc.threads = NULL, gufunc.block_size = NULL,
                            gufunc.sum_order = NULL, gufunc.lazy_min_length = NULL))
  old <- set_gufunc_threads(1)
  expect_null(old)
  expect_identical(get_gufunc_threads(), 1L)
  expect_identical(set_gufunc_threads(2), 1)
  expect_identical(get_gufunc_threads(), 2L)
  set_gufunc_threads(NULL)
  expect_null(getOption("gufunc.threads"))

  expect_null(get_gufunc_block_size())
  set_gufunc_block_size(4096)
  expect_identical(get_gufunc_block_size(), 4096)
  expect_identical(set_gufunc_block_size(NULL), 4096)
  expect_null(get_gufunc_block_size())

  expect_identical(get_gufunc_lazy_min_length(), 65536)
  set_gufunc_lazy_min_length(10)
  expect_identical(get_gufunc_lazy_min_length(), 10)
  set_gufunc_lazy_min_length(NULL)

  expect_identical(get_gufunc_sum_order(), "exact")
  set_gufunc_sum_order("fast")
  expect_identical(get_gufunc_sum_order(), "fast")
  expect_identical(set_gufunc_sum_order(NULL), "fast")
})

test_that("a bad value is an error naming the setter's call and changes nothing", {
  withr::local_options(list(gufunc.threads = 1))
  e <- tryCatch(set_gufunc_threads(1000), error = function(e) e)
  expect_s3_class(e, "gufunc_argument_error")
  expect_identical(conditionCall(e), quote(set_gufunc_threads(1000)))
  expect_match(conditionMessage(e), "not 1000$")
  expect_identical(getOption("gufunc.threads"), 1)
  expect_error(set_gufunc_block_size(0), "gufunc.block_size", class = "gufunc_argument_error")
  expect_null(getOption("gufunc.block_size"))
  expect_error(set_gufunc_sum_order("quick"), 'not "quick"', class = "gufunc_argument_error")
  expect_error(set_gufunc_lazy_min_length(-5), "not -5", class = "gufunc_argument_error")
})

test_that("the environment variable gives the block size when the option is unset", {
  withr::local_options(list(gufunc.block_size = NULL))
  withr::local_envvar(GUFUNC_BLOCK_SIZE = "2048")
  expect_identical(get_gufunc_block_size(), 2048)
})

test_that("the options page lists every option the code reads", {
  rd <- tools::Rd_db("gufunc")[["gufunc_options.Rd"]]
  page <- paste(as.character(rd), collapse = "")
  for (opt in c("gufunc.threads", "gufunc.block_size", "gufunc.lazy_min_length",
                "gufunc.sum_order", "gufunc.buffer_pool", "gufunc.cache_dir", "gufunc.verbose",
                "GUFUNC_BLOCK_SIZE", "RCPP_PARALLEL_NUM_THREADS", "_R_CHECK_LIMIT_CORES_")) {
    expect_true(grepl(opt, page, fixed = TRUE), label = opt)
  }
})
