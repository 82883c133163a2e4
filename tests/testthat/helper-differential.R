# Differential checks against base R for test-differential-third-party.R: one
# call runs in base R, through gufunc_call() (for builtin names) and with each
# non-empty set of its vector operands wrapped in lazy(); value (bit for bit,
# attributes included), distinct warning messages and error message must agree.

# Value, sorted distinct warnings (all of them, as often as given, with
# `every_warning`), or the error message, of `thunk()`. A lazy result is
# materialized inside, so its warnings count.
differential_outcome <- function(thunk, every_warning = FALSE) {
  warnings <- character()
  value <- tryCatch(
    withCallingHandlers(
      {
        v <- thunk()
        if (inherits(v, "gufunc_lazy")) materialize(v) else v
      },
      warning = function(w) {
        warnings <<- c(warnings, conditionMessage(w))
        invokeRestart("muffleWarning")
      }
    ),
    error = function(e) structure(conditionMessage(e), class = "differential_error")
  )
  if (!every_warning) warnings <- unique(warnings)
  list(value = value, warnings = sort(warnings))
}

# The argument lists with every non-empty subset of the vector operands lazy.
lazy_variants <- function(args) {
  operands <- which(vapply(args, function(a) is.atomic(a) && !is.null(a), NA))
  subsets <- unlist(lapply(seq_along(operands), function(k) {
    combn(seq_along(operands), k, simplify = FALSE)
  }), recursive = FALSE)
  lapply(subsets, function(s) {
    wrapped <- args
    wrapped[operands[s]] <- lapply(args[operands[s]], lazy)
    names(wrapped) <- names(args)
    wrapped
  })
}

# "lazy(1+3)": which arguments of an argument list are lazy ("plain": none).
variant_label <- function(args) {
  lz <- which(vapply(args, function(a) inherits(a, "gufunc_lazy"), NA))
  if (length(lz)) paste0("lazy(", paste(lz, collapse = "+"), ")") else "plain"
}

# Names of the paths (gufunc_call, lazy 1, lazy 2, lazy 1+2, ...) whose outcome
# of `fun(args)` differs from base R's. `name` is the builtin's name, or NULL
# when `fun` is not one (only the lazy paths run then).
differential_mismatches <- function(fun, args, name = NULL, lazy = TRUE) {
  base <- differential_outcome(function() do.call(fun, args))
  same <- function(outcome) identical(outcome, base, num.eq = FALSE, single.NA = FALSE)
  bad <- character()
  all_vectors <- all(vapply(args, function(a) is.atomic(a) && !is.null(a), NA))
  if (!is.null(name) && all_vectors &&
      !same(differential_outcome(function() do.call(gufunc_call, c(list(name), args))))) {
    bad <- "gufunc_call"
  }
  # Lazy length-1 logical results recurse in Ops.gufunc_lazy (issue 12, section
  # 2, first item; the lazy methods' owner fixes it): their lazy paths are left out.
  if (is.logical(base$value) && length(base$value) == 1L) lazy <- FALSE
  if (!lazy) return(bad)
  variants <- lazy_variants(args)
  labels <- vapply(variants, variant_label, "")
  for (i in seq_along(variants)) {
    if (!same(differential_outcome(function() do.call(fun, variants[[i]])))) {
      bad <- c(bad, labels[i])
    }
  }
  bad
}

# A case collector: add(fun, args, name) runs one case; mismatches() lists the
# failing ones as "label: paths". Each element of a vector result counts as
# one compared case.
differential_cases <- function(source) {
  book <- case_log(source)
  book$add <- function(label, fun, args, name = NULL, lazy = TRUE) {
    bad <- with_options(list(gufunc.lazy_min_length = 0), {
      differential_mismatches(fun, args, name, lazy)
    })
    book$note(label, bad, max(lengths(args), 1L))
  }
  book
}

# The bookkeeping of a case collector: note(label, bad, n, path) records a case
# (on `path`, if named) of `n` compared elements whose failures are `bad`;
# mismatches() lists the failing cases as "label [source] path: failures";
# compared() counts the elements.
case_log <- function(source) {
  failures <- character()
  compared <- 0
  note <- function(label, bad, n = 1, path = NULL) {
    compared <<- compared + n
    if (length(bad)) {
      failures <<- c(failures, sprintf("%s [%s]%s: %s", label, source,
                                       if (is.null(path)) "" else paste0(" ", path),
                                       paste(bad, collapse = ", ")))
    }
    invisible(bad)
  }
  list(note = note, mismatches = function() failures, compared = function() compared)
}

# Each element of the vectors alone (as well as all of them in one call), so
# every warning is attributed to the value that raises it; `...` goes to cases$add().
differential_each <- function(cases, label, fun, args, ...) {
  cases$add(label, fun, args, ...)
  n <- max(lengths(args))
  for (i in seq_len(n)) {
    one <- lapply(args, function(a) if (length(a) == 0L) a else a[(i - 1L) %% length(a) + 1L])
    cases$add(sprintf("%s, element %d", label, i), fun, one, ...)
  }
}

# A collector's cases all agree with base R, and at least `min_compared` elements
# were compared (a grid that silently lost its cases fails).
expect_no_mismatches <- function(cases, min_compared) {
  expect_identical(cases$mismatches(), character())
  expect_gte(cases$compared(), min_compared)
}

# The names of base R functions gufunc masks (its exports that base R also has):
# in the tests, as after library(gufunc), they resolve to gufunc's.
masked_base_names <- function() {
  exports <- getNamespaceExports("gufunc")
  sort(exports[vapply(exports, exists, NA, envir = baseenv(), inherits = FALSE)])
}

# An environment of base R's versions of the names gufunc masks, in `parent`.
base_masks_env <- function(parent = globalenv()) {
  list2env(mget(masked_base_names(), envir = baseenv()), parent = parent)
}

# Closure `fun` with base R's versions of the masked names (an oracle on plain
# operands); a primitive as it is.
with_base_masks <- function(fun) {
  if (is.primitive(fun)) return(fun)
  environment(fun) <- base_masks_env(environment(fun))
  fun
}

# Inputs lazy() takes.
lazyable <- function(a) typeof(a) %in% c("double", "integer", "logical") && !is.object(a)

# "<label> [<source>]: mask on plain operands" when gufunc's mask of a base R
# function, called on plain operands with every lazy operation deferred, differs
# from base R's function (value, warnings, error); else NULL.
mask_mismatch <- function(label, source, base_fun, gufunc_fun, args) {
  mask <- with_options(list(gufunc.lazy_min_length = 0),
                       differential_outcome(function() do.call(gufunc_fun, args)))
  base <- differential_outcome(function() do.call(base_fun, args))
  if (!identical(mask, base, num.eq = FALSE, single.NA = FALSE)) {
    sprintf("%s [%s]: mask on plain operands", label, source)
  }
}

# A collector of element-wise cases. add(label, fun, args) runs `fun` on args
# plain and with each non-empty set of them lazy, with option
# gufunc.lazy_min_length = `min_length` (0: every lazy operation is deferred, so
# the kernels run), against base R: a function name is base R's function of that
# name against the one the name finds here (gufunc's mask, or base R's own); a
# closure runs against itself with base R's versions of the names gufunc masks.
# Value, error and each warning as often as given must agree (the distinct
# warnings with `distinct`). each() adds the whole vectors, then each element
# alone, so that every warning is attributed to the value that raises it. Each
# element of the longest operand counts as one compared case.
elementwise_cases <- function(source) {
  book <- case_log(source)
  book$add <- function(label, fun, args, distinct = FALSE, min_length = 0) {
    if (is.character(fun)) {
      oracle <- get(fun, envir = baseenv(), mode = "function")
      fun <- get(fun, mode = "function")
    } else {
      oracle <- with_base_masks(fun)
    }
    base <- differential_outcome(function() do.call(oracle, args), every_warning = !distinct)
    bad <- character()
    with_options(list(gufunc.lazy_min_length = min_length), {
      for (v in c(list(args), lazy_variants(args))) {
        out <- differential_outcome(function() do.call(fun, v), every_warning = !distinct)
        if (!identical(out, base, num.eq = FALSE, single.NA = FALSE)) bad <- c(bad, variant_label(v))
      }
    })
    book$note(label, bad, max(lengths(args), 1L))
  }
  book$each <- function(label, fun, args, ...) differential_each(book, label, fun, args, ...)
  book
}

# All pairs of two grids, as two vectors of equal length.
pairs_of <- function(a, b) list(rep(a, each = length(b)), rep(b, times = length(a)))

# Every lazy value inside lists, data frames and attributes materialized; the
# structure (row names, names, classes, dims) kept.
materialize_inside <- function(v) {
  if (inherits(v, "gufunc_lazy")) v <- materialize(v)
  if (is.list(v) && length(v)) v[] <- lapply(v, materialize_inside)
  for (a in setdiff(names(attributes(v)), c("names", "dim", "class"))) {
    if (inherits(attr(v, a), "gufunc_lazy")) attr(v, a) <- materialize_inside(attr(v, a))
  }
  v
}

# An outcome of differential_outcome() in a line of at most `width` characters
# (with `show`, the first line of str() of the value).
describe_outcome <- function(o, width = 160, show = FALSE) {
  s <- if (inherits(o$value, "differential_error")) paste("error:", o$value) else
    paste(c("value", if (show) utils::capture.output(str(o$value, give.attr = FALSE))[1L],
            if (length(o$warnings)) paste("warnings:", toString(o$warnings))), collapse = " ")
  substr(gsub("\\s+", " ", s), 1, width)
}

# A deferred expression with x's values (its NA of doubles quieted, as base R's x * 1).
same_value <- function(x) {
  switch(typeof(x), double = x * 1, integer = x + 0L, logical = x & TRUE)
}

# A view whose values and attributes are x's (a vector or a matrix): the middle of
# a larger lazy vector (names padded) or the top-left block below a first row of a
# larger lazy matrix (dimnames padded).
view_of <- function(x) {
  d <- dim(x)
  if (is.null(d)) {
    n <- length(x)
    big <- c(x[1L], x, x[n])
    if (!is.null(names(x))) names(big) <- c("<", names(x), ">")
    return(lazy(big)[2:(n + 1L)])
  }
  stopifnot(length(d) == 2L)
  big <- matrix(x[1L], d[1L] + 2L, d[2L] + 1L)
  big[2:(d[1L] + 1L), seq_len(d[2L])] <- x
  dn <- dimnames(x)
  if (!is.null(dn)) {
    dimnames(big) <- list(if (!is.null(dn[[1L]])) c("<", dn[[1L]], ">"),
                          if (!is.null(dn[[2L]])) c(dn[[2L]], ">"))
  }
  lazy(big)[2:(d[1L] + 1L), seq_len(d[2L])]
}

# A collector of cases on one value, several ways. add(label, fun, x, ...) runs
# fun on each way of ways_of(x, ...) (a named list of list(plain =, lazy =)): its
# lazy value against base R's fun (base R's versions of the names gufunc masks) on
# its plain value; lazy values inside the results are materialized. Every way
# counts as one compared case; a way whose value is not lazy is a mismatch.
# each(funs, x, suffix, ...) adds one case per function of a named list.
ways_cases <- function(source, ways_of) {
  book <- case_log(source)
  book$add <- function(label, fun, x, ..., min_length = 0) {
    base_fun <- with_base_masks(fun)
    run <- function(f, v) differential_outcome(function() materialize_inside(f(v)))
    with_options(list(gufunc.lazy_min_length = min_length), {
      w <- ways_of(x, ...)
      for (way in names(w)) {
        bad <- if (!is_lazy(w[[way]]$lazy)) {
          "the input is not lazy"
        } else {
          base <- run(base_fun, w[[way]]$plain)
          got <- run(fun, w[[way]]$lazy)
          if (!identical(got, base, num.eq = FALSE, single.NA = FALSE)) {
            sprintf("base %s | lazy %s", describe_outcome(base, 200, TRUE),
                    describe_outcome(got, 200, TRUE))
          }
        }
        book$note(label, bad, path = way)
      }
    })
    invisible()
  }
  book$each <- function(funs, x, suffix = "", ...) {
    for (l in names(funs)) book$add(paste0(l, suffix), funs[[l]], x, ...)
  }
  book
}
