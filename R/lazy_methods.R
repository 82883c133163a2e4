# S3 group methods of lazy values: what the engine knows becomes a graph node (O(1),
# no data allocated), everything else is base R on the materialized values.
#
# Small inputs are computed at once by base R: below option
# gufunc.lazy_min_length elements (default 65536, set in src/r/lazy_map_bridge.cpp);
# results of 256 elements or more stay lazy values (small_result()). The default is
# where deferral starts to pay, measured
# with bench::mark() (medians in microseconds, 2 cores, R 4.2) on
#   base2 = x * 0.5 + 1        lazy2 = materialize(lazy(x) * 0.5 + 1)
#   base4 = sqrt(x * x + 1) * 2, lazy4 likewise; sum = sum(x * x)
#   threads      n   base2  lazy2   base4  lazy4  sum base  sum lazy
#         1   4096     8.2   55.4    28.8   93.9      14.9      40.1
#         1  16384    26.4   40.6    99.3  126.4      46.7      46.5
#         1  65536    86.7  106.4   403.9  362.5     182.5      95.9
#         2  16384    27.1   97.6    99.8  142.5      43.6     104.5
#         2  65536   102.8  114.1   403.6  264.7     179.0     118.3
# Recording a node costs about 6 us and an evaluation about 25 us; while the data
# fit the cache base R's loops are as fast as the engine's, so only longer vectors,
# whose temporaries base R must write to and read back from memory, gain. The loop
# of the issue, `x <- lazy(runif(10)); for (i in 1:1e4) x <- x * 0.5 + 1`, costs
# 1.03 times the base R loop (its first operation already gives a plain vector).

#' @export
Ops.gufunc_lazy <- function(e1, e2) {
  if (nargs() == 1L && !.Generic %in% c("+", "-", "!")) {  # base R's errors
    message <- if (.Generic %in% c("&", "|")) {
      sprintf("1 argument passed to '%s' which requires 2", .Generic)
    } else {
      "operator needs two arguments"
    }
    stop(simpleError(message, generic_call(sys.call(), .Generic)))
  }
  if (nargs() == 2L) {
    # Short double values at hand (a loop over the columns of a lazy matrix): base
    # R's operator in one call (src/r/short_operations.cpp).
    value <- .Call(C_short_ops, .Generic, e1, e2)
    if (!is.null(value)) return(value)
  }
  # An operand made for this call alone (a[i, j] - b): R counts one reference to
  # it, this method's promise (a bound one has two or more), before the lists below
  # add theirs. Nothing can read it once the method returns, so the result takes
  # its graph for good (src/r/operand_references.cpp).
  temporary <- .Call(C_lazy_references, e1) == 1L
  if (nargs() == 2L) temporary <- c(temporary, .Call(C_lazy_references, e2) == 1L)
  args <- if (nargs() == 1L) list(e1) else list(e1, e2)
  # Operands of + and * in the order that gives base R's NaN (swap_nan_order);
  # attributes still follow the written order (args).
  computed <- swap_nan_order(args, .Generic)
  # R counts a reference from every list that held an operand for good: emptied on
  # the way out, so that the operands can still be written in place
  # (src/r/operand_references.cpp).
  on.exit(.Call(C_release_operands, args, computed))
  # The call is a promise: only base R's attribute rules need it.
  value <- lazy_builtin_map(.Generic, args, generic_call(sys.call(), .Generic), computed)
  if (is.null(value)) return(base_fallback(.Generic, args))
  if (any(temporary)) .Call(C_consume_temporaries, value, args[temporary])
  value
}

# R's dispatch of log() passes the matched values (x, base) labelled with the
# call's names in the call's order (R 4.2, any class): log(base = 2, x = y) and
# log(2, x = y) reach a method as x = 2 and y in `...`. TRUE when the method's `x`
# is the base: `x` is then bound to the second value.
log_arguments_swapped <- function(call) {
  tags <- names(call)
  if (is.null(tags) || length(call) != 3L) return(FALSE)
  tags <- tags[-1L]
  at <- match("x", tags)
  if (is.na(at)) at <- match("", tags)
  identical(at, 2L)
}

# R >= 4.3 asks which of two Ops methods runs when both operands have one (a lazy
# value and a Date, difftime or factor, say). Ours: it maps what the engine knows
# and hands everything else to base R on materialized values, where the other
# class's method runs. Base R's result then comes without R's "Incompatible
# methods" warning (which R < 4.3 still gives).
#' @rawNamespace if (getRversion() >= "4.3.0") S3method(chooseOpsMethod, gufunc_lazy)
chooseOpsMethod.gufunc_lazy <- function(x, y, mx, my, cl, reverse) TRUE

#' @export
Math.gufunc_lazy <- function(x, ...) {
  # cumsum() and the other scans take their argument under any name (cumsum(v = x));
  # R's dispatch passes the name on.
  if (missing(x) && ...length() == 1L && startsWith(.Generic, "cum")) {
    return(get(.Generic, baseenv())(..1))
  }
  references <- .Call(C_lazy_references, x)  # before anything else refers to x
  if (.Generic == "log" && ...length() == 1L && log_arguments_swapped(sys.call())) {
    return(log(..1, x))
  }
  if (...length() == 0L) {
    value <- .Call(C_short_math, .Generic, x)  # as in Ops.gufunc_lazy
    if (!is.null(value)) return(value)
  }
  if (startsWith(.Generic, "cum") && ...length() == 0L) {
    value <- lazy_scan(.Generic, x)
    if (!is.null(value)) return(value)
  }
  if (.Generic %in% c("gamma", "lgamma") && ...length() == 0L && lazy_operand(x)) {
    # R's own gamma functions warn from inside for a few inputs, so those are
    # computed by base R (src/r/rmath_kernels.cpp): x is computed now to look.
    if (!is_materialized(x)) x <- lazy(materialize(x))
    if (.Call(C_math_zone, .Generic, materialize(x))) return(base_fallback(.Generic, list(x)))
  }
  args <- deferred_math_operands(.Generic, x, ...)
  on.exit(.Call(C_release_operands, args, NULL))  # as in Ops.gufunc_lazy
  value <- if (!is.null(args)) lazy_builtin_map(.Generic, args, generic_call(sys.call(), .Generic))
  if (is.null(value)) return(base_fallback(.Generic, list(x, ...)))
  # An operand made for this call alone gives its graph to the result (as in Ops).
  if (made_for_call(references, "math")) .Call(C_consume_temporaries, value, list(x))
  value
}

#' @export
Summary.gufunc_lazy <- function(..., na.rm = FALSE) {
  if (...length() == 1L) {
    value <- .Call(C_short_summary, .Generic, ..1, na.rm)  # as in Ops.gufunc_lazy
    if (!is.null(value)) return(value)
  }
  # Before list(...) refers to the operand (R/temporary_operands.R).
  temporary <- ...length() == 1L && made_for_call(.Call(C_lazy_references, ..1), "summary")
  args <- list(...)
  on.exit(.Call(C_release_operands, args, NULL))  # as in Ops.gufunc_lazy
  # any() and all() of numbers coerce them with base R's warnings: base R does it.
  if (length(args) == 1L && is.null(names(args)) && lazy_operand(args[[1L]]) &&
      (is.logical(args[[1L]]) || !.Generic %in% c("any", "all")) &&
      is.logical(na.rm) && length(na.rm) == 1L && !is.na(na.rm) &&
      length(args[[1L]]) >= lazy_min_length()) {
    value <- lazy_reduce(args[[1L]], .Generic, na.rm)
    # Its graph goes with the reduction, where it was made for this call alone.
    if (temporary) .Call(C_consume_temporaries, value, args[1L])
    return(value)
  }
  # Several arguments, range(x, finite = TRUE): R/lazy_summary_args.R.
  value <- lazy_summary_of_args(.Generic, args, na.rm)
  if (!is.null(value)) return(value)
  base_fallback(.Generic, c(args, list(na.rm = na.rm)))
}

#' @export
mean.gufunc_lazy <- function(x, trim = 0, na.rm = FALSE, ...) {
  if (...length() == 0L && is.numeric(trim) && length(trim) == 1L && !is.na(trim) &&
      trim == 0 && is.logical(na.rm) && length(na.rm) == 1L && !is.na(na.rm) &&
      lazy_operand(x) && length(x) >= lazy_min_length()) {
    return(lazy_reduce(x, "mean", na.rm))
  }
  mean(materialize(x), trim = trim, na.rm = na.rm, ...)
}

#' @export
`[.gufunc_lazy` <- function(x, ...) {
  # Regular runs of values at hand (x[a:b], x[-1], m[, j:k], m[i:j, k:l],
  # a[, , i]): a view, still lazy, over the same memory (src/r/lazy_view.cpp).
  one <- nargs() == 2L
  if (one && missing(..1)) {
    # x[], or x[i] where i is a missing argument passed on, which base R reads as
    # x[]: the plain values, attributes and all.
    return(materialize(x))
  }
  # One position of values at hand: the element alone, in one call into C, as a
  # loop over the elements reads it (src/r/element_reads.cpp).
  if (one) {
    element <- .Call(C_lazy_element, x, ..1)
    if (!is.null(element)) return(element)
  } else if (nargs() == 3L && !missing(..1) && !missing(..2)) {
    # (The subscripts are forced in C, as the general path's are: forced here,
    # R would name this method's call in the error of a subscript that fails.)
    element <- .Call(C_lazy_matrix_element, x, environment())
    if (!is.null(element)) return(element)
  }
  # Subscripts read by the view code itself where the subset keeps no attribute (a
  # vector, or a matrix or array read as one); positions from base R's rules on a
  # stand-in otherwise (a logical mask, names kept), below.
  plain_pick <- one && is.null(attributes(..1)) && .Call(C_lazy_subset_drops_attributes, x)
  if (plain_pick) {
    view <- .Call(C_lazy_view, x, ..1, lazy_min_length(), NULL)
    if (!is.null(view)) return(view)
  }
  if (!one) {
    # An array's block from the subscripts alone, with base R's attributes, in one
    # call (src/r/array_view.cpp); other regular picks through a stand-in of the
    # positions. (Numeric subscripts of an array that pick no one block, such as a
    # circular shift of a later dimension, need no stand-in to know that: `no_view`.)
    view <- .Call(C_lazy_array_view, x, environment())
    if (is.null(view) && .Call(C_lazy_viewable, x)) view <- lazy_view_pick(x, function(s) s[...])
    if (!is.null(view) && !is.symbol(view)) return(view)
  } else if (is.numeric(..1) && !(plain_pick && is.null(attributes_but_class(x))) &&
             .Call(C_lazy_viewable, x)) {
    view <- lazy_view_pick(x, function(s) s[...])
    if (!is.null(view)) return(view)
  }
  # Values at hand (lazy(x), or computed): base R's subsetting on the plain values.
  if (is_materialized(x)) {
    call <- sys.call()
    call[[1L]] <- as.name("[")
    # Conditions of R's subsetting name the expression (errors) or the innermost
    # closure's call (warnings), here this method's own code: the user's
    # expression, and the call of the closure that gave it (none at top level).
    parent <- sys.parent()
    ours <- function(condition) {
      at <- conditionCall(condition)
      identical(at, quote(materialize(x)[...])) ||
        (is.call(at) && identical(at[[1L]], quote(withCallingHandlers)))
    }
    return(withCallingHandlers(materialize(x)[...], error = function(e) {
      if (ours(e)) e$call <- call
      stop(e)
    }, warning = function(w) {
      if (!ours(w)) return()
      w$call <- if (parent > 0L) sys.call(parent)
      warning(w)
      invokeRestart("muffleWarning")
    }))
  }
  # x[i] goes to R's subsetting, whose ALTREP hook computes only the positions
  # picked when they are few; x[i, j, ...] picks positions the same way.
  if (nargs() == 2L) return(NextMethod())
  lazy_pick(x, function(s) s[...], sys.call())
}

# The subset pick(x) of lazy vector x (whose elements a view can pick) as a view
# with base R's attributes, or NULL (not regular runs, or an error for base R to
# raise). pick() runs base R's subscript rules on a stand-in holding each
# element's position.
lazy_view_pick <- function(x, pick) {
  standin <- standin_like(x)
  # The subscripts' warnings (a position coerced to NA) are raised once: here if
  # this gives the view, else by the code that picks the values.
  warned <- list()
  muffle <- function(w) {
    warned[[length(warned) + 1L]] <<- w
    invokeRestart("muffleWarning")
  }
  picked <- tryCatch(withCallingHandlers(pick(standin), warning = muffle),
                     error = function(e) NULL)
  if (!is.numeric(picked)) return(NULL)
  view <- .Call(C_lazy_view, x, picked, lazy_min_length(), attributes(picked))
  if (!is.null(view)) for (w in warned) warning(w)
  view
}

# head() and tail() give what they give for the plain vector or matrix (for a
# matrix, tail() numbers the rows), computing only the elements they show.
#' @rawNamespace S3method(utils::head, gufunc_lazy)
head.gufunc_lazy <- function(x, ...) lazy_pick(x, function(s) utils::head(s, ...), sys.call())

#' @rawNamespace S3method(utils::tail, gufunc_lazy)
tail.gufunc_lazy <- function(x, ...) lazy_pick(x, function(s) utils::tail(s, ...), sys.call())

# The elements of x that pick() selects, with the attributes it gives them. pick()
# runs base R's rules (subscripts, drop, dimnames, errors) on a stand-in with x's
# attributes holding each element's position (1:n costs nothing); the values at the
# positions it picks are then read through the ALTREP subset hook, which computes
# only those elements of a deferred value.
lazy_pick <- function(x, pick, call) {
  standin <- standin_like(x)
  if (identical(call[[1L]], as.name("[.gufunc_lazy"))) call[[1L]] <- as.name("[")
  # Base R's error for x itself: its class (subscriptOutOfBoundsError) and message,
  # with the user's call.
  picked <- tryCatch(pick(standin), error = function(e) {
    e$call <- call
    stop(e)
  })
  values <- .subset(x, as.vector(picked))
  attributes(values) <- attributes(picked)
  values
}

# Attribute replacements keep a lazy value deferred: base R's rules run on a
# stand-in of the same length (1:n costs nothing) and the result gets its attributes.
#' @export
`dim<-.gufunc_lazy` <- function(x, value) {
  if (!reattributable(x)) return(NextMethod())
  reattribute(x, function(s) `dim<-`(s, value))
}

#' @export
`dimnames<-.gufunc_lazy` <- function(x, value) {
  if (!reattributable(x)) return(NextMethod())
  reattribute(x, function(s) `dimnames<-`(s, value))
}

#' @export
`names<-.gufunc_lazy` <- function(x, value) {
  if (!reattributable(x)) return(NextMethod())
  reattribute(x, function(s) `names<-`(s, value))
}

reattributable <- function(x) .Call(C_lazy_is_vector, x) && identical(oldClass(x), "gufunc_lazy")

reattribute <- function(x, set) {
  standin <- standin_like(x)
  .Call(C_lazy_with_attributes, x, attributes(set(standin)))
}

# A stand-in for a vector of length n whose attributes base R's rules work out:
# 1:n, which holds no data, in an ALTREP wrapper. Setting attributes on the bare
# compact 1:n can expand it to n integers (`attr<-` and complex assignments in
# byte-compiled code duplicate it), while a wrapper is duplicated by reference.
standin_of <- function(n) `attributes<-`(seq_len(n), NULL)

# A stand-in for x: its length and its attributes but the class "gufunc_lazy".
standin_like <- function(x) `attributes<-`(standin_of(length(x)), attributes_but_class(x))

# A lazy value or a plain double, integer or logical vector or array.
lazy_operand <- function(x) {
  (is.double(x) || is.integer(x) || is.logical(x)) &&
    (is.null(cls <- attr(x, "class")) || identical(cls, "gufunc_lazy"))
}

# The map node of `name` over `args` (mappable operands with attributes) with base
# R's attributes, after base R's errors and warnings about the operands' shapes.
lazy_elementwise <- function(name, args, call, computed = args) {
  plain <- lapply(args, unclass)
  elementwise_check(plain, name, call)
  # The attributes are worked out on a stand-in of the result's length that costs
  # nothing, then installed on the lazy result when it is made.
  standin <- standin_of(max(lengths(plain)))
  family <- elementwise_family(name, length(plain))
  standin <- if (family %in% c("arithmetic", "comparison", "logic")) {
    binary_attributes(standin, plain[[1L]], plain[[2L]], family, call)
  } else {
    elementwise_attributes(standin, plain, name, call)
  }
  value <- .Call(C_lazy_map, name, computed, "base", attributes(standin))
  if (is.null(value)) base_fallback(name, args) else value
}

# attributes(unclass(x)), without unclass(): for a lazy x that makes R's wrapper
# around x, and R then counts a reference to x for good, so that x[i] <- v would
# no longer write x in place (src/r/operand_references.cpp).
attributes_but_class <- function(x) {
  at <- attributes(x)
  at$class <- NULL
  if (length(at)) at
}

# The user's call as base R reports it: `x + y`, not `Ops.gufunc_lazy(x, y)`.
generic_call <- function(call, name) {
  call[[1L]] <- as.name(name)
  call
}

# cumsum(), cumprod(), cummax() or cummin() of x as a lazy scan over x's graph, with
# the one attribute base R keeps (names, or the dimnames of a 1-d array), or NULL
# for base R to compute (short, or not a number vector).
lazy_scan <- function(name, x) {
  if (!lazy_operand(x) || length(x) < lazy_min_length()) return(NULL)
  names <- names(x)
  .Call(C_lazy_scan, x, name, if (!is.null(names)) list(names = names))
}

lazy_reduce <- function(x, op, na.rm) {
  res <- .Call(C_lazy_reduce, x, op, na.rm)
  raise_warnings(c(res[[2L]], res[[3L]]), call(op, quote(x)))
  res[[1L]]
}

# base R's `name` on the materialized arguments: its result, warnings and errors,
# these attributed to the user's call (`x + "a"`, not the call made here). The
# arguments are bound to symbols, so a message never deparses the values. `count`:
# whether it is a fallback (lazy_fallbacks()), not a short result computed at once.
base_fallback <- function(name, args, count = TRUE) {
  if (count) note_fallback(name, args)
  env <- new.env(parent = baseenv())
  symbols <- paste0("e", seq_along(args))
  for (i in seq_along(args)) assign(symbols[i], materialize(args[[i]]), envir = env)
  call <- as.call(c(as.name(name), lapply(symbols, as.name)))
  if (!is.null(names(args))) names(call) <- c("", names(args))
  # A primitive's condition names the call made here, or eval()'s.
  own <- function(cond) {
    at <- conditionCall(cond)
    identical(at, call) || identical(at, quote(eval(call, env)))
  }
  here <- sys.nframe()
  withCallingHandlers(eval(call, env),
    warning = function(w) {
      if (!own(w)) return()
      w$call <- user_call(here)
      warning(w)
      invokeRestart("muffleWarning")
    },
    error = function(e) {
      if (!own(e)) return()
      e$call <- user_call(here)
      stop(e)
    })
}

#' @export
format.gufunc_lazy <- function(x, ...) format(materialize(x), ...)
