# Differential tests whose inputs and operations come from the unit tests of
# Bioconductor's DelayedArray package (inst/unitTests/), which checks a deferred
# array against base R. Each call runs in base R and with every non-empty set of
# its array operands lazy (helper-differential.R); values are compared bit for
# bit with attributes, together with warnings and errors. Only values and
# operations are taken over; the expected results are base R's.

arith <- c("+", "-", "*", "/", "^", "%%", "%/%")
relop <- c("==", "!=", "<=", ">=", "<", ">")

# Deep materialization: lists (apply, split, ...) may hold lazy elements.
plain <- function(v) {
  if (inherits(v, "gufunc_lazy")) return(materialize(v))
  if (is.list(v)) v[] <- lapply(v, plain)
  v
}
# For the names gufunc masks (rowSums, pmax, %*%, ...): base R's function on plain
# operands; on lazy ones base R's function (as package code calls it) or gufunc's.
via <- function(name, pkg) {
  base_f <- get(name, envir = baseenv())
  f <- if (pkg == "base") base_f else getExportedValue("gufunc", name)
  function(...) plain(if (any(vapply(list(...), inherits, NA, "gufunc_lazy"))) f(...) else base_f(...))
}
# The toy arrays of test_DelayedArray-utils.R (rebuilt, not copied): a sparse
# integer 5 x 10 x 3 array with NAs and zeros, one with no zeros or NAs, and a
# double array full of Inf, -Inf, NaN and zeros with one NA.
toy_arrays <- function() {
  set.seed(123)
  a1 <- array(0L, c(5L, 10L, 3L))
  a1[sample(150L, 30L)] <- replace(24:-5, 2:5, c(NA, NA, 0L, 0L))
  a1b <- array(sample(10L, 150L, replace = TRUE), c(5L, 10L, 3L))
  a2 <- 2:-2 / (a1b - 5)
  a2[2, 9, 2] <- NA
  list(a1 = a1, a1b = a1b, a2 = a2)
}
toy <- toy_arrays()
# The small integer matrix of test_DelayedOp-class.R.
mat <- matrix(c(5:-2, rep.int(c(0L, 99L), 11)), ncol = 6, dimnames = list(NULL, LETTERS[1:6]))
# function(x) <expr>, for a quoted expression in x; each expression as a case on x.
as_fun <- function(expr) eval(call("function", as.pairlist(alist(x = )), expr), parent.frame(2))
add_exprs <- function(cases, exprs, x, suffix = "") {
  for (e in exprs) cases$add(paste0(deparse(e), suffix), as_fun(e), list(x))
}
# An operator applied to a pair of operands, then `post` applied to its result.
add_ops <- function(cases, ops, pairs, post = list("()" = identity)) {
  for (op in ops) for (p in names(pairs)) for (s in names(post)) {
    g <- local({ f <- match.fun(op); h <- post[[s]]; function(x, y) h(f(x, y)) })
    cases$add(sprintf("`%s`(%s)%s", op, p, s), g, pairs[[p]])
  }
}

test_that("test_DelayedArray-utils.R: is.na family, Math and Arith stacks", {
  cases <- differential_cases("DelayedArray test_DelayedArray-utils.R")
  toto1 <- function(a) 100 / floor(abs((5 * log(a + 0.2) - 1)^3))
  toto2 <- function(a) 100L + (5L * (a - 2L)) %% 7L
  m <- toy$a2[, , 2]
  inputs <- list(a1 = toy$a1, a2 = toy$a2, "a1[, 10:4, -2]" = toy$a1[, 10:4, -2],
                 "a2[, 10:4, -2]" = toy$a2[, 10:4, -2], m = m, "t(m)" = t(m))
  exprs <- alist(is.na(x), is.finite(x), is.infinite(x), is.nan(x), toto1(x), toto2(x),
                 toto2(toto1(x)), toto1(toto2(x)))
  for (nm in names(inputs)) {
    on_matrix <- if (is.matrix(inputs[[nm]])) alist(t(toto1(x)), toto1(t(x)))
    add_exprs(cases, c(exprs, on_matrix), inputs[[nm]], paste(" on", nm))
  }
  expect_no_mismatches(cases, 4000)
})

test_that("test_DelayedArray-utils.R: Ops with a vector recycled along the array, then subset", {
  cases <- differential_cases("DelayedArray test_DelayedArray-utils.R")
  a <- toy$a2
  m <- a[, , 2]
  post <- list("()" = identity, "[5:3, , -2]" = function(r) r[5:3, , -2],
               "[0, 0, 0]" = function(r) r[0, 0, 0], "[0, 0, -2]" = function(r) r[0, 0, -2],
               "[, 0, ]" = function(r) r[, 0, ], "sum(na.rm)" = function(r) sum(r, na.rm = TRUE))
  add_ops(cases, c(arith, relop), list(
    "a, m[, 1]" = list(a, m[, 1]), "m[, 1], a" = list(m[, 1], a), "a, a[, 1, 1]" = list(a, a[, 1, 1]),
    "a[, 1, 1], a" = list(a[, 1, 1], a), "a, a[[1]]" = list(a, a[[1]]),
    "a[[1]], a" = list(a[[1]], a)), post)
  # Logic on logical arrays with NAs; conformable integer/double arrays.
  la <- toy$a1 >= 1L
  add_ops(cases, c("&", "|"), list("la, la[, 1, 1]" = list(la, la[, 1, 1]),
                                   "la[[92]], la" = list(la[[92]], la),
                                   "a1 >= 6, 1 <= a1 <= 10" = list(toy$a1 >= 6L, la & toy$a1 <= 10L)))
  set.seed(7)
  a3 <- array(sample(5L, 150, replace = TRUE), c(5, 10, 3))
  a3[2, 9, 2] <- NA
  add_ops(cases, c(arith, relop), list("a1, a2" = list(toy$a1, toy$a2),
                                       "a2, a1" = list(toy$a2, toy$a1), "a1, a3" = list(toy$a1, a3)))
  expect_no_mismatches(cases, 75000)
})

test_that("test_DelayedArray-utils.R: anyNA, which, Summary, mean, apply", {
  cases <- differential_cases("DelayedArray test_DelayedArray-utils.R")
  for (nm in names(toy)) add_exprs(cases, alist(plain(list(anyNA(x)))), toy[[nm]], paste(" on", nm))
  for (a in list(toy$a1 >= 1L, toy$a1 == -100L)) {
    add_exprs(cases, alist(which(x), which(x, arr.ind = TRUE), which(x, TRUE, useNames = FALSE)), a)
  }
  summaries <- unlist(lapply(c("max", "min", "range", "sum", "prod", "mean"), function(fn) {
    f <- as.name(fn)
    c(bquote(.(f)(x)), bquote(.(f)(x, na.rm = TRUE)), bquote(.(f)(aperm(x))),
      bquote(.(f)(x[, 10:4, -2])))
  }))
  arrays <- c(toy, list("a1b - 0.5" = toy$a1b - 0.5))
  for (nm in names(arrays)) add_exprs(cases, summaries, arrays[[nm]], paste(" on", nm))
  # Length-1 logical results are boxed in a list so that their lazy paths are compared.
  la <- array(c(rep(NA, 62), rep(TRUE, 87), FALSE), c(5, 10, 3))
  add_exprs(cases, alist(plain(list(any(x))), plain(list(all(x))), plain(list(any(x, na.rm = TRUE))),
                         plain(list(all(x, na.rm = TRUE)))), la)
  # apply over each margin, with no, some and all dimnames, and a zero-extent slab.
  applied <- unlist(lapply(1:3, function(mg) {
    c(bquote(plain(apply(x, .(mg), dim))), bquote(apply(x, .(mg), sum)),
      bquote(apply(x, .(mg), sum, na.rm = TRUE)), bquote(plain(apply(x, .(mg), base::rowSums))),
      bquote(plain(apply(x, .(mg), base::colMeans, na.rm = TRUE))))
  }))
  for (dn in list(NULL, list(NULL, NULL, LETTERS[1:3]), list(NULL, letters[1:10], LETTERS[1:3]))) {
    a <- `dimnames<-`(toy$a1b, dn)
    add_exprs(cases, applied, a, paste(" on", deparse(dn)))
    add_exprs(cases, applied, a[, , 0], paste(" on a[, , 0],", deparse(dn)))
  }
  expect_no_mismatches(cases, 8000)
})

test_that("test_DelayedArray-utils.R: scale with NA, NaN, Inf and odd centers/scales", {
  cases <- differential_cases("DelayedArray test_DelayedArray-utils.R")
  m <- matrix(-9:70, ncol = 8, dimnames = list(LETTERS[1:10], letters[1:8]))
  m[cbind(c(1:4, 5:6, 6:8), c(1:4, 5, 5, 6, 6, 6))] <- c(NA, NaN, Inf, -Inf, NaN, Inf, NaN, NA, -Inf)
  # A numeric center or scale is an operand too when m is lazy; with m plain, base
  # R's scale() stores a lazy one as it is (?lazy), so it stays plain then.
  scales <- list(TRUE, FALSE, -4:3, c(NaN, -Inf, -2:1, Inf, NA))
  for (center in list(TRUE, FALSE, 5:-2)) for (sc in scales) {
    label <- sprintf("scale(m, center = %s, scale = %s)", deparse(center), deparse(sc))
    cases$add(label, function(x) base::scale(x, center, sc), list(m))
    numeric <- Filter(is.numeric, list(center = center, scale = sc))
    if (length(numeric)) {
      f <- function(x, ...) base::scale(lazy(x), ...)
      cases$add(paste(label, "(m lazy)"), function(...) plain(f(m, ...)), numeric)
    }
  }
  expect_no_mismatches(cases, 800)
})

test_that("scale() of a plain matrix keeps a lazy center as it is, with base R's values", {
  m <- matrix(c(1, 2, 3, 4), 2)
  base <- scale(m, center = c(1, 2), scale = c(2, 4))
  got <- scale(m, center = lazy(c(1, 2)), scale = lazy(c(2, 4)))
  expect_identical(as.vector(got), as.vector(base))
  expect_identical(dim(got), dim(base))
  for (a in c("scaled:center", "scaled:scale")) {
    expect_identical(materialize(attr(got, a)), attr(base, a))
  }
})

test_that("test_DelayedMatrix-utils.R / -stats.R, test_RleArray-class.R: matrix Ops, row/col sums", {
  cases <- differential_cases("DelayedArray test_DelayedMatrix-utils.R, -stats.R, test_RleArray-class.R")
  m <- toy$a2[, , 2]
  cases$add("toto(m)", function(x) t((5 * x[, 1:2]^3 + 1L) * log(x)[, 10:9])[, -1], list(m))
  add_ops(cases, c(arith, relop), list("m, m[, 1]" = list(m, m[, 1]), "m[, 2], m" = list(m[, 2], m)),
          list("()" = identity, t = t, "[-2, 8:5]" = function(r) r[-2, 8:5],
               "[-2, 0]" = function(r) r[-2, 0], "[0, ]" = function(r) r[0, ]))
  add_ops(cases, c(arith, relop), list(
    "t(m), 8:-1" = list(t(m), 8:-1), "8:-1, t(m)" = list(8:-1, t(m)),
    "t(m), m[1, ]" = list(t(m), m[1, ]), "m[2, ], t(m)" = list(m[2, ], t(m)),
    "t(m), m[1, 6:10]" = list(t(m), m[1, 6:10]), "m[2, 8:7], t(m)" = list(m[2, 8:7], t(m))),
    list("()" = identity, "t()[1:3, ]" = function(r) t(r)[1:3, ], "[, 1:3]" = function(r) r[, 1:3],
         "[8:5, -2]" = function(r) r[8:5, -2], "[0, -2]" = function(r) r[0, -2],
         "[, 0]" = function(r) r[, 0]))
  # Row and column summaries (na.rm, transposed, dims on the 3-d arrays); the
  # RleArray test's runs of equal integers, scaled down to 625 x 400.
  set.seed(11)
  m2 <- matrix(runif(60), ncol = 6)
  m2[cbind(c(2, 5, 6), c(4, 4, 3))] <- c(NA, Inf, -Inf)
  inputs <- list("a1[, , 1]" = toy$a1[, , 1], "a1[, 0, 1]" = toy$a1[, 0, 1], m2 = m2, a1 = toy$a1,
                 a2 = toy$a2, rle = matrix(rep(1:2000, each = 125), 625))
  for (nm in names(inputs)) for (fn in c("rowSums", "colSums", "rowMeans", "colMeans")) {
    for (pkg in c("base", "gufunc")) {
      f <- via(fn, pkg)
      third <- if (length(dim(inputs[[nm]])) == 2L) function(x) f(t(x)) else function(x) f(x, dims = 2)
      gs <- list(" " = f, ", na.rm" = function(x) f(x, na.rm = TRUE), ", t() or dims = 2" = third)
      for (g in names(gs)) {
        cases$add(sprintf("%s::%s(%s%s)", pkg, fn, nm, g), gs[[g]], list(inputs[[nm]]))
      }
    }
  }
  # matrixStats' rowMaxs, colMins, rowRanges through apply().
  add_exprs(cases, alist(apply(x, 1, max), apply(x, 2, min, na.rm = TRUE), apply(x, 1, range),
                         apply(x, 2, range, na.rm = TRUE)), m2)
  expect_no_mismatches(cases, 20000)
})

test_that("test_DelayedMatrix-mult.R, -rowsum.R: products, cross-products, rowsum", {
  cases <- differential_cases("DelayedArray test_DelayedMatrix-mult.R, test_DelayedMatrix-rowsum.R")
  set.seed(5)
  m0 <- matrix(runif(60), ncol = 6)
  m0[cbind(c(2, 5, 6), c(4, 4, 3))] <- c(NA, Inf, -Inf)
  Lm <- rbind(rep(1L, 10), rep(c(1L, 0L), 5), rep(-100L, 10))
  Rm <- rbind(Lm + 7.05, 0.1 * Lm)[, 1:5]
  pairs <- list("Lm, m0" = list(Lm, m0), "m0, Rm" = list(m0, Rm),
                "m1, m2 (dimnames)" = list(matrix(1:12, ncol = 3, dimnames = list(letters[1:4], NULL)),
                                           matrix(101:115, nrow = 3, dimnames = list(NULL, LETTERS[1:5]))),
                "y1, y2" = list(matrix(runif(100), ncol = 5), matrix(runif(100), nrow = 5)),
                "non-conformable" = list(Lm[, -1], m0))
  for (name in c("%*%", "crossprod", "tcrossprod")) for (pkg in c("base", "gufunc")) {
    f <- via(name, pkg)
    for (p in names(pairs)) {
      xy <- pairs[[p]]
      if (name == "crossprod") xy[[1]] <- t(xy[[1]])
      if (name == "tcrossprod") xy[[2]] <- t(xy[[2]])
      cases$add(sprintf("%s::`%s`(%s)", pkg, name, p), f, xy)
    }
    if (name != "%*%") cases$add(sprintf("%s::%s(m0)", pkg, name), f, list(m0))
  }
  tm <- matrix(runif(100), ncol = 5, dimnames = list(NULL, LETTERS[1:5]))
  tm[cbind(1:3, c(2, 3, 5))] <- c(NA, Inf, NaN)
  group <- sample(6L, nrow(tm), replace = TRUE)
  for (reorder in c(TRUE, FALSE)) for (na.rm in c(FALSE, TRUE)) {
    cases$add(sprintf("rowsum(reorder = %s, na.rm = %s)", reorder, na.rm),
              function(x, g) rowsum(x, g, reorder = reorder, na.rm = na.rm), list(tm, group))
  }
  expect_no_mismatches(cases, 500)
})

test_that("test_DelayedArray-class.R, test_DelayedOp-class.R: subsetting, with dimnames", {
  cases <- differential_cases("DelayedArray test_DelayedArray-class.R, test_DelayedOp-class.R")
  set.seed(3)
  a <- array(runif(78000), c(600, 26, 5), dimnames = list(NULL, LETTERS, letters[1:5]))
  j <- c(20:5, 11:22)
  k <- c("e", "b", "b", "d", "e", "c")
  i <- c(150:111, 88:90, 75:90)
  subsets <- alist(x[, , ], x[, 27, ], x[, , "f"], x[0, , ], x[integer(0), , ], x[NULL, , ],
                   x[, 0, 0], x[NULL, NULL, NULL], x[c(FALSE, TRUE), , ], x[, , c(TRUE, FALSE)],
                   x[c(FALSE, TRUE, TRUE, FALSE, FALSE), 0, ], x[0, j, ], x[99:9, j, ], x[-3, j, k],
                   x[-3, -j, k], x[-3, -j, -555555], x[i, j, k], x[99, j, k], x[i, 22, k],
                   drop(x[99, j, k, drop = FALSE]), x[i, j, 5][15:8, LETTERS[18:12]],
                   x[i, j, 5][0, 0], x[[600, 26, 5]], x[cbind(1:3, 2:4, 3:5)], x[c(-1, 2), , ],
                   which(x > 0.999, arr.ind = TRUE))
  add_exprs(cases, subsets, a)
  cases$add("a[i, j, ] (lazy indices)", function(x, i, j) x[i, j, ], list(a, i, j))
  cases$add("a[lgl, , 2] (lazy mask)", function(x, l) x[l, , 2], list(a, rep(c(TRUE, FALSE, NA), 200)))
  add_exprs(cases, alist(x[5:2, c(1:2, 6:2, 2:1)], x[5:2, ], x[5:2, 2L, drop = FALSE], x[, 7:4],
                         x[5:2, integer(0)], x[, c("E", "B", "C", "C")], x[0, c(5:4, 5.99, 6.99)],
                         x[-22, TRUE], x[, "zz"]), mat, " (mat)")
  expect_no_mismatches(cases, 78000 * 20)
})

test_that("test_DelayedOp-class.R, test_aperm2.R: n-ary ops, aperm, dim<-, drop, dimnames<-", {
  cases <- differential_cases("DelayedArray test_DelayedOp-class.R, test_aperm2.R")
  d4 <- c(6L, 10L, 3L, 2L)
  a4a <- array(seq_len(360), d4, dimnames = list(NULL, NULL, c("z1", "z2", "z3"), c("a1", "a2")))
  set.seed(99)
  a4b <- array(runif(360), d4, dimnames = list(NULL, LETTERS[1:10], NULL, c("b1", "b2")))
  a4c <- array(replace(integer(360), 51:130, 51:130), d4)
  a4d <- array(replace(numeric(360), 11:110, runif(100, max = 150)), d4)
  add_exprs(cases, alist(1 / (log(x)^2 + 1)), a4c)
  cases$add("a4a + 0.5 * a4b + 100L * a4c", function(x, y, z) x + 0.5 * y + 100L * z,
            list(a4a, a4b, a4c))
  add_ops(cases, c("/", "+", "-", "*", ">", "<", "!="), list("a4a, a4c" = list(a4a, a4c),
                                                           "a4c, a4d" = list(a4c, a4d)))
  add_exprs(cases, alist(x[c(3:6, 1L), c(6:5, 6L), 3L, 2:1, drop = FALSE]), a4a)
  add_exprs(cases, alist(x[c(3:6, 1L), 6:5, , 2:1]), a4b)
  add_exprs(cases, alist(1 / (log(x)^2 + 1), log(cos(x)^2 + 1), x / base::rowSums(x)), mat)
  cases$add("sweep(mat, 1, rowSums(mat), '/')", function(x, s) sweep(x, 1, s, "/"),
            list(mat, base::rowSums(mat)))
  cases$add("sweep(a2, c(1, 3), a2[, 1, ])", function(x, s) sweep(x, c(1, 3), s),
            list(toy$a2, toy$a2[, 1, ]))
  cases$add("matrix(0, 2, 4) + c(0, 0)", `+`, list(matrix(0, 2, 4), c(0, 0)))
  a3 <- array(0L, c(40, 100, 1))
  a3[arrayInd(1:50, c(10, 5, 1))] <- 1:50
  cases$add("a3 <= rep(c(5, 10), 20)", `<=`, list(a3, rep(c(5, 10), 20)))
  add_exprs(cases, alist(aperm(x, 3:1), t(drop(x))), a3)
  for (dn in list(list(letters[1:5], NULL), NULL, letters, list(NULL), list(NULL, NULL, NULL),
                  list(1:5, NULL), list(letters, NULL))) {
    cases$add(paste("dimnames(mat) <-", deparse(dn)), function(x) `dimnames<-`(x, dn), list(mat))
  }
  b <- array(1:6000, c(1, 40, 1, 50, 3))
  perms <- list(1:5, 5:1, c(4, 5, 2, 1, 3), 0, 6, c(4:1, 4), 1:4)
  add_exprs(cases, lapply(perms, function(p) bquote(aperm(x, .(p)))), b)
  add_exprs(cases, alist(`dim<-`(x, dim(x)[-1]), `dim<-`(x, dim(x)[-c(1, 3)]), drop(x),
                         drop(aperm(x, 5:1)), aperm(`dim<-`(x, dim(x)[-3]), c(4, 2, 1, 3))), b)
  expect_no_mismatches(cases, 30000)
})

test_that("test_bind-arrays.R, test_cbind-methods.R: rbind and cbind with dimnames", {
  cases <- differential_cases("DelayedArray test_bind-arrays.R, test_cbind-methods.R")
  m1 <- matrix(1:15, nrow = 3, ncol = 5, dimnames = list(NULL, paste0("M1y", 1:5)))
  m2 <- matrix(101:135, nrow = 7, ncol = 5, dimnames = list(paste0("M2x", 1:7), paste0("M2y", 1:5)))
  m3 <- matrix(1001:1025, nrow = 5, ncol = 5, dimnames = list(paste0("M3x", 1:5), NULL))
  e1 <- matrix(nrow = 0, ncol = 3, dimnames = list(NULL, letters[1:3]))
  e2 <- matrix(1:15, ncol = 3, dimnames = list(NULL, LETTERS[1:3]))
  v <- array(11:15, 5, dimnames = list(LETTERS[1:5]))
  big <- matrix(as.double(1:3000), 1000, dimnames = list(NULL, c("x", "y", "z")))
  # Both binds on each list (the non-conformable ones compare errors).
  for (args in list(list(m1, m2, m3), list(a = m1, b = m2, c = m3),
                    list(a = t(m1), b = t(m2), c = t(m3)),
                    list(a = m1), list(e1, e2), list(e2, e1), list(e1, e1), list(t(e1), t(e2)),
                    list(v), list(v, v), list(big, big), list(big, 1:3))) {
    lab <- toString(paste0(names(args), "[", vapply(args, function(a) toString(dim(a)), ""), "]"))
    for (f in c("rbind", "cbind")) cases$add(sprintf("%s(%s)", f, lab), match.fun(f), args)
  }
  expect_no_mismatches(cases, 3000)
})

test_that("DelayedArray's pmax2/pmin2 cases: base R's and gufunc's pmax/pmin on arrays", {
  cases <- differential_cases("DelayedArray test_DelayedArray-utils.R (pmax2, pmin2)")
  dn <- `dimnames<-`(toy$a2, list(letters[1:5], NULL, LETTERS[1:3]))
  for (fn in c("pmax", "pmin")) for (pkg in c("base", "gufunc")) {
    f <- via(fn, pkg)
    cases$add(sprintf("%s::%s(a2, a1, na.rm)", pkg, fn), function(x, y) f(x, y, na.rm = TRUE),
              list(toy$a2, toy$a1))
    # Base R's own pmax() gives NA for NaN of classed values (?lazy): gufunc's only.
    if (pkg == "base") next
    cases$add(sprintf("%s::%s(a1, a2)", pkg, fn), f, list(toy$a1, toy$a2))
    cases$add(sprintf("%s::%s(a2 with dimnames, a1)", pkg, fn), f, list(dn, toy$a1))
    cases$add(sprintf("%s::%s(c(NaN, 1), 0)", pkg, fn), f, list(c(NaN, 1), 0))
  }
  expect_no_mismatches(cases, 1000)
})

test_that("a few DelayedArray cases under every engine setting (1 and 2 threads, odd blocks)", {
  cases <- differential_cases("DelayedArray test_DelayedArray-utils.R, test_DelayedMatrix-stats.R")
  set.seed(21)
  big <- array(runif(6000) * 10 - 5, c(20, 100, 3))
  big[c(7, 1999, 4000)] <- c(NA, Inf, NaN)
  for_engine_settings({
    lab <- sprintf(" [threads %s, block %s]", getOption("gufunc.threads"),
                   format(getOption("gufunc.block_size", "auto")))
    add_exprs(cases, alist(100 / floor(abs((5 * log(x + 0.2) - 1)^3)), base::rowSums(x, dims = 2),
                           base::colMeans(x, na.rm = TRUE), sum(x, na.rm = TRUE), range(x),
                           which(x > 4), 100L + (5L * (x - 2L)) %% 7L), big, lab)
    cases$add(paste("big %% big[, 1, 1]", lab), `%%`, list(big, big[, 1, 1]))
    cases$add(paste("gufunc::pmax(a1, a2)", lab), via("pmax", "gufunc"), list(toy$a1, toy$a2))
    cases$add(paste("big %*% t(big[, , 1])", lab), via("%*%", "gufunc"),
              list(big[, 1:20, 2], t(big[, , 1])))
  })
  expect_no_mismatches(cases, 6 * 20000)
})
