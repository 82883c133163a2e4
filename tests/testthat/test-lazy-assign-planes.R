# Subassignments of blocks in planes (a[i:j, k:l, m:n] <- v, and blocks of arrays
# of more dimensions that make three levels of runs) are deferred like the others
# (engine::Region's planes): the new version is base R's array, whatever reads it
# and whenever it is computed.

set.seed(29)
dims <- c(13L, 11L, 9L)
cube <- array(rep_len(c(grid_double, runif(500)), prod(dims)), dims,
              dimnames = list(NULL, letters[1:11], paste0("p", 1:9)))
cube_int <- array(rep_len(c(grid_integer, 1:50), prod(dims)), dims)
cube_lgl <- array(rep_len(grid_logical, prod(dims)), dims)

plane_blocks <- list(
  quote(x[2:12, 2:10, 2:8]),
  quote(x[1:5, 3:4, 6:9]),
  quote(x[-1, -11, -(1:2)]),
  quote(x[2:12, 5:6, seq(1, 9, by = 2)]),
  quote(x[4:13, seq(2, 11, by = 3), 2:9])
)

# x[...] <- value in an environment holding x, as a user's code runs it; x after it.
assigned <- function(x, s, value) {
  env <- list2env(list(x = x, value = value))
  eval(call("<-", s, quote(value)), env)
  env$x
}

test_that("writes of blocks in planes are deferred and give base R's arrays", {
  withr::local_options(gufunc.lazy_min_length = 1)
  for (values in list(cube, cube_int, cube_lgl)) {
    for (s in plane_blocks) {
      n <- length(eval(s, list(x = values)))
      value <- rep_len(rev(values), n)
      want <- assigned(values, s, value)
      invisible(lazy_fallbacks(reset = TRUE))
      got <- assigned(lazy(values), s, lazy(value))
      expect_length(lazy_fallbacks(reset = TRUE), 0L)
      expect_true(is_lazy(got), info = deparse(s))
      expect_true(identical_bits(materialize(got), want), info = deparse(s))
      # One value, and a plain value.
      expect_true(identical_bits(materialize(assigned(lazy(values), s, values[[3]])),
                                 assigned(values, s, values[[3]])), info = deparse(s))
      expect_true(identical_bits(materialize(assigned(lazy(values), s, value)), want),
                  info = deparse(s))
    }
  }
})

test_that("a block in planes written from overlapping blocks of itself is base R's", {
  stencil_step <- function(a) {
    a[2:12, 2:10, 2:8] <- (a[1:11, 1:9, 1:7] + a[3:13, 3:11, 3:9]) / 2 - a[2:12, 2:10, 2:8]
    a
  }
  steps <- function(a, k) {
    for (i in seq_len(k)) a <- stencil_step(a)
    a
  }
  want <- steps(cube, 4)
  want_int <- steps(cube_int %/% 4L, 2)
  for_engine_settings({
    expect_true(identical_bits(materialize(steps(lazy(cube), 4)), want))
    expect_identical(materialize(steps(lazy(cube_int %/% 4L), 2)), want_int)
  })
})

test_that("views of pending writes in planes read base R's values", {
  withr::local_options(gufunc.lazy_min_length = 1)
  written <- lazy(cube)
  written[2:12, 2:10, 2:8] <- lazy(cube)[1:11, 1:9, 1:7] * 2
  base <- cube
  base[2:12, 2:10, 2:8] <- cube[1:11, 1:9, 1:7] * 2
  reads <- list(
    quote(x[3:5, 4:6, 3:4]), # inside the write
    quote(x[2:12, 2:10, 5]), # one plane of it
    quote(x[1, , ]), # outside in part
    quote(x[, , 1]), # outside
    quote(x[, , 3:4]), # one run from the gap after a plane into the next
    quote(x[, , 9]), # after it
    quote(x[1:13, 1:11, 1:9]), # across it
    quote(x[2:12, 2:10, 2:8]), # the block itself
    quote(x[12:13, 10:11, 8:9]) # its last corner and past it
  )
  for (r in reads) {
    expect_true(identical_bits(materialize(eval(r, list(x = written))), eval(r, list(x = base))),
                info = deparse(r))
  }
  expect_identical(sum(written), sum(base))
  # A value in memory: picks inside one plane of the write read it (a new version
  # each time: a pick across the write computes the version it reads).
  for (r in reads) {
    held <- lazy(cube)
    held[2:12, 2:10, 2:8] <- base[2:12, 2:10, 2:8]
    expect_true(identical_bits(materialize(eval(r, list(x = held))), eval(r, list(x = base))),
                info = paste("in memory:", deparse(r)))
  }
  # Two more writes on top, one of them across the planes of the first.
  written[5, , ] <- -1
  base[5, , ] <- -1
  written[, 3:4, 2:3] <- written[, 5:6, 7:8]
  base[, 3:4, 2:3] <- base[, 5:6, 7:8]
  expect_identical(materialize(written), base)
})

test_that("one value written in planes and read by an expression is base R's", {
  # The write is a step of the expression's kernel (a patch of each block).
  zeroed <- function(a) {
    a[2:12, 2:10, 2:8] <- 0
    a * 2 + 1
  }
  want <- zeroed(cube)
  for_engine_settings({
    expect_true(identical_bits(materialize(zeroed(lazy(cube))), want))
  })
})

test_that("integer overflow in a value written in planes warns as base R's", {
  big <- cube_int
  big[] <- .Machine$integer.max - 3L
  write <- function(a) {
    a[2:12, 2:10, 2:8] <- a[1:11, 1:9, 1:7] + a[3:13, 3:11, 3:9]
    a
  }
  for_engine_settings({
    expect_identical(lazy_outcome(write(lazy(big))), base_outcome(write(big)))
  })
})

test_that("lazy_plan() describes a write in planes and writes it as R code", {
  withr::local_options(gufunc.lazy_min_length = 1)
  y <- lazy(cube)
  y[2:12, 2:10, 2:8] <- y[1:11, 1:9, 1:7] * 2
  plan <- lazy_plan(y)
  expect_true(any(grepl("7 planes, 143 apart, of 9 runs of 11 elements, 13 apart,",
                        format(plan), fixed = TRUE)))
  base <- cube
  base[2:12, 2:10, 2:8] <- cube[1:11, 1:9, 1:7] * 2
  code <- format(plan, "r")
  ran <- eval(parse(text = code), list(cube = cube), baseenv())
  expect_identical(ran, base)
})

test_that("blocks of 4-D arrays that make planes are written deferred", {
  withr::local_options(gufunc.lazy_min_length = 1)
  a4 <- array(rep_len(c(grid_double, runif(40)), 6 * 5 * 4 * 3), c(6, 5, 4, 3))
  s <- quote(x[2:5, 2:4, , ]) # runs of 4, 3 columns, 12 planes
  value <- seq_len(4 * 3 * 12) / 3
  invisible(lazy_fallbacks(reset = TRUE))
  got <- assigned(lazy(a4), s, lazy(value))
  expect_length(lazy_fallbacks(reset = TRUE), 0L)
  expect_true(identical_bits(materialize(got), assigned(a4, s, value)))
})
