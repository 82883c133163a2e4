# Differential tests of base R's formatting and coercion functions (format(),
# formatC(), prettyNum(), sprintf(), toString(), as.character() and the other as.*()
# conversions, paste(), cat(), sort(), order(), table(), cut(), match(), quantile(),
# summary(), c(), rbind(), ...) on lazy values against the same calls on the plain
# values. Base R on this machine is the oracle.
#
# Each case f(x) runs three ways, each against base R's f on the plain value it
# stands for:
# - "lazy":     f(lazy(x))                         against f(x);
# - "deferred": f(lazy(x) * 1) (+ 0L for integers, | FALSE for logicals)
#                                                   against f(x * 1) etc. (the same
#               values; x * 1 quiets a signalling NA's payload in base R too);
# - "view":     f(lazy(big)[2:(n + 1)]) or f(lazy(bigm)[2:(r + 1), 1:c]), a view of
#               a larger vector or matrix whose subset is x, against f(x).
# Each wrapped value must be lazy (is_lazy()). The oracle runs `f` with base R's
# versions of the names gufunc masks (round(), signif(), ...; helper-differential.R);
# `f` itself runs with gufunc's, as after library(gufunc). Value (lazy values
# inside the result materialized: as.vector() and the like keep a lazy value lazy,
# ?lazy), sorted distinct warnings or the error message must be identical
# (identical(num.eq = FALSE, single.NA = FALSE): NA apart from NaN, -0 apart from 0).
#
# Values and operations come from R's own tests and help pages (wch/r-source; each
# group names its files): tests/print-tests.R (its vectors n1, i1, v1-v4, Mhyp, Mm
# and the very big and very small tx), tests/reg-tests-1e.R (sort(partial) PR#18335,
# as.complex() of NA, complex format PR#16752, as.<type>(<list>) PR#18696, hex
# values PR#17199, cbind/rbind), src/library/base/man/format.Rd, formatc.Rd and
# sprintf.Rd examples; the special values, as.character() digits, big.mark and
# drop0trailing groups are of the kinds tests/reg-tests-1c.R, 1d.R and reg-tests-2.R
# check. Only values and operations are taken; the expected results are base R's here.
#
# Where ?lazy documents a difference (a lazy value is a classed object to base R:
# its class(), identical() to the plain value, all.equal() with a plain target,
# print()'s header line, storage.mode<-), the last tests assert the documented
# behaviour instead; each says which.

# The plain value each way stands for, and the lazy value.
ways <- function(x) {
  list(lazy = list(plain = x, lazy = lazy(x)),
       deferred = list(plain = same_value(x), lazy = same_value(lazy(x))),
       view = list(plain = x, lazy = view_of(x)))
}

# fun(x) the three ways (fun is called with a symbol `x`, so deparse()-based names
# -- table(), rbind(), cbind() -- see the same); helper-differential.R.
format_cases <- function(source) ways_cases(source, ways)

# cat()'s output through a text connection.
cat_to_text <- function(...) {
  out <- character()
  con <- textConnection("out", "w", local = TRUE)
  on.exit(close(con))
  cat(..., file = con)
  close(con)
  on.exit()
  out
}

# Inputs: doubles with the special values of the regression tests, integers,
# logicals, a named vector and a matrix with dimnames.
specials <- c(1.5, -0, NA, NaN, Inf, -Inf, 1e-300, 1e15, 0.1 + 0.2, 123456.789, -2.5, 1 / 3)
ints <- c(1L, NA, -3L, .Machine$integer.max, 0L, 1234567L, -.Machine$integer.max)
logicals <- c(TRUE, NA, FALSE, TRUE)
named <- c(a = 1.5, b = NA, c = 3, d = -1e6)
mat <- matrix(c(1.25, 2, NA, -4, 1e5, 0.001), 2, dimnames = list(c("a", "b"), c("x", "y", "z")))
inputs <- list(specials = specials, ints = ints, logicals = logicals, named = named, mat = mat)

test_that("the ways of a case are lazy and a mismatch is reported", {
  with_options(list(gufunc.lazy_min_length = 0), {
    for (x in inputs) {
      w <- ways(x)
      for (way in names(w)) {
        expect_true(is_lazy(w[[way]]$lazy), info = way)
        expect_identical(materialize(w[[way]]$lazy), w[[way]]$plain, info = way)
      }
    }
  })
  # The collector fails a function that tells a lazy value apart.
  cases <- format_cases("self-check")
  cases$add("tells lazy apart", function(x) is_lazy(x), c(1, 2))
  expect_length(cases$mismatches(), 3L)
  expect_identical(cases$compared(), 3)
})

test_that("format() and formatC() arguments on specials, integers, logicals, names and dims", {
  cases <- format_cases("format.Rd, formatc.Rd; argument grid")
  funs <- list(
    "format()" = function(x) format(x),
    "format(digits = 3)" = function(x) format(x, digits = 3),
    "format(digits = 17)" = function(x) format(x, digits = 17),
    "format(nsmall = 2)" = function(x) format(x, nsmall = 2),
    "format(width = 12)" = function(x) format(x, width = 12),
    "format(justify = 'left')" = function(x) format(x, justify = "left"),
    "format(trim = TRUE)" = function(x) format(x, trim = TRUE),
    "format(scientific = TRUE)" = function(x) format(x, scientific = TRUE),
    "format(scientific = FALSE)" = function(x) format(x, scientific = FALSE),
    "format(scientific = -2)" = function(x) format(x, scientific = -2),
    "format(big.mark = ',')" = function(x) format(x, big.mark = ","),
    "format(drop0trailing = TRUE)" = function(x) format(x, nsmall = 3, drop0trailing = TRUE),
    "format(na.encode = FALSE)" = function(x) format(x, na.encode = FALSE),
    "format.info()" = function(x) format.info(x),
    "formatC()" = function(x) formatC(x),
    "formatC(width = 10, flag = '0', 'f')" = function(x) formatC(x, width = 10, digits = 2,
                                                                 format = "f", flag = "0"),
    "formatC(format = 'e', digits = 3)" = function(x) formatC(x, format = "e", digits = 3),
    "formatC(format = 'g', flag = '#')" = function(x) formatC(x, format = "g", flag = "#"),
    "formatC(format = 'd', big.mark = ',')" = function(x) formatC(x, format = "d", big.mark = ","),
    "formatC(width = -9)" = function(x) formatC(x, width = -9),
    "formatC(flag = '+')" = function(x) formatC(x, flag = "+"),
    "formatC(mode = 'double')" = function(x) formatC(x, mode = "double"),
    "prettyNum(big.mark = ',')" = function(x) prettyNum(x, big.mark = ","),
    "nchar(format())" = function(x) nchar(format(x)),
    "format(signif(x, 3))" = function(x) format(signif(x, 3)),
    "format(round(x, 1), nsmall = 1)" = function(x) format(round(x, 1), nsmall = 1),
    "encodeString(format())" = function(x) encodeString(format(x), quote = "\"")
  )
  for (nm in names(inputs)) cases$each(funs, inputs[[nm]], paste0(", ", nm))
  expect_no_mismatches(cases, 3 * length(funs) * length(inputs))
})

test_that("conversions, paste(), sprintf(), cat() and toString()", {
  cases <- format_cases("conversion grid; sprintf.Rd")
  funs <- list(
    "as.character()" = as.character, "as.integer()" = as.integer,
    "as.numeric()" = as.numeric, "as.double()" = as.double, "as.logical()" = as.logical,
    "as.complex()" = as.complex, "as.vector()" = as.vector,
    "as.vector(mode = 'character')" = function(x) as.vector(x, "character"),
    "as.vector(mode = 'list')" = function(x) as.vector(x, "list"),
    "mode()" = mode, "typeof()" = typeof, "storage.mode()" = storage.mode,
    "is.numeric()" = is.numeric, "is.double()" = is.double, "is.atomic()" = is.atomic,
    "paste()" = function(x) paste(x), "paste(collapse)" = function(x) paste(x, "u", sep = "_", collapse = "+"),
    "paste0()" = function(x) paste0("<", x, ">"),
    "sprintf('%s')" = function(x) sprintf("%s", x),
    "sprintf('%5s|%-7s')" = function(x) sprintf("%5s|%-7s", x, rev(x)),
    "sprintf('%.15g')" = function(x) sprintf("%.15g", as.double(x)),
    "sprintf('%+10.3e')" = function(x) sprintf("%+10.3e", as.double(x)),
    "sprintf('%a')" = function(x) sprintf("%a", as.double(x)),
    "sprintf('%d')" = function(x) sprintf("%d", x),
    "sprintf('%05d', int)" = function(x) sprintf("%05d", as.integer(x)),
    "sprintf('%*d')" = function(x) sprintf("%*d", 6L, as.integer(x)),
    "sprintf('%2$s %1$s')" = function(x) sprintf("%2$s %1$s", x, "v"),
    "sprintf('%5.1f%%')" = function(x) sprintf("%5.1f%%", x),
    "toString()" = function(x) toString(x), "toString(width = 12)" = function(x) toString(x, width = 12),
    "cat()" = function(x) cat_to_text(x, sep = " "),
    "cat(fill = 20)" = function(x) cat_to_text(x, fill = 20, labels = paste0("{", 1:3, "}:")),
    "cat(x, x)" = function(x) cat_to_text(x, "|", x, sep = ",")
  )
  for (nm in names(inputs)) cases$each(funs, inputs[[nm]], paste0(", ", nm))
  expect_no_mismatches(cases, 3 * length(funs) * length(inputs))
})

test_that("ordering, tabulation, matching and summaries", {
  cases <- format_cases("ordering and summary grid")
  funs <- list(
    "zapsmall()" = zapsmall, "zapsmall(digits = 3)" = function(x) zapsmall(x, digits = 3),
    "rev()" = rev, "sort()" = sort, "sort(decreasing, na.last)" = function(x) sort(x, TRUE, na.last = TRUE),
    "sort(method = 'radix')" = function(x) sort(x, method = "radix"),
    "sort(index.return = TRUE)" = function(x) sort(x, index.return = TRUE),
    "order()" = order, "order(decreasing, radix)" = function(x) order(x, decreasing = TRUE, method = "radix"),
    "order(-x, x)" = function(x) order(-x, x, na.last = NA),
    "rank()" = rank, "rank(ties = 'min', na.last = 'keep')" = function(x) rank(x, na.last = "keep", ties.method = "min"),
    "unique()" = unique, "unique(fromLast)" = function(x) unique(x, fromLast = TRUE),
    "duplicated()" = duplicated, "anyDuplicated()" = anyDuplicated,
    "table()" = function(x) table(x), "table(useNA = 'ifany')" = function(x) table(x, useNA = "ifany"),
    "table(x, x > 0)" = function(x) table(x, x > 0, exclude = NULL),
    "tabulate()" = function(x) tabulate(abs(as.integer(x)) %% 7L, nbins = 5),
    "cut(3)" = function(x) cut(x, 3), "cut(breaks, right = FALSE)" =
      function(x) cut(x, c(-Inf, -1, 0, 1.5, Inf), right = FALSE, include.lowest = TRUE),
    "cut(labels = FALSE)" = function(x) cut(x, c(-10, 0, 10), labels = FALSE),
    "findInterval()" = function(x) findInterval(x, c(-1, 0, 1.5, 2)),
    "findInterval(vec = x)" = function(x) findInterval(c(-1, 0, 2, 1e6), sort(x)),
    "findInterval(left.open)" = function(x) findInterval(x, c(-1, 0, 1.5), left.open = TRUE, rightmost.closed = TRUE),
    "match()" = function(x) match(x, c(NA, 1.5, 3, 0, NaN)), "match(table = x)" = function(x) match(c(0, NaN, NA, 3), x),
    "%in%" = function(x) x %in% c(NA, 1.5, TRUE), "which(x > 0)" = function(x) which(x > 0),
    "which(arr.ind = TRUE)" = function(x) which(x > 0, arr.ind = TRUE),
    "which.max()" = which.max, "which.min()" = which.min,
    "range()" = range, "range(na.rm = TRUE)" = function(x) range(x, na.rm = TRUE),
    "range(finite = TRUE)" = function(x) range(x, finite = TRUE),
    "quantile(na.rm = TRUE)" = function(x) quantile(x, na.rm = TRUE),
    "quantile(type = 1, 3, 6)" = function(x) lapply(c(1, 3, 6), function(t) quantile(x, 1:3 / 4, type = t, na.rm = TRUE)),
    "summary()" = function(x) summary(x), "summary(digits = 3)" = function(x) format(summary(x), digits = 3),
    "all.equal(x, x)" = function(x) all.equal(x, x), "all.equal(x, x + 1)" = function(x) all.equal(x, x + 1),
    "seq_along()" = seq_along, "length()" = length, "names()" = names, "dim()" = dim,
    "dimnames()" = dimnames, "NROW()" = NROW
  )
  for (nm in names(inputs)) cases$each(funs, inputs[[nm]], paste0(", ", nm))
  expect_no_mismatches(cases, 3 * length(funs) * length(inputs))
})

test_that("names, dim and dimnames round trips, c(), unlist(), rbind() and cbind()", {
  cases <- format_cases("attribute and combination grid")
  funs <- list(
    "names<-" = function(x) { names(x) <- paste0("n", seq_along(x)); list(x, names(x)) },
    "names<- NULL" = function(x) { names(x) <- NULL; x },
    "dim<-" = function(x) { dim(x) <- c(2L, length(x) / 2L); list(x, dim(x)) },
    "dim<- NULL" = function(x) { dim(x) <- NULL; x },
    "dimnames<-" = function(x) {
      dim(x) <- c(2L, length(x) / 2L)
      dimnames(x) <- list(c("r", "s"), NULL)
      list(x, dimnames(x), format(x))
    },
    "c(x, 1)" = function(x) c(x, 1), "c(1L, x)" = function(x) c(1L, x),
    "c(x, x)" = function(x) c(x, x), "c(a = x)" = function(x) c(a = x),
    "c(x, 'a')" = function(x) c(x, "a"), "c(x, list(1))" = function(x) c(x, list(1)),
    "unlist(list(x))" = function(x) unlist(list(x)),
    "unlist(list(a = x, b = x))" = function(x) unlist(list(a = x, b = x)),
    "rbind(x, x)" = function(x) rbind(x, x), "cbind(x, 1)" = function(x) cbind(x, 1),
    "rbind(a = x, 2:1)" = function(x) rbind(a = x, x * 2), "cbind(deparse.level = 2)" =
      function(x) cbind(x, x + 1, deparse.level = 2),
    "rbind(x, 'c')" = function(x) rbind(x, "c"), "lapply(x, format)" = function(x) lapply(x, format),
    "vapply(x, format)" = function(x) vapply(x, format, "", nsmall = 1)
  )
  # Even lengths, for dim<- .
  even <- list(specials = specials, ints = c(ints, 5L), logicals = logicals, named = named, mat = mat)
  for (nm in names(even)) cases$each(funs, even[[nm]], paste0(", ", nm))
  expect_no_mismatches(cases, 3 * length(funs) * length(even))
})

test_that("R's tests/print-tests.R: digits of format(), formatC() and signif() near the limits", {
  cases <- format_cases("r-source tests/print-tests.R")
  n1 <- 2^(4 * 1:7)
  i1 <- as.integer(n1)
  v1 <- 2^c(-12, 2 * (-4:-2), 3, 6, 9)
  v2 <- v1^(63 / 64)
  v3 <- pi * 100^(-1:3)
  v4 <- (0:2) / 1000 + 1e-10
  digs1 <- c(1, 2 * (1:5), 11:16)
  for (v in c("n1", "i1", "v1", "v2", "v3", "v4")) {
    x <- get(v)
    for (d in digs1) {
      cases$add(sprintf("format(%s, digits = %d)", v, d), function(x) format(x, digits = d), x)
    }
    cases$add(sprintf("paste(%s) with options(digits = 10)", v),
              function(x) with_options(list(digits = 10), paste(x)), x)
  }
  for (d in c(digs1, 17:20)) {
    cases$add(sprintf("formatC(v2, digits = %d, width = 8)", d),
              function(x) formatC(x, digits = d, width = 8), v2)
    cases$add(sprintf("formatC(v3, digits = %d, width = 8)", d),
              function(x) formatC(x, digits = d, width = 8), v3)
  }
  cases$add("round(v3, 3)", function(x) format(round(x, 3)), v3)
  cases$add("signif(v3, 3)", function(x) format(signif(x, 3)), v3)
  cases$add("2^30, digits = 12", function(x) c(format(x, digits = 12), formatC(x, digits = 12)), 2^30)
  mhyp <- rbind(phyper(0:10, 10, 7, 8), dhyper(0:10, 10, 7, 8))
  cases$add("format(Mhyp)", function(x) format(x), mhyp)
  mm <- pi * outer(c(-1, 1), 10^(-5:5))
  mm <- cbind(mm, outer(c(-1, 1), 10^-(5:1)))
  for (di in 1:10) {
    cases$add(sprintf("format.info(Mm) with options(digits = %d)", di),
              function(x) with_options(list(digits = di), list(format.info(x), format(x))), mm)
  }
  # Very big and very small numbers.
  umach <- unlist(.Machine)[paste0("double.x", c("min", "max"))]
  tx <- unique(outer(-1:1, c(.1, 1e-3, 1e-7)))
  tx <- unique(sort(c(outer(umach, 1 + tx))))
  tx <- tx[is.finite(tx)]
  txp <- tx[tx >= 1]
  txn <- tx[tx < 1]
  for (dig in 1:22) {
    cases$add(sprintf("formatC(txp, digits = %d, width = -29)", dig),
              function(x) formatC(x, digits = dig, width = -29), txp)
  }
  for (dig in 1:12) {
    cases$add(sprintf("formatC(signif(txp, %d), digits = %d)", dig, dig + 2),
              function(x) formatC(signif(x, dig), digits = dig + 2, width = -26), txp)
    cases$add(sprintf("format(signif(txp, %d), digits = %d)", dig, dig + 2),
              function(x) format(signif(x, dig), digits = dig + 2), txp)
  }
  for (dig in 1:14) {
    cases$add(sprintf("formatC(signif(txn, %d), digits = %d)", dig, dig + 2),
              function(x) formatC(signif(x, dig), digits = dig + 2, width = -20), txn)
  }
  cases$add("formatC(txp, digits = 22)", function(x) formatC(x, digits = 22), txp)
  cases$add("as.character(tx)", as.character, tx)
  expect_no_mismatches(cases, 555)
})

test_that("R's format.Rd, formatc.Rd and sprintf.Rd examples", {
  cases <- format_cases("r-source src/library/base/man/format.Rd, formatc.Rd, sprintf.Rd")
  add <- cases$add
  add("format(1:10)", function(x) list(format(x), format(x, trim = TRUE)), 1:10)
  add("format(13.7, nsmall = 3)", function(x) c(format(x), format(x, nsmall = 3)), 13.7)
  add("format(c(6, 13.1), digits = 2)", function(x) {
    c(format(x, digits = 2), format(x, digits = 2, nsmall = 1))
  }, c(6.0, 13.1))
  add("format(2^31 - 1)", function(x) c(format(x), format(x, scientific = TRUE)), 2^31 - 1)
  sci_x <- c(1e5, 1000, 10, 0.1, .001, .123)
  for (sci in -4:1) {
    add(sprintf("sapply(x, format, scientific = %d)", sci),
        function(x) list(sapply(x, format, scientific = sci), format(x, scientific = sci)), sci_x)
  }
  add("format(<list>, digits = 2)", function(x) {
    z <- list(a = letters[1:3], c = x, d = c("a", "longer"))
    list(format(z, digits = 2), format(z, digits = 2, justify = "left", trim = FALSE))
  }, c(1, 10, 100, 1000))
  xx <- pi * 10^(-5:4)
  add("cbind(format(xx, digits = 4), formatC(xx))",
      function(x) cbind(format(x, digits = 4), formatC(x)), xx)
  add("formatC(xx, width = 9, flag = ' ')", function(x) formatC(x, width = 9, flag = " "), xx)
  add("formatC(xx, digits = 5, width = 8, 'f', flag = '0')",
      function(x) formatC(x, digits = 5, width = 8, format = "f", flag = "0"), xx)
  add("formatC(xx, digits = 4, format = 'fg')", function(x) formatC(x, digits = 4, format = "fg"), xx)
  add("formatC(xx, width = 9, flag = '-')", function(x) formatC(x, width = 9, flag = "-"), xx)
  add("formatC(c((-1:1)/0, c(1, 100) * pi), width = 8, digits = 1)",
      function(x) formatC(x, width = 8, digits = 1), c((-1:1) / 0, c(1, 100) * pi))
  xx2 <- c(1e-12, -3.98765e-10, 1.45645e-69, 1e-70, pi * 1e37, 3.44e4)
  add("formatC(xx2)", function(x) list(formatC(x), formatC(x, format = "fg")), xx2)
  add("formatC(xx2[1:4], 'f', digits = 75)", function(x) formatC(x, format = "f", digits = 75), xx2[1:4])
  add("formatC(drop0trailing = TRUE)",
      function(x) formatC(x, format = "f", digits = 11, drop0trailing = TRUE), c(3.24, 2.3e-6))
  r <- c(76491283764.97430, 29.12345678901, -7.1234, -100.1, 1123)
  add("prettyNum(r, big.mark = ',')", function(x) prettyNum(x, big.mark = ","), r)
  add("format(r, big.mark = \"'\", decimal.mark = ',')",
      function(x) format(x, big.mark = "'", decimal.mark = ","), r)
  add("formatC(r, big.mark = ',', 'f')", function(x) formatC(x, big.mark = ",", format = "f", digits = 2), r)
  add("formatC(zero.print)", function(x) formatC(x, zero.print = "."), c(0, 1.5, 0, -2))
  add("prettyNum(zero.print)", function(x) prettyNum(x, zero.print = "--"), c(0L, 12L, 0L, 12345L))
  add("formatC(1e6, big.mark, 'd')", function(x) formatC(x, big.mark = ",", format = "d"),
      c(1e6, 1234567, 1e15))
  add("sprintf('%s is %f feet tall')", function(x) sprintf("%s is %f feet tall", "Sven", x), 7.1)
  add("sprintf of pi", function(x) {
    c(sprintf("%f", x), sprintf("%.3f", x), sprintf("%1.0f", x), sprintf("%5.1f", x),
      sprintf("%05.1f", x), sprintf("%+f", x), sprintf("% f", x), sprintf("%-10f", x),
      sprintf("%e", x), sprintf("%E", x), sprintf("%g", x), sprintf("%g", 1e6 * x),
      sprintf("%.9g", 1e6 * x), sprintf("%G", 1e-6 * x))
  }, pi)
  add("sprintf('%1.0f', 101)", function(x) sprintf("%1.0f", x), 101)
  add("sprintf('%s', 1.5) and '%d' of 3", function(x) c(sprintf("%s", x), sprintf("%d", x + 1.5)), 1.5)
  add("sprintf('%5s', logical)", function(x) sprintf("%5s|%d", x, x), c(TRUE, FALSE, NA))
  add("sprintf('%x %X %o')", function(x) sprintf("%x %X %o %08x", x, x, x, x), c(31L, 255L, 4096L, NA))
  add("sprintf('%.0f%%')", function(x) sprintf("%.0f%% said yes (out of a sample of size %.0f)", x, 3), 66.666)
  add("sprintf('e with %2d digits = %.<d>g')",
      function(x) sprintf(paste0("e with %2d digits = %.", x, "g"), x, exp(1)), 1:18)
  add("sprintf('%09s')", function(x) sprintf("%9s|%-9s", x, x), c(1.5, 22, NA))
  add("sprintf('%2$s %1$s')", function(x) sprintf("%2$s %1$s", x, "word"), c(1, 2))
  add("sprintf('%*d')", function(x) sprintf("%*d", 3, x), 1:3)
  add("sprintf('%s', list element)", function(x) sprintf("%s", list("a", x, TRUE)), 1.5)
  expect_no_mismatches(cases, 114)
})

test_that("R's reg-tests: as.character() of doubles, special values, big.mark, drop0trailing", {
  cases <- format_cases("r-source tests/reg-tests-1e.R; reg-tests-1c.R, 1d.R, reg-tests-2.R kinds")
  add <- cases$add
  # as.character() of doubles: 15 significant digits in R 4.2 (changed in 4.3).
  dbl <- c(0.1 + 0.2, 1 / 3, 2 / 3, 1e15, 1e16, 123456789012345, 1234567890123456, 1e5, 1e-5,
           100000, 2^53, -2^31, 1e22, 5e-324, .Machine$double.xmax, .Machine$double.eps,
           1e-300, 11 / 999, 0.1, 1 - 1e-16, 1e-15, 9.999999999999999e22)
  add("as.character(<doubles>)", as.character, dbl)
  add("paste(<doubles>)", function(x) paste(x, collapse = " "), dbl)
  add("format(<doubles>, digits = 15:17)", function(x) lapply(15:17, function(d) format(x, digits = d)), dbl)
  add("sprintf('%.17g')", function(x) sprintf("%.17g", x), dbl)
  add("as.numeric(as.character(x)) round trip", function(x) as.numeric(as.character(x)), dbl)
  # -0, NA, NaN, Inf and friends.
  sp <- c(-0, 0, NA, NaN, Inf, -Inf)
  add("format(<specials>)", function(x) list(format(x), format(x, nsmall = 2), format(x, width = 6),
                                             formatC(x), formatC(x, format = "f"), sprintf("%5.1f", x),
                                             as.character(x), toString(x), format(x, na.encode = FALSE)), sp)
  add("1 / x keeps the sign of zero", function(x) format(1 / x), c(-0, 0))
  add("format(NA_integer_, width = 5)", function(x) list(format(x, width = 5), formatC(x), format(x, big.mark = ",")),
      c(NA, 1L, -10L))
  add("format(c(NA, 1.2345), digits = 3, nsmall = 2)", function(x) format(x, digits = 3, nsmall = 2),
      c(NA, 1.2345))
  add("format(<logical>)", function(x) list(format(x), format(x, width = 7), formatC(x), as.character(x)),
      c(TRUE, NA, FALSE))
  add("format(1e-310) (subnormals)", function(x) list(format(x), format(x, digits = 16), formatC(x, digits = 17)),
      c(1e-310, 5e-324, 2.225e-308))
  add("format(1e15 and friends)", function(x) list(format(x), format(x, scientific = FALSE), format(x, big.mark = ",")),
      c(1e15, 1e5, 123456, 1e-15))
  # big.mark.
  bm <- c(123456789, 1234567.891, -1e6, 0.123456, 1e10)
  add("format(big.mark = ',')", function(x) format(x, big.mark = ","), bm)
  add("format(big.mark, scientific = FALSE)", function(x) format(x, big.mark = ",", scientific = FALSE), bm)
  add("format(big.mark, nsmall = 2)", function(x) format(x, big.mark = " ", nsmall = 2), bm)
  add("prettyNum(big.mark, preserve.width)", function(x) {
    list(prettyNum(x, big.mark = ","), prettyNum(x, big.mark = ",", preserve.width = "common"),
         prettyNum(x, big.mark = ",", preserve.width = "none"))
  }, bm)
  add("formatC(big.mark, format = 'f')", function(x) formatC(x, big.mark = ",", format = "f", digits = 1), bm)
  add("formatC(<integers>, big.mark)", function(x) formatC(x, big.mark = ",", width = 12), c(1234567L, -98765L, NA))
  add("format(<integers>, big.mark)", function(x) format(x, big.mark = "."), c(1234567L, -98765L, NA))
  # drop0trailing.
  d0 <- c(1, 1.5, 2.25, 10, 1e-10)
  add("format(drop0trailing)", function(x) format(x, drop0trailing = TRUE), d0)
  add("format(nsmall = 3, drop0trailing)", function(x) format(x, nsmall = 3, drop0trailing = TRUE), c(1, 10, 2.5))
  add("format(scientific, drop0trailing)", function(x) format(x, scientific = TRUE, drop0trailing = TRUE), d0)
  add("formatC('f', drop0trailing)", function(x) formatC(x, format = "f", digits = 3, drop0trailing = TRUE), d0)
  add("formatC('e', drop0trailing)", function(x) formatC(x, format = "e", digits = 4, drop0trailing = TRUE), d0)
  add("prettyNum(drop0trailing)", function(x) prettyNum(x, drop0trailing = TRUE), d0)
  # scipen.
  for (sp in c(-9, -2, 0, 3, 100)) {
    add(sprintf("format() with options(scipen = %d)", sp),
        function(x) with_options(list(scipen = sp), list(format(x), as.character(x), paste(x))),
        c(1e5, 123456, 1e-5, 0.0001234, 1e15))
  }
  # reg-tests-1e.R: sort(x, partial) with NAs (PR#18335), as.complex() of special values.
  x7 <- c(7, 2, 4, 5, 3, 6, NA)
  for (p in list(3, c(3, 5))) {
    for (nl in list(NA, FALSE, TRUE)) {
      add(sprintf("sort(x, partial = %s, na.last = %s)", deparse(p), nl),
          function(x) sort(x, partial = p, na.last = nl), x7)
    }
  }
  x14 <- c(7, 2, 0, 8, -1, -2, 9, 4, 5, 3, 6, 1, NA, NA)
  add("sort(x14, partial = c(10, 13))", function(x) sort(x, partial = c(10, 13), na.last = TRUE), x14)
  add("as.complex(<specials>)", as.complex, c(NA, NaN, Inf, -Inf, -0))
  add("as.complex(NA_integer_)", as.complex, c(NA, 1L))
  add("as.character(x + 1e9i) (a complex fallback)", function(x) as.character(x + 1e9i), 100 + 0:4)
  add("format(x + 100000i)", function(x) format(x + 100000i), 100 + 0:4)
  add("as.double(as.list(x))", function(x) as.double(as.list(x)), 1:11)
  add("as.integer(as.list(x))", function(x) as.integer(as.list(x)), c(1.5, 2, NA))
  hexd <- as.numeric(c("0x1.00000000d0000p-987", "0x1.0000000000000p-1022", "0x1.f89fc1a6f6613p-974"))
  add("sprintf('%a') of PR#17199 values", function(x) list(sprintf("%a", x), format(x), as.character(x)), hexd)
  add("cbind(x, pi), rbind(x, 1:6)", function(x) list(cbind(x, pi), rbind(x, 1:6), cbind(x, c(TRUE, FALSE))), 1:6)
  expect_no_mismatches(cases, 135)
})

test_that("long vectors (more than 65536 elements) at the default threshold", {
  cases <- format_cases("long vectors; the grids above")
  set.seed(7)
  n <- 70000
  long <- c(round(rnorm(n - 7) * 1000, 3), NA, NaN, -0, Inf, -Inf, 1e15, 0.1 + 0.2)
  long_int <- c(sample(c(NA, -50:50), n - 2, replace = TRUE), .Machine$integer.max, -1L)
  funs <- list(
    "format()" = function(x) format(x), "format(nsmall = 2, big.mark)" = function(x) format(x, nsmall = 2, big.mark = ","),
    "formatC('f')" = function(x) formatC(x, format = "f", digits = 1), "as.character()" = as.character,
    "sprintf('%.3g')" = function(x) sprintf("%.3g", as.double(x)), "nchar(format())" = function(x) nchar(format(x)),
    "as.integer()" = as.integer, "as.logical()" = as.logical, "sort()" = sort, "order()" = order,
    "rank()" = function(x) rank(x, na.last = "keep"), "unique()" = unique, "duplicated()" = duplicated,
    "table()" = function(x) table(round(x, -2), useNA = "ifany"), "cut()" = function(x) table(cut(x, c(-Inf, -100, 0, 100, Inf))),
    "findInterval()" = function(x) tabulate(findInterval(x, c(-100, 0, 100)) + 1L),
    "match()" = function(x) match(c(0, 1.5, NA, NaN, 42), x), "%in%" = function(x) sum(x %in% c(0, 1, NA)),
    "which()" = function(x) which(x > 2000), "which.max()" = which.max, "which.min()" = which.min,
    "range()" = range, "range(na.rm)" = function(x) range(x, na.rm = TRUE), "quantile()" = function(x) quantile(x, na.rm = TRUE),
    "summary()" = summary, "paste(collapse)" = function(x) nchar(paste(x, collapse = "")), "toString()" = function(x) nchar(toString(x)),
    "rev()" = rev, "zapsmall()" = zapsmall, "c()" = function(x) c(x, 1), "cbind()" = function(x) cbind(x, 1)[n - 1:2, ],
    "all.equal()" = function(x) all.equal(x, x + 1e-3), "seq_along()" = function(x) sum(seq_along(x))
  )
  for (l in names(funs)) {
    cases$add(paste0(l, ", doubles"), funs[[l]], long, min_length = 65536)
    cases$add(paste0(l, ", integers"), funs[[l]], long_int, min_length = 65536)
  }
  expect_no_mismatches(cases, 3 * 2 * length(funs))
})

# Documented differences (?lazy): a lazy value is a classed object to base R. For
# each, the lazy value behaves as base R's plain value with that class attribute
# (structure(x, class = "gufunc_lazy")) does, and otherwise as the plain value.

for_each_way <- function(code) {
  with_options(list(gufunc.lazy_min_length = 0), {
    for (nm in names(inputs)) {
      w <- ways(inputs[[nm]])
      for (way in names(w)) code(w[[way]]$plain, w[[way]]$lazy, paste(nm, way))
    }
  })
}

test_that("class(), identical() and is.vector(): those of a classed object (?lazy, value)", {
  # ?lazy: lazy() gives "a lazy value of class gufunc_lazy"; is.vector() is FALSE for it.
  for_each_way(function(plain, lz, info) {
    classed <- structure(plain, class = "gufunc_lazy")
    expect_identical(class(lz), "gufunc_lazy", info = info)
    expect_identical(oldClass(lz), oldClass(classed), info = info)
    expect_identical(inherits(lz, "gufunc_lazy"), TRUE, info = info)
    expect_false(is.vector(lz), info = info)
    # Not identical() to the plain value (the class attribute), identical() to it
    # with the class, and without the class to the plain value.
    expect_false(identical(lz, plain), info = info)
    expect_true(identical(lz, classed), info = info)
    expect_true(identical(unclass(lz), plain, num.eq = FALSE, single.NA = FALSE), info = info)
    expect_true(identical(materialize(lz), plain, num.eq = FALSE, single.NA = FALSE), info = info)
    # mode() and typeof() are the plain value's.
    expect_identical(c(mode(lz), typeof(lz), storage.mode(lz)),
                     c(mode(plain), typeof(plain), storage.mode(plain)), info = info)
  })
})

test_that("all.equal(): a lazy target is its values; a plain target reports the class (?lazy)", {
  for_each_way(function(plain, lz, info) {
    expect_true(all.equal(lz, plain), info = info)
    expect_true(all.equal(lz, lz), info = info)
    # ?lazy: all.equal() of a plain target and a lazy current value reports the
    # class, as base R does for the plain values with the class attribute.
    classed <- structure(plain, class = "gufunc_lazy")
    expect_identical(all.equal(plain, lz), all.equal(plain, classed), info = info)
    expect_identical(all.equal(plain * 2, lz), all.equal(plain * 2, classed), info = info)
  })
})

test_that("print(): a header line, then base R's lines (?lazy, details); dput() shows the class", {
  print_tests <- list(v1 = 2^c(-12, 2 * (-4:-2), 3, 6, 9), v3 = pi * 100^(-1:3),
                      v4 = (0:2) / 1000 + 1e-10)  # r-source tests/print-tests.R
  values <- c(inputs, print_tests)
  checked <- 0
  with_options(list(gufunc.lazy_min_length = 0), {
    for (nm in names(values)) {
      w <- ways(values[[nm]])
      for (way in names(w)) {
        for (d in c(1, 4, 7, 15)) {
          info <- sprintf("%s %s, digits = %d", nm, way, d)
          got <- capture.output(print(w[[way]]$lazy, digits = d))
          expect_match(got[1], "^<gufunc_lazy (double|integer|logical)\\[", info = info)
          expect_identical(got[-1], capture.output(print(w[[way]]$plain, digits = d)), info = info)
          checked <- checked + 1
        }
        # dput() shows the class, as of the plain values with it.
        expect_identical(capture.output(dput(w[[way]]$lazy)),
                         capture.output(dput(structure(w[[way]]$plain, class = "gufunc_lazy"))), info = nm)
      }
    }
  })
  expect_gte(checked, 3 * 4 * length(values))
})

test_that("storage.mode<- and mode<- give plain data that keeps the class (?lazy, details)", {
  # ?lazy: `storage.mode<-` copies every attribute and gives plain data with the
  # class: not lazy, its values base R's, printed as the plain value.
  checked <- 0
  for_each_way(function(plain, lz, info) {
    for (m in c("double", "integer", "character", "logical")) {
      base <- plain
      base_warnings <- capture_warnings(storage.mode(base) <- m)
      got <- lz
      got_warnings <- capture_warnings(storage.mode(got) <- m)
      expect_identical(got_warnings, base_warnings, info = paste(info, m))
      if (typeof(lz) == m) {
        # (Setting the mode it has leaves the lazy value as it is.)
        expect_true(is_lazy(got), info = info)
        expect_identical(materialize(got), base, info = info)
      } else {
        expect_identical(class(got), "gufunc_lazy", info = paste(info, m))
        expect_false(is_lazy(got), info = paste(info, m))
        expect_identical(unclass(got), base, info = paste(info, m))
        expect_identical(materialize(got), base, info = paste(info, m))
        expect_identical(capture.output(print(got)), capture.output(print(base)), info = paste(info, m))
      }
      checked <<- checked + 1
    }
    base <- plain
    mode(base) <- "character"
    got <- lz
    mode(got) <- "character"
    expect_identical(materialize(got), base, info = info)
    expect_false(is_lazy(got), info = info)
  })
  expect_gte(checked, 4 * 3 * length(inputs))
})

test_that("views of a 3-d array, t() and 1-d arrays format and convert as their values", {
  arr <- array(c(1.5, NA, -0, 1:21 / 7), c(2, 3, 4), dimnames = list(c("a", "b"), NULL, paste0("k", 1:4)))
  m <- matrix(c(1:5, NA), 2, dimnames = list(r = c("a", "b"), c = c("x", "y", "z")))
  a1 <- array(c(2.5, NA, 1), 3, dimnames = list(k = c("a", "b", "c")))
  funs <- list(format = function(x) format(x), format_nsmall = function(x) format(x, nsmall = 2),
               formatC = function(x) formatC(x, width = 6), as.character = as.character,
               paste = function(x) paste(x, collapse = "/"), sprintf = function(x) sprintf("%4.1f", as.double(x)),
               toString = toString, sort = sort, order = order, unique = unique, rev = rev, range = range,
               quantile = function(x) quantile(x, na.rm = TRUE), summary = summary, as.vector = as.vector,
               c = function(x) c(x), unlist = function(x) unlist(list(x)), rbind = function(x) rbind(x, x),
               cbind = function(x) cbind(x, 0), dimnames = dimnames, which = function(x) which(x > 1, arr.ind = TRUE))
  failures <- character()
  compared <- 0
  with_options(list(gufunc.lazy_min_length = 0), {
    pairs <- list("arr[, , 2]" = list(arr[, , 2], lazy(arr)[, , 2]),
                  "arr[1:2, 2:3, 2:4]" = list(arr[1:2, 2:3, 2:4], lazy(arr)[1:2, 2:3, 2:4]),
                  "t(m)" = list(t(m), t(lazy(m))), "t(m + 0L)" = list(t(m + 0L), t(lazy(m) + 0L)),
                  "1-d array" = list(a1, lazy(a1)), "1-d array * 1" = list(a1 * 1, lazy(a1) * 1))
    for (p in names(pairs)) {
      expect_true(is_lazy(pairs[[p]][[2]]), info = p)
      for (f in names(funs)) {
        base <- differential_outcome(function() { x <- pairs[[p]][[1]]; materialize_inside(funs[[f]](x)) })
        got <- differential_outcome(function() { x <- pairs[[p]][[2]]; materialize_inside(funs[[f]](x)) })
        compared <- compared + 1
        if (!identical(got, base, num.eq = FALSE, single.NA = FALSE)) failures <- c(failures, paste(f, p))
      }
    }
  })
  expect_identical(failures, character())
  expect_gte(compared, 6 * length(funs))
})
