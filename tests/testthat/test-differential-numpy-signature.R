# Differential tests of gufunc signatures and core-dimension broadcasting, with
# cases (signature strings, shapes, acceptance or refusal, output shapes) taken
# from NumPy's own tests: numpy/_core/tests/test_ufunc.py, class TestUfunc
# (test_signature0 ... test_signature10, test_signature_failure_*,
# test_get_signature, test_inner1d, test_broadcast, test_type_cast,
# test_incontiguous_array, test_axes_argument, test_axis_argument,
# test_keepdims_argument, test_innerwt, test_innerwt_empty, test_cross1d,
# test_can_ignore_signature, test_matrix_multiply,
# test_matrix_multiply_umath_empty, test_euclidean_pdist), the gufuncs of
# numpy/_core/src/umath/_umath_tests.c.src, and NumPy's documented signature
# grammar (frozen "(3)", flexible "(n?)"; the "(n|1)" broadcastable dims of NEP 20
# were never adopted, so NumPy's parser refuses them).
#
# Layout. NumPy's core dims are an operand's TRAILING dims and its loop dims lead;
# gufunc's core dims are the LEADING dims of an R array and its loop dims trail
# (?gufunc, ?linalg). A NumPy shape (l1, ..., lk, c1, ..., cj) is therefore the R
# dim c(c1, ..., cj, lk, ..., l1): the core dims keep their order (so a NumPy
# (m, n) matrix is an R m x n matrix), the loop dims are reversed (NumPy aligns
# loop dims from the right, next to the core; gufunc pads them with 1s at the
# end, also next to the core). np_dim() does this translation. Values are never
# taken from NumPy: the oracle is base R applied slice by slice (slice_oracle()).

# The R dim of a NumPy shape whose last `ncore` dims are core dims.
np_dim <- function(shape, ncore) {
  shape <- as.integer(shape)
  k <- length(shape)
  core <- shape[seq_len(ncore) + k - ncore]
  loops <- shape[seq_len(k - ncore)]
  c(core, rev(loops))
}

# An R array for a NumPy shape, with values `values` (recycled) in R's order.
np_array <- function(shape, ncore, values = NULL) {
  d <- np_dim(shape, ncore)
  if (is.null(values)) values <- seq_len(prod(d)) - 1
  array(rep_len(as.double(values), prod(d)), d)
}

# The oracle: `f` applied with base R to every loop iteration. `ncore[i]` is the
# number of leading (core) dims of argument i that `f` sees; the remaining dims
# broadcast (equal or 1, missing trailing ones are 1). Slices with two or more
# core dims keep them as `dim`. `out_core` is the output's core dims. The result
# has dim c(out_core, loop dims) when that has two or more entries, else it is a
# plain vector. NULL when the loop dims do not broadcast.
slice_oracle <- function(f, args, ncore, out_core) {
  dims <- lapply(args, function(x) if (is.null(dim(x))) length(x) else dim(x))
  loops <- Map(function(d, k) d[-seq_len(k)], dims, ncore)
  rank <- max(0L, lengths(loops))
  padded <- lapply(loops, function(l) c(l, rep(1L, rank - length(l))))
  shape <- integer(rank)
  for (j in seq_len(rank)) {
    sizes <- vapply(padded, function(l) as.integer(l[[j]]), 1L)
    big <- unique(sizes[sizes != 1L])
    if (length(big) > 1L) return(NULL)
    shape[[j]] <- if (length(big)) big else 1L
  }
  n <- prod(shape)
  values <- vector("list", n)
  for (t in seq_len(n)) {
    at <- if (rank) as.vector(arrayInd(t, shape)) else integer()
    slices <- Map(function(x, d, k, l) {
      nl <- length(d) - k
      where <- ifelse(l[seq_len(nl)] == 1L, 1L, at[seq_len(nl)])
      s <- if (length(d) == 1L && k == 1L) {
        as.vector(x)
      } else {
        as.vector(do.call(`[`, c(list(x), lapply(d[seq_len(k)], seq_len), as.list(where), drop = FALSE)))
      }
      if (k >= 2L) dim(s) <- d[seq_len(k)]
      s
    }, args, dims, ncore, loops)
    values[[t]] <- as.vector(do.call(f, unname(slices)))
  }
  y <- unlist(values)
  if (is.null(y)) y <- double()
  out_dim <- c(as.integer(out_core), shape)
  if (length(out_dim) >= 2L) dim(y) <- out_dim
  y
}

# A collector: check(label, got, want) records a mismatch; expect_all() fails on
# any and on too few checked cases (a grid that lost its cases).
case_log <- function() {
  bad <- character()
  n <- 0L
  list(
    check = function(label, got, want, tolerance = NULL) {
      n <<- n + 1L
      ok <- if (is.null(tolerance)) {
        identical(got, want)
      } else {
        identical(dim(got), dim(want)) && isTRUE(all.equal(got, want, tolerance = tolerance))
      }
      if (!ok) bad <<- c(bad, label)
    },
    expect_all = function(min_cases) {
      expect_identical(bad, character())
      expect_gte(n, min_cases)
    }
  )
}

# NumPy's test_signature* compare (num_dims, ixs, flags, sizes) of the parsed core
# signature: the number of core dims per argument, the index of each core dim
# among the distinct dims, per distinct dim the flags SIZE_INFERRED (2, a named
# dim) and CAN_IGNORE (4, a flexible dim), and the frozen size or -1. The same
# four facts, from parse_signature()'s core_dims.
numpy_core_structure <- function(s) {
  labels <- unlist(s$core_dims)
  bare <- sub("?", "", labels, fixed = TRUE)
  distinct <- unique(bare)
  first <- match(distinct, bare)
  frozen <- grepl("^[0-9]+$", distinct)
  flexible <- endsWith(labels[first], "?")
  list(
    num_dims = lengths(s$core_dims),
    ixs = match(bare, distinct) - 1L,
    flags = as.integer(ifelse(frozen, 0L, 2L) + ifelse(flexible, 4L, 0L)),
    sizes = as.numeric(ifelse(frozen, suppressWarnings(as.numeric(distinct)), -1))
  )
}

test_that("test_signature0-10: NumPy's accepted signatures keep their core-dim structure", {
  # signature, nin, nout, num_dims, ixs, flags, sizes (as in NumPy's tests)
  cases <- list(
    list("(i),(i)->()", 2, 1, c(1, 1, 0), c(0, 0), 2, -1),
    list("(),()->()", 2, 1, c(0, 0, 0), integer(), integer(), numeric()),
    list("(i1,i2),(J_1)->(_kAB)", 2, 1, c(2, 1, 1), 0:3, rep(2, 4), rep(-1, 4)),
    list("(i1, i12),   (J_1)->(i12, i2)", 2, 1, c(2, 1, 2), c(0, 1, 2, 1, 3), rep(2, 4),
         rep(-1, 4)),
    list("(n,k),(k,m)->(n,m)", 2, 1, c(2, 2, 2), c(0, 1, 1, 2, 0, 2), rep(2, 3), rep(-1, 3)),
    list("(n?,k),(k,m?)->(n?,m?)", 2, 1, c(2, 2, 2), c(0, 1, 1, 2, 0, 2), c(6, 2, 6),
         rep(-1, 3)),
    list("(3)->()", 1, 1, c(1, 0), 0, 0, 3),
    list("(3),(03,3),(n)->(9)", 3, 1, c(1, 2, 1, 1), c(0, 0, 0, 1, 2), c(0, 2, 0),
         c(3, -1, 9)),
    list("(3?),(3?,3?),(n)->(9)", 3, 1, c(1, 2, 1, 1), c(0, 0, 0, 1, 2), c(4, 2, 0),
         c(3, -1, 9)),
    list("(  3)  -> ( )", 1, 1, c(1, 0), 0, 0, 3),
    list("( 3? ) , (3? ,  3?) ,(n )-> ( 9)", 3, 1, c(1, 2, 1, 1), c(0, 0, 0, 1, 2),
         c(4, 2, 0), c(3, -1, 9))
  )
  for (case in cases) {
    s <- parse_signature(case[[1]])
    info <- paste("signature", case[[1]])
    expect_identical(s$nin, as.integer(case[[2]]), info = info)
    expect_identical(s$nout, as.integer(case[[3]]), info = info)
    got <- numpy_core_structure(s)
    expect_identical(got$num_dims, as.integer(case[[4]]), info = info)
    expect_identical(got$ixs, as.integer(case[[5]]), info = info)
    expect_identical(got$flags, as.integer(case[[6]]), info = info)
    expect_identical(got$sizes, as.numeric(case[[7]]), info = info)
    # The canonical spelling parses back to the same structure.
    expect_identical(numpy_core_structure(parse_signature(format(s))), got, info = info)
  }
  expect_identical(parse_signature("(3),(03,3),(n)->(9)")$core_dims,
                   list("3", c("3", "3"), "n", "9"))
  expect_identical(parse_signature("(3?),(3?,3?),(n)->(9)")$core_dims,
                   list("3?", c("3?", "3?"), "n", "9"))
  expect_gte(length(cases), 11L)
})

test_that("test_signature1: an all-scalar-core gufunc is a plain ufunc (base R recycling)", {
  # NumPy: "(),()->()" disables the core machinery. gufunc documents that such a
  # signature follows base R's recycling and attribute rules (?gufunc).
  plus <- gufunc("double, double -> double", function(x, y) x + y)
  plus_paren <- gufunc("double(), double() -> double()", function(x, y) x + y)
  x <- c(a = 1, b = 2, c = 3, d = 4)
  y <- c(10, 20)
  expect_identical(plus(x, y), x + y)
  expect_identical(plus_paren(x, y), x + y)
  m <- matrix(as.double(1:6), 2)
  expect_identical(plus(m, 0.5), m + 0.5)
  expect_identical(plus(numeric(), 1), numeric() + 1)
  expect_warning(z <- plus(1:3, c(1, 2)), "multiple")
  expect_identical(z, suppressWarnings(1:3 + c(1, 2)))
})

test_that("test_signature_failure_*: NumPy's refused signatures are classed errors", {
  refused <- c(
    "((i)),(i)->()", # test_signature_failure_extra_parenthesis
    "(i),)i(->()", # test_signature_failure_mismatching_parenthesis
    "(i),->()", # test_signature_failure_signature_missing_input_arg
    # NumPy's parser errors: no '->', no '(', unexpected end, zero frozen size,
    # inconsistent '?', ',' followed by ')', missing ',' between arguments.
    "(i),(i)", "i->()", "(i", "(i)->(", "(0)->()", "(00)->()", "(n?),(n)->()",
    "(n),(n?)->()", "(3),(3?)->()", "(i,)->()", "(i)(i)->()", "(i)->()(j)",
    # NEP 20's broadcastable dims were not adopted: NumPy refuses '|'.
    "(n|1),(n|1)->()", "(3|1)->()"
  )
  for (sig in refused) {
    err <- expect_error(parse_signature(sig), class = "gufunc_signature_error", info = sig)
    expect_s3_class(err, "gufunc_error")
    # gufunc() refuses the same layout with a type before each argument.
    typed <- gsub("(", "double(", sig, fixed = TRUE)
    expect_error(gufunc(typed, function(...) 0), class = "gufunc_signature_error", info = typed)
  }
  expect_gte(length(refused), 17L)
})

test_that("test_signature_failure_signature_missing_output_arg: outputs are counted", {
  # NumPy refuses "(i),(i)->()" for a gufunc with two outputs. gufunc counts the
  # outputs from the signature, so the signature states one; a kernel returning
  # two outputs for it is refused when it runs.
  s <- parse_signature("(i),(i)->()")
  expect_identical(c(s$nin, s$nout), c(2L, 1L))
  two <- gufunc("double(i), double(i) -> double()", function(x, y) list(sum(x), sum(y)))
  expect_error(two(1:3, 1:3), class = "gufunc_kernel_result_error")
  one <- gufunc("double(i), double(i) -> double(), double()", function(x, y) sum(x * y))
  expect_error(one(1:3, 1:3), class = "gufunc_kernel_result_error")
})

test_that("test_get_signature: inner's signature is inner1d's '(i),(i)->()'", {
  sig <- gufunc_kernels("inner", "base")$signature
  expect_length(sig, 1L)
  expect_identical(numpy_core_structure(parse_signature(sig)),
                   numpy_core_structure(parse_signature("(i),(i)->()")))
  inner1d <- gufunc("double(i), double(i) -> double()", function(x, y) sum(x * y))
  expect_identical(attr(inner1d, "gufunc")$signature, "double(i), double(i) -> double()")
  expect_identical(numpy_core_structure(parse_signature(attr(inner1d, "gufunc")$signature)),
                   numpy_core_structure(parse_signature("(i),(i)->()")))
})

inner1d_r <- gufunc("double(i), double(i) -> double()", function(x, y) sum(x * y))
inner_oracle <- function(a, b) slice_oracle(function(x, y) sum(x * y), list(a, b), c(1, 1), NULL)

test_that("test_inner1d, test_broadcast: inner1d over stacks broadcasts as NumPy's loops", {
  log <- case_log()
  # NumPy shapes of the two operands (core dim last), accepted by inner1d.
  shapes <- list(
    list(c(2, 3), c(2, 3)), # test_inner1d
    list(6, 6),
    list(c(2, 1, 2), c(1, 2, 2)), # test_broadcast: broadcast
    list(c(2, 1, 2), c(2, 2)), # extend & broadcast loop dimensions
    list(c(3, 3, 3), c(3, 1, 3)), # test_axes/axis/keepdims_argument
    list(c(2, 3, 2), c(2, 1, 2)), # test_output_argument's inputs
    list(c(3, 2), 2), # test_broadcast, output reduction case's inputs
    list(c(0, 4), c(1, 4)), # an empty loop
    list(c(4, 0), c(4, 0)) # empty cores: sums of nothing
  )
  for (sh in shapes) {
    a <- np_array(sh[[1]], 1)
    b <- np_array(sh[[2]], 1, values = seq_len(prod(sh[[2]])) + 1)
    want <- inner_oracle(a, b)
    label <- paste(deparse(sh), collapse = "")
    # The result's R dim is NumPy's result shape with the loop dims reversed.
    pa <- c(rep(1, 3 - length(sh[[1]])), sh[[1]])
    pb <- c(rep(1, 3 - length(sh[[2]])), sh[[2]])
    np_out <- ifelse(pa == 1, pb, pa)
    log$check(paste("oracle dims", label), length(want), as.integer(prod(np_out[1:2])))
    log$check(paste("inner", label), inner(a, b), want)
    log$check(paste("inner1d_r", label), inner1d_r(a, b), want)
    log$check(paste("inner lazy", label), materialize(inner(lazy(a), b)), want)
    log$check(paste("gufunc_call", label), gufunc_call("inner", a, b), want)
  }
  # test_inner1d's values: sum(a * a) over the last NumPy axis.
  a <- np_array(c(2, 3), 1)
  log$check("inner1d (2,3)", inner(a, a), c(5, 50))
  log$check("inner1d (6)", inner(0:5, 0:5), 55)
  # test_broadcast's (2,1,2) x (1,2,2) gives NumPy shape (2,2): R dim c(2, 2).
  r <- inner(np_array(c(2, 1, 2), 1), np_array(c(1, 2, 2), 1))
  log$check("broadcast dim", dim(r), c(2L, 2L))
  log$expect_all(46L)
})

test_that("test_broadcast: core dims never broadcast, loop dims must", {
  # Broadcast in core dimensions: NumPy (4,2) with (4,1).
  a <- np_array(c(4, 2), 1)
  b <- np_array(c(4, 1), 1)
  expect_error(inner(a, b), class = "gufunc_shape_error")
  expect_error(inner1d_r(a, b), class = "gufunc_shape_error")
  expect_error(gufunc_call("inner", a, b), class = "gufunc_shape_error")
  expect_error(inner(lazy(a), b), class = "gufunc_shape_error")
  # Extending core dimensions: NumPy (4,2) with the scalar 7. An R scalar is a
  # vector of length 1, a core of size 1, which does not match 2 either.
  expect_error(inner(a, 7), class = "gufunc_shape_error")
  expect_error(inner1d_r(a, 7), class = "gufunc_shape_error")
  # Loop dims that do not broadcast: NumPy (2,1,1) with (3,1,1).
  a <- np_array(c(2, 1, 1), 1)
  b <- np_array(c(3, 1, 1), 1)
  expect_null(inner_oracle(a, b))
  expect_error(inner(a, b), class = "gufunc_shape_error")
  expect_error(inner1d_r(a, b), class = "gufunc_shape_error")
  expect_error(gufunc_call("inner", a, b), class = "gufunc_shape_error")
})

test_that("test_type_cast: integer and logical operands are promoted to double", {
  a <- matrix(0:5, 3) # NumPy arange(6).reshape(2, 3), short or int
  expect_identical(inner(a, a), colSums(a * a))
  expect_identical(inner1d_r(a, a), colSums(a * a))
  b <- a + 0.1
  expect_identical(inner(a, b), colSums(a * b))
  expect_equal(inner1d_r(a, b), colSums(a * b), tolerance = 1e-14)
  l <- matrix(c(TRUE, FALSE, TRUE, TRUE, TRUE, FALSE), 3)
  expect_identical(inner(l, a), colSums(l * a))
  # A type variable keeps NumPy's integer inner1d integer.
  inner_t <- gufunc("T(i), T(i) -> T", function(x, y) sum(x * y))
  expect_identical(inner_t(a, a), c(5L, 50L))
  expect_identical(inner_t(a, b), colSums(a * b))
})

test_that("test_incontiguous_array: strided views give the sums of their slices", {
  # x = arange(64).reshape(2,2,2,2,2,2): NumPy's x[i1,...,i6] is R's x[i6,...,i1].
  x <- array(0:63, rep(2L, 6))
  a <- x[1, , 1, , 1, ] # NumPy x[:, 0, :, 0, :, 0]
  b <- x[2, , 2, , 2, ] # NumPy x[:, 1, :, 1, :, 1]
  a[1, 1, 1] <- -1L
  # NumPy's result (2, 2), a sum over its last axis: here over R's first dim.
  want <- apply(a * b, c(2, 3), sum)
  storage.mode(want) <- "double"
  expect_identical(inner(a, b), want)
  expect_identical(inner1d_r(a, b), want)
  expect_identical(dim(inner(a, b)), c(2L, 2L))
  # x.T of a (2,3,4): in R the transpose of dim c(4,3,2) is dim c(2,3,4).
  y <- aperm(array(0:23, c(4, 3, 2)))
  y[1, 1, 1] <- -1L
  want <- apply(y * y, c(2, 3), sum)
  storage.mode(want) <- "double"
  expect_identical(inner(y, y), want)
  expect_identical(inner1d_r(y, y), want)
  expect_identical(materialize(inner(lazy(y), lazy(y))), want)
  expect_identical(dim(inner(y, y)), c(3L, 4L))
})

test_that("test_axes_argument, test_axis_argument, test_keepdims_argument: core axes chosen by aperm", {
  # gufunc has no `axes`, `axis` or `keepdims` argument: the core dims are the
  # leading ones, so another axis is chosen by permuting the operand first, and
  # keepdims is a dim<- on the result.
  a <- np_array(c(3, 3, 3), 1, values = 0:26)
  b <- np_array(c(3, 1, 3), 1, values = 10:18)
  bb <- b[, rep(1, 3), , drop = FALSE]
  # default axes: sum over NumPy's last axis, R's first
  expect_identical(inner(a, b), apply(a * bb, c(2, 3), sum))
  expect_identical(inner1d_r(a, b), apply(a * bb, c(2, 3), sum))
  # axes=[0,0]: sum over NumPy's first axis, R's last dim.
  p <- c(3, 1, 2)
  expect_identical(inner(aperm(a, p), aperm(bb, p)), apply(a * bb, c(1, 2), sum))
  expect_identical(inner1d_r(aperm(a, p), aperm(b, p)), apply(a * bb, c(1, 2), sum))
  # keepdims=True: a core dim of size 1 put back in front.
  r <- inner(a, b)
  kept <- array(r, c(1, dim(r)))
  expect_identical(kept, array(apply(a * bb, c(2, 3), sum), c(1, 3, 3)))
  # test_axis_argument's innerwt sanity check: axis=0 of NumPy (2,3) operands.
  innerwt <- gufunc("double(i), double(i), double(i) -> double()", function(a, b, w) sum(a * b * w))
  a2 <- np_array(c(2, 3), 1, 0:5)
  b2 <- np_array(c(2, 3), 1, 10:15)
  w2 <- np_array(c(2, 3), 1, 20:25)
  expect_identical(innerwt(t(a2), t(b2), t(w2)), colSums(t(a2 * b2 * w2)))
  # matrix_multiply with axes=[(1,2),(2,3),(2,3)] is its default: a (2,3,2)
  # and b (2,2,2,1) give NumPy (2,2,3,1), R dim c(3, 1, 2, 2).
  a3 <- np_array(c(2, 3, 2), 2, 0:11)
  b3 <- np_array(c(2, 2, 2, 1), 2, 1:8)
  expect_identical(dim(matmul(a3, b3)), np_dim(c(2, 2, 3, 1), 2))
  expect_identical(matmul(a3, b3),
                   slice_oracle(`%*%`, list(a3, b3), c(2, 2), c(3, 1)))
})

test_that("test_keepdims_argument: det over a stack of scaled identities", {
  # a = eye(3) * arange(4)[:, None, None]: four 3 x 3 slices k * I.
  a <- array(diag(3), c(3, 3, 4)) * rep(0:3, each = 9)
  # base R's det() goes through logarithms (det(8 * diag(3)) is not exactly 8):
  # the oracle is compared to rounding, the exact determinants exactly.
  want <- vapply(1:4, function(k) det(a[, , k]), 0)
  expect_equal(gu_det(a), want, tolerance = 1e-14)
  expect_identical(gu_det(a), c(0, 1, 8, 27))
  expect_identical(gufunc_call("det", a), c(0, 1, 8, 27))
  # keepdims=True would give NumPy (4,1,1): the R dim c(1, 1, 4).
  expect_identical(array(gu_det(a), c(1, 1, 4)), array(c(0, 1, 8, 27), c(1, 1, 4)))
})

test_that("test_innerwt, test_innerwt_empty: three-input '(i),(i),(i)->()'", {
  innerwt <- gufunc("double(i), double(i), double(i) -> double()", function(a, b, w) sum(a * b * w))
  s <- parse_signature("(i),(i),(i)->()")
  expect_identical(numpy_core_structure(s)$ixs, c(0L, 0L, 0L))
  a <- np_array(c(2, 3), 1, 0:5)
  b <- np_array(c(2, 3), 1, 10:15)
  w <- np_array(c(2, 3), 1, 20:25)
  expect_identical(innerwt(a, b, w), colSums(a * b * w))
  a <- np_array(c(2, 3, 4), 1, 100:123)
  b <- np_array(c(2, 3, 4), 1, 200:223)
  w <- np_array(c(2, 3, 4), 1, 300:323)
  want <- apply(a * b * w, c(2, 3), sum)
  expect_identical(innerwt(a, b, w), want)
  expect_identical(dim(innerwt(a, b, w)), c(3L, 2L))
  # Loop dims broadcast across all three inputs.
  w1 <- np_array(c(3, 4), 1, 300:311)
  expect_identical(innerwt(a, b, w1),
                   slice_oracle(function(x, y, z) sum(x * y * z), list(a, b, w1), c(1, 1, 1), NULL))
  # test_innerwt_empty: empty core, no loop: one sum of nothing.
  expect_identical(innerwt(numeric(), numeric(), numeric()), sum(numeric()))
  expect_error(innerwt(1:3, 1:3, 1:4), class = "gufunc_shape_error")
})

test_that("test_cross1d: frozen core dims '(3),(3)->(3)'", {
  cross <- function(u, v) c(u[2] * v[3] - u[3] * v[2], u[3] * v[1] - u[1] * v[3],
                            u[1] * v[2] - u[2] * v[1])
  cross1d <- gufunc("double(3), double(3) -> double(3)", cross)
  a <- diag(3)
  expect_identical(cross1d(a, a), matrix(0, 3, 3))
  expect_identical(cross1d(a, a), slice_oracle(cross, list(a, a), c(1, 1), 3))
  # a[0] against each row of eye(3): rows 0, a[2], -a[1]; here columns.
  r <- cross1d(a[, 1], a)
  expect_identical(r, cbind(c(0, 0, 0), a[, 3], -a[, 2]))
  expect_identical(r, slice_oracle(cross, list(a[, 1], a), c(1, 1), 3))
  # A stack of 2 x 4 pairs.
  set.seed(15)
  u <- array(round(rnorm(3 * 2 * 4), 2), c(3, 2, 4))
  v <- array(round(rnorm(3 * 4), 2), c(3, 1, 4))
  expect_identical(cross1d(u, v), slice_oracle(cross, list(u, v), c(1, 1), 3))
  expect_identical(dim(cross1d(u, v)), c(3L, 2L, 4L))
  # Frozen sizes are checked: eye(4) with eye(4), and eye(3) with arange(4).
  expect_error(cross1d(diag(4), diag(4)), class = "gufunc_shape_error")
  expect_error(cross1d(a, 0:3), class = "gufunc_shape_error")
  expect_error(cross1d(0:3, a), class = "gufunc_shape_error")
  # A frozen dim in an output only has its frozen size.
  three <- gufunc("double(n) -> double(3)", function(x) range(x)[c(1, 2, 2)])
  m <- matrix(as.double(1:8), 4)
  expect_identical(three(m), slice_oracle(function(x) range(x)[c(1, 2, 2)], list(m), 1, 3))
})

test_that("test_euclidean_pdist: a core dim only in outputs has no size", {
  # NumPy refuses euclidean_pdist(a) without an output for "(n,d)->(p)".
  pdist <- gufunc("double(n,d) -> double(p)", function(a) as.vector(dist(a)))
  a <- np_array(c(4, 3), 2, 0:11)
  expect_error(pdist(a), class = "gufunc_shape_error")
  expect_error(pdist(array(a, c(4, 3, 2))), class = "gufunc_shape_error")
  # With p frozen to n (n - 1) / 2 = 6, NumPy's values: the distances of pairs
  # (0,1), (0,2), (0,3), (1,2), (1,3), (2,3), dist()'s order.
  pdist6 <- gufunc("double(n,d) -> double(6)", function(a) as.vector(dist(a)))
  pts <- matrix(0:11, 4, byrow = TRUE) # NumPy arange(12).reshape(4, 3): points are rows
  want <- c(sqrt(27), sqrt(108), sqrt(243), sqrt(27), sqrt(108), sqrt(27))
  expect_equal(pdist6(pts), want, tolerance = 1e-15)
  stack <- array(c(pts, pts * 2), c(4, 3, 2))
  expect_identical(pdist6(stack), slice_oracle(function(a) as.vector(dist(a)), list(stack), 2, 6))
  expect_error(pdist6(pts[1:3, ]), class = "gufunc_kernel_result_error")
})

test_that("test_matrix_multiply: matmul over permuted and sliced stacks", {
  # NumPy's d1 and d2 of shape (2,3,4): every axis permutation of each, sliced
  # to the full range, the first element, or reversed; products where the core
  # dims fit and the loop dim broadcasts. Here the core is the leading two dims.
  set.seed(20240611)
  perms <- list(1:3, c(1, 3, 2), c(2, 1, 3), c(2, 3, 1), c(3, 1, 2), c(3, 2, 1))
  slices <- c(as.list(as.data.frame(t(expand.grid(1:2, 1:2, 1:2)))), list("rev"))
  variants <- function(d) {
    out <- list()
    for (p in perms) {
      x <- aperm(d, p)
      for (s in slices) {
        out[[length(out) + 1L]] <- if (identical(s, "rev")) {
          x[rev(seq_len(dim(x)[1])), rev(seq_len(dim(x)[2])), rev(seq_len(dim(x)[3])),
            drop = FALSE]
        } else {
          idx <- lapply(1:3, function(k) if (s[[k]] == 1L) seq_len(dim(x)[k]) else 1L)
          x[idx[[1]], idx[[2]], idx[[3]], drop = FALSE]
        }
      }
    }
    out
  }
  mm_r <- gufunc("double(m,n), double(n,p) -> double(m,p)", function(x, y) x %*% y)
  for (type in c("int64", "double")) {
    log <- case_log()
    d1 <- array(if (type == "int64") sample(-9:9, 24, TRUE) else runif(24), c(4, 3, 2))
    d2 <- array(if (type == "int64") sample(-9:9, 24, TRUE) else runif(24), c(4, 3, 2))
    v1 <- variants(d1)
    v2 <- variants(d2)
    tol <- if (type == "double") 1e-13
    for (i in seq_along(v1)) for (j in seq_along(v2)) {
      a1 <- v1[[i]]
      a2 <- v2[[j]]
      fits <- dim(a1)[2] == dim(a2)[1] &&
        (dim(a1)[3] == dim(a2)[3] || dim(a1)[3] == 1L || dim(a2)[3] == 1L)
      if (!fits) {
        if (dim(a1)[2] != dim(a2)[1] && i %% 7L == 0L) {
          log$check(sprintf("%s refused %d %d", type, i, j),
                    inherits(tryCatch(matmul(a1, a2), error = identity), "gufunc_shape_error"),
                    TRUE)
        }
        next
      }
      want <- slice_oracle(`%*%`, list(a1, a2), c(2, 2), c(dim(a1)[1], dim(a2)[2]))
      label <- sprintf("%s %d %d", type, i, j)
      log$check(paste("matmul", label), matmul(a1, a2), want, tol)
      if ((i + j) %% 5L == 0L) {
        log$check(paste("R kernel", label), mm_r(a1, a2), want, tol)
        log$check(paste("lazy", label), materialize(matmul(lazy(a1), a2)), want, tol)
      }
    }
    log$expect_all(1200L)
  }
})

test_that("test_matrix_multiply_umath_empty: empty cores", {
  expect_identical(matmul(matrix(1, 0, 10), matrix(1, 10, 0)), matrix(1, 0, 10) %*% matrix(1, 10, 0))
  expect_identical(dim(matmul(matrix(1, 0, 10), matrix(1, 10, 0))), c(0L, 0L))
  expect_identical(matmul(matrix(1, 10, 0), matrix(1, 0, 10)), matrix(0, 10, 10))
  expect_identical(gufunc_call("matmul", matrix(1, 10, 0), matrix(1, 0, 10)), matrix(0, 10, 10))
  # A stack of such products, and an empty stack.
  expect_identical(matmul(array(1, c(10, 0, 3)), array(1, c(0, 10, 1))), array(0, c(10, 10, 3)))
  expect_identical(matmul(array(1, c(2, 3, 0)), array(1, c(3, 4, 1))), array(0, c(2, 4, 0)))
})

test_that("test_can_ignore_signature: flexible dims '(m?,n),(n,p?)->(m?,p?)'", {
  matmul_flex <- gufunc("double(m?,n), double(n,p?) -> double(m?,p?)",
                        function(x, y) as.vector(x %*% y))
  mm_fixed <- gufunc("double(m,n), double(n,p) -> double(m,p)",
                     function(x, y) as.vector(x %*% y))
  prod_slice <- function(x, y) as.vector(x %*% y)
  mat <- np_array(c(2, 3, 2), 2, 0:11) # R dim c(3, 2, 2)
  single_vec <- c(0, 1)
  col_vec <- np_array(c(2, 1), 2, 0:1)
  col_vec_array <- np_array(c(2, 2, 2, 1), 2, 1:8)
  # matrix @ column vector: same for both signatures.
  r <- mm_fixed(mat, col_vec)
  expect_identical(r, slice_oracle(prod_slice, list(mat, col_vec), c(2, 2), c(3, 1)))
  expect_identical(matmul_flex(mat, col_vec), r)
  expect_identical(dim(r), np_dim(c(2, 3, 1), 2))
  # matrix @ vector: refused without '?', a vector per slice with it (p missing).
  expect_error(mm_fixed(mat, single_vec), class = "gufunc_shape_error")
  r <- matmul_flex(mat, single_vec)
  expect_identical(r, slice_oracle(prod_slice, list(mat, single_vec), c(2, 1), 3))
  expect_identical(dim(r), np_dim(c(2, 3), 1)) # NumPy (2, 3): the squeezed product
  expect_identical(as.vector(r), as.vector(mm_fixed(mat, col_vec)))
  # column-vector array: loop dims (2,2) against (2).
  r <- matmul_flex(mat, col_vec_array)
  expect_identical(r, mm_fixed(mat, col_vec_array))
  expect_identical(r, slice_oracle(prod_slice, list(mat, col_vec_array), c(2, 2), c(3, 1)))
  expect_identical(dim(r), np_dim(c(2, 2, 3, 1), 2))
  # row vector @ matrix.
  single_row <- c(0, 1, 2)
  row_vec <- np_array(c(1, 3), 2, 0:2)
  row_vec_array <- np_array(c(4, 2, 1, 1, 3), 2, 1:24)
  r <- mm_fixed(row_vec, mat)
  expect_identical(matmul_flex(row_vec, mat), r)
  expect_identical(dim(r), np_dim(c(2, 1, 2), 2))
  expect_error(mm_fixed(single_row, mat), class = "gufunc_shape_error")
  r <- matmul_flex(single_row, mat)
  expect_identical(r, slice_oracle(prod_slice, list(single_row, mat), c(1, 2), 2))
  expect_identical(dim(r), np_dim(c(2, 2), 1))
  r <- matmul_flex(row_vec_array, mat)
  expect_identical(r, mm_fixed(row_vec_array, mat))
  expect_identical(dim(r), np_dim(c(4, 2, 2, 1, 2), 2))
  expect_identical(r, slice_oracle(prod_slice, list(row_vec_array, mat), c(2, 2), c(1, 2)))
  # row vector @ column vector, and vector @ vector (both flexible dims missing).
  col_vec3 <- t(row_vec)
  expect_identical(matmul_flex(row_vec, col_vec3), mm_fixed(row_vec, col_vec3))
  expect_identical(dim(matmul_flex(row_vec, col_vec3)), c(1L, 1L))
  expect_error(mm_fixed(single_row, single_row), class = "gufunc_shape_error")
  expect_identical(matmul_flex(single_row, single_row), sum(single_row * single_row))
  # row-vector array @ column-vector array (NumPy swapaxes(-2, -1)).
  col_vec_array3 <- aperm(row_vec_array, c(2, 1, 3, 4, 5))
  r <- matmul_flex(row_vec_array, col_vec_array3)
  expect_identical(r, mm_fixed(row_vec_array, col_vec_array3))
  expect_identical(dim(r), np_dim(c(4, 2, 1, 1, 1), 2))
  expect_identical(r, slice_oracle(prod_slice, list(row_vec_array, col_vec_array3),
                                   c(2, 2), c(1, 1)))
})

test_that("matmul() takes plain vectors as %*% does, not as NumPy's matmul (documented)", {
  # NumPy's matmul drops the missing flexible dim of a 1-d operand; gufunc's
  # matmul() documents the %*% convention instead (?linalg): a plain vector x
  # is a one-row matrix and a plain vector y a one-column matrix, and the 1
  # stays in the result. A deliberate, documented difference.
  mat <- np_array(c(2, 3, 2), 2, 0:11)
  r <- matmul(mat, c(0, 1))
  expect_identical(dim(r), c(3L, 1L, 2L)) # NumPy: (2, 3), i.e. R c(3, 2)
  expect_identical(r, slice_oracle(`%*%`, list(mat, c(0, 1)), c(2, 1), c(3, 1)))
  r <- matmul(c(0, 1, 2), mat)
  expect_identical(dim(r), c(1L, 2L, 2L)) # NumPy: (2, 2)
  expect_identical(r, slice_oracle(`%*%`, list(c(0, 1, 2), mat), c(1, 2), c(1, 2)))
  expect_identical(matmul(c(0, 1, 2), c(0, 1, 2)), c(0, 1, 2) %*% c(0, 1, 2)) # NumPy: 5
  # The kernel itself, as NumPy's matrix_multiply "(m,n),(n,p)->(m,p)", refuses
  # an operand without enough dims (test_axes_argument: mm(z, z[0])).
  z <- matrix(0, 2, 2)
  expect_error(gufunc_call("matmul", z, z[1, ]), class = "gufunc_shape_error")
  expect_error(gufunc_call("matmul", z[1, ], z), class = "gufunc_shape_error")
  expect_error(matmul(z, matrix(0, 3, 2)), class = "gufunc_shape_error")
})

test_that("random loop shapes: user gufuncs and builtins broadcast as the slice oracle", {
  # The loop-broadcasting rule of NumPy's test_broadcast and test_matrix_multiply
  # on random stacks: loop dims equal or 1 (0 included), missing ones are 1.
  set.seed(424242)
  kernels <- list(
    list(sig = "double(i), double(i) -> double()", f = function(x, y) sum(x * y),
         core = function(s) list(s$i, s$i), out = function(s) NULL, builtin = inner),
    list(sig = "double(m,n), double(n,p) -> double(m,p)", f = function(x, y) x %*% y,
         core = function(s) list(c(s$m, s$n), c(s$n, s$p)), out = function(s) c(s$m, s$p),
         builtin = matmul),
    list(sig = "double(n), double(n,n) -> double(n)", f = function(x, y) y %*% x,
         core = function(s) list(s$n, c(s$n, s$n)), out = function(s) s$n, builtin = NULL),
    list(sig = "double(3), double(3) -> double(3)", f = function(x, y) x * rev(y),
         core = function(s) list(3, 3), out = function(s) 3, builtin = NULL),
    list(sig = "double(i) -> double(i), double()", f = function(x) list(cumsum(x), sum(x)),
         core = function(s) list(s$i), out = NULL, builtin = NULL)
  )
  log <- case_log()
  refused <- 0L
  for (iteration in 1:120) {
    k <- kernels[[(iteration - 1L) %% length(kernels) + 1L]]
    s <- list(i = sample(0:3, 1), m = sample(1:3, 1), n = sample(1:3, 1), p = sample(1:3, 1))
    cores <- k$core(s)
    nin <- length(cores)
    rank <- sample(0:3, 1)
    full <- sample(0:3, rank, replace = TRUE)
    args <- lapply(cores, function(core) {
      nl <- sample(0:rank, 1)
      loops <- full[seq_len(nl)]
      # some loop dims 1, and now and then a mismatching size
      loops[runif(nl) < 0.3] <- 1L
      if (nl && runif(1) < 0.08) loops[[1]] <- loops[[1]] + 1L
      d <- c(core, loops)
      x <- round(rnorm(prod(d)), 1)
      if (length(d) >= 2L) dim(x) <- d
      x
    })
    gu <- gufunc(k$sig, k$f)
    label <- sprintf("%d %s %s", iteration, k$sig,
                     paste(vapply(args, function(a) paste(if (is.null(dim(a))) length(a) else dim(a), collapse = "x"), ""),
                           collapse = " ; "))
    if (is.null(k$out)) {
      want <- list(slice_oracle(function(x) cumsum(x), args, 1, s$i),
                   slice_oracle(function(x) sum(x), args, 1, NULL))
      if (is.null(want[[1]])) want <- NULL
    } else {
      want <- slice_oracle(k$f, args, lengths(cores), k$out(s))
    }
    got <- tryCatch(do.call(gu, args), gufunc_shape_error = function(e) NULL)
    if (is.null(want)) refused <- refused + 1L
    log$check(paste("R kernel", label), got, want, tolerance = 1e-12)
    if (!is.null(k$builtin)) {
      got <- tryCatch(do.call(k$builtin, args), gufunc_shape_error = function(e) NULL)
      log$check(paste("builtin", label), got, want, tolerance = 1e-12)
      got <- tryCatch(materialize(do.call(k$builtin, c(list(lazy(args[[1]])), args[-1]))),
                      gufunc_shape_error = function(e) NULL)
      log$check(paste("builtin lazy", label), got, want, tolerance = 1e-12)
    }
  }
  log$expect_all(160L)
  expect_gte(refused, 3L)
})

test_that("flexible dims: NumPy drops a missing flexible dim from every operand", {
  # NumPy's _validate_num_dims: "(m?,n?)" on a 1-d operand drops m only (n is
  # the operand's dim); "(n?),(n?,k)->(k)" with a 1-d second operand drops n
  # everywhere, so the first operand's dim becomes a loop dim.
  f <- gufunc("double(m?,n?) -> double(m?,n?)", function(x) x * 2)
  expect_identical(f(c(1, 2, 3)), c(2, 4, 6))
  g <- gufunc("double(n?), double(n?,k) -> double(k)", function(x, y) x * y)
  expect_identical(g(1:4, 1:5), outer(1:5, 1:4) + 0)
})
