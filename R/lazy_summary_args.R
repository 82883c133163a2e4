# sum(), prod(), min(), max() and range() of several arguments with a lazy one,
# and range(x, finite = TRUE): base R's value, bit for bit, without materializing.
# Base R's do_summary() (summary.c, R 4.2) reduces each argument on its own (a sum
# of doubles in one long double rounded to double, an integer sum exact in 64
# bits, a min/max where NA wins over NaN), then combines those results in argument
# order in double or int arithmetic; range() is c(min(x), max(x)) of the arguments
# concatenated. Here each lazy argument is reduced by the engine in one fused pass
# (as sum(x) alone is), each plain one by base R, and the results are combined on
# the main thread by base R's rules (combine_*() below).

# The value of `op` over `args`, or NULL when base R must compute it: an argument
# the engine does not reduce (character, a class), na.rm or finite not TRUE or
# FALSE, or no lazy argument long enough to defer.
lazy_summary_of_args <- function(op, args, na.rm) {
  if (!op %in% c("sum", "prod", "min", "max", "range") || !is_flag(na.rm)) return(NULL)
  finite <- FALSE
  at <- if (op == "range") which(names(args) == "finite") else integer()
  if (length(at) > 1L) return(NULL)
  if (length(at) == 1L) {  # range(..., finite =) matches it by its exact name
    finite <- args[[at]]
    args <- args[-at]
    if (!is_flag(finite)) return(NULL)
  }
  if (!summary_operands(args)) return(NULL)
  # range(finite = TRUE) drops NA too, as na.rm = TRUE does.
  parts <- lapply(args, summary_part, op = op, na.rm = na.rm || finite, finite = finite)
  # Each deferred argument is an evaluation of its own, as each argument is in base R.
  raise_warnings(unlist(lapply(parts, `[[`, "warnings")), user_call())
  switch(op,
    sum = combine_sums(args, parts),
    prod = combine_products(parts),
    range = combine_ranges(args, parts),
    combine_extremes(op, args, parts)
  )
}

is_flag <- function(x) is.logical(x) && length(x) == 1L && !is.na(x)

# TRUE when every argument is NULL, a plain double, integer or logical vector, or
# a lazy vector, and some lazy one is long enough to defer.
summary_operands <- function(args) {
  long <- FALSE
  for (a in args) {
    if (is.null(a)) next
    if (!lazy_operand(a)) return(FALSE)
    if (inherits(a, "gufunc_lazy")) {
      if (!is_lazy(a)) return(FALSE)
      long <- long || length(a) >= lazy_min_length()
    }
  }
  long
}

# One argument's own reduction, base R's isum/rsum/iprod/imin/rmin...:
# list(value, empty = no value was reduced (min and max give +-Inf), warnings of
# computing a deferred argument). NULL for an argument of length 0, which base R
# skips.
summary_part <- function(x, op, na.rm, finite) {
  if (length(x) == 0L) return(NULL)
  deferred <- is_lazy(x) && length(x) >= lazy_min_length()
  if (!deferred) x <- materialize(x)
  if (finite && is.double(x)) {
    # The finite values: those of x, NA elsewhere (which na.rm drops), in the
    # same pass as the reduction.
    x <- if (deferred) {
      .Call(C_lazy_map, "ifelse", list(is.finite(x), x, NA_real_), "base", NULL)
    } else {
      x[is.finite(x)]
    }
  }
  if (deferred) {
    res <- .Call(C_lazy_reduce, x, op, na.rm)
    return(list(value = res[[1L]], empty = length(res[[3L]]) > 0L, warnings = res[[2L]]))
  }
  value <- suppressWarnings(get(op, baseenv())(x, na.rm = na.rm))
  list(value = value, empty = length(x) == 0L || (na.rm && all(is.na(x))), warnings = NULL)
}

# R's ISNA(): NA_real_, not another NaN.
is_na_real <- function(x) is.na(x) && !is.nan(x)

# sum(): integer and logical arguments add up exactly while the total fits an int;
# past that (or with a double argument anywhere) the total is a double, each
# argument's own sum rounded and then added. An NA integer sum ends it: NA.
combine_sums <- function(args, parts) {
  integer_total <- !any(vapply(args, is.double, NA))
  total <- 0
  for (i in seq_along(args)) {
    p <- parts[[i]]
    if (is.null(p)) next
    v <- p$value
    if (!is.double(args[[i]])) {
      if (is.na(v)) return(if (integer_total) NA_integer_ else NA_real_)
      v <- as.double(v)
      if (integer_total && abs(total + v) > .Machine$integer.max) integer_total <- FALSE
    }
    total <- total + v
  }
  if (integer_total) as.integer(total) else total
}

# prod(): each argument's product (a double), multiplied in order.
combine_products <- function(parts) {
  total <- 1
  for (p in parts) if (!is.null(p)) total <- total * p$value
  total
}

# min() and max(): an int result until a double argument (even empty) comes; an NA
# wins over everything after it, a NaN over numbers; no value at all is +-Inf with
# base R's warning.
combine_extremes <- function(op, args, parts) {
  is_min <- op == "min"
  integer_result <- TRUE
  empty <- TRUE
  icum <- if (is_min) .Machine$integer.max else -.Machine$integer.max
  zcum <- if (is_min) Inf else -Inf
  for (i in seq_along(args)) {
    if (integer_result && is.double(args[[i]])) {
      integer_result <- FALSE
      if (!empty) zcum <- as.double(icum)
    }
    p <- parts[[i]]
    if (is.null(p) || p$empty) next
    empty <- FALSE
    v <- p$value
    if (integer_result) {
      if (!is.na(icum) && (is.na(v) || (if (is_min) v < icum else v > icum))) icum <- v
      next
    }
    v <- as.double(v)
    if (is_na_real(zcum)) next
    if (is.na(v)) {
      # base R's zcum += tmp gives tmp's NaN (its bits), as v + zcum does here.
      zcum <- if (is_na_real(v)) v else v + zcum
    } else if (!is.nan(zcum) && (if (is_min) v < zcum else v > zcum)) {
      zcum <- v
    }
  }
  if (empty) {
    warning(warningCondition(sprintf("no non-missing arguments to %s; returning %s", op,
                                     if (is_min) "Inf" else "-Inf"), call = user_call()))
    return(zcum)
  }
  if (integer_result) icum else zcum
}

# range(): c(min(x), max(x)) of the arguments concatenated; x is double when an
# argument is. Over the concatenation an NA wins, else the last NaN, else the
# extreme: each argument's range is combined so.
combine_ranges <- function(args, parts) {
  as_result <- if (any(vapply(args, is.double, NA))) as.double else identity
  out <- NULL
  for (p in parts) {
    if (is.null(p) || p$empty) next
    v <- as_result(p$value)
    if (is.null(out)) {
      out <- v
      next
    }
    for (k in 1:2) {
      if (is.na(v[k])) {
        if (!is_na_real(out[k])) out[k] <- v[k]
      } else if (!is.na(out[k]) && (if (k == 1L) v[k] < out[k] else v[k] > out[k])) {
        out[k] <- v[k]
      }
    }
  }
  if (is.null(out)) {  # base R's range.default(): min(x) and max(x) of no value
    warning(warningCondition("no non-missing arguments to min; returning Inf", call = quote(min(x))))
    warning(warningCondition("no non-missing arguments to max; returning -Inf", call = quote(max(x))))
    return(c(Inf, -Inf))
  }
  out
}
