# Differential tests of subsetting and subassignment from material this project
# did not write: the input values and operations of R's own regression tests
# (wch/r-source tests/*.R; each group names its file). Every case runs on the
# plain input and with the input lazy (and, for a vector value, with the value
# lazy, and both), from length 0 on (gufunc.lazy_min_length = 0); value (bit for
# bit, attributes included), sorted distinct warnings or the error message must
# be base R's (differential_outcome(), helper-differential.R), and the lazy input
# must still hold its values afterwards. Only values and operations are taken
# over; the expected results are base R's on this machine.

# Inputs lazy() does not take stay plain (lazyable(), helper-differential.R): the
# case then runs on the other operand.

# A case collector: add(label, x, f, v) compares f(x, v) of base R with f on the
# lazy variants of x and v; mismatches() lists the failing ones as "label: paths".
subset_cases <- function(source) {
  book <- case_log(source)
  run <- function(x, v, f) {
    out <- differential_outcome(function() f(x, v))
    out$input <- if (inherits(x, "gufunc_lazy")) materialize(x) else x
    out
  }
  book$add <- function(label, x, f, v = NULL) {
    force(x)
    force(v)
    bad <- with_options(list(gufunc.lazy_min_length = 0), {
      base <- run(x, v, f)
      variants <- list()
      if (lazyable(x)) variants[["lazy(x)"]] <- list(lazy(x), v)
      if (!is.null(v) && lazyable(v)) {
        variants[["lazy(v)"]] <- list(x, lazy(v))
        if (lazyable(x)) variants[["lazy(x, v)"]] <- list(lazy(x), lazy(v))
      }
      same <- vapply(variants, function(a) {
        got <- run(a[[1]], a[[2]], f)
        identical(got, base, num.eq = FALSE, single.NA = FALSE) &&
          !inherits(got$value, "gufunc_lazy")
      }, NA)
      names(variants)[!same]
    })
    book$note(label, bad)
  }
  book
}

test_that("R's tests/reg-tests-1a.R: NA subscripts, growing, names<-, dims, attributes", {
  cases <- subset_cases("r-source tests/reg-tests-1a.R")
  idx <- c(1, 2, NA, NA, 5, 6)
  big_idx <- c(1:600, NA, NA, 1001:1400)
  for (x in list(c(1, 2, 3, 4, 5, 6), as.numeric(1:3000), 1:3000)) {
    i <- if (length(x) == 6) idx else big_idx
    # NA among the subscripts: one value is allowed, several are an error.
    cases$add("A[idx] <- 27", x, function(x, v) { x[i] <- v; x }, 27)
    cases$add("A[idx] <- 6:1", x, function(x, v) { x[i] <- v; x }, rev(seq_along(i)))
    cases$add("A[idx]", x, function(x, v) x[i])
    m <- matrix(x, ncol = 1)
    cases$add("AA[idx, ] <- 27", m, function(x, v) { x[i, ] <- v; x }, 27)
    cases$add("AA[idx, ] <- 6:1", m, function(x, v) { x[i, ] <- v; x }, as.numeric(seq_along(i)))
    a <- array(x, c(length(x), 1, 1))
    cases$add("AAA[idx, 1, 1] <- 10", a, function(x, v) { x[i, 1, 1] <- v; x }, 10)
    cases$add("AAA[idx, , ] <- 27", a, function(x, v) { x[i, , ] <- v; x }, 27L)
    cases$add("AAA[idx, , ] <- 6:1", a, function(x, v) { x[i, , ] <- v; x }, seq_along(i))
  }
  # Assigning NA and Inf, the second past the end (the vector grows).
  set.seed(2)
  for (n in c(205, 1205)) {
    tt <- c(-100, seq(-2, 2, length.out = n - 4), 100, 1.5, -0.5)
    cases$add("tt[c(2,3,5,7)] <- NA", tt, function(x, v) { x[c(2, 3, 5, 7)] <- v; x }, NA)
    cases$add("tt[300] <- Inf", tt, function(x, v) { x[n + 95] <- v; x }, Inf)
    cases$add("tt[n + 1:3] <- 1:3 (grow by a vector)", tt, function(x, v) { x[length(x) + 1:3] <- v; x }, 1:3)
  }
  cases$add("x <- numeric(0); x[1] <- NA", numeric(0), function(x, v) { x[1] <- v; x }, NA)
  cases$add("names(mm)[2] <- 'y'", 1:2, function(x, v) { names(x)[2] <- v; x }, "y")
  cases$add("c(mm, 3) after names(mm)[2]", 1:2, function(x, v) { names(x)[2] <- "y"; c(x, v) }, 3)
  cases$add("colnames(j)[2] <- 'B'", matrix(1, 2, 2), function(x, v) { x[2, 2] <- v; colnames(x)[2] <- "B"; x }, 2)
  # A zero-extent dimension, with and without drop.
  dn <- list(LETTERS[1:2], letters[1:3], paste0("t", 1:4))
  A. <- array(1:24, dim = 2:4, dimnames = dn)
  cases$add("A.[1, 0, 2]", A., function(x, v) x[1, 0, 2])
  cases$add("A.[1, 0, 2, drop = FALSE]", A., function(x, v) x[1, 0, 2, drop = FALSE])
  cases$add("A.[2, , 3:4]", A., function(x, v) x[2, , 3:4])
  for (d in list(c(2, 3, 2), c(20, 30, 2))) {
    A <- array(seq_len(prod(d)), dim = d)
    cases$add("rownames(A) <- on a 3-d array", A, function(x, v) { rownames(x) <- v; x }, letters[seq_len(d[1])])
    cases$add("colnames(A) <- 1:3 on a 3-d array", A, function(x, v) { colnames(x) <- v; x }, seq_len(d[2]))
  }
  cases$add("a[1, 2] <- NA", matrix(1, 3, 3), function(x, v) { x[1, 2] <- v; x }, NA)
  cases$add("rownames(x) <- factor(c('A', NA))", matrix(1:2, 2), function(x, v) { rownames(x) <- v; x },
            factor(c("A", NA)))
  # An all-FALSE mask still converts x to the value's type.
  for (n in c(2, 40)) {
    A <- matrix(seq_len(n * n), n, n)
    cases$add("A[is.na(A)] <- 0", A, function(x, v) { x[is.na(x)] <- v; x }, 0)
  }
  x <- matrix(1, 2, 2, dimnames = list(c("a", NA), c("a", NA)))
  cases$add("diag(x), NA dimnames", x, function(x, v) diag(x))
  cases$add("diag(x) <- v, NA dimnames", x, function(x, v) { diag(x) <- v; x }, 3:4)
  cases$add("test[2:4] <- ls (error)", 1:10, function(x, v) { x[2:4] <- v; x }, ls)
  cases$add("e[2] <- expression(e)", 1:10, function(x, v) { x[2] <- v; x }, expression(e))
  # Attributes other than names, dim and dimnames are dropped by subsetting but x[].
  cm <- "a comment"
  cases$add("x[, , ] drops attributes", structure(1:8, comm = cm, dim = c(2L, 2L, 2L)), function(x, v) x[, , ])
  cases$add("x[, ] drops attributes", structure(1:8, comm = cm, dim = c(2L, 4L)), function(x, v) x[, ])
  for (n in c(8, 2000)) {
    x <- structure(seq_len(n), names = rep_len(letters, n), comm = cm)
    cases$add("x[] keeps attributes", x, function(x, v) x[])
    cases$add("x[1:8] drops attributes", x, function(x, v) x[1:8])
    cases$add("x[] <- v keeps attributes", x, function(x, v) { x[] <- v; x }, rev(seq_len(n)))
  }
  # A 1-d array with named dimnames.
  z <- array(c(-2:1, 1.4), 5, dimnames = list(D1 = letters[1:5]))
  cases$add("z[2:3], 1-d array", z, function(x, v) x[2:3])
  cases$add("z[-1], 1-d array", z, function(x, v) x[-1])
  cases$add("z['b'], 1-d array", z, function(x, v) x["b"])
  cases$add("names(z), 1-d array", z, function(x, v) names(x))
  cases$add("z[2] <- v, 1-d array", z, function(x, v) { x[2] <- v; x }, 9)
  for (x in list(c(9:20, 1:5, 3:7, 0:8), rep(c(9:20, 1:5, 3:7, 0:8), 40))) {
    cases$add("x[!duplicated(x)]", x, function(x, v) x[!duplicated(x)])
  }
  # The value stays plain: R stores a lazy one as it is, class included (?lazy).
  cases$add("dim(x) <- c(1, 10)", rep(0, 10), function(x, v) { dim(x) <- c(1, 10); x })
  cases$add("dimnames(x) <- list(NULL, NULL)", diag(2), function(x, v) { dimnames(x) <- list(NULL, NULL); x })
  x <- 1:4
  names(x) <- letters[x]
  cases$add("attr(x, 'n') partial match of names", x, function(x, v) attr(x, "n"))
  # Superassignment of elements, names and a block from a nested frame.
  for (e in list(c(a = 1, b = 2), c(a = 1, b = 2, rep(c(z = 0), 1500)))) {
    cases$add("e[2] <<- e[2] + 1; names(f)[2] <<- 'B'", e, function(x, v) {
      local({ x[2] <<- x[2] + v; names(x)[2] <<- "B" }); x
    }, 1)
  }
  cases$add("j[h, h] <<- h; colnames(j)[2] <<- 'B'", matrix(1, 2, 2), function(x, v) {
    local({ h <- 2; x[h, h] <<- v; colnames(x)[2] <<- "B" }); x
  }, 2)
  # A failed subassignment leaves no *tmp* behind.
  cases$add("test[2:4] <- ls leaves no *tmp*", 1:10, function(x, v) {
    tryCatch(x[2:4] <- v, error = function(e) NULL)
    c(exists("*tmp*", inherits = FALSE), x)
  }, ls)
  expect_no_mismatches(cases, 70)
})

test_that("R's tests/reg-tests-1d.R: [[ with a symbol, 0-length subassignment", {
  cases <- subset_cases("r-source tests/reg-tests-1d.R")
  x <- c(a = 2, b = 3)
  cases$add("x[[quote(b)]] <- pi", x, function(x, v) { x[[quote(b)]] <- v; x }, pi)
  cases$add("x[[quote(a)]]", x, function(x, v) x[[quote(a)]])
  cases$add("x[['b']] <- pi", x, function(x, v) { x[["b"]] <- v; x }, pi)
  cases$add("x[['c']] <- pi (new name)", x, function(x, v) { x[["c"]] <- v; x }, pi)
  cases$add("x[[3]] (out of bounds)", x, function(x, v) x[[3]])
  cases$add("x[['zz']] (out of bounds)", x, function(x, v) x[["zz"]])
  n0 <- numeric()
  cases$add("x0[] <- character()", n0, function(x, v) { x[] <- v; x }, character())
  cases$add("x1[1[0]] <- character()", n0, function(x, v) { x[1[0]] <- v; x }, character())
  cases$add("x[] <- numeric()", n0, function(x, v) { x[] <- v; x }, numeric())
  cases$add("x[1] <- numeric()", n0, function(x, v) { x[1] <- v; x }, numeric())
  cases$add("x[1:2] <- list()", 1[0], function(x, v) { x[1:2] <- v; x }, list())
  e0 <- matrix(, 0, 4)
  cases$add("ec[, 1:2] <- list()", e0, function(x, v) { x[, 1:2] <- v; x }, list())
  cases$add("e0[, 1:2] <- logical()", e0, function(x, v) { x[, 1:2] <- v; x }, logical())
  a0 <- array(1L, c(0, 1, 2))
  cases$add("a[, 1, ] <- integer()", a0, function(x, v) { x[, 1, ] <- v; x }, integer())
  # A 1-d array from sort.int() with dimnames: names() are its dimnames.
  x <- sort.int(c(1, 2))
  cases$add("dim(x) <- 2; dimnames(x) <- ...; names(x)", x, function(x, v) {
    dim(x) <- 2; dimnames(x) <- list(v); list(names(x), names(sort.int(x)))
  }, c("a", "b"))
  expect_no_mismatches(cases, 15)
})

test_that("R's tests/array-subset.R: matrix subscripts (numeric, character, NA), names kept", {
  # R's tests/array-subset.R (read from the copy in radfordneal/pqR: the
  # wch/r-source copy is not in the index searched).
  cases <- subset_cases("r-source tests/array-subset.R")
  for (n in c(5, 40)) {
    m <- matrix(seq_len(n * n), ncol = n, dimnames = list(paste0(letters, rep(c("", 1:2), each = 26))[1:n],
                                                          paste0(LETTERS, rep(c("", 1:2), each = 26))[1:n]))
    si <- matrix(c(1, 1, 2, 3, 3, 4), ncol = 2, byrow = TRUE)
    ss <- matrix(c("a", "A", "b", "C", "c", "D"), ncol = 2, byrow = TRUE)
    cases$add("m[si]", m, function(x, v) x[si])
    cases$add("m[ss]", m, function(x, v) x[ss])
    cases$add("m[ss with NA column]", m, function(x, v) x[`[<-`(ss, 2, 2, NA)])
    cases$add("m[ss with NA row]", m, function(x, v) x[`[<-`(ss, 2, 1, NA)])
    cases$add("m[ss unmatched] (error)", m, function(x, v) x[`[<-`(ss, 2, 2, "NOMATCH")])
    mnadim <- m
    rownames(mnadim)[5] <- ""
    cases$add("m[ss with ''] (error)", mnadim, function(x, v) x[`[<-`(ss, 2, 2, "")])
    cases$add("m[si] <- v", m, function(x, v) { x[si] <- v; x }, c(100L, 200L, 300L))
    cases$add("m[ss] <- v", m, function(x, v) { x[ss] <- v; x }, c(100L, 200L, 300L))
    cases$add("m[si] <- 1:2 (recycled, warning)", m, function(x, v) { x[si] <- v; x }, 1:2)
    cases$add("m[si] <- double value", m, function(x, v) { x[si] <- v; x }, c(0.5, 1.5, 2.5))
    cases$add("m[2:3, 2:3]", m, function(x, v) x[2:3, 2:3])
    cases$add("m[2:3, ]", m, function(x, v) x[2:3, ])
    cases$add("m[cbind(0, 1)]", m, function(x, v) x[cbind(c(0, 1), c(1, 2))])
    cases$add("m[cbind(-1, 1)] (error)", m, function(x, v) x[cbind(c(-1, 1), c(1, 2))])
    cases$add("m[cbind(n + 1, 1)] (error)", m, function(x, v) x[cbind(n + 1, 1)])
  }
  dn <- list(letters[1:5], LETTERS[1:5], letters[24:26])
  for (scale in c(1, 20)) {
    a <- array(seq_len(75 * scale), dim = c(5, 5, 3 * scale))
    dimnames(a) <- if (scale == 1) dn else list(dn[[1]], dn[[2]], NULL)
    si <- matrix(c(1, 1, 1, 2, 3, 1, 3, 4, 1, 5, 1, 3), ncol = 3, byrow = TRUE)
    cases$add("a[si], 3-d", a, function(x, v) x[si])
    cases$add("a[si] <- v, 3-d", a, function(x, v) { x[si] <- v; x }, c(100L, 1200L, 1800L, 5500L))
    if (scale == 1) {
      ss <- matrix(c("a", "A", "x", "b", "C", "x", "c", "D", "x", "e", "A", "z"), ncol = 3, byrow = TRUE)
      cases$add("a[ss], 3-d", a, function(x, v) x[ss])
      cases$add("a[ss] <- v, 3-d", a, function(x, v) { x[ss] <- v; x }, c(100L, 1200L, 1800L, 5500L))
      a3 <- a
      dimnames(a3)[2] <- list(NULL)
      cases$add("a3[ss], missing dimnames (error)", a3, function(x, v) x[ss])
    }
  }
  a <- 1:24
  names(a) <- letters[1:24]
  cases$add("a[] keeps names", a, function(x, v) x[])
  cases$add("a[3] keeps its name", a, function(x, v) x[3])
  a <- array(1:24, c(2, 3, 4), dimnames = list(LETTERS[1:2], letters[11:13], LETTERS[11:14]))
  cases$add("a[2, 2:3, 3:4]", a, function(x, v) x[2, 2:3, 3:4])
  cases$add("a[2, 2, ]", a, function(x, v) x[2, 2, ])
  a <- matrix(11:13, 1, 3, dimnames = list("X", letters[1:3]))
  for (f in list(function(x, v) x[1, 2], function(x, v) x[1, 2:2], function(x, v) x[1:1, 2],
                 function(x, v) x[1, ], function(x, v) x[1, 2, drop = FALSE])) {
    cases$add(paste("1 x 3 matrix:", deparse(body(f))), a, f)
  }
  a <- array(11:13, c(1, 3, 1), dimnames = list("X", letters[1:3], "Y"))
  cases$add("a[1, 2, 1], 1 x 3 x 1", a, function(x, v) x[1, 2, 1])
  cases$add("a[1, , 1], 1 x 3 x 1", a, function(x, v) x[1, , 1])
  a <- provideDimnames(array(5, c(2, 5, 2, 5)))
  cases$add("a[1:2, 1:2, 1:2, 1:2], 4-d", a, function(x, v) x[1:2, 1:2, 1:2, 1:2])
  expect_no_mismatches(cases, 45)
})

test_that("R's tests/reg-tests-1e.R: [[]], complex targets, growing arrays, 1-d arrays", {
  cases <- subset_cases("r-source tests/reg-tests-1e.R")
  xx <- c(a = 1, 2:3)
  cases$add("xx[[]] (missing subscript)", xx, function(x, v) x[[]])
  cases$add("xx[[]] <- pi (missing subscript)", xx, function(x, v) { x[[]] <- v; x }, pi)
  cases$add("`[[<-`(x, 1L, v), functional form", xx, function(x, v) `[[<-`(x, 1L, v), 7)
  cases$add("`[<-`(x, 2:3, v), functional form", xx, function(x, v) `[<-`(x, 2:3, v), c(8, 9))
  # Real values into complex vectors and arrays keep a zero imaginary part.
  real <- c(NA, 0L, NA_integer_, 0, NA_real_, NaN, -Inf, Inf)
  m <- length(real)
  for (target in list(complex(m), array(0i, m), array(0i, c(m, 1L)), array(0i, c(m, 1L, 1L)))) {
    k <- length(dim(target))
    cases$add(sprintf("complex target (%d dims)[i] <- real", k), target,
              function(x, v) { for (i in seq_along(v)) x[i] <- v[i]; x }, as.numeric(real))
    cases$add(sprintf("complex target (%d dims)[] <- real", k), target, function(x, v) { x[] <- v; x }, as.numeric(real))
    cases$add(sprintf("complex target (%d dims)[[i]] <- integer", k), target,
              function(x, v) { for (i in seq_along(v)) x[[i]] <- v[[i]]; x }, suppressWarnings(as.integer(real)))
  }
  cases$add("double x[2:3] <- complex (x becomes complex)", c(1, 2, 3), function(x, v) { x[2:3] <- v; x }, c(1i, NA))
  # Growing a matrix past its end drops dim and dimnames.
  for (n in c(25, 1000)) {
    x <- matrix(seq_len(2 * n), n, 2, dimnames = list(NULL, c("a", "b")))
    cases$add("x[51] <- 51L, x a matrix", x, function(x, v) { x[length(x) + 1] <- v; x }, 51L)
    cases$add("x[[51]] <- 51L, x a matrix", x, function(x, v) { x[[length(x) + 1]] <- v; x }, 51L)
  }
  # 1-d arrays with dimnames, assigned by position and by name.
  for (n in c(3, 1500)) {
    x <- array(seq_len(n), dimnames = list(rep_len(letters, n)))
    cases$add("1-d x[1] <- 99", x, function(x, v) { x[1] <- v; x }, 99)
    cases$add("1-d x['a'] <- 100", x, function(x, v) { x["a"] <- v; x }, 100)
    cases$add("1-d x['zz'] <- 100 (new name)", x, function(x, v) { x["zz"] <- v; x }, 100)
  }
  cases$add("matrix(1:6, 2)[3, 1] (out of bounds)", matrix(1:6, nrow = 2), function(x, v) x[3, 1])
  cases$add("matrix(1:6, 2)[3, 1] <- v (out of bounds)", matrix(1:6, 2), function(x, v) { x[3, 1] <- v; x }, 0L)
  cases$add("matrix(1:6, 2)[[3, 1]] (out of bounds)", matrix(1:6, nrow = 2), function(x, v) x[[3, 1]])
  expect_no_mismatches(cases, 30)
})

test_that("cases from the files above, on inputs of over 1000 elements, under each engine setting", {
  # Values and operations of reg-tests-1a.R (NA subscripts), array-subset.R
  # (matrix subscripts, recycled values) and reg-tests-1d.R (x[] <- v).
  cases <- subset_cases("r-source tests/reg-tests-1a.R, array-subset.R, reg-tests-1d.R")
  set.seed(3)
  x <- runif(2401)
  m <- matrix(x, 49, dimnames = list(paste0("r", 1:49), paste0("c", 1:49)))
  si <- cbind(c(1, 2, 3, 49), c(1, 3, 4, 49))
  i_na <- c(1:1200, NA, 2000:2401)
  for_engine_settings({
    cases$add("x[i with NA] <- 27", x, function(x, v) { x[i_na] <- v; x }, 27)
    cases$add("x[i with NA] <- vector (error)", x, function(x, v) { x[i_na] <- v; x }, x[seq_along(i_na)])
    cases$add("m[si] <- v", m, function(x, v) { x[si] <- v; x }, c(-1, -2, -3, -4))
    cases$add("m[si] <- 1:3 (recycled, warning)", m, function(x, v) { x[si] <- v; x }, 1:3)
    cases$add("x[] <- 1:7 (recycled, warning)", x, function(x, v) { x[] <- v; x }, 1:7)
    cases$add("x[2:2000] <- v[1:3] (recycled, warning)", x, function(x, v) { x[2:2000] <- v; x }, c(0.5, 1.5, 2.5))
    cases$add("x[-1] <- x[-2401]", x, function(x, v) { x[-1] <- v; x }, x[-2401])
    # The subscript passed as v: it is lazy in the lazy(v) variants.
    cases$add("x[i with NA]", x, function(x, i) x[i], i_na)
    cases$add("m[si]", m, function(x, i) x[i], si)
    cases$add("x[c(-1, 0, -5)]", x, function(x, i) x[i], c(-1, 0, -5))
    cases$add("x[c(-1, 2)] (error)", x, function(x, i) x[i], c(-1, 2))
    cases$add("x[c(TRUE, FALSE, NA)]", x, function(x, i) x[i], c(TRUE, FALSE, NA))
    cases$add("m[i, j] <- 0 with i lazy", m, function(x, i) { x[i, 3:5] <- 0; x }, c(2, 9, 48))
    cases$add("x[2405] <- 1 (grows)", x, function(x, v) { x[2405] <- v; x }, 1)
    cases$add("m[2:48, c(1, 49)] <- m[1:47, 2:3]", m, function(x, v) { x[2:48, c(1, 49)] <- v; x }, m[1:47, 2:3])
    cases$add("m['r2', ] <- v", m, function(x, v) { x["r2", ] <- v; x }, x[1:49])
    cases$add("m[, 50] (out of bounds)", m, function(x, v) x[, 50])
    cases$add("m[list(1), 1] (invalid type)", m, function(x, v) x[list(1), 1])
    cases$add("diag(m) <- v", m, function(x, v) { diag(x) <- v; x }, x[1:49])
    cases$add("diag(m) <- v[1:2] (error)", m, function(x, v) { diag(x) <- v; x }, c(1, 2))
    cases$add("length(x) <- 2500", x, function(x, v) { length(x) <- v; x }, 2500)
    cases$add("m[1, , drop = FALSE]", m, function(x, v) x[1, , drop = FALSE])
    cases$add("x[[2401, exact = TRUE]]", x, function(x, v) x[[2401, exact = TRUE]])
  })
  expect_no_mismatches(cases, 138)
})
