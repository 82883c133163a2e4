# Differential tests of data frames with lazy columns against the same data frames
# with plain columns. Operations and values come from R's own regression tests
# (wch/r-source tests/reg-tests-1a.R, reg-tests-1c.R, reg-tests-1d.R, reg-tests-1e.R,
# reg-tests-2.R; each group names its file) and R's datasets; the expected outcome is
# always base R's on the plain columns. A case runs `fun` on plain inputs with base
# R's versions of the names gufunc masks, on plain inputs with the masks (as after
# library(gufunc)), and on inputs whose double/integer/logical columns are lazy (all
# of them, and for two inputs each one alone). Value (lazy vectors materialized deep
# inside lists, data frames and attributes), sorted distinct warnings or the error
# message must be identical; printed output is compared as capture.output() lines.

# Double, integer and logical vectors (alone, or as columns or list elements) lazy.
lazify <- function(x) {
  plain <- function(v) is.atomic(v) && is.null(oldClass(v)) &&
    typeof(v) %in% c("double", "integer", "logical")
  if (is.list(x)) {
    x[] <- lapply(x, function(v) if (plain(v)) lazy(v) else v)
    return(x)
  }
  if (plain(x)) lazy(x) else x
}

# add(label, fun, ...): one case on one or two inputs (data frames, lists, vectors);
# each(funs, d, suffix): a case for each function of a named list, on `d`.
frame_cases <- function(source) {
  book <- case_log(source)
  book$add <- function(label, fun, ...) {
    args <- list(...)
    # Called with a[[1]], a[[2]] (not do.call()): deparse(substitute()) sees the same.
    call_with <- function(f, a) if (length(a) == 1L) f(a[[1]]) else f(a[[1]], a[[2]])
    outcome <- function(f, a) differential_outcome(function() materialize_inside(call_with(f, a)))
    base_fun <- with_base_masks(fun)
    with_options(list(gufunc.lazy_min_length = 0), {
      base <- outcome(base_fun, args)
      sets <- c(list(seq_along(args)), if (length(args) > 1L) as.list(seq_along(args)))
      runs <- c(list(masks = args), lapply(sets, function(s) {
        args[s] <- lapply(args[s], lazify)
        args
      }))
      names(runs)[-1] <- vapply(sets, function(s) sprintf("lazy(%s)", toString(s)), "")
      for (r in names(runs)) {
        got <- outcome(fun, runs[[r]])
        book$note(label, path = r, if (!identical(got, base, num.eq = FALSE, single.NA = FALSE)) {
          sprintf("base %s | got %s", describe_outcome(base), describe_outcome(got))
        })
      }
    })
    invisible()
  }
  book$each <- function(funs, d, suffix = "") {
    for (l in names(funs)) book$add(paste0(l, suffix), funs[[l]], d)
  }
  book
}

printed <- function(f) function(...) capture.output(print(f(...)))

set.seed(20)
n <- 3000
big <- data.frame(x = round(rnorm(n), 3), i = sample(c(-5:5, NA), n, TRUE),
                  l = sample(c(TRUE, FALSE, NA), n, TRUE), g = sample(letters[1:4], n, TRUE),
                  y = c(NaN, Inf, -Inf, NA, runif(n - 4) * 100))
mt_big <- mtcars[rep(seq_len(32), 40), ]   # 1280 rows
aq_big <- airquality[rep(seq_len(153), 8), ]

test_that("R's reg-tests-1a.R: merge, DF[[i, j]], aggregate, [<- and rbind of data frames", {
  cases <- frame_cases("r-source tests/reg-tests-1a.R")
  add <- cases$add
  x <- data.frame(x = 1:5, y = letters[1:5])
  add("merge() with a one-column df (PR#4299)", \(a, b) merge(a, b), x, data.frame(z = 1:2))
  add("merge(by = 'x', all = TRUE)", \(a, b) merge(a, b, by = "x", all = TRUE),
      x, data.frame(x = c(2L, 7L), w = c(0.5, NA)))
  add("women[[2, 1]]", \(d) d[[2, 1]], women)
  add("women[[2, 1]] <- 77", \(d) `[[<-`(d, 2, 1, value = 77), women)
  add("aggregate() with one result row", \(d) aggregate(d$a, list(a1 = d$a, b1 = d$b), NROW),
      data.frame(a = rep(2, 10), b = rep("a", 10)))
  add("x[, names(info)] <- info[1, ]", \(d) `[<-`(d, , names(d)[1:2], value = d[1, 1:2]),
      data.frame(a = 1:3, b = 4:6, c = 7:9))
  add("rbind() with a character column", \(a, b) rbind(a, b),
      data.frame(a = 1, b = "A"), data.frame(a = 2, b = "B"))
  add("rbind() with ordered columns", \(a, b) rbind(a, b),
      data.frame(a = 1:3, b = ordered(letters[1:3])),
      data.frame(a = 7:9, b = ordered(letters[7:9])))
  expect_no_mismatches(cases, 24)
})

test_that("R's reg-tests-2.R: rbind of permuted columns, summary() and printing", {
  cases <- frame_cases("r-source tests/reg-tests-2.R")
  add <- cases$add
  add("rbind() of permuted columns (PR#8868)", \(a, b) rbind(a, b),
      data.frame(x = 1:10, y = letters[1:10], z = 1:10),
      data.frame(y = LETTERS[1:5], z = 5:1, x = 7:11))
  add("rbind() with duplicated names", \(a, b) rbind(a, b),
      data.frame(x = 1:2, y = 5:6, x = 8:9, check.names = FALSE),
      data.frame(x = 3:4, x = -(1:2), y = 8:9, check.names = FALSE))
  x <- c(18000000, 18810924, 19091227, 19027233, 19310526, 19691228, NA)
  dd <- data.frame(c1 = as.Date(as.character(x), format = "%Y%m%d"), x1 = 1:7, x2 = c(1:6, NA))
  add("summary() with Dates and NAs (PR#16709)", printed(summary), dd)
  add("print() with Dates and NAs", printed(identity), dd)
  add("format(nsmall = 2)", \(d) format(d, nsmall = 2), dd[-1])
  add("print(digits = 3) of mtcars", printed(\(d) print(d / 7, digits = 3)), mtcars)
  add("print() of a 1280-row frame", printed(identity), mt_big)
  add("summary() of iris", printed(summary), iris)
  add("summary() of airquality", \(d) summary(d), airquality)
  # (Not str() or dput(): they show a lazy column's class, as of any classed vector.)
  add("write.csv() of ToothGrowth", \(d) capture.output(write.csv(d)), ToothGrowth)
  expect_no_mismatches(cases, 24)
})

test_that("R's reg-tests-1c.R: rbind() row names, as.data.frame() of lists and vectors", {
  cases <- frame_cases("r-source tests/reg-tests-1c.R")
  add <- cases$add
  mk1 <- function(x) data.frame(x = x)
  add("rbind() keeps row names 3, 4, 1, 2", \(a, b) rbind(a[3:4, , drop = FALSE], b),
      mk1(1:4), mk1(1:2))
  add("rbind(df, 7, df)", \(a, b) rbind(a, 7, b), mk1(5:8), mk1(6:3))
  add("as.data.frame(1:3, row.names = <2 names>) warns",
      \(v) as.data.frame(v, row.names = letters[1:2]), 1:3)
  set.seed(1)
  myL <- list(x = 1:20, y = rnorm(20), stringsAsFactors = gl(4, 5))
  names(myL)[1:2] <- lapply(1:2, function(i) paste(sample(letters, 300, TRUE), collapse = ""))
  add("as.data.frame(<list>) (PR#16580)", \(l) as.data.frame(l), myL)
  add("as.data.frame(<list>, cut.names = 280)", \(l) as.data.frame(l, cut.names = 280), myL)
  add("format() of long names", \(l) format(as.data.frame(l, cut.names = TRUE)), myL)
  expect_no_mismatches(cases, 16)
})

test_that("R's reg-tests-1d.R and reg-tests-1e.R: merge, pmin/pmax, xtabs, by, aggregate", {
  cases <- frame_cases("r-source tests/reg-tests-1d.R")
  add <- cases$add
  for (nm in setdiff(names(formals(order)), "...")) {
    add(sprintf("merge(all = TRUE), column %s (PR#17119)", nm), \(a, b) merge(a, b, all = TRUE),
        as.data.frame(setNames(list(c(1, 3, 2)), nm)),
        as.data.frame(setNames(list(c(4, 2, 3)), nm)))
  }
  cases$each(list("pmin(d, 10 - d)" = \(d) pmin(d, 10 - d),
                  "pmax(d, 10 - d)" = \(d) pmax(d, 10 - d)),
             USJudgeRatings)
  cases$each(list("pmax(d, 2)" = \(d) pmax(d, 2), "pmax(d, 3 - d)" = \(d) pmax(d, 3 - d),
                  "pmin(d[1:2, , drop = FALSE], 2)" = \(d) pmin(d[1:2, , drop = FALSE], 2)),
             data.frame(y0 = 0:3 + 1/2))
  DF <- as.data.frame(UCBAdmissions)
  DN <- DF
  DN[cbind(6:9, c(1:2, 4, 1))] <- NA
  add("xtabs(Freq ~ Gender + Admit)", \(d) c(xtabs(Freq ~ Gender + Admit, d)), DF)
  add("DF[<index matrix>] <- NA", \(d) `[<-`(d, cbind(6:9, c(1:2, 4, 1)), value = NA), DF)
  cases$each(list(
    "xtabs() with NAs, na.pass" = \(d) c(xtabs(Freq ~ Gender + Admit, d, na.action = na.pass)),
    "xtabs() with NAs, addNA" = \(d) c(xtabs(Freq ~ Gender + Admit, d, addNA = TRUE)),
    "xtabs() with NAs, na.fail" = \(d) xtabs(Freq ~ Gender + Admit, d, na.action = na.fail)
  ), DN)
  ee <- esoph[esoph[, "ncases"] > 0, c(1:2, 4)]
  ee[, "ncases"] <- as.integer(ee[, "ncases"])
  add("xtabs(ncases ~ ., <integer>)", \(d) c(xtabs(ncases ~ ., d)), ee)
  add("by(warpbreaks, tension, summary)", printed(\(d) by(d, d[, "tension"], summary)), warpbreaks)
  group <- c(2 + 2^-51, 2)
  for (drop in c(TRUE, FALSE)) {
    add(sprintf("aggregate(drop = %s) of near-equal groups (PR#16918)", drop),
        \(d, g) aggregate(d, list(group = g), length, drop = drop),
        data.frame(n = seq(group)), group)
  }
  add("as.matrix() with a logical and a character column (PR#17548)", \(d) as.matrix(d),
      data.frame(x = c(TRUE, NA, FALSE), y = "chr"))
  # (Not strcapture(proto =): it looks up a converter named after a column's class.)
  add("summary(digits = NULL) (reg-tests-1e.R)", \(d) summary(d, digits = NULL),
      data.frame(x = 1:7, h = c(275, 690, 1643.25, 2430, 6310, 1e-3, NA)))
  expect_no_mismatches(cases, 48)
})

test_that("Ops, Math and Summary group methods of data frames agree", {
  cases <- frame_cases("R datasets; base data frame group methods")
  ints <- data.frame(a = c(.Machine$integer.max, 1L, NA), b = c(-3L, 0L, 2L))
  frames <- list(mtcars = mtcars, airquality = airquality, ints = ints,
                 big = big[c("x", "i", "l", "y")])
  funs <- list(
    "d + 1" = \(d) d + 1, "d / 0" = \(d) d / 0, "-d" = \(d) -d, "d > 2" = \(d) d > 2,
    "d == d" = \(d) d == d, "d * d[[1]]" = \(d) d * d[[1]], "d %/% 2L" = \(d) d %/% 2L,
    "log(d)" = \(d) log(d), "sqrt(-d)" = \(d) sqrt(-d), "round(d / 3, 2)" = \(d) round(d / 3, 2),
    "cumsum(d)" = \(d) cumsum(d), "abs(d)" = \(d) abs(d), "sum(d)" = \(d) sum(d),
    "range(d, na.rm)" = \(d) range(d, na.rm = TRUE), "max(d)" = \(d) max(d),
    "prod(d)" = \(d) prod(d), "all(d > 0)" = \(d) all(d > 0), "is.na(d)" = \(d) is.na(d),
    "d[is.na(d)] <- 0" = \(d) `[<-`(d, is.na(d), value = 0), "colSums(d)" = \(d) colSums(d),
    "rowMeans(d, na.rm)" = \(d) rowMeans(d, na.rm = TRUE),
    "colSums(is.na(d))" = \(d) colSums(is.na(d)), "mean(d)" = \(d) mean(d),
    "as.matrix(d)" = \(d) as.matrix(d), "data.matrix(d)" = \(d) data.matrix(d), "t(d)" = \(d) t(d),
    "unlist(d)" = \(d) unlist(d[1:min(50, nrow(d)), ]), "apply(d, 2, max)" = \(d) apply(d, 2, max),
    "sapply(d, mean)" = \(d) sapply(d, mean, na.rm = TRUE), "anyNA(d)" = \(d) anyNA(d))
  # Before R 4.3, R cannot choose between Ops.data.frame and a lazy column's Ops
  # method, and errors (?lazy); R 4.3's chooseOpsMethod() lets gufunc defer.
  if (getRversion() < "4.3.0") funs[["d * d[[1]]"]] <- NULL
  for (nm in names(frames)) cases$each(funs, frames[[nm]], paste0(" (", nm, ")"))
  cases$each(list("!d" = \(d) !d, "d & TRUE" = \(d) d & TRUE), big["l"])
  cases$add("d + d[1:2, ] errors", \(d) d + d[1:2, ], mtcars)
  cases$add("sum() of a factor column errors", \(d) sum(d), ToothGrowth)
  expect_no_mismatches(cases, (4 * length(funs) + 4) * 2)
})

test_that("subsetting, assignment, reordering and reshaping data frames agree", {
  cases <- frame_cases("R datasets; r-source tests/reg-tests-1a.R, reg-tests-1d.R")
  add <- cases$add
  funs <- list(
    "complete.cases()" = \(d) d[complete.cases(d), ], "na.omit()" = \(d) na.omit(d),
    "subset(Temp > 80, select)" = \(d) subset(d, Temp > 80, select = c(Ozone, Temp)),
    "subset(Day == 1, select = -Temp)" = \(d) subset(d, Day == 1, select = -Temp),
    "transform()" = \(d) transform(d, Ozone = -Ozone, t = Temp - 32),
    "within()" = \(d) within(d, { lOzone <- log(Ozone); rm(Day) }),
    "d[order(Month, -Temp), ]" = \(d) d[order(d$Month, -d$Temp), ],
    "head(d, -3), tail(d, 3)" = \(d) list(head(d, -3), tail(d, 3), tail(d, -150)),
    "aggregate(Ozone ~ Month, mean)" = \(d) aggregate(Ozone ~ Month, d, mean),
    "aggregate(. ~ Month, mean)" = \(d) aggregate(. ~ Month, d, mean),
    "aggregate(by = d['Month'])" = \(d) aggregate(d, d["Month"], mean, na.rm = TRUE),
    "split(), unsplit()" = \(d) list(s <- split(d, d$Month), unsplit(s, d$Month)),
    "tapply(Ozone, Month, max)" = \(d) tapply(d$Ozone, d$Month, max, na.rm = TRUE),
    "ave(Temp, Month)" = \(d) ave(d$Temp, d$Month),
    "duplicated(), unique()" = \(d) list(duplicated(d[5:6]), unique(d[5:6])),
    "d$Ozone[3] <- NA; d[2, ] <- 0" = \(d) { d$Ozone[3] <- NA; d[2, ] <- 0; d },
    "d[nrow(d) + 1, ] <- <list>" = \(d) { d[nrow(d) + 1, ] <- as.list(1:6); d },
    "d[['W2']] <- ...; d$Day <- NULL" = \(d) { d[["W2"]] <- d$Wind * 2; d$Day <- NULL; d },
    "d[d$Temp > 90, 'Wind'] <- 0" = \(d) { d[d$Temp > 90, "Wind"] <- 0; d },
    "is.na(d$Wind) <- 1:5" = \(d) { is.na(d$Wind) <- 1:5; d },
    "reshape() to wide" = \(d) reshape(d[d$Day <= 3, 4:6], idvar = "Month", timevar = "Day",
                                        direction = "wide"),
    "table(cut(Temp, 3), Month)" = \(d) table(cut(d$Temp, 3), d$Month),
    "rowsum(d, Month)" = \(d) rowsum(d, d$Month, na.rm = TRUE),
    "cor(d, use = 'pairwise')" = \(d) cor(d, use = "pairwise"),
    "quantile(Ozone)" = \(d) quantile(d$Ozone, na.rm = TRUE))
  cases$each(funs, airquality, " (airquality)")
  cases$each(funs, aq_big, " (aq_big)")
  add("merge(mtcars, labels)", \(a, b) merge(a, b, by = "cyl"),
      cbind(name = rownames(mtcars), mtcars), data.frame(cyl = c(4, 6, 8), lab = c("4", "6", "8")))
  add("merge(all.x = TRUE) of ToothGrowth", \(a, b) merge(a, b, all.x = TRUE),
      ToothGrowth, data.frame(dose = c(0.5, 1), w = c(TRUE, NA)))
  cases$each(list("rbind(d, d)" = \(d) rbind(d, d),
                  "do.call(rbind, lapply(split()))" = \(d) {
                    do.call(rbind, lapply(split(d, d$cyl), colMeans))
                  }),
             mt_big)
  cases$each(list("cbind(d, z = 1, k = ...)" = \(d) cbind(d, z = 1, k = d$mpg > 20),
                  "coef(lm(mpg ~ wt + hp))" = \(d) coef(lm(mpg ~ wt + hp, d))), mtcars)
  cases$each(list("by(iris[-5], Species, colMeans)" = \(d) by(d[-5], d$Species, colMeans),
                  "aggregate(. ~ Species, mean)" = \(d) aggregate(. ~ Species, d, mean)), iris)
  # (Not stack(), rle() or embed(): they require is.vector(), FALSE for a classed
  # vector such as a lazy one; ?lazy.)
  cases$each(list(
    "aggregate(len ~ supp + dose)" = \(d) aggregate(len ~ supp + dose, d, mean),
    "with(tapply(len, list(supp, dose)))" = \(d) with(d, tapply(len, list(supp, dose), mean))
  ), ToothGrowth)
  cases$each(list("xtabs(breaks ~ wool + tension)" = \(d) c(xtabs(breaks ~ wool + tension, d)),
                  "tapply(breaks, d[-1], sum)" = \(d) tapply(d$breaks, d[, -1], sum)), warpbreaks)
  cases$each(list(
    "d[order(g, i, -x), ]" = \(d) d[order(d$g, d$i, -d$x), ],
    "which(duplicated(d[c('i', 'l')]))" = \(d) which(duplicated(d[c("i", "l")])),
    "unique(d[c('i', 'g')])" = \(d) unique(d[c("i", "g")]),
    "d[d$x > 1 & !is.na(d$i), ]" = \(d) d[d$x > 1 & !is.na(d$i), ],
    "aggregate(d, by g, sum)" = \(d) aggregate(d[c("x", "i", "y")], d["g"], sum),
    "print(head(d, 20))" = printed(\(d) head(d, 20)), "summary(d)" = printed(summary),
    "vapply(d, typeof / is.numeric)" = \(d) list(vapply(d, typeof, ""), vapply(d, is.numeric, NA))
  ), big)
  expect_no_mismatches(cases, (2 * 25 + 18) * 2 + 2 * 4)
})

test_that("large frames agree for every thread count and block size; other base functions", {
  cases <- frame_cases("R datasets; engine settings")
  add <- cases$add
  for_engine_settings({
    at <- sprintf(" (threads %d, block %s)", getOption("gufunc.threads"),
                  format(getOption("gufunc.block_size")))
    add(paste0("transform(big)", at), \(d) transform(d, s = x * i, t = ifelse(l, y, -x)), big)
    add(paste0("Math/Summary of big", at), \(d) list(exp(d[-4]), range(d[-4]), d[-4] %% 3), big)
    add(paste0("sweep(d, 2, colMeans(d))", at), \(d) sweep(d, 2, colMeans(d)), mt_big)
  })
  cases$each(list(
    "scale(d)" = \(d) scale(d),
    "which(d == max(d), arr.ind)" = \(d) which(d == max(d), arr.ind = TRUE),
    "max.col(d)" = \(d) max.col(d, "first"), "Reduce(`+`, d)" = \(d) Reduce(`+`, d),
    "mapply(max, mpg, cyl)" = \(d) mapply(max, d$mpg, d$cyl),
    "rank(), rev(), diff()" = \(d) with(d, list(rank(mpg), rev(mpg), diff(hp))),
    "interaction(), cumprod()" = \(d) with(d, list(interaction(cyl, gear), cumprod(am + 1))),
    # Vector functions on columns.
    "d[do.call(order, d), ]" = \(d) d[do.call(order, d), ],
    "factor(), match(), findInterval(), tabulate()" = \(d) {
      with(d, list(factor(cyl), match(cyl, c(6, 8)), findInterval(mpg, c(15, 20)), tabulate(carb)))
    },
    "paste(), sprintf(), toString()" = \(d) {
      with(d, list(paste(mpg, cyl), sprintf("%.2f", wt), toString(qsec)))
    },
    "matrix(), cbind(), rbind() of columns" = \(d) {
      with(d, list(matrix(mpg, 4), cbind(mpg, hp), rbind(a = am, vs)))
    },
    "cummax(), zapsmall(), fivenum(), weighted.mean(), var()" = \(d) {
      with(d, list(cummax(mpg), zapsmall(mpg / 3), fivenum(mpg), weighted.mean(mpg, wt),
                   var(mpg, hp)))
    }), mtcars)
  add("table(i, l, useNA)", \(d) table(d$i, d$l, useNA = "ifany"), big)
  add("nchar(format(y))", \(d) nchar(format(d$y)), big)
  add("as.list(), do.call(cbind)", \(d) list(as.list(d), do.call(cbind, d)), women)
  add("split(len, supp) <- value", \(d) { split(d$len, d$supp) <- list(1, 2); d }, ToothGrowth)
  expect_no_mismatches(cases, 6 * 3 * 2 + 16 * 2)
})
