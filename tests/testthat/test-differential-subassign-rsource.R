# Differential tests of subassignment on lazy values, from the values and subscript
# forms of R's own regression tests and help pages (wch/r-source: tests/reg-tests-1a.R,
# reg-tests-1b.R, reg-tests-1c.R, reg-tests-1d.R, reg-tests-1e.R, reg-tests-2.R;
# src/library/base/man/Extract.Rd, diag.Rd, NA.Rd, dimnames.Rd; each group names its
# file). Only values and subscript forms are taken over; the expected outcome is base
# R's on the plain values, on this machine.
#
# Each case is a piece of code that changes `x` (and may use `v` and other names).
# It runs on the plain value (the oracle) and on lazy values of three kinds:
#   leaf      lazy(x), never written in place;
#   deferred  an uncomputed lazy expression with x's values;
#   computed  such an expression whose values were computed first (invisible(c(x))),
#             the values being its own: where R's complex assignment writes in place;
# and in five ways:
#   top       evaluated in an environment, as at top level (R's AST interpreter);
#   fun       inside a closure, not byte-compiled (JIT off);
#   cmp       inside a byte-compiled closure;
#   alias     compiled, with `keep <- x` before the code (keep must be unchanged);
#   reader    compiled, with a deferred reader `r` of x made before the code.
# With a value `v` that lazy() takes, it also runs with v lazy (lazy(v), and a
# deferred expression), x a leaf or computed, top level and compiled. Value (bit for
# bit, attributes included; lazy values inside results materialized), sorted
# distinct warnings or the error message must be base R's, and the plain and lazy
# inputs must hold their values afterwards. Inputs under 1000 elements run with
# gufunc.lazy_min_length = 0 (every lazy operation deferred), longer ones with the
# helpers' 1000.

# How the target is made from the input (lazy(x0) or x0) inside each way.
target_kinds <- list(
  leaf = function(z) z,
  deferred = function(z) same_value(z),
  computed = function(z) {
    z <- same_value(z)
    invisible(c(z))
    z
  }
)

# The same for a lazy input, checking that the target is lazy.
lazy_target <- function(kind) {
  prep <- target_kinds[[kind]]
  function(z) {
    z <- prep(z)
    if (!is_lazy(z)) stop("the target is not lazy")
    z
  }
}

# Runs `code` one way: x <- prep(x0), then code, giving x (alias, reader: with the
# value kept or read before).
run_way <- function(way, code, x0, v, extra, prep, parent) {
  env <- list2env(extra, parent = parent)
  if (way == "top") {
    env$x0 <- x0
    env$v <- v
    env$prep <- prep
    eval(quote(x <- prep(x0)), env)
    eval(code, env)
    return(get("x", envir = env, inherits = FALSE))
  }
  body <- switch(way,
    fun = , cmp = bquote({ x <- prep(x0); .(code); x }),
    alias = bquote({ x <- prep(x0); keep <- x; .(code); list(x, keep) }),
    reader = bquote({ x <- prep(x0); r <- same_value(x); .(code); list(x, r) })
  )
  f <- eval(call("function", as.pairlist(alist(x0 = , v = , prep = )), body))
  environment(f) <- env
  if (way == "fun") {
    old <- compiler::enableJIT(0)
    on.exit(compiler::enableJIT(old))
    return(f(x0, v, prep))
  }
  compiler::cmpfun(f)(x0, v, prep)
}

# A copy of a plain value that shares no memory with it, to see that nothing wrote
# into the value.
deep_copy <- function(a) unserialize(serialize(a, NULL))

# A case collector. add(label, x, code, v, extra) runs `code` (unevaluated; add_q
# takes it quoted) on x every way; mismatches() lists "label [source] way/kind:
# base ... | lazy ..."; compared() counts the lazy runs.
subassign_cases <- function(source, ways = c("top", "fun", "cmp", "alias", "reader"),
                            kinds = names(target_kinds), value_variants = TRUE) {
  book <- case_log(source)
  oracle_parent <- base_masks_env()
  outcome <- function(way, code, x0, v, extra, prep, parent) {
    differential_outcome(function() materialize_inside(run_way(way, code, x0, v, extra, prep, parent)))
  }
  add_q <- function(label, x, code, v = NULL, extra = list(), min_length = NULL) {
    force(x)
    force(v)
    if (is.null(min_length)) min_length <- if (length(x) >= 1000) 1000 else 0
    x_copy <- deep_copy(x)
    v_copy <- deep_copy(v)
    # (x kind, value kind) runs: every kind every way; the lazy values a few ways.
    # (Operations on an empty lazy value give plain values: it is only lazy as a leaf.)
    kinds_x <- if (length(x)) kinds else intersect("leaf", kinds)
    runs <- expand.grid(way = ways, kind = kinds_x, vkind = "plain", stringsAsFactors = FALSE)
    if (value_variants && lazyable(v) && length(v)) {
      runs <- rbind(runs, expand.grid(way = intersect(c("top", "cmp"), ways),
                                      kind = intersect(c("leaf", "computed"), kinds_x),
                                      vkind = c("lazy(v)", "deferred(v)"), stringsAsFactors = FALSE))
    }
    oracles <- list()
    with_options(list(gufunc.lazy_min_length = min_length), {
      for (r in seq_len(nrow(runs))) {
        way <- runs$way[r]
        kind <- runs$kind[r]
        vkind <- runs$vkind[r]
        plain_v <- if (vkind == "deferred(v)") same_value(v) else v
        key <- paste(way, kind == "leaf", vkind == "deferred(v)")
        if (is.null(oracles[[key]])) {
          plain_prep <- if (kind == "leaf") target_kinds$leaf else target_kinds$deferred
          oracles[[key]] <- outcome(way, code, x, plain_v, extra, plain_prep, oracle_parent)
        }
        base <- oracles[[key]]
        lx <- lazy(x)
        lv <- switch(vkind, plain = v, "lazy(v)" = lazy(v), "deferred(v)" = same_value(lazy(v)))
        got <- outcome(way, code, lx, lv, extra, lazy_target(kind), globalenv())
        bad <- NULL
        if (!identical(got, base, num.eq = FALSE, single.NA = FALSE)) {
          bad <- sprintf("base %s | lazy %s", describe_outcome(base, 150, TRUE),
                         describe_outcome(got, 150, TRUE))
        } else if (!identical(materialize(lx), x, num.eq = FALSE, single.NA = FALSE) ||
                   !identical_bits(x, x_copy) || !identical_bits(v, v_copy) ||
                   (is_lazy(lv) && !identical(materialize(lv), plain_v, num.eq = FALSE,
                                               single.NA = FALSE))) {
          bad <- "an input changed"
        }
        book$note(label, bad, path = sprintf("%s/%s%s", way, kind,
                                             if (vkind == "plain") "" else paste0(", ", vkind)))
      }
    })
    invisible()
  }
  book$add_q <- add_q
  book$add <- function(label, x, code, ...) add_q(label, x, substitute(code), ...)
  book
}

# An integer vector, matrix or array of n elements counting from 1.
counting <- function(dim) {
  n <- prod(dim)
  if (length(dim) == 1L) seq_len(n) else array(seq_len(n), dim)
}

test_that("R's tests/reg-tests-1a.R: NA subscripts, growing, names, dims, superassignment", {
  cases <- subassign_cases("wch/r-source tests/reg-tests-1a.R")
  in_place_counters()
  # aperm: x[] <- LETTERS turns an integer or double array into a character one.
  for (d in list(c(4L, 6L), c(40L, 60L))) {
    a <- counting(d)
    cases$add("x[] <- LETTERS (integer array)", a, x[] <- v, v = rep_len(LETTERS, prod(d)))
    cases$add("x[] <- LETTERS (double array)", a + 0, x[] <- v, v = rep_len(LETTERS, prod(d)))
  }
  # qr: A[] <- as.complex(A) keeps dimnames.
  set.seed(1)
  for (n in c(5L, 45L)) {
    A <- matrix(rnorm(n * n), n, n, dimnames = list(seq_len(n), rep_len(letters, n)))
    cases$add("A[] <- as.complex(A)", A, x[] <- as.complex(x))
  }
  # findInterval: NA at a few positions (the subscript assigned on the way), then Inf
  # at 300, past the end of the short vector.
  for (n in c(203L, 1203L)) {
    tt <- c(-100, seq(-2, 2, length.out = n - 2L), 100)
    cases$add("tt[ina <- c(2,3,5,7)] <- NA; tt[300] <- Inf", tt, {
      x[ina <- c(2, 3, 5, 7)] <- NA
      x[300] <- Inf
    })
  }
  # PR 2358: names(mm)[2] <- 'y' gives an NA name, kept by c().
  for (n in c(2L, 2000L)) {
    cases$add("names(mm)[2] <- 'y'; c(mm, 3)", seq_len(n), {
      names(x)[2] <- "y"
      x <- c(x, 3)
    })
  }
  # max.col: one NA into a matrix of ones; a loop of element writes.
  for (n in c(3L, 40L)) cases$add("a[1, 2] <- NA", matrix(1, n, n), x[1, 2] <- NA)
  for (n in c(100L, 2000L)) {
    cases$add("for (i in 1:100) ans[i] <- ...", numeric(n), for (i in seq_len(100)) x[i] <- i %% 3 + 0.5)
  }
  # PR#2587: growing a length-0 vector keeps its type.
  for (z in list(numeric(0), integer(0), logical(0))) {
    cases$add(sprintf("x <- %s(0); x[1] <- NA", typeof(z)), z, x[1] <- NA)
  }
  # An all-FALSE mask still converts x to the value's type.
  for (n in c(2L, 40L)) cases$add("A[is.na(A)] <- 0 (integer A)", counting(c(n, n)), x[is.na(x)] <- 0)
  # Complex superassignments from a local() frame.
  for (n in c(2L, 2000L)) {
    e <- setNames(as.numeric(seq_len(n)), rep_len(c("a", "b"), n))
    cases$add("e[2] <<- e[2] + 1; names(f)[2] <<- a", e, local({
      x[2] <<- x[2] + 1
      names(x)[2] <<- "B"
    }))
  }
  for (n in c(2L, 40L)) {
    cases$add("j[h, h] <<- h; colnames(j)[2] <<- a", matrix(1, n, n), local({
      h <- 2
      x[h, h] <<- h
      colnames(x)[2] <<- "B"
    }))
  }
  # PR#7196: [[<- with two positions on a vector.
  cases$add("l[[2:3]] <- 1 (error)", as.numeric(1:2000), x[[2:3]] <- 1)
  cases$add("x[[c('c', 'd')]] <- NA (error)", c(a = 1, b = 2), x[[c("c", "d")]] <- NA)
  # NA subscripts: one value is allowed, several are an error.
  idx <- c(1, 2, NA, NA, 5, 6)
  for (n in c(6L, 3000L)) {
    i <- if (n == 6L) idx else c(idx, 7:n)
    ex <- list(i = i)
    cases$add("AAA[idx, 1, 1] <- B", array(as.numeric(seq_len(n)), c(n, 1, 1)), x[i, 1, 1] <- 10, extra = ex)
    cases$add("A[idx] <- 27", as.numeric(seq_len(n)), x[i] <- 27, extra = ex)
    cases$add("A[idx] <- 6:1 (error)", as.numeric(seq_len(n)), x[i] <- v, v = rev(seq_along(i)), extra = ex)
    cases$add("AA[idx, ] <- 27", matrix(as.numeric(seq_len(n)), n, 1), x[i, ] <- 27, extra = ex)
    cases$add("AA[idx, ] <- 6:1 (error)", matrix(as.numeric(seq_len(n)), n, 1), x[i, ] <- v,
              v = seq_along(i), extra = ex)
    cases$add("AAA[idx, , ] <- 27", array(as.numeric(seq_len(n)), c(n, 1, 1)), x[i, , ] <- 27L, extra = ex)
    cases$add("AAA[idx, , ] <- 6:1 (error)", array(as.numeric(seq_len(n)), c(n, 1, 1)), x[i, , ] <- v,
              v = seq_along(i), extra = ex)
  }
  # A failed subassignment leaves no *tmp* (and x as it was).
  for (n in c(10L, 2000L)) {
    cases$add("test[2:4] <- ls (error), no *tmp* left", seq_len(n), {
      msg <- tryCatch({ x[2:4] <- ls; "no error" }, error = conditionMessage)
      x <- list(x, msg, exists("*tmp*", inherits = FALSE))
    })
    # *tmp* is an ordinary name outside a complex assignment: `[<-` called as a
    # function on a variable of that name (and on x, which it shares) changes neither.
    cases$add("`[<-`(`*tmp*`, 1:3, value = 0) on a variable named *tmp*", as.numeric(seq_len(n)), {
      `*tmp*` <- x
      r <- `[<-`(`*tmp*`, 1:3, value = 0)
      x <- list(`*tmp*`, r, x)
    })
    # Needlessly failing subassignments: an expression value.
    cases$add("e[2] <- expression(e) (integer)", seq_len(n), x[2] <- expression(e))
    cases$add("e[2] <- expression(e) (double)", rep(pi, n), x[2] <- expression(e))
    # add1: is.na(x[9]) <- TRUE, a replacement function of a part.
    cases$add("is.na(x[9]) <- TRUE", seq_len(n), is.na(x[9]) <- TRUE)
    # grep: x[2] <- xx[2] <- NA, a chain of assignments.
    nx <- setNames(seq_len(n), rep_len(letters, n))
    cases$add("x[2] <- xx[2] <- NA", nx, x[2] <- v[2] <- NA, v = setNames(rep_len(letters, n), names(nx)))
    # coercion lost the object bit: x[2] <- "N" makes a logical vector character.
    cases$add("x[2] <- 'N' (logical x)", rep(TRUE, n), x[2] <- "N")
  }
  # PR#4092: a 1-d array with named dimnames; names(dimnames(z)) <- "D1".
  for (n in c(5L, 2000L)) {
    z <- array(rep_len(c(-2:1, 1.4), n), n)
    cases$add("dimnames(z) <- list(..); names(dimnames(z)) <- 'D1'", z, {
      dimnames(x) <- list(rep_len(letters, n))
      names(dimnames(x)) <- "D1"
    }, extra = list(n = n))
  }
  # names in columns of data frames: names(x) <- letters[x]; dim<-; dimnames<-.
  for (n in c(10L, 2000L)) {
    cases$add("names(x) <- letters[x]; dim(x) <- ; dimnames(x) <- list(..)", seq_len(n), {
      names(x) <- rep_len(letters, n)[x]
      dim(x) <- c(n / 2, 2)
      dimnames(x) <- list(rep_len(letters, n / 2), c("i", "ii"))
    }, extra = list(n = n))
  }
  # factor() with NA in dimnames: rownames(x) <- factor(c("A", NA)).
  for (n in c(2L, 1000L)) {
    cases$add("rownames(x) <- factor(c('A', NA))", matrix(seq_len(2 * n), 2 * n / 2, 2), {
      rownames(x) <- factor(rep_len(c("A", NA), nrow(x)))
    })
  }
  # aperm / PR#6702: [[<- of one element of a matrix by row and column.
  for (d in list(c(2L, 3L), c(40L, 50L))) {
    cases$add("x[[2, 3]] <- 'fred' (becomes character)", counting(d), x[[2, 3]] <- "fred")
    cases$add("women[[2, 1]] <- 77", counting(d), x[[2, 1]] <- 77)
    cases$add("x[[2, 3]] <- 1:10 (error)", counting(d) + 0, x[[2, 3]] <- 1:10)
  }
  # diag() with NA dimnames, and diag<- on it.
  for (n in c(2L, 40L)) {
    m <- matrix(1, n, n, dimnames = list(c("a", rep(NA, n - 1)), c("a", rep(NA, n - 1))))
    cases$add("diag(x) <- v, NA dimnames", m, diag(x) <- v, v = as.numeric(seq_len(n)))
  }
  expect_no_mismatches(cases, 1000)
  expect_gt(in_place_counters()[1], 0)
})

test_that("R's tests/reg-tests-1b.R: empty names, NA subscripts, loops that grow x, functional forms", {
  cases <- subassign_cases("wch/r-source tests/reg-tests-1b.R")
  # indexing by "": no name matches it, so [[<- and [<- add an element.
  for (n in c(4L, 2000L)) {
    x <- structure(seq_len(n), names = c(rep_len(letters, n - 1L), ""))
    cases$add("x[['']] <- 5 (adds)", x, x[[""]] <- 5L)
    cases$add("x[''] <- 6 (adds)", x, x[""] <- 6L)
    cases$add("x[[NA_character_]] <- 7", x, x[[NA_character_]] <- 7L)
  }
  # raw vector assignment with NA index: one value, taken from x.
  for (n in c(3L, 2000L)) {
    cases$add("x[c(1, NA, 3)] <- x[2]", as.numeric(seq_len(n)), x[c(1, NA, 3)] <- x[2])
    cases$add("x[c(1, NA, 3)] <- x[2] (logical)", rep(c(TRUE, FALSE, NA), length.out = n),
              x[c(1, NA, 3)] <- x[2])
  }
  # names from pairlists, by names<- and by attr<-.
  for (n in c(3L, 1500L)) {
    mp <- as.pairlist(as.list(rep_len(letters, n)))
    cases$add("names(x) <- <pairlist>", seq_len(n), names(x) <- v, v = mp)
    cases$add("attr(x, 'names') <- <pairlist>", seq_len(n), attr(x, "names") <- v, v = mp)
  }
  # for(var in seq) .. when seq is modified inside: x grows while the loop runs.
  for (x in list(c(1, 2), as.numeric(1:1000))) {
    cases$add("for (i in x) x[i + 1] <- i + 42.5", x, {
      s <- 0
      for (i in x[1:2]) {
        x[i + 1] <- i + 42.5
        s <- s + i
      }
      x <- c(x, s)
    })
  }
  # PR#14850: dim<- called as a function does not change its argument; nor [<-.
  for (d in list(c(1L, 2L), c(1L, 2000L))) {
    b <- counting(d)
    cases$add("`dim<-`(b, ...) leaves b", b, {
      y <- `dim<-`(x, rev(dim(x)))
      x <- list(x, y)
    })
    cases$add("`[<-`(b, 1, 99) leaves b", b, {
      y <- `[<-`(x, 1, 99L)
      x <- list(x, y)
    })
    cases$add("`[[<-`(b, 2, 99) leaves b", b, {
      y <- `[[<-`(x, 2, value = 99L)
      x <- list(x, y)
    })
  }
  # short list value for dimnames: dimnames(n)[[1]] <- c("a", "b").
  for (d in list(c(2L, 4L), c(2L, 1000L))) {
    cases$add("dimnames(n)[[1]] <- c('a', 'b')", counting(d) + 0, dimnames(x)[[1]] <- c("a", "b"))
  }
  # barplot: dat[2, 3] <- NA.
  for (d in list(c(5L, 5L), c(50L, 40L))) cases$add("dat[2, 3] <- NA", counting(d), x[2, 3] <- NA)
  # [[<- could create invalid objects: z[[2]] <- "One" on integer codes.
  for (n in c(3L, 2000L)) {
    cases$add("z[[2]] <- 'One' (integer z)", rep_len(c(2L, 2L, 3L), n), x[[2]] <- "One")
    cases$add("is.na(f.)[2:3] <- TRUE", rep_len(c(1L, 2L, 3L, 3L, 2L, 1L), n), is.na(x)[2:3] <- TRUE)
  }
  expect_no_mismatches(cases, 420)
})

test_that("R's tests/reg-tests-1c.R: is.na<-, ... arguments, rows from rows, loops over a matrix", {
  cases <- subassign_cases("wch/r-source tests/reg-tests-1c.R")
  in_place_counters()
  # example(NA): is.na(xx) <- c(2, 4).
  for (n in c(5L, 2000L)) {
    cases$add("is.na(xx) <- c(2, 4)", 0:(n - 1L), is.na(x) <- c(2, 4))
    cases$add("is.na(xx) <- c(2, 4) (double)", as.numeric(0:(n - 1L)), is.na(x) <- c(2, 4))
  }
  # Setting NAMED on ... arguments: x <- (...); x[1] <- 7 leaves the argument.
  for (n in c(1L, 2000L)) {
    cases$add("f <- function(...) { y <- (...); y[1] <- 7; (...) }", rep(3, n), {
      f <- function(...) {
        y <- (...)
        y[1] <- 7
        list(y, (...))
      }
      x <- f(x)
    })
  }
  # PR#15341: B[n, ] <- (B[n-1, ] + B[n-2, ]) / 2.
  set.seed(11)
  for (n in c(5L, 50L)) {
    B <- matrix(runif(n * n), nrow = n)
    cases$add("B[n, ] <- (B[n-1, ] + B[n-2, ]) / 2", B, x[n, ] <- (x[n - 1, ] + x[n - 2, ]) / 2,
              extra = list(n = n))
    cases$add("B[n, ] <- ..; B <- B + 0i", B, {
      x[n, ] <- (x[n - 1, ] + x[n - 2, ]) / 2
      x <- x + 0i
    }, extra = list(n = n))
  }
  # outerID: r[i, j] <- identical(..) into a logical matrix of NA, element by element.
  for (d in list(c(4L, 4L), c(40L, 30L))) {
    cases$add("r[i, j] <- identical(z[i], z[j])", matrix(NA, d[1], d[2]), {
      for (i in seq_len(min(nrow(x), 12))) {
        for (j in seq_len(min(ncol(x), 6))) x[i, j] <- identical(i %% 3, j %% 3)
      }
    })
  }
  expect_no_mismatches(cases, 170)
  expect_gt(in_place_counters()[1], 0)
})

test_that("R's tests/reg-tests-1d.R: 0-length values, locked bindings, arguments modified on the way", {
  cases <- subassign_cases("wch/r-source tests/reg-tests-1d.R")
  # `[[` and `[[<-` indexing with a symbol.
  for (n in c(2L, 2000L)) {
    x <- setNames(as.numeric(seq_len(n)), c("a", "b", rep_len(LETTERS, n - 2L)))
    cases$add("x[[quote(b)]] <- pi", x, x[[quote(b)]] <- pi)
  }
  # [<- : coercion should happen also in the 0-length case.
  for (n in c(0L, 2000L)) {
    x <- as.numeric(seq_len(n))
    cases$add("x0[] <- character()", x, x[] <- character())
    cases$add("x1[1[0]] <- character()", x, x[1[0]] <- character())
    cases$add("x[] <- numeric()", x, x[] <- numeric())
    cases$add("x[1] <- numeric()", x, x[1] <- numeric())
    cases$add("x[1:2] <- list()", x, x[1:2] <- list())
    cases$add("x[integer(0)] <- 1.5 (integer x)", seq_len(n), x[integer(0)] <- 1.5)
    cases$add("x[NULL] <- 'A'", x, x[NULL] <- "A")
  }
  cases$add("ec[, 1:2] <- list()", matrix(NA_real_, 0, 4), x[, 1:2] <- list())
  cases$add("e0[, 1:2] <- logical()", matrix(NA_real_, 0, 4), x[, 1:2] <- logical())
  cases$add("a[, 1, ] <- expression()", array(1L, c(0, 1, 2)), x[, 1, ] <- expression())
  cases$add("ec[, 1:2] <- list() (1000 rows, error)", matrix(0, 1000, 4), x[, 1:2] <- list())
  # Modifying an object in a locked binding must fail before it changes the value.
  for (n in c(1L, 2000L)) {
    cases$add("x[1] <- 2 in a locked binding (error)", rep(1, n), {
      lockBinding("x", environment())
      msg <- tryCatch({ x[1] <- 2; "no error" }, error = conditionMessage)
      unlockBinding("x", environment())
      x <- list(x, msg)
    })
  }
  # Check for modification of arguments: the old x is read before x[] <- 2 runs.
  for (n in c(1L, 2000L)) {
    x <- rep(1, n)
    cases$add("x + (x[] <- 2)", x, x <- x + (x[] <- 2))
    cases$add("log(x, x[] <- 2)", x, x <- log(x, x[] <- 2))
    cases$add("c(x, x[] <- 2)", x, x <- c(x, x[] <- 2))
    cases$add("rep(x, {x[] <- 2; 2})", x, x <- rep(x, { x[] <- 2; 2 }))
    cases$add("round(x, {x[] <- 2; 0})", x, x <- base::round(x, { x[] <- 2; 0 }))
    cases$add("f <- function(y = {x[] <- 1; 0}) { x <- x0; x + y }", x, {
      f <- function(y = { x[] <- 1; 0 }) {
        x <- x0
        x + y
      }
      x <- f()
    })
    cases$add("f <- function(y = {x[] <<- 1; 0}) x + y", x, {
      f <- function(y = { x[] <<- 1; 0 }) x + y
      x <- list(f(), x)
    })
  }
  for (n in c(2L, 2000L)) {
    x <- as.numeric(seq_len(n))
    cases$add("x[{x[2] <- 3; 1}] <- 2", x, x[{ x[2] <- 3; 1 }] <- 2)
    cases$add("f <- function() x[{x[2] <<- 3; 1}] <<- 2", x, {
      f <- function() x[{ x[2] <<- 3; 1 }] <<- 2
      f()
    })
  }
  # list2env() preserves value semantics: with(e, x[[1]] <- 42) leaves the list.
  for (n in c(1L, 2000L)) {
    cases$add("with(list2env(v), x[[1]] <- 42)", rep(1, n), {
      L <- list(x = x)
      e <- list2env(L)
      with(e, x[[1]] <- 42)
      x <- list(L$x, e$x)
    })
  }
  # ar.yw: prF[is.na(presidents)] <- c(...), a mask with as many values as NAs.
  set.seed(42)
  for (n in c(120L, 3000L)) {
    pr <- round(runif(n, 20, 90))
    pr[sort(sample(n, 6))] <- NA
    cases$add("prF[is.na(presidents)] <- c(90, 37, 40, 32, 63, 66)", pr,
              x[is.na(x)] <- c(90, 37, 40, 32, 63, 66))
    cases$add("prF[is.na(presidents)] <- 0", pr, x[is.na(x)] <- 0)
    cases$add("prF[is.na(presidents)] <- 1:4 (recycled, warning)", pr, x[is.na(x)] <- 1:4)
  }
  # y.[i, ] <- NA for sampled rows of a 2-column matrix.
  for (n in c(100L, 5000L)) {
    y <- matrix(rnorm(2 * n), n, 2)
    cases$add("y.[i, ] <- NA", y, x[i, ] <- NA, extra = list(i = sample(n, 12)))
  }
  # PR#17977: fractional subscripts are truncated; check.bounds warns on growing.
  for (n in c(3L, 2000L)) {
    cases$add("x[-3.5] <- 0", seq_len(n), x[-3.5] <- 0L)
    cases$add("x[c(-1, .5)] <- 0", seq_len(n), x[c(-1, .5)] <- 0L)
    cases$add("x[c(-.5, .5)] <- 0", seq_len(n), x[c(-.5, .5)] <- 0L)
    cases$add("x[[1.9]] <- 7", seq_len(n), x[[1.9]] <- 7L)
    cases$add("x[[0.5]] <- 7 (error)", seq_len(n), x[[0.5]] <- 7L)
    cases$add("x <- NA; x[1.5] <- 3.3", rep(NA, n), x[1.5] <- 3.3)
    cases$add("options(check.bounds = TRUE); x[n + 2] <- 1 (warning)", as.numeric(seq_len(n)), {
      old <- options(check.bounds = TRUE)
      x[length(x) + 2] <- 1
      options(old)
    })
  }
  # PR#17719: dimnames(a)[[1]] <- "a" for a one-row matrix.
  for (d in list(c(1L, 1L), c(1L, 1000L))) {
    cases$add("dimnames(a)[[1]] <- 'a'", counting(d), dimnames(x)[[1]] <- "a")
  }
  # `class<-`(x, "foo") and friends called as functions leave x.
  for (n in c(1L, 2000L)) {
    cases$add("xx <- `class<-`(x, 'foo')", rep(1, n), {
      xx <- `class<-`(x, "foo")
      x <- list(x, unclass(xx))
    })
    cases$add("xx <- `names<-`(x, ..)", rep(1, n), {
      xx <- `names<-`(x, rep_len("a", length(x)))
      x <- list(x, xx)
    })
  }
  expect_no_mismatches(cases, 900)
})

test_that("R's tests/reg-tests-1d.R and reg-tests-1e.R: active bindings, odd complex assignments", {
  cases <- subassign_cases("wch/r-source tests/reg-tests-1d.R, reg-tests-1e.R")
  # guard against mutation through active bindings: ab[1] <- 2 where ab gives y.
  for (n in c(1L, 2000L)) {
    cases$add("ab[1] <- 2 with ab an active binding giving y", rep(1, n), {
      y <- x
      makeActiveBinding("ab", function(value) y, environment())
      ab[1] <- 2
      x <- list(y, ab)
    })
  }
  # f(x, y[] <- 1) <- 3: a replacement function whose argument assigns.
  for (n in c(1L, 2000L)) {
    ex <- list(f = function(x, y) x, `f<-` = function(x, y, value) { y; x })
    cases$add("f(x, y[] <- 1) <- 3", rep(2, n), {
      y <- x
      msg <- tryCatch({ f(x, y[] <- 1) <- 3; "no error" }, error = conditionMessage)
      x <- list(x, y, msg)
    }, extra = ex)
  }
  expect_no_mismatches(cases, 60)
})

test_that("R's tests/reg-tests-1e.R: [[]], real values into complex, growing matrices, 1-d arrays", {
  cases <- subassign_cases("wch/r-source tests/reg-tests-1e.R")
  in_place_counters()
  # x[[]] is an error, in subassignment too.
  for (n in c(3L, 2000L)) {
    x <- c(a = 1, as.numeric(2:n))
    cases$add("xx[[]] <- pi (error)", x, x[[]] <- pi)
    # error jump after mutation: x[[2]] <- list() on an atomic vector.
    cases$add("tryCatch(x[[2]] <- list())", x, {
      msg <- tryCatch({ x[[2]] <- list(); "no error" }, error = conditionMessage)
      x <- list(x, msg)
    })
  }
  # subassigning from real to complex keeping zero imaginary part: x becomes complex.
  ll <- c(NA, 0L, NA_integer_, 0, NA_real_, NaN, -Inf, Inf)
  cplx <- c(complex(real = 2:-1, imaginary = c(-Inf, 0:1, Inf)), NA_complex_)
  for (n in c(13L, 2000L)) {
    cases$add("x[i] <- <complex> element by element", rep(ll, length.out = n), {
      for (i in seq_along(v)) x[i] <- v[i]
    }, v = cplx)
    cases$add("x[[i]] <- <complex> element by element", rep(ll, length.out = n), {
      for (i in seq_along(v)) x[[i]] <- v[[i]]
    }, v = cplx)
    cases$add("x[] <- real into an array", array(rep(ll, length.out = n), c(n, 1L)), x[] <- v,
              v = rep(ll, length.out = n))
    cases$add("x[i, 1] <- real, element by element", array(rep(ll, length.out = n), c(n, 1L, 1L)), {
      for (i in seq_len(8)) x[i, 1, 1] <- v[[i]]
    }, v = rev(ll))
  }
  # Growing a matrix past its end drops dim and dimnames.
  for (n in c(25L, 1000L)) {
    x <- matrix(seq_len(2 * n), n, 2, dimnames = list(NULL, c("a", "b")))
    cases$add("x[51] <- 51L, x a matrix", x, x[length(x) + 1] <- 51L)
    cases$add("x[[51]] <- 51L, x a matrix", x, x[[length(x) + 1]] <- 51L)
    cases$add("x[53] <- 51 (double, gap)", x, x[length(x) + 3] <- 51)
  }
  # 1-d arrays with dimnames, assigned by position and by name.
  for (n in c(3L, 1500L)) {
    x <- array(seq_len(n), dimnames = list(rep_len(letters, n)))
    cases$add("1-d x[1] <- 99", x, x[1] <- 99L)
    cases$add("1-d x['a'] <- 100", x, x["a"] <- 100L)
    cases$add("1-d x['a'] <- 100 (double)", x, x["a"] <- 100)
    cases$add("1-d x['zz'] <- 100 (new name)", x, x["zz"] <- 100L)
  }
  # Out of bounds for arrays.
  for (d in list(c(2L, 3L), c(40L, 50L))) {
    cases$add("matrix(1:6, 2)[3, 1] <- 0 (error)", counting(d), x[nrow(x) + 1, 1] <- 0L)
    cases$add("matrix(1:6, 2)[[3, 1]] <- 0 (error)", counting(d), x[[nrow(x) + 1, 1]] <- 0L)
  }
  expect_no_mismatches(cases, 450)
  expect_gt(in_place_counters()[1], 0)
})

test_that("R's tests/reg-tests-2.R: chained assignments, NA dimnames, filling with NA", {
  cases <- subassign_cases("wch/r-source tests/reg-tests-2.R")
  set.seed(5)
  for (k in c(31L, 400L)) {
    z <- matrix(round(runif(3 * k, 8, 90), 1), 3, k, dimnames = list(c("Girth", "Height", "Volume"), NULL))
    cases$add("z[1,1] <- z[2,2] <- z[3,3] <- z[2,4] <- NA", z, x[1, 1] <- x[2, 2] <- x[3, 3] <- x[2, 4] <- NA)
  }
  for (n in c(3L, 40L)) {
    cases$add("dimnames(z) <- list(c('x', 'y', NA), c(1, NA, 3))", counting(c(n, n)), {
      dimnames(x) <- list(c("x", "y", rep(NA, nrow(x) - 2)), c(1, NA, seq_len(ncol(x))[-(1:2)]))
    })
  }
  # extending: x[5] <- value fills with NA.
  for (n in c(2L, 1998L)) {
    cases$add("x[5] <- 'C' (character)", as.numeric(seq_len(n)), x[length(x) + 3] <- "C")
    cases$add("x[5] <- 3 (double)", as.numeric(seq_len(n)), x[length(x) + 3] <- 3)
    cases$add("x[5] <- TRUE (logical)", rep(FALSE, n), x[length(x) + 3] <- TRUE)
    cases$add("length(y) <- 5", as.numeric(seq_len(n)), length(x) <- length(x) + 3)
  }
  # NA levels: is.na(x)[3] <- TRUE is a full-length mask and one NA.
  for (n in c(3L, 2000L)) {
    cases$add("is.na(x)[3] <- TRUE", as.numeric(seq_len(n)), is.na(x)[3] <- TRUE)
    cases$add("is.na(x)[3] <- TRUE (integer)", seq_len(n), is.na(x)[3] <- TRUE)
  }
  expect_no_mismatches(cases, 230)
})

test_that("Extract.Rd, diag.Rd, NA.Rd, dimnames.Rd: documented subassignment rules", {
  cases <- subassign_cases("wch/r-source src/library/base/man/Extract.Rd, diag.Rd, NA.Rd, dimnames.Rd")
  in_place_counters()
  for (n in c(12L, 2400L)) {
    x <- seq_len(n)
    m <- matrix(seq_len(n), nrow = 2)
    # non-integer indices are truncated; a repeated index takes the last value.
    cases$add("x[3.999999999] <- 0", x, x[3.999999999] <- 0L)
    cases$add("x[c(2, 2, 2)] <- 1:3 (latest wins)", x, x[c(2, 2, 2)] <- 101:103)
    cases$add("x[c(5, 1, 5)] <- c(1.5, 2.5, 3.5)", x + 0, x[c(5, 1, 5)] <- c(1.5, 2.5, 3.5))
    # NULL is integer(0); a factor index is its codes.
    cases$add("x[NULL] <- 1", x, x[NULL] <- 1L)
    cases$add("x[factor(c('b', 'a'))] <- 0", x, x[factor(c("b", "a"))] <- 0L)
    # NA subscripts: only with one value.
    cases$add("x[c(1, NA)] <- 7", x, x[c(1, NA)] <- 7L)
    cases$add("x[c(1, NA)] <- 7:8 (error)", x, x[c(1, NA)] <- 7:8)
    cases$add("x[c(TRUE, NA)] <- 0", x, x[c(TRUE, NA)] <- 0L)
    cases$add("x[c(TRUE, NA)] <- 1:2 (error or not)", x, x[c(TRUE, NA)] <- 1:2)
    # x <- x[-1]; negative and logical subscripts, recycled logical.
    cases$add("x[-1] <- 0", x, x[-1] <- 0L)
    cases$add("x[-(1:3)] <- x[4:6] (recycled, warning)", x, x[-(1:3)] <- x[4:6])
    cases$add("x[c(TRUE, FALSE)] <- 0", x, x[c(TRUE, FALSE)] <- 0L)
    cases$add("x[c(TRUE, FALSE, TRUE)] <- -1", x, x[c(TRUE, FALSE, TRUE)] <- -1L)
    cases$add("x[c(-1, 2)] <- 0 (error)", x, x[c(-1, 2)] <- 0L)
    # m[1, ], m[, c(TRUE, FALSE, TRUE)], matrix index, m <- m[, -1].
    cases$add("x[1, ] <- 0", m, x[1, ] <- 0L)
    cases$add("x[, c(TRUE, FALSE, TRUE)] <- 0", m, x[, c(TRUE, FALSE, TRUE)] <- 0L)
    cases$add("x[cbind(c(1, 2, 1), 3:1)] <- v", m, x[cbind(c(1, 2, 1), 3:1)] <- v, v = c(-1L, -2L, -3L))
    cases$add("x[cbind(c(1, 0, 2), 3:1)] <- v (zero row ignored)", m, x[cbind(c(1, 0, 2), 3:1)] <- v,
              v = c(-1L, -2L))
    cases$add("x[cbind(c(1, NA), 1:2)] <- 9", m, x[cbind(c(1, NA), 1:2)] <- 9L)
    cases$add("x[cbind(c(1, NA), 1:2)] <- 8:9 (error)", m, x[cbind(c(1, NA), 1:2)] <- 8:9)
    cases$add("x[cbind(-1, 1)] <- 0 (error)", m, x[cbind(-1, 1)] <- 0L)
    cases$add("x[, -1] <- 0", m, x[, -1] <- 0L)
    # Named index arguments are ignored: m[j = 2, i = 1] is m[2, 1].
    cases$add("x[j = 2, i = 1] <- 0", m, x[j = 2, i = 1] <- 0L)
    # drop and exact in replacement.
    cases$add("x[1, , drop = FALSE] <- 0", m, x[1, , drop = FALSE] <- 0L)
    nx <- setNames(x, paste0("n", x))
    cases$add("x[['n2', exact = TRUE]] <- 0", nx, x[["n2", exact = TRUE]] <- 0L)
    cases$add("x[['n', exact = FALSE]] <- 0 (new name)", nx, x[["n", exact = FALSE]] <- 0L)
    cases$add("x[c('n3', 'n1', 'new')] <- v", nx, x[c("n3", "n1", "new")] <- v, v = c(7L, 8L, 9L))
    cases$add("x[NA_character_] <- 0", nx, x[NA_character_] <- 0L)
  }
  # diag.Rd: diag(m) <- 1:3 and its value rules.
  for (n in c(3L, 40L)) {
    m <- matrix(0, n, n)
    cases$add("diag(m) <- 1:3", m, diag(x) <- v, v = seq_len(n))
    cases$add("diag(m) <- 1.5", m, diag(x) <- 1.5)
    cases$add("diag(m) <- 1:2 (error)", m, diag(x) <- 1:2)
    cases$add("diag(<integer m>) <- 0.5", counting(c(n, n)), diag(x) <- v, v = rep(0.5, n))
    cases$add("diag(<logical m>) <- TRUE", matrix(FALSE, n, n), diag(x) <- TRUE)
    cases$add("diag(<3 x 4>) <- 1:3", matrix(0, n, n + 1), diag(x) <- v, v = seq_len(n))
    cases$add("diag(<4 x 3>) <- -1", matrix(0, n + 1, n), diag(x) <- -1)
    M <- cbind(X = seq_len(n), Y = rep(1, n))
    rownames(M) <- c(colnames(M), rep("", n - 2))
    cases$add("diag(M) <- v, M with names", M, diag(x) <- v, v = c(10, 20))
  }
  # NA.Rd: is.na(xx) <- c(2, 4), by position, by mask, by name.
  for (n in c(5L, 2000L)) {
    xx <- setNames(0:(n - 1L), paste0("e", seq_len(n)))
    cases$add("is.na(xx) <- c(2, 4)", xx, is.na(x) <- c(2, 4))
    cases$add("is.na(xx) <- xx > 2", xx, is.na(x) <- x > 2)
    cases$add("is.na(xx) <- 'e3'", xx, is.na(x) <- "e3")
  }
  # dimnames.Rd: dimnames(A)[[1]] <- value; factors are made character, zero-length
  # elements NULL, a short list is extended, and [[1]] <- NULL does not work.
  for (d in list(c(2L, 3L), c(40L, 50L))) {
    A <- counting(d)
    cases$add("dimnames(A) <- list(factor, NULL)", A,
              dimnames(x) <- list(factor(rep_len(c("b", "a"), nrow(x))), NULL))
    cases$add("dimnames(A) <- list(character(0), ..)", A,
              dimnames(x) <- list(character(0), paste0("c", seq_len(ncol(x)))))
    cases$add("dimnames(A) <- list(rows) (short list)", A, dimnames(x) <- list(paste0("r", seq_len(nrow(x)))))
    cases$add("dimnames(A) <- list() (zero length)", A, dimnames(x) <- list())
    cases$add("dimnames(A)[[1]] <- NULL (error)", A, {
      dimnames(x) <- list(paste0("r", seq_len(nrow(x))), NULL)
      dimnames(x)[[1]] <- NULL
    })
    cases$add("dimnames(A)[[2]] <- c('a', ..)", A, dimnames(x)[[2]] <- paste0("k", seq_len(ncol(x))))
    cases$add("dimnames(A) <- wrong length (error)", A, dimnames(x) <- list(c("a", "b", "c", "d", "e")))
    cases$add("rownames(A)[2] <- 'z'", A, {
      dimnames(x) <- list(paste0("r", seq_len(nrow(x))), NULL)
      rownames(x)[2] <- "z"
    })
  }
  expect_no_mismatches(cases, 1450)
  expect_gt(in_place_counters()[1], 0)
})

test_that("Extract.Rd, reg-tests-1b.R, reg-tests-1d.R, reg-tests-1e.R: replacement functions called as functions", {
  # Extract.Rd: `[<-` and `[[<-` match their arguments by position only (names are
  # ignored: the last argument is the value); reg-tests-1e.R calls `[[<-`(x, 1L, v)
  # and reg-tests-1b.R `dim<-`(b, ..) as functions; reg-tests-1d.R checks that the
  # arguments are evaluated in order. Here the arguments also come through `...`
  # and from lapply() & co, as a wrapper or an apply function passes them on.
  cases <- subassign_cases("wch/r-source src/library/base/man/Extract.Rd, tests/reg-tests-1b.R, reg-tests-1d.R, reg-tests-1e.R")
  for (n in c(3L, 2000L)) {
    x <- as.numeric(seq_len(n))
    cases$add("`[<-`(x, 2, 0)", x, x <- `[<-`(x, 2, 0))
    cases$add("`[<-`(x, 2, value = 0)", x, x <- `[<-`(x, 2, value = 0))
    cases$add("g <- function(...) `[<-`(...); g(x, 2, 0)", x, {
      g <- function(...) `[<-`(...)
      x <- g(x, 2, 0)
    })
    cases$add("g <- function(a, ...) `[<-`(a, ...); g(x, 2, 0)", x, {
      g <- function(a, ...) `[<-`(a, ...)
      x <- g(x, 2, 0)
    })
    cases$add("g <- function(...) `[<-`(..., 0); g(x, 2)", x, {
      g <- function(...) `[<-`(..., 0)
      x <- g(x, 2)
    })
    cases$add("g <- function(...) `[<-`(x, ...); g(2, 0)", x, {
      g <- function(...) `[<-`(x, ...)
      x <- g(2, 0)
    })
    cases$add("g <- function(...) `[<-`(..., value = 0); g(x, 2)", x, {
      g <- function(...) `[<-`(..., value = 0)
      x <- g(x, 2)
    })
    cases$add("lapply(list(x), `[<-`, 2, 0)", x, x <- lapply(list(x), `[<-`, 2, 0)[[1]])
    cases$add("sapply(list(x), `[<-`, 2, 0)", x, x <- sapply(list(x), `[<-`, 2, 0))
    cases$add("vapply(list(x), `[<-`, x, 2, 0)", x, x <- vapply(list(x), `[<-`, x, 2, 0))
    cases$add("lapply(list(x), `[<-`, 2, value = 0)", x, x <- lapply(list(x), `[<-`, 2, value = 0)[[1]])
    cases$add("Map(`[<-`, list(x), 2, 0)", x, x <- Map(`[<-`, list(x), 2, 0)[[1]])
    cases$add("mapply(`[<-`, list(x), 2, 0)", x, x <- mapply(`[<-`, list(x), 2, 0, SIMPLIFY = FALSE)[[1]])
    cases$add("do.call(`[<-`, list(x, 2, 0))", x, x <- do.call(`[<-`, list(x, 2, 0)))
    cases$add("Reduce(function(a, i) `[<-`(a, i, -i), 1:3, x)", x,
              x <- Reduce(function(a, i) `[<-`(a, i, -i), 1:3, x))
    # Names are ignored: the last argument is the value, whatever its name.
    cases$add("`[<-`(x, value = 0, 2) (the value is 2)", x, x <- `[<-`(x, value = 0, 2))
    cases$add("`[<-`(x, i = 2, 0)", x, x <- `[<-`(x, i = 2, 0))
    cases$add("`[<-`(m, j = 1, i = 2, 0) is m[1, 2] <- 0", matrix(x, 1), x <- `[<-`(x, j = 1, i = 2, 0))
    # Arguments are evaluated in order: the subscript's side effect comes first.
    cases$add("`[<-`(x, {k <- k + 1; 2}, k + 10)", x, {
      k <- 0
      x <- `[<-`(x, { k <- k + 1; 2 }, k + 10)
    })
    cases$add("`[<-`(x, {k <- k + 1; 2}, value = k + 10)", x, {
      k <- 0
      x <- `[<-`(x, { k <- k + 1; 2 }, value = k + 10)
    })
    cases$add("x[{k <- k + 1; 2}] <- k + 10 (the value first)", x, {
      k <- 0
      x[{ k <- k + 1; 2 }] <- k + 10
    })
    # The same for `[[<-`.
    cases$add("`[[<-`(x, 2, 0)", x, x <- `[[<-`(x, 2, 0))
    cases$add("g <- function(...) `[[<-`(...); g(x, 2, 0)", x, {
      g <- function(...) `[[<-`(...)
      x <- g(x, 2, 0)
    })
    cases$add("sapply(list(x), `[[<-`, 2, 0)", x, x <- sapply(list(x), `[[<-`, 2, 0))
    cases$add("`[[<-`(x, value = 0, 2) (the value is 2)", x, x <- `[[<-`(x, value = 0, 2))
    cases$add("`[[<-`(x, {k <- k + 1; 2}, k + 10)", x, {
      k <- 0
      x <- `[[<-`(x, { k <- k + 1; 2 }, k + 10)
    })
    # No value at all: base R's error.
    cases$add("`[<-`(x) (error)", x, x <- `[<-`(x))
    cases$add("`[[<-`(x) (error)", x, x <- `[[<-`(x))
    # The attribute replacements through ... and lapply().
    cases$add("g <- function(...) `names<-`(...)", x, {
      g <- function(...) `names<-`(...)
      x <- g(x, paste0("n", seq_along(x)))
    })
    cases$add("lapply(list(x), `dim<-`, c(1, n))", x, x <- lapply(list(x), `dim<-`, c(1, n))[[1]],
              extra = list(n = n))
  }
  expect_no_mismatches(cases, 800)
})

test_that("Extract.Rd: the left-hand side is coerced as needed, over types, values and subscripts", {
  # Every type of x, with values of each type (NA among them), by each subscript
  # form; fewer ways (top level, compiled, aliased) over leaf and computed x.
  cases <- subassign_cases("wch/r-source src/library/base/man/Extract.Rd",
                           ways = c("top", "cmp", "alias"), kinds = c("leaf", "computed"),
                           value_variants = FALSE)
  in_place_counters()
  set.seed(8)
  n <- 2000L
  targets <- list(
    logical = sample(c(TRUE, FALSE, NA), n, TRUE),
    integer = sample(c(-5:5, NA), n, TRUE),
    double = sample(c(grid_double, NA, -0), n, TRUE)
  )
  values <- list(TRUE, NA, 7L, NA_integer_, 2.5, NA_real_, -0, NaN, c(1L, NA, 3L),
                 c(0.5, NaN, -Inf), 1i, "a")
  forms <- alist(
    x[5] <- v, x[10:1509] <- v, x[-(1:3)] <- v, x[c(TRUE, FALSE)] <- v,
    x[mask] <- v, x[length(x) + 1] <- v, x[] <- v, x[[7]] <- v[[1]],
    m[3, ] <- v, m[, 2:40] <- v, m[cbind(1:5, 5:1)] <- v, x["n5"] <- v
  )
  mask <- rep_len(c(TRUE, FALSE, NA, FALSE), n)
  for (type in names(targets)) {
    x <- targets[[type]]
    names_x <- paste0("n", seq_len(n))
    for (value in values) {
      for (form in forms) {
        code <- form
        target <- x
        if (identical(code[[2]][[2]], as.name("m"))) {
          code[[2]][[2]] <- as.name("x")
          target <- matrix(x, 50, 40)
        }
        if (grepl("n5", deparse(form), fixed = TRUE)) names(target) <- names_x
        label <- sprintf("%s x: %s with v = %s", type, deparse(form), deparse(value))
        cases$add_q(label, target, code, v = value, extra = list(mask = mask))
      }
    }
  }
  expect_no_mismatches(cases, 3 * 12 * 12 * 6)
  expect_gt(in_place_counters()[1], 0)
})
