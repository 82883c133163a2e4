# Differential tests on the inputs of the CRAN package matrixStats' unit tests
# (HenrikBengtsson/matrixStats tests/*.R; each group names its files): their shapes,
# special values and the base R expressions they check against (matrixStats itself
# is not used). Each case runs in base R and with every non-empty set of its operands
# lazy (helper-differential.R). The names gufunc masks resolve to its exports here
# (first test): each closure also runs on plain operands with base R's versions of
# those names (or against an explicit base R oracle), which must agree.

masked <- masked_base_names()

mstats_cases <- function(source) {
  cases <- differential_cases(source)
  unmasked <- character()
  add <- function(label, fun, args, oracle = NULL) {
    cases$add(label, fun, args)
    if (is.null(oracle)) {
      if (is.primitive(fun)) return(invisible())
      oracle <- with_base_masks(fun)
    }
    outcome <- function(f) with_options(list(gufunc.lazy_min_length = 0),
                                         differential_outcome(function() do.call(f, args)))
    if (!identical(outcome(fun), outcome(oracle), num.eq = FALSE, single.NA = FALSE)) {
      unmasked <<- c(unmasked, sprintf("%s [%s]: plain operands vs base R", label, source))
    }
  }
  list(add = add, mismatches = function() c(cases$mismatches(), unmasked),
       compared = cases$compared)
}

# base R's outcome for reduce_dims(x, f, dims, na_rm): f() on each slice of x as
# doubles, through apply() (or on all of x when no dimension is kept).
slices_oracle <- function(f, dims, na_rm) {
  function(x) {
    keep <- setdiff(seq_along(dim(x)), dims)
    x <- `storage.mode<-`(x, "double")
    if (!length(keep)) match.fun(f)(x, na.rm = na_rm)
    else `storage.mode<-`(apply(x, keep, f, na.rm = na_rm), "double")
  }
}

# A matrix in both storage modes (the matrixStats tests loop over them).
both_modes <- function(x, name) {
  setNames(list(`storage.mode<-`(x, "integer"), `storage.mode<-`(x, "double")),
           paste(name, c("(int)", "(dbl)")))
}

# The special matrices of rowSums2.R, rowMeans2.R, rowRanges.R and sum2.R.
special_matrices <- function() {
  r <- matrix(as.double(1:12), 4, 3)
  put <- function(i, j, v, base = r) { base[i, j] <- v; base }
  all_na <- matrix(NA_real_, 4, 3)
  xmax <- .Machine$double.xmax
  c(both_modes(matrix(1:9 + 0.1, 3, 3), "3 x 3"), both_modes(matrix(1, 1, 1), "1 x 1"),
    both_modes(matrix(0, 0, 0), "0 x 0"), both_modes(matrix(NA, 3, 3), "all NA"),
    list("5 x 0" = matrix(0, 5, 0), "0 x 5 (int)" = matrix(0L, 0, 5),
         "all Inf" = matrix(Inf, 3, 3), "all -Inf" = matrix(-Inf, 3, 3),
         "-Inf, Inf" = matrix(c(-Inf, Inf), 4, 4), "NaN, NA" = matrix(c(NaN, NA), 4, 4),
         "integer.max" = matrix(.Machine$integer.max, 4, 4),
         "double.xmax" = matrix(xmax, 4, 3), "-double.xmax" = matrix(-xmax, 3, 4),
         "NA cell" = put(2, 2, NA), "NA row" = put(2, , NA), "NaN row" = put(2, , NaN),
         "Inf cell" = put(2, 2, Inf), "Inf row" = put(2, , Inf), "NaN cell" = put(2, 2, NaN),
         "NA + NaN cell" = put(2, 2, NaN, all_na), "NA + NaN row" = put(2, , NaN, all_na),
         "named, NA column" = put(, 2, NA, `dimnames<-`(r, list(letters[1:4], LETTERS[1:3]))),
         "logical" = matrix(c(TRUE, FALSE, NA, TRUE, TRUE, FALSE), 3, 2)))
}

# Random matrices as in the consistency checks of rowSums2.R and rowMeans2.R.
random_matrices <- function(k) {
  set.seed(1)
  xs <- lapply(seq_len(k), function(kk) {
    d <- sample(5:40, 2)
    x <- matrix(rnorm(prod(d), sd = 100), d[1], d[2])
    if (kk %% 4 %in% c(3, 0)) {
      n_na <- sample(length(x), 1)
      x[sample(length(x), n_na)] <- sample(c(NA, NaN), n_na, replace = TRUE)
    }
    if (kk %% 4 %in% c(2, 0)) storage.mode(x) <- "integer"
    x
  })
  setNames(xs, paste("random", seq_len(k)))
}

test_that("the masked names are gufunc's exports here, the other functions base R's", {
  for (f in masked) expect_identical(get(f), getExportedValue("gufunc", f), info = f)
  for (f in c("sum", "mean", "prod", "range", "cumsum", "diff", "var", "sweep", "apply", "rowsum")) {
    expect_false(exists(f, envir = asNamespace("gufunc"), inherits = FALSE), info = f)
  }
})

test_that("matrixStats rowSums2.R, rowMeans2.R, rowRanges.R, rowMins.R: row and column sums, ranges", {
  cases <- mstats_cases("matrixStats tests/rowSums2.R, colSums2.R, rowMeans2.R, rowRanges.R, rowMins.R")
  xs <- c(special_matrices(), random_matrices(8), both_modes(matrix(1:50 + 0.1, 10, 5), "10 x 5"),
          list("10 x 5, NA block" = `[<-`(matrix(1:50 + 0.1, 10, 5), 3:7, c(2, 4), NA),
               "5 x 1, named" = matrix(1:5, 5, 1, dimnames = list(letters[1:5], "A")),
               "1 x 5, named" = matrix(1:5, 1, 5, dimnames = list("a", LETTERS[1:5]))))
  for (nm in names(xs)) {
    x <- xs[[nm]]
    for (na_rm in c(FALSE, TRUE)) {
      lab <- function(f) sprintf("%s(%s, na.rm = %s)", f, nm, na_rm)
      cases$add(lab("rowSums"), function(x) rowSums(x, na.rm = na_rm), list(x))
      cases$add(lab("colSums"), function(x) colSums(x, na.rm = na_rm), list(x))
      cases$add(lab("rowMeans"), function(x) rowMeans(x, na.rm = na_rm), list(x))
      cases$add(lab("colMeans"), function(x) colMeans(x, na.rm = na_rm), list(x))
      cases$add(lab("colSums(t())"), function(x) colSums(t(x), na.rm = na_rm), list(x))
      cases$add(lab("rowMeans(t())"), function(x) rowMeans(t(x), na.rm = na_rm), list(x))
      if (nrow(x) > 0 && ncol(x) > 0) {
        cases$add(lab("apply(, 1, sum)"), function(x) apply(x, 1, sum, na.rm = na_rm), list(x))
        cases$add(lab("apply(, 2, mean)"), function(x) apply(x, 2, mean, na.rm = na_rm), list(x))
      }
      cases$add(lab("t(apply(, 1, range))"), function(x) t(apply(x, 1, range, na.rm = na_rm)), list(x))
      cases$add(lab("apply(, 1, min)"), function(x) apply(x, 1, min, na.rm = na_rm), list(x))
      cases$add(lab("apply(, 2, max)"), function(x) apply(x, 2, max, na.rm = na_rm), list(x))
      cases$add(lab("range"), function(x) range(x, na.rm = na_rm), list(x))
      if (ncol(x) >= 2) {
        cases$add(lab("pmax(x[, 1], x[, 2])"), function(x) pmax(x[, 1], x[, 2], na.rm = na_rm), list(x))
        cases$add(lab("pmin(x[, 1], x[, 2])"), pmin, list(x[, 1], x[, 2]))
      }
      # reduce_dims() against apply() on the slices (only when some slice is kept:
      # apply() calls f() on a dummy slice otherwise).
      for (f in c("sum", "mean", "prod", "min", "max")) {
        for (dims in list(1L, 2L, 1:2)) {
          if (any(dim(x)[-dims] == 0)) next
          cases$add(sprintf("reduce_dims(%s, %s, %s, na.rm = %s)", nm, f, deparse(dims), na_rm),
                    function(x) reduce_dims(x, f, dims, na_rm), list(x),
                    oracle = slices_oracle(f, dims, na_rm))
        }
      }
    }
  }
  expect_no_mismatches(cases, 100000)
})

test_that("matrixStats sum2.R, mean2.R, product.R: whole-vector sums, means and products", {
  cases <- mstats_cases("matrixStats tests/sum2.R, mean2.R, product.R")
  big <- .Machine$integer.max
  vs <- list(integer(0), double(0), logical(0), rep(NA_integer_, 10), rep(NA_real_, 10),
             rep(NA, 2), rep(-Inf, 3), rep(Inf, 3), rep(c(-Inf, Inf), 3),
             rep(c(-Inf, Inf, 3.14), 2), c(NaN, NA, Inf, 3.14), c(NA, NaN, Inf, 3.14),
             c(big, 1L), c(big, 1L, -big), as.double(c(big, 1L)),
             rep(.Machine$double.xmax, 2), rep(-.Machine$double.xmax, 3),
             0L, 0, c(1L, -4L, 2L), c(1, -4, 2), c(1L, NA, NA, 2L), c(1, NA, NaN, 2), c(1, NaN, 2),
             c(0L, NA), c(NA, 0L), rep(c(1e308, -1e308, 1e-300), 400))
  set.seed(1)
  for (kk in 1:8) {
    x <- rnorm(sample(1000, 1), sd = 100)
    if (kk %% 4 %in% c(3, 0)) x[sample(length(x), 20)] <- sample(c(NA, NaN), 20, TRUE)
    if (kk %% 4 %in% c(2, 0)) vs <- c(vs, list(x > 0, as.integer(x))) else vs <- c(vs, list(x))
  }
  for (x in vs) {
    for (na_rm in c(FALSE, TRUE)) {
      lab <- sprintf("%%s(%s, na.rm = %s)", paste(head(x, 4), collapse = " "), na_rm)
      cases$add(sprintf(lab, "sum"), function(v) sum(v, na.rm = na_rm), list(x))
      cases$add(sprintf(lab, "mean"), function(v) mean(v, na.rm = na_rm), list(x))
      cases$add(sprintf(lab, "prod"), function(v) prod(v, na.rm = na_rm), list(x))
    }
  }
  x <- c(1:10, NA)
  for (idxs in list(1:5, as.double(1:5), x <= 5, integer(0), c(11, 1))) {
    cases$add("sum(x[idxs], na.rm)", function(v, i) sum(v[i], na.rm = TRUE), list(x, idxs))
    cases$add("mean(x[idxs], na.rm)", function(v, i) mean(v[i], na.rm = TRUE), list(x, idxs))
  }
  expect_no_mismatches(cases, 50000)
})

test_that("matrixStats rowCumsums.R, rowCumprods.R, rowCumMinMaxs.R, rowDiffs.R: along rows", {
  cases <- mstats_cases("matrixStats tests/rowCumsums.R, rowCumprods.R, rowCumMinMaxs.R, rowDiffs.R")
  set.seed(2)
  block <- `[<-`(matrix(1:100, 20, 5), 13:17, c(2, 4), NA)
  xs <- c(both_modes(matrix(1:100, 20, 5), "20 x 5"), both_modes(block, "20 x 5, NA block"),
          both_modes(matrix(NA, 20, 5), "all NA"), both_modes(matrix(0, 1, 1), "1 x 1"),
          both_modes(matrix(runif(36, -3, 3), 6, 6), "6 x 6 runif"),
          list("integer.max" = matrix(.Machine$integer.max, 3, 3),
               "logical" = matrix(c(TRUE, NA, FALSE, TRUE), 2, 2),
               "Inf, NaN" = matrix(c(1, Inf, -Inf, NaN, 2, NA, 0.5, 3, -1), 3, 3)))
  for (nm in names(xs)) {
    for (fn in list(cumsum, cumprod, cummin, cummax)) {
      cases$add(sprintf("t(apply(%s, 1, cum*))", nm), function(x) t(apply(x, 1, fn)), xs[nm])
      cases$add(sprintf("apply(%s, 2, cum*)", nm), function(x) apply(x, 2, fn), xs[nm])
      cases$add(sprintf("cum*(%s)", nm), fn, xs[nm])
    }
  }
  set.seed(0x42)
  x <- matrix(sample(10 * 8) + 0.1, 10, 8)
  xna <- `[<-`(x, 3:7, c(2, 4), NA)
  xs <- c(both_modes(x, "10 x 8"), both_modes(xna, "10 x 8, NA"),
          list("named" = `dimnames<-`(xna, list(letters[1:10], LETTERS[1:8]))))
  for (nm in names(xs)) {
    for (lag in 1:4) for (d in 1:3) {
      lab <- sprintf("%%s(%s, lag = %d, differences = %d)", nm, lag, d)
      cases$add(sprintf(lab, "t(diff(t()))"), function(x) t(diff(t(x), lag, d)), xs[nm])
      cases$add(sprintf(lab, "diff(x[1, ])"), function(x) diff(x[1, ], lag, d), xs[nm])
      if (ncol(xs[[nm]]) > lag * d) {
        cases$add(sprintf(lab, "apply(, 1, diff)"), function(x) apply(x, 1, diff, lag, d), xs[nm])
      }
    }
  }
  for (x in list(matrix(NA_integer_, 10, 5), matrix(0, 1, 1, dimnames = list("a", "A")),
                 c(-.Machine$integer.max, .Machine$integer.max))) cases$add("diff", diff, list(x))
  expect_no_mismatches(cases, 20000)
})

test_that("matrixStats rowProds.R, rowVars.R, rowSds.R: products and variances of rows", {
  cases <- mstats_cases("matrixStats tests/rowProds.R, rowVars.R, rowSds.R")
  x0 <- matrix(c(1, NA, NaN, 1, 1, 0, 1, 0), 4, 2)
  named <- function(x) `dimnames<-`(x, list(letters[seq_len(nrow(x))], LETTERS[seq_len(ncol(x))]))
  block <- `[<-`(matrix(as.double(1:100), 20, 5), 13:17, c(2, 4), NA)
  xs <- c(both_modes(x0, "NA, NaN"), both_modes(named(x0), "NA, NaN, named"),
          list("bug 2012-06-25" = matrix(c(1, 1, 1, 1, 1, 0, 1, 0), 4, 2),
               "zero in each row" = named(matrix(c(0, 1, 1, 0), 2, 2)),
               "large" = matrix(c(1e200, 1e200, -1e-200, 3, 1e150, 0, Inf, 2), 2, 4),
               "20 x 5" = matrix(1:100, 20, 5), "NA block" = block,
               "all NA" = matrix(NA_real_, 20, 5), "1 x 1" = matrix(0, 1, 1)))
  for (nm in names(xs)) {
    for (na_rm in c(FALSE, TRUE)) {
      lab <- function(f) sprintf("%s(%s, na.rm = %s)", f, nm, na_rm)
      cases$add(lab("apply(, 1, prod)"), function(x) apply(x, 1, prod, na.rm = na_rm), xs[nm])
      cases$add(lab("reduce_dims(, prod, 2)"), function(x) reduce_dims(x, "prod", 2, na_rm),
                xs[nm], oracle = slices_oracle("prod", 2L, na_rm))
      cases$add(lab("apply(, 1, var)"), function(x) apply(x, 1, var, na.rm = na_rm), xs[nm])
      cases$add(lab("apply(, 2, sd)"), function(x) apply(x, 2, sd, na.rm = na_rm), xs[nm])
      cases$add(lab("rowSums((x - rowMeans)^2) / (n - 1)"), function(x) rowSums(
        (x - rowMeans(x, na.rm = na_rm))^2, na.rm = na_rm) / (rowSums(!is.na(x)) - 1), xs[nm])
    }
    cases$add(sprintf("x[, 1] * x[, 2] (%s)", nm), function(x) x[, 1] * x[, 2], xs[nm])
    cases$add(sprintf("var(%s)", nm), var, xs[nm])
  }
  expect_no_mismatches(cases, 4000)
})

test_that("matrixStats x_OP_y.R: matrix and vector arithmetic recycled along rows and columns", {
  cases <- mstats_cases("matrixStats tests/x_OP_y.R")
  ops <- list(`+` = `+`, `-` = `-`, `*` = `*`, `/` = `/`)
  unit <- c(`+` = 0, `-` = NA, `*` = 1, `/` = NA)
  for (which in c("none", "x", "y", "both", "4 x 6")) {
    x <- matrix(1:16, 4, 4)
    y <- 1:4
    if (which %in% c("x", "both")) x[3:6] <- NA
    if (which %in% c("y", "both")) y[c(1, 3)] <- NA
    if (which == "4 x 6") x <- matrix(c(1:23, NA), 4, 6)
    yc <- c(y, 5L, 0L)[seq_len(ncol(x))]
    for (op in names(ops)) {
      fn <- ops[[op]]
      lab <- function(s) sprintf("%s (%s, NA in %s)", s, op, which)
      cases$add(lab("x OP y"), fn, list(x, y))
      cases$add(lab("t(t(x) OP y)"), function(a, b) t(fn(t(a), b)), list(x, yc))
      cases$add(lab("sweep(x, 1, y)"), function(a, b) sweep(a, 1, b, op), list(x, y))
      cases$add(lab("sweep(x, 2, y)"), function(a, b) sweep(a, 2, b, op), list(x, yc))
      # The na.rm = TRUE reference: missing operands replaced by the operator's unit.
      cases$add(lab("x OP y, NA as unit"), function(a, b) {
        na <- is.na(a) & is.na(b)
        a[is.na(a)] <- unit[[op]]
        b[is.na(b)] <- unit[[op]]
        `[<-`(fn(a, b), na, NA)
      }, list(x, y))
    }
  }
  cases$add("x - y, length not a multiple", `-`, list(matrix(1:24, 4, 6), c(1, 2, 5, 7, 9)))
  expect_no_mismatches(cases, 1500)
})

test_that("matrixStats rowAvgsPerColSet.R, weightedMean.R, rowWeightedMeans.R: set means", {
  cases <- mstats_cases("matrixStats tests/rowAvgsPerColSet.R, weightedMean.R, rowWeightedMeans.R")
  set.seed(5)
  X <- matrix(rnorm(120), 20, 6, dimnames = list(LETTERS[1:20], letters[1:6]))
  W <- matrix(runif(120), 20, 6)
  cases$add("rowMeans per column set", function(x) cbind(s1 = rowMeans(x[, 1:2]),
                                                         s2 = rowMeans(x[, 3:4])), list(X))
  cases$add("colMeans per row set", function(x) do.call(rbind, lapply(
    split(1:20, rep(1:5, each = 4)), function(i) colMeans(x[i, ]))), list(X))
  cases$add("rowsum per row set", function(x) rowsum(x, rep(1:5, each = 4)), list(X))
  cases$add("weighted means per set", function(x, w) {
    sapply(list(1:2, 3:4, 5:6), function(j) rowSums(x[, j] * w[, j]) / rowSums(w[, j]))
  }, list(X, W))
  cases$add("1 x 3 single set", function(x) rowMeans(x[, 1, drop = FALSE]), list(matrix(1:3, 1)))
  set.seed(1)
  x <- matrix(rnorm(20), 5, 4, dimnames = list(letters[1:5], LETTERS[1:4]))
  xna <- `[<-`(x, sample(20, 6), NA)
  for (w in list(rep(2.5, 4), c(1, 1, 0, 1), c(0, 1, 0, 0), rep(0, 4), 1:4, c(NA, 2:4))) {
    for (na_rm in c(FALSE, TRUE)) for (m in list(x, xna)) {
      cases$add(sprintf("apply(, 1, weighted.mean, w = %s)", toString(w)),
                function(x, w) apply(x, 1, weighted.mean, w = w, na.rm = na_rm), list(m, w))
    }
    cases$add("rowMeans(x[, w == 1])", function(x, w) rowMeans(x[, w %in% 1, drop = FALSE]),
              list(xna, w))
  }
  for (mode in c("integer", "double")) {
    set.seed(6)
    x <- `storage.mode<-`(runif(2, -5, 5), mode)
    for (w in list(c(1, 1), c(5, 1), c(0, 0), c(8.5, 0), c(Inf, 0), c(1, Inf))) {
      cases$add(sprintf("weighted.mean(%s, %s)", mode, toString(w)), weighted.mean, list(x, w))
      cases$add("sum(x * w) / sum(w)", function(a, b) sum(a * b) / sum(b), list(x, w))
    }
  }
  expect_no_mismatches(cases, 1000)
})

test_that("matrixStats cases on long matrices and 3-d arrays agree under every engine setting", {
  cases <- mstats_cases("matrixStats tests/rowSums2.R, rowMeans2.R, rowRanges.R, engine settings")
  set.seed(9)
  xd <- matrix(rnorm(2100, sd = 100), 300, 7)
  xd[sample(2100, 60)] <- sample(c(NA, NaN, Inf, -Inf), 60, TRUE)
  xd[17, ] <- NA
  xi <- matrix(sample(c(NA, .Machine$integer.max - 0:5, -3:3), 2100, TRUE), 300, 7)
  xl <- matrix(sample(c(TRUE, FALSE, NA), 2100, TRUE), 300, 7)
  a3 <- array(rnorm(1200), c(30, 5, 8), dimnames = list(NULL, letters[1:5], LETTERS[1:8]))
  a3[sample(1200, 40)] <- sample(c(NA, NaN, Inf), 40, TRUE)
  big <- list(dbl = xd, int = xi, lgl = xl, a3 = a3)
  x0 <- `[<-`(xd, !is.finite(xd), 0)
  for_engine_settings({
    for (nm in names(big)) {
      for (na_rm in c(FALSE, TRUE)) {
        lab <- function(f) sprintf("%s(%s, na.rm = %s)", f, nm, na_rm)
        d <- if (nm == "a3") 2L else 1L
        cases$add(lab("rowSums"), function(x) rowSums(x, na.rm = na_rm, dims = d), big[nm])
        cases$add(lab("colSums"), function(x) colSums(x, na.rm = na_rm, dims = d), big[nm])
        cases$add(lab("rowMeans"), function(x) rowMeans(x, na.rm = na_rm, dims = d), big[nm])
        cases$add(lab("colMeans"), function(x) colMeans(x, na.rm = na_rm, dims = d), big[nm])
        cases$add(lab("sum, mean"), function(x) c(sum(x, na.rm = na_rm), mean(x, na.rm = na_rm)),
                  big[nm])
        for (f in c("sum", "mean", "max")) {
          dims <- if (nm == "a3") c(1L, 3L) else 2L
          cases$add(lab(paste("reduce_dims", f)), function(x) reduce_dims(x, f, dims, na_rm),
                    big[nm], oracle = slices_oracle(f, dims, na_rm))
        }
      }
      cases$add(paste("apply(, 2, cumsum)", nm), function(x) apply(x, 2, cumsum), big[nm])
      cases$add(paste("t(apply(, 1, range))", nm), function(x) t(apply(x, 1, range)), big[nm])
    }
    cases$add("x - colMeans (sweep)", function(x) sweep(x, 2, colMeans(x)), list(x0))
    cases$add("scale(x)", scale, list(x0))
    cases$add("t(t(x) / colSums)", function(x) t(t(x) / colSums(x)), list(x0))
    cases$add("crossprod(x)", function(x) crossprod(x), list(x0))
    cases$add("x %*% 1:7", function(x, y) x %*% y, list(x0, 1:7))
    cases$add("outer(rowMeans, colMeans)", function(x) outer(rowMeans(x), colMeans(x)), list(x0))
  })
  expect_no_mismatches(cases, 500000)
})
