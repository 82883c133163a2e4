# eigen_symmetric "(n,n)->(n),(n,n)" against eigen(symmetric = TRUE), vectors up to sign.

# Flips each column of `v` to the sign of the matching column of `ref`.
align_signs <- function(v, ref) {
  s <- sign(colSums(v * ref))
  s[s == 0] <- 1
  sweep(v, 2, s, `*`)
}

# All slices at once (one expectation each for values and vectors).
expect_eigen_slices <- function(e, x, tolerance = 1e-10) {
  d <- dim(x)
  ref <- lapply(seq_len(d[[3L]]), function(i) eigen(slice_of(x, i), symmetric = TRUE))
  aligned <- lapply(seq_len(d[[3L]]), function(i) {
    align_signs(slice_of(e$vectors, i), ref[[i]]$vectors)
  })
  expect_equal(e$values, stack_results(lapply(ref, `[[`, "values"), d[[1L]]),
               tolerance = tolerance)
  expect_equal(stack_results(aligned, d[1:2]),
               stack_results(lapply(ref, `[[`, "vectors"), d[1:2]), tolerance = tolerance)
}

test_that("gu_eigen agrees with eigen(symmetric = TRUE) up to the sign of each vector", {
  set.seed(31)
  for_threads({
    for (n in 1:7) {
      x <- symmetric_stack(n, 60)
      e <- gu_eigen(x)
      expect_named(e, c("values", "vectors"))
      expect_identical(dim(e$values), c(n, 60L))
      expect_identical(dim(e$vectors), c(n, n, 60L))
      expect_eigen_slices(e, x)
    }
  })
})

test_that("gu_eigen: values decrease, vectors are orthonormal, a large stack", {
  set.seed(32)
  x <- symmetric_stack(3, 5000)
  for_threads({
    e <- gu_eigen(x)
    expect_true(all(e$values[1, ] >= e$values[2, ] & e$values[2, ] >= e$values[3, ]))
    for (i in c(1, 2500, 5000)) {
      v <- e$vectors[, , i]
      expect_equal(crossprod(v), diag(3), tolerance = 1e-12)
      expect_equal(v %*% diag(e$values[, i]) %*% t(v), x[, , i], tolerance = 1e-12)
    }
  })
})

test_that("gu_eigen uses only the lower triangle, as eigen(symmetric = TRUE)", {
  set.seed(33)
  x <- symmetric_stack(4, 3)
  junk <- x
  for (i in 1:3) junk[, , i][upper.tri(junk[, , i])] <- runif(6, 100, 200)
  expect_equal(gu_eigen(junk), gu_eigen(x), tolerance = 1e-14)
  expect_eigen_slices(gu_eigen(junk), junk)
})

test_that("gu_eigen: plain matrices, repeated eigenvalues, promotion, empty dims", {
  m <- matrix(c(2, 1, 1, 2), 2)
  e <- gu_eigen(m)
  expect_equal(e$values, c(3, 1), tolerance = 1e-14)
  expect_identical(dim(e$vectors), c(2L, 2L))
  expect_equal(abs(e$vectors), matrix(sqrt(0.5), 2, 2), tolerance = 1e-14)
  id <- gu_eigen(diag(3))
  expect_identical(id$values, c(1, 1, 1))
  expect_equal(crossprod(id$vectors), diag(3), tolerance = 1e-15)
  expect_equal(gu_eigen(matrix(c(2L, 1L, 1L, 2L), 2))$values, c(3, 1), tolerance = 1e-14)
  expect_identical(gu_eigen(matrix(TRUE, 1, 1))$values, 1)
  empty <- gu_eigen(array(0, c(3, 3, 0)))
  expect_identical(dim(empty$values), c(3L, 0L))
  expect_identical(dim(empty$vectors), c(3L, 3L, 0L))
  zero <- gu_eigen(array(0, c(0, 0, 2)))
  expect_identical(length(zero$values), 0L)
  grid <- array(0, c(2, 2, 3, 2))
  for (i in 1:3) for (j in 1:2) grid[, , i, j] <- diag(c(i, j))
  g <- gu_eigen(grid)
  expect_identical(dim(g$values), c(2L, 3L, 2L))
  expect_identical(g$values[, 3, 1], c(3, 1))
})

test_that("gu_eigen: NA, NaN or Inf is an error naming the slice; shape errors", {
  x <- symmetric_stack(3, 4)
  x[2, 1, 3] <- NA
  for_threads({
    err <- expect_error(gu_eigen(x), class = "gufunc_kernel_error")
    expect_match(conditionMessage(err), "slice [, , 3]", fixed = TRUE)
    expect_match(conditionMessage(err), "infinite or missing values", fixed = TRUE)
  })
  x[2, 1, 3] <- 0
  x[3, 3, 2] <- Inf
  expect_error(gu_eigen(x), "slice [, , 2]", fixed = TRUE)
  err <- expect_error(gu_eigen(array(0, c(3, 2, 2))), class = "gufunc_shape_error")
  expect_match(conditionMessage(err), "`x`.*square")
  expect_error(gu_eigen(1:3), class = "gufunc_shape_error")
  expect_error(gu_eigen(list(1)), class = "gufunc_type_error")
})

test_that("gu_eigen() scales matrices of very large or very small entries", {
  m <- matrix(c(2, 1, 1, 2), 2)
  for (s in c(1e200, 1e-200, 1e300, 1e-300, 1e150)) {
    g <- gu_eigen(m * s)
    b <- eigen(m * s, symmetric = TRUE)
    expect_equal(g$values, b$values, tolerance = 1e-14, label = s)
    expect_equal(abs(g$vectors), abs(b$vectors), tolerance = 1e-14, label = s)
  }
})
