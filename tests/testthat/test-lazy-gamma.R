# gamma() and lgamma() of lazy values: deferred over R's own gammafn and lgammafn,
# whose values are base R's. R's functions warn from inside for a few inputs
# (precision near negative integers below -10, range for the tiniest positive x),
# which worker threads must not: such inputs are base R's on the main thread, with
# its values and warnings (src/r/rmath_kernels.cpp).

gamma_x <- c(grid_double, grid_nan_bits, seq(-9.75, 10, by = 0.25), 0.5 + (-30:30),
             10^(-20:20), -10^(-20:20), 1e-300, 171.6, 171.7, -170.5, -171.5, -200.5,
             1 - 1e-12, -1 + 1e-12, 1e307, -1e10 + 0.5)
# (Without the inputs where R's functions warn: those are below.)
gamma_x <- gamma_x[!(gamma_x > 0 & gamma_x < 1e-300) %in% TRUE]
near_negative_integers <- c(-11 - 1e-9, -25 + 1e-10, -100.0000000001, -169.99999999)
tiniest <- c(1e-310, 5e-324, .Machine$double.xmin)

test_that("gamma() and lgamma() of lazy values are deferred and base R's", {
  for (fn in c("gamma", "lgamma")) {
    f <- get(fn)
    for_engine_settings({
      invisible(lazy_fallbacks(reset = TRUE))
      got <- f(lazy(gamma_x))
      expect_true(is_lazy(got))
      expect_identical(lazy_outcome(got), base_outcome(f(gamma_x)), info = fn)
      expect_length(lazy_fallbacks(reset = TRUE), 0L)
      # Fused with what computes its input, integers and logicals converted.
      expect_identical(lazy_outcome(f(lazy(gamma_x) / 2 + 1) * 2),
                       base_outcome(f(gamma_x / 2 + 1) * 2), info = fn)
      expect_identical(lazy_outcome(f(lazy(c(grid_integer, -3:12)))),
                       base_outcome(f(c(grid_integer, -3:12))), info = fn)
      expect_identical(lazy_outcome(f(lazy(grid_logical))), base_outcome(f(grid_logical)))
    })
  }
  # Attributes as base R's.
  m <- matrix(seq(0.5, 12, by = 0.5), 4, dimnames = list(letters[1:4], NULL))
  expect_identical(materialize(gamma(lazy(m))), gamma(m))
  expect_identical(materialize(lgamma(lazy(m))), lgamma(m))
})

test_that("inputs where R's functions warn are base R's, warnings and all", {
  withr::local_options(gufunc.lazy_min_length = 1)
  for (extra in list(near_negative_integers, tiniest, c(near_negative_integers, tiniest))) {
    x <- c(gamma_x, extra)
    for (fn in c("gamma", "lgamma")) {
      f <- get(fn)
      expect_identical(lazy_outcome(f(lazy(x))), base_outcome(f(x)), info = fn)
      expect_identical(lazy_outcome(f(lazy(x) * 1)), base_outcome(f(x * 1)), info = fn)
    }
  }
  # R's warnings name the user's call.
  w <- tryCatch(gamma(lazy(c(2, 1e-310))), warning = function(w) w)
  expect_identical(conditionMessage(w), "value out of range in 'gammafn'")
  # gufunc_call() gives such inputs to base R too; the kernel itself, reached
  # directly, refuses them with a classed error, not R's warning from a worker thread.
  for (fn in c("gamma", "lgamma")) {
    x <- c(a = 3, b = if (fn == "gamma") 1e-310 else -12 + 1 / 1024)
    expect_identical(base_outcome(gufunc_call(fn, x)), base_outcome(get(fn)(x)), info = fn)
    err <- tryCatch(.Call(gufunc:::C_gufunc_call, fn, list(x), "base", 1L), error = function(e) e)
    expect_s3_class(err, "gufunc_kernel_error")
    expect_match(conditionMessage(err), "base R computes it")
  }
})

test_that("R's functions give no warning of their own outside the zone base R computes", {
  # The zone (src/r/rmath_kernels.cpp) must hold every input where R's gammafn or
  # lgammafn warns from inside: probes near negative integers and near 0.
  near <- unlist(lapply(1:180, function(n) -n + c(-1, 1) %o% c(10^-(1:16), 3 * 10^-(1:16))))
  tiny <- c(10^-(290:323), -10^-(290:323), .Machine$double.xmin * c(0.5, 1, 1.01, 2, 1e8))
  probes <- c(near, tiny, -(1:200) - 0.5)
  for (fn in c("gamma", "lgamma")) {
    f <- get(fn)
    outside <- probes[!vapply(probes, function(x) .Call(gufunc:::C_math_zone, fn, x), TRUE)]
    own <- character()
    for (x in outside) {
      withCallingHandlers(f(x), warning = function(w) {
        if (conditionMessage(w) != "NaNs produced") own <<- c(own, format(x, digits = 17))
        invokeRestart("muffleWarning")
      })
    }
    expect_identical(own, character(), info = fn)
    expect_gt(length(outside), 1000)  # the probes off the zone are many
  }
})
