# Base R code reading lazy values it does not know (the fallback): each case is
# timed on plain values (base), on lazy values (gufunc) and as the materialization
# alone of the lazy values it reads (mat), in the same run, in turns (medians_ms).
# Where the gufunc code's result is itself lazy (a view, a deferred pmax), its
# timing includes computing that result (materialize()), so both sides do the
# same work.
# Target: gufunc <= base + mat, that is, falling back costs base R's time plus one
# materialization at most. A lazy(x) input materializes at no cost (R reads x), so
# several cases run the same base R code on the same values twice: base R is timed
# twice (base_again), and `noise` (their relative difference) says how far apart two
# timings of the same work came out in this run.
# Usage: Rscript inst/benchmarks/fallback.R [reps]   (default 9)
source(file.path(dirname(sub("^--file=", "", grep("^--file=", commandArgs(FALSE), value = TRUE)[1])),
                 "common.R"))
args <- commandArgs(TRUE)
reps <- if (length(args)) as.integer(args[1]) else 9L
set.seed(1)
u <- runif(80000)
x <- runif(1500)
v <- runif(1e6)
g <- matrix(runif(1e6), 1000)
h <- matrix(runif(250000), 500)
w <- runif(1e6)
w2 <- runif(1e6)

# Each case: base R code on plain values, the same code on lazy values, and the
# materialization of the lazy values that code reads.
cases <- list(
  "m[] <- lazy(u) * 2 + i, 9 times" = list(
    base = function() { m <- numeric(80000); for (i in 1:9) m[] <- u * 2 + i; m },
    gufunc = function() { m <- numeric(80000); for (i in 1:9) m[] <- lazy(u) * 2 + i; m },
    mat = function() for (i in 1:9) materialize(lazy(u) * 2 + i)),
  "a[, , i] <- lazy(u) * 2 + i, 9 times" = list(
    base = function() { a <- array(0, c(400, 200, 9)); for (i in 1:9) a[, , i] <- u * 2 + i; a },
    gufunc = function() { a <- array(0, c(400, 200, 9)); for (i in 1:9) a[, , i] <- lazy(u) * 2 + i; a },
    mat = function() for (i in 1:9) materialize(lazy(u) * 2 + i)),
  "outer(lazy(x), lazy(x), \"-\")" = list(
    base = function() outer(x, x, "-"),
    gufunc = function() outer(lazy(x), lazy(x), "-"),
    mat = function() { materialize(lazy(x)); materialize(lazy(x)) }),
  "rep(lazy(x), each = 1500)" = list(
    base = function() rep(x, each = 1500),
    gufunc = function() rep(lazy(x), each = 1500),
    mat = function() materialize(lazy(x))),
  "lazy(v)[-1]" = list(base = function() v[-1], gufunc = function() lazy(v)[-1],
                       mat = function() materialize(lazy(v))),
  "lazy(v)[2:n]" = list(base = function() v[2:1e6], gufunc = function() lazy(v)[2:1e6],
                        mat = function() materialize(lazy(v))),
  "lazy(g)[2:999, 2:999]" = list(base = function() g[2:999, 2:999],
                                 gufunc = function() lazy(g)[2:999, 2:999],
                                 mat = function() materialize(lazy(g))),
  # Issue 12's case: an array subassigned once, then base R's loop of small writes;
  # the lazy value that loop reads is the subassigned one.
  "H[1, 1] <- 0, then H[, 1] <- H[, 2], 200 times" = list(
    base = function() { H <- h; H[1, 1] <- 0; for (i in 1:200) H[, 1] <- H[, 2]; H },
    gufunc = function() { H <- lazy(h); H[1, 1] <- 0; for (i in 1:200) H[, 1] <- H[, 2]; H },
    mat = function() { H <- lazy(h); H[1, 1] <- 0; materialize(H) }),
  # Stricter: the loop on lazy(h) itself, whose materialization costs nothing; the
  # gufunc side pays its first two iterations' R code on top of base R's.
  "H <- lazy(h); H[, 1] <- H[, 2], 200 times" = list(
    base = function() { H <- h; for (i in 1:200) H[, 1] <- H[, 2]; H },
    gufunc = function() { H <- lazy(h); for (i in 1:200) H[, 1] <- H[, 2]; H },
    mat = function() materialize(lazy(h))),
  # Element reads in a loop: each goes through R's dispatch to gufunc's `[` method
  # (src/r/element_reads.cpp), where base R's bytecode reads the element inline.
  "s + lazy(v)[i], 2000 times" = list(
    base = function() { s <- 0; for (i in 1:2000) s <- s + v[i]; s },
    gufunc = function() { y <- lazy(v); s <- 0; for (i in 1:2000) s <- s + y[i]; s },
    mat = function() materialize(lazy(v))),
  "s + lazy(g)[i, j], 2000 times" = list(
    base = function() { s <- 0; for (i in 1:2000) s <- s + g[i %% 1000 + 1, 7]; s },
    gufunc = function() {
      y <- lazy(g); s <- 0; for (i in 1:2000) s <- s + y[i %% 1000 + 1, 7]; s
    },
    mat = function() materialize(lazy(g))),
  "anyNA(lazy(w) * 2)" = list(base = function() anyNA(w * 2),
                              gufunc = function() anyNA(lazy(w) * 2),
                              mat = function() materialize(lazy(w) * 2)),
  "is.na(lazy(w) * 2)" = list(base = function() is.na(w * 2),
                              gufunc = function() is.na(lazy(w) * 2),
                              mat = function() materialize(lazy(w) * 2)),
  "pmax(lazy(w), w2)" = list(base = function() pmax(w, w2),
                             gufunc = function() pmax(lazy(w), w2),
                             mat = function() materialize(lazy(w))),
  "pmin(lazy(w) * 2, w2)" = list(base = function() pmin(w * 2, w2),
                                 gufunc = function() pmin(lazy(w) * 2, w2),
                                 mat = function() materialize(lazy(w) * 2)),
  "t(lazy(g) * 2)" = list(base = function() t(g * 2), gufunc = function() t(lazy(g) * 2),
                          mat = function() materialize(lazy(g) * 2)),
  "apply(lazy(g) * 2, 2, max)" = list(base = function() apply(g * 2, 2, max),
                                      gufunc = function() apply(lazy(g) * 2, 2, max),
                                      mat = function() materialize(lazy(g) * 2)),
  "ifelse(lazy(w) > 0.5, w, 0)" = list(base = function() ifelse(w > 0.5, w, 0),
                                       gufunc = function() ifelse(lazy(w) > 0.5, w, 0),
                                       mat = function() materialize(lazy(w) > 0.5))
)

cat(sprintf("gufunc fallback benchmark: %d threads, medians of %d runs (ms)\n",
            get_gufunc_threads(), reps))
rows <- lapply(names(cases), function(name) {
  k <- cases[[name]]
  computed <- function() materialize(k$gufunc())
  same <- identical(suppressWarnings(computed()), suppressWarnings(k$base()))
  t <- medians_ms(list(k$base, computed, k$mat, k$base), reps)
  data.frame(case = name, base = t[1], gufunc = t[2], mat = t[3], base_again = t[4],
             ratio = t[2] / (t[1] + t[3]), noise = abs(t[4] / t[1] - 1), identical = same)
})
res <- do.call(rbind, rows)
res$met <- ifelse(res$ratio <= 1, "yes", ifelse(res$ratio <= 1 + res$noise, "noise", "NO"))
print(format(res, digits = 3), row.names = FALSE)
cat(sprintf(paste0("ratio = gufunc / (base + mat); target <= 1: met in %d of %d cases, ",
                   "within the noise (base R timed twice) in %d more\n"),
            sum(res$met == "yes"), nrow(res), sum(res$met == "noise")))
