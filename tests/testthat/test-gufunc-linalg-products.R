# matmul "(m,n),(n,p)->(m,p)" and inner "(n),(n)->()" against %*% and colSums.

matmul_ref <- function(x, y, len) {
  stack_results(slices_apply(`%*%`, x, y, len = len),
                c(dim(x)[[1L]], dim(y)[[2L]]))
}

test_that("matmul agrees with %*% slice by slice, for every size path", {
  set.seed(11)
  for_threads({
    for (s in list(c(2, 2, 2), c(3, 3, 3), c(4, 4, 4), c(3, 3, 1), c(2, 5, 3), c(7, 1, 4),
                   c(1, 6, 1), c(6, 9, 5))) {
      len <- 257
      x <- array(rnorm(s[1] * s[2] * len), c(s[1], s[2], len))
      y <- array(rnorm(s[2] * s[3] * len), c(s[2], s[3], len))
      expect_values_close(matmul(x, y), matmul_ref(x, y, len))
    }
  })
})

test_that("matmul is fast-path safe on a large stack of 3 x 3 products", {
  set.seed(12)
  x <- array(runif(9 * 20000), c(3, 3, 20000))
  y <- array(runif(9 * 20000), c(3, 3, 20000))
  ref <- matmul_ref(x, y, 20000)
  for_threads(expect_values_close(matmul(x, y), ref))
})

test_that("matmul propagates NA, NaN and Inf as %*% does", {
  set.seed(13)
  x <- array(rnorm(9 * 6), c(3, 3, 6))
  y <- array(rnorm(9 * 6), c(3, 3, 6))
  x[1, 2, 1] <- NA
  x[2, 2, 2] <- NaN
  y[3, 1, 3] <- Inf
  x[1, 1, 4] <- -Inf
  y[1, 1, 4] <- 0
  y[, , 5] <- 0
  x[2, 3, 5] <- Inf
  for_threads(expect_values_close(matmul(x, y), matmul_ref(x, y, 6)))
})

test_that("matmul handles empty loop dims and empty core dims", {
  for_threads({
    expect_identical(matmul(array(0, c(3, 3, 0)), array(0, c(3, 3, 0))),
                     array(0, c(3, 3, 0)))
    expect_identical(matmul(array(1, c(3, 0, 2)), array(1, c(0, 4, 2))),
                     array(0, c(3, 4, 2)))
    expect_identical(matmul(array(1, c(0, 2, 2)), array(1, c(2, 4, 2))),
                     array(0, c(0, 4, 2)))
  })
})

test_that("matmul broadcasts size-1 and missing loop dims", {
  set.seed(14)
  one <- array(rnorm(9), c(3, 3, 1))
  many <- array(rnorm(45), c(3, 3, 5))
  for_threads({
    expect_values_close(matmul(one, many), matmul_ref(one[, , 1], many, 5))
    expect_values_close(matmul(many, one), matmul_ref(many, one[, , 1], 5))
    m <- matrix(rnorm(6), 3, 2)
    expect_values_close(matmul(many, m), matmul_ref(many, m, 5))
    grid <- array(rnorm(9 * 12), c(3, 3, 4, 3))
    row <- array(rnorm(9 * 3), c(3, 3, 1, 3))
    res <- matmul(grid, row)
    expect_identical(dim(res), c(3L, 3L, 4L, 3L))
    for (i in 1:4) for (j in 1:3) {
      expect_equal(res[, , i, j], grid[, , i, j] %*% row[, , 1, j], tolerance = 1e-12)
    }
  })
})

test_that("matmul of plain matrices and vectors gives the dims and dimnames of %*%", {
  x <- matrix(1:6, 2, dimnames = list(c("a", "b"), c("A", "B", "C")))
  y <- matrix(c(0.5, 2, -1, 3, 4, 1), 3, dimnames = list(NULL, c("u", "v")))
  expect_identical(matmul(x, y), x %*% y)
  expect_identical(matmul(unname(x), unname(y)), unname(x) %*% unname(y))
  v <- c(1, 2, 3)
  expect_identical(matmul(x, v), x %*% v)
  expect_identical(matmul(v, y), v %*% y)
  expect_identical(matmul(v, v), v %*% v)
})

test_that("matmul promotes integer and logical input to double", {
  x <- array(1:18, c(3, 3, 2))
  y <- array(c(TRUE, FALSE, NA), c(3, 3, 2))
  res <- matmul(x, y)
  expect_type(res, "double")
  expect_values_close(res, matmul_ref(x, y, 2))
})

test_that("matmul errors name the argument and the dimension", {
  x <- array(0, c(3, 3, 2))
  err <- expect_error(matmul(x, array(0, c(4, 2, 2))), class = "gufunc_shape_error")
  expect_match(conditionMessage(err), "`y` has size 4 in dimension 1 but `x` has size 3")
  expect_match(conditionMessage(err), "core dimension n of matmul", fixed = TRUE)
  err <- expect_error(matmul(x, array(0, c(3, 3, 3))), class = "gufunc_shape_error")
  expect_match(conditionMessage(err), "argument `y`.*do not broadcast")
  expect_error(matmul(x, "a"), class = "gufunc_type_error")
  expect_error(matmul(factor("a"), x), "`x`.*factor")
  expect_error(matmul(array(0, c(2, 2, 2)), matrix(0, 3, 3)), "matmul")
})

test_that("inner is identical() to colSums(x * y)", {
  set.seed(15)
  for_threads({
    for (n in c(1, 3, 8, 33)) {
      x <- matrix(rnorm(n * 500), n)
      y <- matrix(rnorm(n * 500), n)
      expect_identical(inner(x, y), colSums(x * y))
    }
    x <- matrix(rnorm(8 * 9), 8, dimnames = list(NULL, letters[1:9]))
    y <- matrix(c(NA, NaN, Inf, -Inf, 1e300, 1e-300, 0, -0), 8, 9)
    expect_identical(inner(x, y), colSums(x * y))
    expect_identical(inner(y, x), colSums(y * x))
  })
})

test_that("inner of vectors, empty dims, broadcasting and promotion", {
  expect_identical(inner(c(1, 2, 3), c(4, 5, 6)), sum(c(1, 2, 3) * c(4, 5, 6)))
  expect_identical(inner(numeric(0), numeric(0)), 0)
  expect_identical(inner(matrix(0, 0, 4), matrix(0, 0, 4)), rep(0, 4))
  expect_identical(inner(matrix(0, 3, 0), matrix(0, 3, 0)), numeric(0))
  x <- array(as.double(1:24), c(2, 3, 4))
  w <- c(0.5, -2)
  res <- inner(x, w)
  expect_identical(dim(res), c(3L, 4L))
  expect_identical(res, apply(x, c(2, 3), function(v) sum(v * w)))
  expect_identical(inner(1:3, c(TRUE, NA, FALSE)), NA_real_)
  expect_identical(inner(1:3, 4:6), 32)
  err <- expect_error(inner(1:3, 1:4), class = "gufunc_shape_error")
  expect_match(conditionMessage(err), "`y` has size 4.*core dimension n of inner")
})

test_that("matmul() gives NA or NaN as %*% does, and %*%'s named dimnames", {
  expect_identical(matmul(matrix(NA_real_), matrix(NaN)), matrix(NA_real_) %*% matrix(NaN))
  expect_identical(matmul(matrix(NaN), matrix(NA_real_)), matrix(NaN) %*% matrix(NA_real_))
  expect_identical(matmul(matrix(c(NA, NaN), 1), matrix(c(1, 1))), matrix(c(NA, NaN), 1) %*% c(1, 1))
  expect_identical(matmul(matrix(c(Inf, NA), 1), matrix(c(0, 1), 2)),
                   matrix(c(Inf, NA), 1) %*% matrix(c(0, 1), 2))
  set.seed(2)
  v <- c(NA, NaN, Inf, -Inf, 0, 1, -2.5)
  for (k in 1:200) {
    d <- sample(1:5, 3, TRUE)
    a <- matrix(sample(v, d[1] * d[2], TRUE), d[1])
    b <- matrix(sample(v, d[2] * d[3], TRUE), d[2])
    expect_identical(matmul(a, b), a %*% b)
  }
  s <- array(sample(v, 3 * 4 * 50, TRUE), c(3, 4, 50))
  t <- array(sample(v, 4 * 2 * 50, TRUE), c(4, 2, 50))
  r <- matmul(s, t)
  for (k in 1:50) expect_identical(r[, , k], s[, , k] %*% t[, , k])
  a <- matrix(c(1, 2, 3, 4), 2, dimnames = list(R = c("r1", "r2"), C = c("c1", "c2")))
  b <- matrix(c(1, 2, 3, 4), 2, dimnames = list(X = NULL, Y = c("y1", "y2")))
  u <- matrix(c(1, 2, 3, 4), 2, dimnames = list(c("u1", "u2"), NULL))
  for (p in list(list(a, a), list(a, b), list(b, a), list(u, a), list(a, u), list(u, u))) {
    expect_identical(matmul(p[[1]], p[[2]]), p[[1]] %*% p[[2]])
  }
})
