# det "(n,n)->()" and solve "(n,n),(n,k)->(n,k)" against base R slice by slice, and
# kernel errors that name the failing slice (gufunc_error_at in the C ABI).

test_that("gu_det agrees with det() on random matrices", {
  set.seed(21)
  for_threads({
    for (n in 1:6) {
      x <- random_stack(n, 300, shift = 0.5)
      expect_equal(gu_det(x), vapply(1:300, function(i) det(slice_of(x, i)), 0),
                   tolerance = 1e-12)
    }
    x <- random_stack(3, 40000)
    expect_equal(gu_det(x), apply(x, 3, det), tolerance = 1e-12)
  })
})

test_that("gu_det: singular slices give 0, NA and NaN give NA, Inf propagates", {
  x <- random_stack(3, 6)
  x[, , 1] <- c(1, 2, 3, 2, 4, 6, 0, 1, 5)  # column 2 = 2 * column 1
  x[, , 2] <- 0
  x[2, 2, 3] <- NA
  x[1, 3, 4] <- NaN
  x[, , 5] <- matrix(c(1, Inf, 0, 3, 4, 0, 0, 0, 1), 3)
  d <- gu_det(x)
  expect_identical(d[1:4], c(0, 0, NA_real_, NA_real_))
  expect_identical(d[5], det(x[, , 5]))
  expect_equal(d[6], det(x[, , 6]), tolerance = 1e-12)
  expect_identical(gu_det(matrix(c(1, Inf, 3, 4), 2)), det(matrix(c(1, Inf, 3, 4), 2)))
})

test_that("gu_det: plain matrices, empty dims, promotion, broadcasting shapes", {
  m <- matrix(c(2, 1, 1, 3), 2)
  expect_equal(gu_det(m), det(m), tolerance = 1e-15)
  expect_identical(gu_det(matrix(0, 0, 0)), 1)
  expect_identical(gu_det(array(0, c(3, 3, 0))), numeric(0))
  expect_identical(gu_det(array(0, c(0, 0, 2))), c(1, 1))
  expect_equal(gu_det(matrix(c(2L, 1L, 1L, 3L), 2)), 5, tolerance = 1e-15)
  expect_identical(gu_det(matrix(c(TRUE, FALSE, FALSE, TRUE), 2)), 1)
  expect_identical(dim(gu_det(array(rnorm(4 * 6), c(2, 2, 2, 3)))), c(2L, 3L))
  err <- expect_error(gu_det(array(0, c(2, 3, 4))), class = "gufunc_shape_error")
  expect_match(conditionMessage(err), "`x`.*square.*2 x 3")
  expect_error(gu_det(1:4), class = "gufunc_shape_error")
  expect_error(gu_det("a"), class = "gufunc_type_error")
})

test_that("gu_solve agrees with solve() slice by slice", {
  set.seed(22)
  for_threads({
    for (n in 1:5) {
      a <- random_stack(n, 200)
      b <- array(rnorm(n * 2 * 200), c(n, 2, 200))
      ref <- stack_results(slices_apply(solve, a, b, len = 200), c(n, 2))
      expect_values_close(gu_solve(a, b), ref, tolerance = 1e-10)
      inv <- stack_results(slices_apply(solve, a, len = 200), c(n, n))
      expect_values_close(gu_solve(a), inv, tolerance = 1e-10)
    }
  })
})

test_that("gu_solve: broadcasting, vectors, NA in b, empty dims, dimnames", {
  set.seed(23)
  a <- random_stack(3, 5)
  one <- a[, , 1, drop = FALSE]
  b <- array(rnorm(3 * 4 * 5), c(3, 4, 5))
  ref <- stack_results(slices_apply(solve, one[, , 1], b, len = 5), c(3, 4))
  expect_values_close(gu_solve(one, b), ref, tolerance = 1e-10)
  expect_values_close(gu_solve(a[, , 1], b), ref, tolerance = 1e-10)
  m <- matrix(c(2, 1, 1, 3), 2, dimnames = list(c("a", "b"), c("x", "y")))
  expect_equal(gu_solve(m, c(1, 2)), solve(m, c(1, 2)), tolerance = 1e-14)
  expect_equal(gu_solve(m), solve(m), tolerance = 1e-14)
  rhs <- matrix(1:4, 2, dimnames = list(c("r", "s"), c("u", "v")))
  expect_equal(gu_solve(m, rhs), solve(m, rhs), tolerance = 1e-14)
  res <- gu_solve(a, c(1, 2, 3))
  expect_identical(dim(res), c(3L, 5L))
  expect_equal(res[, 4], solve(a[, , 4], c(1, 2, 3)), tolerance = 1e-10)
  expect_identical(is.na(gu_solve(m, c(NA, 1))), c(x = TRUE, y = TRUE))
  expect_identical(gu_solve(array(0, c(3, 3, 0)), array(0, c(3, 2, 0))), array(0, c(3, 2, 0)))
  expect_identical(gu_solve(matrix(0, 0, 0)), matrix(0, 0, 0))
  expect_equal(gu_solve(matrix(c(2L, 0L, 0L, 4L), 2), c(TRUE, TRUE)), c(0.5, 0.25))
})

test_that("gu_solve: a singular slice is an error naming the slice, as solve() words it", {
  a <- random_stack(3, 30)
  a[, , 17] <- c(1, 2, 3, 2, 4, 6, 0, 1, 5)
  for_threads({
    err <- expect_error(gu_solve(a), class = "gufunc_kernel_error")
    expect_match(conditionMessage(err), "slice [, , 17]", fixed = TRUE)
    expect_match(conditionMessage(err), "exactly singular (pivot U[2,2] = 0)", fixed = TRUE)
    expect_match(conditionMessage(err), "`solve`", fixed = TRUE)
  })
  near <- random_stack(2, 3)
  near[, , 2] <- matrix(c(1, 1, 1, 1 + 2^-52), 2)
  expect_error(solve(near[, , 2]), "computationally singular")
  err <- expect_error(gu_solve(near), "slice \\[, , 2\\].*computationally singular")
  expect_s3_class(err, "gufunc_kernel_error")
  bad <- random_stack(2, 4)
  bad[1, 2, 3] <- NA
  expect_error(gu_solve(bad), "slice \\[, , 3\\].*non-finite")
  expect_error(gu_solve(matrix(0, 2, 2)), "exactly singular \\(pivot U\\[1,1\\] = 0\\)")
})

test_that("a kernel error reports the right slice of a multi-dim loop", {
  set.seed(24)
  for_threads({
    for (where in list(c(2, 3), c(1, 1), c(3, 4), c(3, 1))) {
      a <- array(rnorm(4 * 12), c(2, 2, 3, 4))
      for (i in 1:3) for (j in 1:4) a[, , i, j] <- a[, , i, j] + diag(3, 2)
      a[, , where[1], where[2]] <- 0
      expected <- sprintf("slice [, , %d, %d]", where[1], where[2])
      expect_error(gu_solve(a), expected, fixed = TRUE)
    }
    # the same through broadcasting: the failing slice is indexed in the loop shape
    a <- array(rnorm(4 * 3), c(2, 2, 3, 1))
    for (i in 1:3) a[, , i, 1] <- a[, , i, 1] + diag(3, 2)
    a[, , 2, 1] <- 0
    b <- array(1, c(2, 1, 1, 5))
    expect_error(gu_solve(a, b), "slice [, , 2, 1]", fixed = TRUE)
  })
  # many slices per thread: the error is found wherever the block boundaries fall
  big <- random_stack(2, 50000)
  big[, , 43210] <- 0
  for_threads(expect_error(gu_solve(big), "slice [, , 43210]", fixed = TRUE))
  grid <- array(random_stack(2, 100 * 500), c(2, 2, 100, 500))
  grid[, , 37, 411] <- 0
  for_threads(expect_error(gu_det(grid) + gu_solve(grid), "slice [, , 37, 411]", fixed = TRUE))
  # a size-1 first loop dim: every kernel call is one slice long
  flat <- array(random_stack(2, 30000), c(2, 2, 1, 30000))
  flat[, , 1, 29999] <- 0
  for_threads(expect_error(gu_solve(flat), "slice [, , 1, 29999]", fixed = TRUE))
})

test_that("gu_solve shape errors name the argument and the dimension", {
  a <- random_stack(3, 2)
  err <- expect_error(gu_solve(a, matrix(0, 4, 2)), class = "gufunc_shape_error")
  expect_match(conditionMessage(err), "`b` has size 4 in dimension 1 but `a` has size 3.*core dimension n of solve")
  err <- expect_error(gu_solve(array(0, c(3, 2, 2))), class = "gufunc_shape_error")
  expect_match(conditionMessage(err), "`a`.*square")
  err <- expect_error(gu_solve(a, array(0, c(3, 1, 3))), class = "gufunc_shape_error")
  expect_match(conditionMessage(err), "argument `b`.*broadcast")
  expect_error(gu_solve(a, "x"), class = "gufunc_type_error")
})

test_that("gu_det() keeps the pivots' product within range where det() does", {
  # (1e300 * 1e300 * 1e-300 * 1e-300 is 1 only to within rounding.)
  expect_equal(gu_det(diag(c(1e300, 1e300, 1e-300, 1e-300))), 1, tolerance = 1e-15)
  expect_equal(gu_det(diag(c(1e-200, 1e-200, 1e200, 1e200))), 1, tolerance = 1e-15)
  expect_identical(gu_det(diag(c(1e300, 1e300))), Inf)
  expect_identical(gu_det(diag(c(1e-300, 1e-300))), 0)
  expect_identical(gu_det(diag(c(-1e300, 1e300))), -Inf)
})

test_that("the failing slice an error names is the first, on any number of threads", {
  set.seed(3)
  s <- array(rnorm(9 * 20000), c(3, 3, 20000))
  s[, , 7000] <- 0
  s[1, 1, 12000] <- NA
  for (threads in c(1, 2, 2, 2)) {
    withr::local_options(gufunc.threads = threads)
    expect_error(gu_solve(s), "slice \\[, , 7000\\]", class = "gufunc_kernel_error")
  }
})
