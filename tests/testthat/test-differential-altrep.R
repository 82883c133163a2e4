# Differential tests of the ALTREP entry points R uses on a lazy value (element
# access, regions, the data pointer, duplication on modify, coercion,
# serialization, the sortedness and NA hints, inspect), each reached through
# ordinary base R functions, against the same call on the plain value the lazy
# value stands for. Base R on this machine is the oracle.
#
# Each case f(x) runs several ways, each against base R's f on the plain value:
# - "lazy":     f(lazy(x))                                 against f(x);
# - "deferred": f(lazy(x) * 1) (+ 0L, & TRUE)              against f(x * 1) etc.;
# - "view":     f() of a view of a larger lazy vector or matrix whose subset is x;
# - "reversed": f(rev(lazy(rev(x)))), or f(t(lazy(t(x)))) for a matrix (views
#               that read memory in another order);
# - "file":     f() of the file-backed value materialize(lazy(x), file = <.npy>)
#               (doubles and integers: .npy has no logical type with NA).
# Every wrapped value must be lazy (is_lazy()). Value (lazy values inside the
# result materialized), sorted distinct warnings or the error message must be
# identical (num.eq = FALSE, single.NA = FALSE).
#
# Kinds of values and operations come from (only the kinds are taken; expected
# results are base R's here):
# - wch/r-source tests/reg-tests-1d.R and 1e.R: ALTREP compact sequences and
#   wrapper objects (sort(), is.unsorted(), anyNA(), rev() of 1:n and n:1, the
#   sortedness and no-NA hints after a modification, serialize() of compact
#   sequences, duplicate-on-modify of wrappers); src/main/altclasses.c (what the
#   compact and wrapper classes do on Elt / Get_region / Dataptr / Duplicate /
#   Serialized_state / Is_sorted / No_NA / Inspect);
# - cran/arrow tests/testthat/test-altrep.R ("altrep min/max/sum identical to R
#   versions" with NA and all-NA na.rm warnings and an integer sum past the int
#   range, "altrep vectors handle serialization", "altrep vectors handle
#   coercion", columns of data frames that are ALTREP);
# - rds2cpp's test-altrep.R (compact sequences 1:15, 1020:8489, 99:5, 100:-5
#   and names on them through saveRDS());
# - ALTREP-examples/Rpkg-simplemmap (writeBin() of doubles, then mapping the file)
#   and Akirathan/altrep_tests_package tests/main.R (the same, and the framework
#   checks of Elt / Get_region / Dataptr).
#
# Documented differences (man/lazy.Rd) asserted as documented, not compared:
# identical(lazy, plain) is FALSE (the class), all.equal() with a plain target
# reports the class, is.vector() is FALSE (so writeBin() refuses it, as rle()
# does), storage.mode<- and mode<- keep the class on plain data, rev() of a
# matrix drops dims as in base R.

altrep_reversed <- function(x) {
  if (is.matrix(x)) t(lazy(t(x))) else rev(lazy(rev(x)))
}

# The plain value and the lazy value of each way.
altrep_ways <- function(x, file = TRUE) {
  w <- list(lazy = list(plain = x, lazy = lazy(x)),
            deferred = list(plain = same_value(x), lazy = same_value(lazy(x))),
            view = list(plain = x, lazy = view_of(x)),
            reversed = list(plain = x, lazy = altrep_reversed(x)))
  if (file && typeof(x) %in% c("double", "integer")) {
    f <- tempfile(fileext = ".npy")
    w$file <- list(plain = x, lazy = materialize(lazy(x), file = f))
  }
  w
}

# f(plain, lazy, way) for every value of altrep_inputs and every way of it (lazy
# values made with gufunc.lazy_min_length as set); how many calls.
each_way <- function(f, inputs = altrep_inputs) {
  n <- 0
  for (x in inputs) {
    w <- altrep_ways(x)
    for (way in names(w)) {
      f(w[[way]]$plain, w[[way]]$lazy, way)
      n <- n + 1
    }
  }
  n
}

# add(label, fun, x, file = TRUE): fun(x) every way of altrep_ways() against base
# R's fun on the plain value (helper-differential.R).
altrep_cases <- function(source) ways_cases(source, altrep_ways)

# Values: doubles with NA, NaN, infinities and signed zeros (named), repeated
# doubles, integers with NA and the int extremes, compact sequences both ways
# (rds2cpp's), logicals with NA, all-NA doubles, a matrix with dimnames and an
# integer matrix.
altrep_inputs <- list(
  dbl_named = c(a = 1.5, b = NA, c = NaN, d = -Inf, e = 0, f = -0, g = Inf, h = 2),
  dbl_dups = c(2, 2, NA, 1, 1, NaN, 3),
  int = c(5L, NA, 2L, 2L, -1L, .Machine$integer.max, -.Machine$integer.max),
  seq_up = 1:15,
  seq_down = 99:85,
  seq_neg = 10:-5,
  lgl = c(TRUE, NA, FALSE, TRUE, NA),
  all_na = c(NA_real_, NA_real_, NA_real_),
  mat = matrix(c(1, NA, 3, NaN, 5, -6), 3, dimnames = list(c("r1", "r2", "r3"), c("A", "B"))),
  imat = matrix(c(4L, NA, 3L, 1L, 2L, 2L), 2)
)

# Functions over vectors (element access, regions, subsets of every kind).
access_funs <- list(
  elt2 = function(x) x[[2]],
  elt_last = function(x) x[[length(x)]],
  elt_oob = function(x) x[[length(x) + 1L]],
  pos = function(x) x[c(1, 3, 2)],
  neg = function(x) x[-c(1, 2)],
  neg_last = function(x) x[-length(x)],
  lgl = function(x) x[c(TRUE, NA, FALSE)],
  zero = function(x) x[0],
  zero_mixed = function(x) x[c(0, 2, 0)],
  na_int = function(x) x[NA_integer_],
  na_lgl = function(x) x[NA],
  oob = function(x) x[length(x) + 0:2],
  run = function(x) x[2:4],
  all = function(x) x[],
  subset = function(x) .subset(x, 2:3),
  subset2 = function(x) .subset2(x, 3),
  head = function(x) head(x, 3),
  head_neg = function(x) head(x, -2),
  tail = function(x) tail(x, 2),
  tail_neg = function(x) tail(x, -3),
  for_loop = function(x) { r <- numeric(); for (e in x) r <- c(r, e); r },
  vapply = function(x) vapply(x, function(e) as.double(e) * 2, 0),
  lapply = function(x) lapply(x, identity),
  sapply = function(x) sapply(x, is.na),
  mapply = function(x) mapply(function(a, b) a + b, x, x),
  reduce = function(x) Reduce("+", list(x, x)),
  unclass = function(x) unclass(x),
  as_vector = function(x) as.vector(x),
  c = function(x) c(x, x),
  unlist = function(x) unlist(list(x, x)),
  rev = function(x) rev(x),
  matrix = function(x) matrix(x, 2),
  array = function(x) array(x, c(2, 2, 2)),
  length = function(x) length(x),
  typeof = function(x) typeof(x),
  storage_mode = function(x) storage.mode(x),
  attributes = function(x) attributes(unclass(x))
)

# Sortedness, NA hints, matching and summaries.
order_funs <- list(
  is_unsorted = function(x) is.unsorted(x),
  is_unsorted_strict = function(x) is.unsorted(x, strictly = TRUE),
  is_unsorted_narm = function(x) is.unsorted(x, na.rm = TRUE),
  sort = function(x) sort(x),
  sort_dec = function(x) sort(x, decreasing = TRUE),
  sort_nalast = function(x) sort(x, na.last = TRUE),
  sort_radix = function(x) sort(x, method = "radix"),
  rev_sort = function(x) rev(sort(x)),
  sort_int = function(x) sort.int(unname(x), method = "quick"),
  order = function(x) order(x),
  order_dec = function(x) order(x, decreasing = TRUE),
  order_two = function(x) order(x, -seq_along(x)),
  rank = function(x) rank(x),
  xtfrm = function(x) xtfrm(x),
  any_na = function(x) anyNA(x),
  which_na = function(x) which(is.na(x)),
  match = function(x) match(c(2, NA, NaN, 99), x),
  in_ = function(x) c(1, NA, 85) %in% x,
  unique = function(x) unique(x),
  duplicated = function(x) duplicated(x),
  dup_last = function(x) duplicated(x, fromLast = TRUE),
  any_dup = function(x) anyDuplicated(x),
  tabulate = function(x) tabulate(x, nbins = 10L),
  findInterval = function(x) findInterval(c(0, 2.5), sort(x)),
  sum = function(x) sum(x),
  sum_narm = function(x) sum(x, na.rm = TRUE),
  mean = function(x) mean(x),
  mean_narm = function(x) mean(x, na.rm = TRUE),
  max = function(x) max(x),
  max_narm = function(x) max(x, na.rm = TRUE),
  min_narm = function(x) min(x, na.rm = TRUE),
  range = function(x) range(x),
  which_max = function(x) which.max(x),
  cumsum = function(x) cumsum(x)
)

# Coercion (arrow's coercion test) and serialization round trips.
coerce_funs <- list(
  as_integer = function(x) as.integer(x),
  as_double = function(x) as.double(x),
  as_logical = function(x) as.logical(x),
  as_character = function(x) as.character(x),
  as_complex = function(x) as.complex(x),
  serialize = function(x) unserialize(serialize(x, NULL)),
  serialize_ascii = function(x) unserialize(serialize(x, NULL, ascii = TRUE)),
  serialize_native = function(x) unserialize(serialize(x, NULL, xdr = FALSE)),
  serialize_list = function(x) unserialize(serialize(list(x, x, k = x), NULL)),
  rds = function(x) {
    f <- tempfile(fileext = ".rds")
    on.exit(unlink(f))
    saveRDS(x, f)
    readRDS(f)
  },
  rds_uncompressed = function(x) {
    f <- tempfile(fileext = ".rds")
    on.exit(unlink(f))
    saveRDS(x, f, compress = FALSE)
    readRDS(f)
  },
  save_load = function(x) {
    f <- tempfile(fileext = ".rda")
    on.exit(unlink(f))
    v <- x
    save(v, file = f)
    rm(v)
    e <- new.env()
    load(f, envir = e)
    e$v
  },
  environment = function(x) {
    e <- new.env()
    assign("v", x, envir = e)
    get("v", envir = e)
  },
  list = function(x) list(a = x, b = list(x))
)

test_that("each way of a case is lazy and stands for the plain value", {
  with_options(list(gufunc.lazy_min_length = 0), {
    n <- each_way(function(p, lz, way) {
      expect_true(is_lazy(lz), info = way)
      expect_identical(materialize(lz), p, info = way)
    })
    expect_gte(n, 45)
  })
  # The collector reports a mismatch (a function that tells lazy values apart).
  cases <- altrep_cases("self-check")
  cases$add("tells apart", function(x) is_lazy(x), c(1, 2))
  expect_length(cases$mismatches(), 5L)
})

test_that("element access, regions, subsets, loops and containers agree with base R", {
  cases <- altrep_cases("reg-tests-1d ALTREP / altrep_tests_package Elt, Get_region")
  for (l in names(altrep_inputs)) cases$each(access_funs, altrep_inputs[[l]], paste0(", ", l))
  expect_no_mismatches(cases, length(access_funs) * 45)
})

test_that("matrix element access and regions agree with base R", {
  cases <- altrep_cases("reg-tests-1d ALTREP wrapper dims")
  funs <- list(
    elt_ij = function(m) m[[2, 2]],
    elt_names = function(m) if (is.null(dimnames(m))) m[[1, 1]] else m[["r2", "B"]],
    subset2_ij = function(m) .subset2(m, 1, 2),
    subset_ij = function(m) .subset(m, 1:2, 2),
    row = function(m) m[2, ],
    row_drop = function(m) m[2, , drop = FALSE],
    col_neg = function(m) m[-1, ],
    lgl_rows = function(m) m[c(TRUE, NA), ],
    matrix_index = function(m) m[cbind(c(1, 2), c(2, 1))],
    oob_name = function(m) m[c(1, 2), "zz"],
    head = function(m) head(m, 1),
    tail = function(m) tail(m, -1),
    apply = function(m) apply(m, 2, sum),
    col_sums = function(m) colSums(m, na.rm = TRUE),
    t = function(m) t(m),
    dim_null = function(m) { dim(m) <- NULL; m },
    as_df = function(m) as.data.frame(m),
    split_cols = function(m) split(m, col(m))
  )
  cases$each(funs, altrep_inputs$mat, ", mat")
  cases$each(funs, altrep_inputs$imat, ", imat")
  expect_no_mismatches(cases, length(funs) * 10)
})

test_that("sortedness, NA hints, matching and summaries agree with base R", {
  cases <- altrep_cases("reg-tests-1d compact sequences / arrow min/max/sum")
  for (l in names(altrep_inputs)) cases$each(order_funs, altrep_inputs[[l]], paste0(", ", l))
  # arrow: an integer sum past the int range; rds2cpp: compact sequences
  for (x in list(c(.Machine$integer.max, 1L), c(-.Machine$integer.max, -1L), 1020:1100, 100:-5)) {
    cases$each(order_funs[c("sum", "mean", "is_unsorted", "sort", "order", "match")], x, ", extra")
  }
  expect_no_mismatches(cases, length(order_funs) * 45 + 24 * 4)
})

test_that("coercion, serialization round trips and containers agree with base R", {
  cases <- altrep_cases("arrow serialization, coercion / reg-tests-1d serialize")
  for (l in names(altrep_inputs)) cases$each(coerce_funs, altrep_inputs[[l]], paste0(", ", l))
  expect_no_mismatches(cases, length(coerce_funs) * 45)
})

test_that("saved lazy values read back as lazy values with the plain attributes", {
  withr::local_options(gufunc.lazy_min_length = 0)
  n <- each_way(function(p, lz, way) {
    f <- tempfile(fileext = ".rds")
    saveRDS(lz, f)
    back <- readRDS(f)
    unlink(f)
    expect_true(is_lazy(back), info = way)
    expect_identical(materialize(back), p, info = way)
    back2 <- unserialize(serialize(lz, NULL))
    expect_true(is_lazy(back2), info = way)
    expect_identical(attributes(materialize(back2)), attributes(p), info = way)
  })
  expect_gte(n, 45)
  # ?lazy_file: a value of lazy_file() is saved as its path and maps the file again.
  x <- c(3, NA, 1, NaN, 2, seq_len(1e5))
  raw <- tempfile()
  on.exit(unlink(raw), add = TRUE)
  writeBin(x, raw)
  lf <- lazy_file(raw, type = "double")
  f <- tempfile(fileext = ".rds")
  on.exit(unlink(f), add = TRUE)
  saveRDS(lf, f)
  expect_lt(file.size(f), 10000)
  expect_gt(file.size(raw), 8e5)
  back <- readRDS(f)
  expect_identical(lazy_state(back), "deferred")
  expect_identical(materialize(back), x)
})

test_that("version-2 serialization keeps a lazy value's values and attributes", {
  withr::local_options(gufunc.lazy_min_length = 0)
  n <- each_way(function(p, lz, way) {
    back <- unserialize(serialize(lz, NULL, version = 2))
    expect_identical(materialize(back), p, info = way)
    f <- tempfile(fileext = ".rds")
    saveRDS(lz, f, version = 2)
    expect_identical(materialize(readRDS(f)), p, info = way)
    unlink(f)
  })
  expect_gte(n, 45)
})

test_that("version-2 serialization writes plain data with the class, as ?lazy says", {
  # R's format before 3.5 has no ALTREP classes: the values and every attribute.
  withr::local_options(gufunc.lazy_min_length = 0)
  x <- c(a = 1.5, b = NA, c = NaN)
  for (back in list(unserialize(serialize(lazy(x), NULL, version = 2)),
                    unserialize(serialize(lazy(x) * 1, NULL, version = 2)))) {
    expect_false(is_lazy(back))
    expect_identical(oldClass(back), "gufunc_lazy")
    expect_identical(materialize(back), x * 1)
  }
  expect_true(is_lazy(unserialize(serialize(lazy(x), NULL, version = 3))))
})

test_that("modifying a copy leaves the lazy value and its source unchanged", {
  withr::local_options(gufunc.lazy_min_length = 0)
  n <- 0
  each_way(function(p, lz, way) {
    one <- p[[1]] # a value of the type, so no coercion changes the write
    edits <- list(
      elt = function(v) { v[1] <- one; v[2] <- one; v },
      elt2 = function(v) { v[[2]] <- one; v },
      past_end = function(v) { v[length(v) + 2L] <- one; v },
      run = function(v) { v[2:3] <- one; v },
      mask = function(v) { v[is.na(v)] <- one; v },
      double_value = function(v) { v[1] <- 0.5; v },
      names = function(v) { names(v) <- paste0("n", seq_along(v)); v },
      names_null = function(v) { names(v) <- NULL; v },
      dim = function(v) { dim(v) <- NULL; dim(v) <- c(length(v), 1L); v },
      attributes_null = function(v) { attributes(v) <- NULL; v },
      attributes_list = function(v) { attributes(v) <- list(foo = "bar"); v },
      attr = function(v) { attr(v, "foo") <- 1:2; v },
      is_na = function(v) { is.na(v) <- 1; v },
      loop = function(v) { for (i in seq_along(v)) v[i] <- one; v }
    )
    for (e in names(edits)) {
      y <- lz
      got <- differential_outcome(function() materialize_inside(edits[[e]](y)))
      base <- differential_outcome(function() edits[[e]](p))
      expect_identical(got, base, info = paste(way, e))
      expect_identical(materialize(lz), p, info = paste(way, e, "original"))
      n <<- n + 1
    }
    # modified inside a function: the caller's value is unchanged
    f <- function(v) { v[1] <- one; v[[2]] <- one; length(v) }
    f(lz)
    expect_identical(materialize(lz), p, info = paste(way, "callee"))
    # in a list and in an environment, with another reference
    l <- list(a = lz)
    l$a[1] <- one
    expect_identical(materialize(lz), p, info = paste(way, "list"))
    env <- new.env()
    env$v <- lz
    other <- env$v
    env$v[2] <- one
    expect_identical(materialize(other), p, info = paste(way, "env"))
    expect_identical(materialize(env$v), {q <- p; q[2] <- one; q}, info = paste(way, "env"))
  })
  expect_gte(n, 14 * 45)
})

test_that("a lazy value does not see later writes to its source", {
  withr::local_options(gufunc.lazy_min_length = 0)
  x <- c(1, 2, 3, 4, 5)
  lx <- lazy(x)
  x[1] <- 99
  expect_identical(materialize(lx), c(1, 2, 3, 4, 5))
  x <- c(1, 2, 3, 4, 5)
  v <- lazy(x)[2:4]
  x[3] <- 99
  expect_identical(materialize(v), c(2, 3, 4))
  m <- matrix(as.numeric(1:12), 3)
  tv <- t(lazy(m))
  m[1, 1] <- -1
  expect_identical(materialize(tv), t(matrix(as.numeric(1:12), 3)))
  x <- c(1, 2, 3, 4, 5)
  lx <- lazy(x)
  lx[2] <- 50
  expect_identical(x, c(1, 2, 3, 4, 5))
  # a write into a view leaves the viewed value as it was
  lx <- lazy(c(1, 2, 3, 4, 5))
  v <- lx[2:4]
  v[1] <- 0
  expect_identical(materialize(lx), c(1, 2, 3, 4, 5))
  expect_identical(materialize(v), c(0, 3, 4))
})

test_that("the sortedness and NA hints follow a modification (compact sequences)", {
  withr::local_options(gufunc.lazy_min_length = 0)
  lx <- lazy(1:10)
  y <- lx
  y[5] <- NA
  expect_true(anyNA(y))
  expect_identical(is.unsorted(y), NA)
  expect_false(anyNA(lx))
  expect_false(is.unsorted(lx))
  y <- lx
  y[5] <- 0L
  expect_true(is.unsorted(y))
  expect_identical(sort(y), c(0L, 1:4, 6:10))
  y <- lx
  y[] <- 10:1
  expect_true(is.unsorted(y))
  expect_identical(sort(y), 1:10)
  expect_identical(order(y), 10:1)
  y <- lazy(as.numeric(1:10)) * 1
  y[10] <- NaN
  expect_true(anyNA(y))
  expect_identical(sort(y), as.numeric(1:9))
  # views and expressions of sorted values that are not sorted
  expect_true(is.unsorted(rev(lazy(1:100))))
  expect_identical(sort(rev(lazy(1:100))), 1:100)
  expect_true(is.unsorted(lazy(1:100) * -1L))
  expect_identical(sort(lazy(1:100) * -1L), -(100:1))
  circ <- lazy(1:100)[c(100, 1:99)]
  expect_true(is_lazy(circ))
  expect_true(is.unsorted(circ))
  expect_identical(match(100L, circ), 1L)
  expect_identical(is.unsorted(lazy(1:100) + NA_integer_), NA)
})

test_that("values are computed once: x[[1]] then sum() gives the same results", {
  withr::local_options(gufunc.lazy_min_length = 0)
  n <- each_way(function(p, lz, way) {
    lz <- lz
    p <- p
    first <- lz[[1]]
    s1 <- sum(lz, na.rm = TRUE)
    s2 <- sum(lz, na.rm = TRUE)
    expect_identical(first, p[[1]], info = way)
    expect_identical(s1, sum(p, na.rm = TRUE), info = way)
    expect_identical(s2, s1, info = way)
    expect_identical(sort(lz), sort(p), info = way)
    expect_identical(materialize(lz), p, info = way)
  })
  expect_gte(n, 45)
})

test_that("inspect() and object.size() do not crash on lazy values", {
  withr::local_options(gufunc.lazy_min_length = 0)
  n <- each_way(function(p, lz, way) {
    lz <- lz
    out <- utils::capture.output(.Internal(inspect(lz)))
    expect_gt(length(out), 0L)
    expect_gt(as.numeric(object.size(lz)), 0)
    out <- utils::capture.output(.Internal(inspect(lz * 2)))
    expect_gt(length(out), 0L)
    expect_identical(materialize(lz), p, info = way)
  })
  expect_gte(n, 45)
})

test_that("writeBin() and readBin() (simplemmap): documented refusal and the values", {
  withr::local_options(gufunc.lazy_min_length = 0)
  x <- c(1.5, NA, NaN, -Inf, 0, 2)
  f <- tempfile()
  on.exit(unlink(f), add = TRUE)
  for (lz in list(lazy(x), lazy(x) * 1, view_of(x), rev(lazy(rev(x))))) {
    expect_true(is_lazy(lz))
    # ?lazy: is.vector() is FALSE for a lazy value, so vector-only code refuses it
    expect_false(is.vector(lz))
    expect_error(writeBin(lz, f), "can only write vector objects")
    writeBin(materialize(lz), f)
    expect_identical(readBin(f, "double", 100), x)
  }
  # a file written by writeBin() mapped as a lazy value reads back the values
  writeBin(x, f)
  lf <- lazy_file(f, type = "double")
  expect_true(is_lazy(lf))
  expect_identical(readBin(f, "double", 100), materialize(lf))
  expect_identical(is.unsorted(lf), is.unsorted(x))
  expect_identical(which(is.na(lf)), which(is.na(x)))
})

test_that("identical(), all.equal(), storage.mode<- and mode<- are as documented", {
  withr::local_options(gufunc.lazy_min_length = 0)
  for (x in altrep_inputs) {
    lz <- lazy(x)
    expect_false(identical(lz, x))
    expect_identical(materialize(lz), x)
    expect_true(all.equal(lz, x))
    expect_true(all.equal(lz, lazy(x)))
    # a plain target: the class is reported, as for any classed current value
    expect_identical(all.equal(x, lz), all.equal(x, structure(x, class = "gufunc_lazy")))
    expect_true(is.character(all.equal(x, lz)))
  }
  x <- c(a = 1.5, b = NA, c = -2)
  y <- lazy(x)
  storage.mode(y) <- "integer"
  z <- x
  storage.mode(z) <- "integer"
  expect_false(is_lazy(y))
  expect_s3_class(y, "gufunc_lazy")
  expect_identical(unclass(y), z)
  y <- lazy(x)
  mode(y) <- "character"
  z <- x
  mode(z) <- "character"
  expect_false(is_lazy(y))
  expect_identical(unclass(y), z)
})

test_that("long vectors at the default threshold agree with base R", {
  withr::local_options(gufunc.lazy_min_length = NULL)
  n <- 70000L
  set.seed(11)
  d <- runif(n)
  d[c(3L, 500L, n)] <- c(NA, NaN, NA)
  inputs <- list(seq = seq_len(n), seq_down = n:1, half = as.numeric(seq_len(n)) / 2,
                 int_na = c(seq_len(n - 1L), NA), dbl = d,
                 lgl = rep_len(c(TRUE, NA, FALSE), n))
  funs <- list(
    elt = function(x) x[[length(x)]],
    subset = function(x) x[c(1, length(x), length(x) + 1, NA, 0)],
    is_unsorted = function(x) is.unsorted(x),
    any_na = function(x) anyNA(x),
    sort = function(x) sort(x),
    sort_dec = function(x) sort(x, decreasing = TRUE),
    order = function(x) order(x),
    which_na = function(x) which(is.na(x)),
    match = function(x) match(c(5, n, NA), x),
    unique_len = function(x) length(unique(x)),
    sum = function(x) sum(x),
    mean = function(x) mean(x, na.rm = TRUE),
    max = function(x) max(x, na.rm = TRUE),
    serialize = function(x) unserialize(serialize(x, NULL)),
    vapply = function(x) sum(vapply(x, function(e) is.na(e), NA))
  )
  cases <- altrep_cases("reg-tests-1d long compact sequences")
  for (l in names(inputs)) {
    cases$each(funs, inputs[[l]], paste0(", ", l), file = FALSE, min_length = 65536)
  }
  expect_no_mismatches(cases, length(funs) * 6 * 4)
  # at the default threshold the values are lazy, and so is an operation on them
  expect_true(is_lazy(lazy(d) * 2))
})

test_that("a lazy column of a data frame is read by base R as the plain column", {
  n <- 70000L
  set.seed(12)
  d <- runif(n)
  d[c(10L, 20L)] <- NA
  k <- rep_len(1:4, n)
  check <- function(ldf, df) {
    expect_true(is_lazy(ldf$v))
    expect_identical(summary(ldf), summary(df))
    expect_identical(tapply(ldf$v, ldf$k, sum, na.rm = TRUE), tapply(df$v, df$k, sum, na.rm = TRUE))
    expect_identical(colMeans(ldf, na.rm = TRUE), colMeans(df, na.rm = TRUE))
    expect_identical(sapply(ldf, sum), sapply(df, sum))
    expect_identical(as.matrix(ldf), as.matrix(df))
    expect_identical(materialize_inside(ldf[order(ldf$v), ]), df[order(df$v), ])
    expect_identical(ldf[ldf$k > 2, "v"], df[df$k > 2, "v"])
    expect_identical(materialize_inside(unserialize(serialize(ldf, NULL))), df)
    expect_identical(lapply(split(ldf$v, ldf$k), materialize_inside), split(df$v, df$k))
    expect_identical(materialize_inside(do.call(rbind, list(ldf, ldf))), do.call(rbind, list(df, df)))
    expect_identical(complete.cases(ldf), complete.cases(df))
  }
  # long, at the default threshold
  withr::with_options(list(gufunc.lazy_min_length = NULL), {
    check(data.frame(v = lazy(d) * 2, k = k), data.frame(v = d * 2, k = k))
  })
  # short, with every value lazy
  withr::with_options(list(gufunc.lazy_min_length = 0), {
    s <- c(2.5, NA, 1, NaN, 4, 4)
    check(data.frame(v = lazy(s), k = c(1L, 1L, 2L, 2L, 3L, 3L)),
          data.frame(v = s, k = c(1L, 1L, 2L, 2L, 3L, 3L)))
    ldf <- data.frame(v = lazy(s), k = 1:6)
    df <- data.frame(v = s, k = 1:6)
    expect_identical(materialize_inside(merge(ldf, ldf, by = "k")), merge(df, df, by = "k"))
    expect_identical(aggregate(v ~ k, ldf, sum), aggregate(v ~ k, df, sum))
  })
})
