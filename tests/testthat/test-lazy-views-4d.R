# Subsets and subassignments of arrays of four and five dimensions. A subset whose
# later dimensions continue each other (a[2:5, , , ], a[1:3, 1:2, , ]) is runs at
# up to two regular steps, a lazy view (block_pick() in src/r/array_region.cpp);
# every other subset computes only what it picks. Values, dims, dimnames and drop
# are base R's either way, and so are the arrays after x[...] <- value.

set.seed(41)
dims4 <- c(6L, 5L, 4L, 3L)
array4 <- array(rep_len(c(grid_double, runif(100)), prod(dims4)), dims4,
                dimnames = list(letters[1:6], NULL, paste0("k", 1:4), c("u", "v", "w")))
array4_int <- array(rep_len(grid_integer, prod(dims4)), dims4)
array4_lgl <- array(rep_len(grid_logical, prod(dims4)), dims4)
dims5 <- c(4L, 3L, 2L, 3L, 2L)
array5 <- array(rep_len(c(grid_double, runif(50)), prod(dims5)), dims5)

# The subscripts each dimension of array4 takes in the grid: all, a range, one
# index, equally spaced indices, all but the first.
dimension_subscripts <- function(n) {
  list(quote(expr = ), call(":", 2L, as.integer(n - 1L)), 2L,
       call("seq", 1L, as.integer(n), by = 2L), -1L)
}

# Every combination of those subscripts, as calls x[...].
subscript_grid <- function(dims) {
  choices <- lapply(dims, dimension_subscripts)
  combos <- expand.grid(lapply(choices, seq_along))
  lapply(seq_len(nrow(combos)), function(r) {
    as.call(c(list(as.name("["), as.name("x")),
              Map(function(ch, k) ch[[k]], choices, unlist(combos[r, ]))))
  })
}

grid4 <- subscript_grid(dims4)

test_that("blocks of 4-D and 5-D arrays whose later dimensions continue are lazy views", {
  withr::local_options(gufunc.lazy_min_length = 1)
  views <- list(
    list(quote(x[2:5, , , ]), array4), list(quote(x[1:3, 1:2, , ]), array4),
    list(quote(x[, 2:4, , ]), array4), list(quote(x[, , 2:3, 2:3]), array4),
    list(quote(x[2:5, 2:4, , 3]), array4), list(quote(x[2:5, 2:4, , ]), array4),
    list(quote(x[2:3, , , , ]), array5), list(quote(x[2:3, 2:3, , , ]), array5),
    list(quote(x[, , 2, , 1, drop = FALSE]), array5)
  )
  for (v in views) {
    got <- eval(v[[1]], list(x = lazy(v[[2]])))
    expect_true(is_lazy(got), info = deparse(v[[1]]))
    expect_true(identical_bits(materialize(got), eval(v[[1]], list(x = v[[2]]))),
                info = deparse(v[[1]]))
  }
  # Four levels of runs: not a view, but base R's values all the same.
  s <- quote(x[2:5, 2:4, 2:3, 1:2])
  got <- eval(s, list(x = lazy(array4)))
  expect_false(is_lazy(got))
  expect_identical(got, eval(s, list(x = array4)))
})

test_that("every subset of a 4-D array in the grid is base R's", {
  withr::local_options(gufunc.lazy_min_length = 1)
  for (values in list(array4, array4_int, array4_lgl)) {
    x_lazy <- lazy(values)
    for (s in grid4) {
      want <- eval(s, list(x = values))
      got <- eval(s, list(x = x_lazy))
      expect_true(identical_bits(materialize(got), want), info = deparse(s))
    }
  }
})

test_that("every subassignment of a 4-D array in the grid is base R's", {
  withr::local_options(gufunc.lazy_min_length = 1)
  for (s in grid4) {
    value <- seq_len(length(eval(s, list(x = array4)))) / 7
    # x[...] <- value evaluated in an environment holding x, as a user's code is.
    base_env <- list2env(list(x = array4, value = value))
    eval(call("<-", s, quote(value)), base_env)
    lazy_env <- list2env(list(x = lazy(array4), value = lazy(value)))
    eval(call("<-", s, quote(value)), lazy_env)
    expect_true(identical_bits(materialize(lazy_env$x), base_env$x), info = deparse(s))
  }
})

test_that("views of 4-D arrays fuse on 1 and 2 threads with odd block sizes", {
  shifted_sum <- function(a) a[2:6, , , ] + a[1:5, , , ] * 2 - a[2:6, , , 3:1]
  want <- shifted_sum(array4)
  stepped <- function(a) {
    for (i in 1:3) a[2:5, , , ] <- a[2:5, , , ] / 2 + a[1:4, , , ]
    a
  }
  want_steps <- stepped(array4)
  for_engine_settings({
    expect_true(identical_bits(materialize(shifted_sum(lazy(array4))), want))
    expect_identical(sum(lazy(array5)[2:3, , , , ]), sum(array5[2:3, , , , ]))
    expect_true(identical_bits(materialize(stepped(lazy(array4))), want_steps))
  })
})
