# Blocks of three-dimensional arrays (a[i:j, k:l, m:n]: runs in planes, View's
# plane_columns in engine/graph.hpp) are lazy views: their values, attributes and
# everything computed from them are base R's.

set.seed(23)
dims <- c(13L, 11L, 9L)
cube <- array(rep_len(c(grid_double, runif(500)), prod(dims)), dims,
              dimnames = list(NULL, letters[1:11], paste0("p", 1:9)))
cube_int <- array(rep_len(grid_integer, prod(dims)), dims)
cube_lgl <- array(rep_len(grid_logical, prod(dims)), dims)

block_subscripts <- list(
  quote(x[2:12, 2:10, 2:8]),
  quote(x[1:5, 3:4, 6:9]),
  quote(x[-1, -11, -(1:2)]),
  quote(x[2:3, seq(1, 11, by = 2), seq(2, 9, by = 3)]),
  quote(x[4:13, 2:11, 2:9, drop = FALSE]),
  quote(x[, 2:10, 2:8]), # whole columns: two levels
  quote(x[2:12, , 2:8]), # whole planes of columns
  quote(x[2:12, 5, 2:8]), # one column per plane
  quote(x[7, 2:10, 2:8]) # one row: runs of one element
)

test_that("blocks of three-dimensional arrays are lazy views with base R's values", {
  withr::local_options(gufunc.lazy_min_length = 1)
  for (values in list(cube, cube_int, cube_lgl)) {
    for (s in block_subscripts) {
      want <- eval(s, list(x = values))
      got <- eval(s, list(x = lazy(values)))
      expect_true(is_lazy(got), info = deparse(s))
      expect_true(identical_bits(materialize(got), want), info = deparse(s))
    }
  }
})

test_that("expressions over three-dimensional views fuse and give base R's results", {
  stencil <- function(a) {
    n <- dim(a)
    total <- 0
    for (i in 0:2) for (j in 0:2) for (k in 0:2) {
      total <- total + a[(1:(n[1] - 2)) + i, (1:(n[2] - 2)) + j, (1:(n[3] - 2)) + k]
    }
    total / 27
  }
  want <- stencil(cube)
  for_engine_settings({
    expect_true(identical_bits(materialize(stencil(lazy(cube))), want))
    expect_identical(sum(lazy(cube)[2:12, 2:10, 2:8]), sum(cube[2:12, 2:10, 2:8]))
    # Integer overflow: base R's NAs and its one warning.
    expect_identical(
      lazy_outcome(lazy(cube_int)[2:12, 2:10, 2:8] * 2L - lazy(cube_int)[1:11, 1:9, 1:7]),
      base_outcome(cube_int[2:12, 2:10, 2:8] * 2L - cube_int[1:11, 1:9, 1:7])
    )
  })
  plan <- withr::with_options(
    list(gufunc.lazy_min_length = 1),
    format(lazy_plan(lazy(cube)[2:12, 2:10, 2:8] + 1))
  )
  expect_true(any(grepl("7 planes of 9 columns of 11 elements", plan)))
  # The plan as R code reads the same positions of the cube.
  code <- withr::with_options(list(gufunc.lazy_min_length = 1), {
    y <- lazy(cube)[2:12, 2:10, 2:8] * 2
    format(lazy_plan(y), "r")
  })
  expect_identical(
    eval(parse(text = code), list(cube = cube), baseenv()),
    cube[2:12, 2:10, 2:8] * 2
  )
})

test_that("views of views, of deferred values and of pending writes are base R's", {
  withr::local_options(gufunc.lazy_min_length = 1)
  x <- lazy(cube)
  inner <- x[2:12, 2:10, 2:8]
  expect_identical(materialize(inner[2:5, , 3]), cube[2:12, 2:10, 2:8][2:5, , 3])
  expect_identical(materialize(inner[-1, -1, -1]), cube[2:12, 2:10, 2:8][-1, -1, -1])
  expect_identical(materialize(t(inner[, , 1])), t(cube[2:12, 2:10, 2:8][, , 1]))
  deferred <- sqrt(abs(x)) + 1
  expect_identical(
    materialize(deferred[2:12, 2:10, 2:8]),
    (sqrt(abs(cube)) + 1)[2:12, 2:10, 2:8]
  )
  written <- x
  written[, , 5] <- 0
  base <- cube
  base[, , 5] <- 0
  expect_identical(materialize(written[2:12, 2:10, 2:8]), base[2:12, 2:10, 2:8])
  # A write into a block in planes (deferred: test-lazy-assign-planes.R).
  written[2:12, 2:10, 2:8] <- x[1:11, 1:9, 1:7] * 2
  base[2:12, 2:10, 2:8] <- cube[1:11, 1:9, 1:7] * 2
  expect_identical(materialize(written), base)
})

test_that("blocks of compact sequences and of files are read as base R's", {
  seq_cube <- array(seq_len(prod(dims)), dims)
  expect_identical(materialize(lazy(seq_cube)[2:12, 2:10, 2:8] + 0L), seq_cube[2:12, 2:10, 2:8])
  dir <- withr::local_tempdir()
  path <- file.path(dir, "cube.npy")
  materialize(lazy(cube) + 0, file = path)
  f <- lazy_file(path)
  expect_identical(materialize(f[2:12, 2:10, 2:8] * 2), unname(cube)[2:12, 2:10, 2:8] * 2)
})
