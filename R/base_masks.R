# Base R functions that neither dispatch on a class nor drop it: given a lazy
# value they compute on its values and copy every attribute of their first argument,
# class included, onto the result, which is then plain data that still says
# "gufunc_lazy" (not identical() to base R's result). gufunc's versions below give
# them plain values. Without a lazy argument each is base R's function, called as it
# is: same values, warnings and errors, and the call a condition names is the
# user's call, as with base R's.

# The plain values of a value of class "gufunc_lazy" (a lazy value, or plain data
# that a base R function gave the class), counted as a fallback of `what`; any
# other value as it is.
plain <- function(x, what) if (inherits(x, "gufunc_lazy")) fallback_values(x, what) else x

# Evaluates `expr`; its warnings and errors name `call` (the user's call of a
# mask), as base R's function called directly would. `expr` is evaluated from its
# expression, never as this function's promise: the handlers keep this frame, and
# a promise in it would keep counting a reference to the value after it returns, so
# R would copy a result of base R's function before changing it (y <- pmax(a, b);
# y[1] <- 0), which base R's own call does not, and an operation could not take a
# temporary result's memory (a - outer(u, v): src/r/donated_memory.cpp).
with_user_call <- function(call, expr) {
  force(call)  # the caller's sys.call(), before eval() adds a call of its own
  expr <- substitute(expr)
  handlers <- user_call_handlers(call)
  withCallingHandlers(eval(expr, parent.frame()),
                      warning = handlers$warning, error = handlers$error)
}

# Handlers that raise a condition again with `call`, made outside with_user_call()
# so that they do not keep its frame.
user_call_handlers <- function(call) {
  list(
    warning = function(w) {
      w$call <- call
      warning(w)
      invokeRestart("muffleWarning")
    },
    error = function(e) {
      e$call <- call
      stop(e)
    }
  )
}

# Whether any argument has the class "gufunc_lazy".
any_lazy_class <- function(args) {
  for (a in args) if (inherits(a, "gufunc_lazy")) return(TRUE)
  FALSE
}

# Base R's pmax() or pmin() (`name`) of the plain values of `args`.
extreme_of_values <- function(name, args, na.rm, call) {
  args <- c(lapply(args, plain, what = name), list(na.rm = na.rm))
  with_user_call(call, do.call(get(name, baseenv()), args, quote = TRUE))
}

#' Base R functions that gufunc masks
#'
#' `ifelse()`, `pmax()`, `pmin()`, `atan2()`, `choose()`, `lchoose()`, `beta()`,
#' `lbeta()`, `besselI()`, `besselJ()`, `besselK()`, `besselY()`, `rowSums()`,
#' `colSums()`, `rowMeans()`, `colMeans()`, `round()`, `signif()`, `%*%`, `crossprod()`,
#' `tcrossprod()`, `outer()` and `%o%` are base R's functions,
#' with one difference: given a lazy value (see [lazy()]) they return base R's plain
#' result. Base R's versions neither dispatch on the class of a lazy value nor drop
#' it (`pmax()` and `pmin()` restore the attributes of their first argument, the
#' others copy them), so they would return plain data that still carries the class
#' `"gufunc_lazy"`; `ifelse()` would read a lazy `test` through base R's slower code
#' for classed objects. `ifelse()` with a lazy logical `test` and `yes` and `no` of one
#' type (double, integer or logical; each of the test's length or one value, without
#' a class) is deferred and fused like an operator, with base R's values and
#' attributes (those of `test`); it checks first (on the first elements, else in a
#' pass over the test) which of `yes` and `no` some element takes, and evaluates only
#' those, whole, as base R does (no branch: base R's logical result).
#'
#' `pmax()` and `pmin()` with a lazy argument and numbers (double, integer or logical
#' vectors without a class, or `NULL`), a result of at least 65536 elements (option
#' `gufunc.lazy_min_length`) and `na.rm` `TRUE` or `FALSE` are deferred and fused:
#' each further argument is one step of base R's element-wise rule (the larger or
#' smaller value; an `NA` or `NaN` wins without `na.rm` and gives way with it), with
#' base R's type (the highest of the arguments', at least integer), recycling (and
#' its warning "an argument will be fractionally recycled", when a shorter argument
#' is then copied to the full length) and the attributes of the first argument
#' that fit the result. `pmax(lx * 2, ly, 0) + 1` is one kernel.
#'
#' `rowSums()`, `colSums()`, `rowMeans()` and `colMeans()` of a lazy array read its
#' deferred values in one pass, a chunk at a time, without storing them whole
#' (`rowSums(f * dx)` computes no `f * dx`), and give base R's bits: each result
#' accumulates in one long double in base R's order (down a column, or across a
#' row column by column). Base R's result is plain, and so is theirs.
#'
#' Without a lazy argument each calls base R's function with the same arguments:
#' the same values, attributes, warnings and errors, and conditions name the call
#' as written. Keeping the call costs about 4 microseconds per call (base R's
#' `pmax()` of two numbers takes 5).
#'
#' `atan2()` of lazy values is deferred like an operator (base R's values,
#' attributes and "NaNs produced" warning). `round()` and `signif()` differ from
#' base R's only in passing `x` first: base R dispatches on the first argument as
#' written, so `signif(digits = 2, x = lazy(v))` would compute on the values and
#' keep the class on plain data; gufunc's gives the deferred lazy value that
#' `signif(lazy(v), 2)` gives. A plain number costs about 1 microsecond more than
#' base R's primitive.
#'
#' `%*%`, `crossprod()` and `tcrossprod()` do not dispatch on S3 classes in R 4.2.
#' Given a lazy value, gufunc's versions compute its values once (a deferred
#' expression in one fused pass, a view such as `t(x)` gathered) and then call base
#' R's function on the values: base R's bits whatever BLAS R is linked to and
#' whatever `options(matprod = )` says, with its dims, dimnames and errors. A
#' result of [get_gufunc_lazy_min_length()] elements or more is returned lazy (its
#' values, no copy), so what follows stays deferred. (The [matmul()] gufunc sums in
#' its own order, which agrees with a BLAS to rounding only.) With plain arguments
#' whose shapes surely conform (matrices, a matrix and a vector, two vectors of one
#' length) base R's function is called straight away: about 1 microsecond more
#' than base R's; other plain arguments cost about 6 microseconds more, the price
#' of naming the user's call in an error.
#'
#' Not masked: code in other packages calls base R's functions directly; functions
#' of other packages that copy attributes the same way (for example `stats::dnorm()`
#' and the other distribution functions, `stats::fft()`) give plain data with the
#' class. Give such functions `materialize(x)`.
#'
#' @param test,yes,no,...,na.rm,y,x,n,k,a,b,nu,expon.scaled,dims As for base R's function of
#'   the same name.
#' @return Base R's result, computed on the plain values of lazy arguments; a lazy
#'   value for a deferred `ifelse()`, `pmax()`, `pmin()` or `atan2()`.
#' @name base_masks
#' @examples
#' w <- runif(5)
#' identical(pmax(lazy(w), 0.5), pmax(w, 0.5))
#' identical(choose(lazy(c(5, 6)), 2), choose(c(5, 6), 2))
#' m <- matrix(runif(12), 3)
#' identical(rowSums(lazy(m) * 2), rowSums(m * 2))
NULL

#' @rdname base_masks
#' @export
ifelse <- function(test, yes, no) {
  if (inherits(test, "gufunc_lazy") && is_lazy(test)) {
    value <- lazy_ifelse(test, yes, no)
    if (!is.null(value)) return(value)
  }
  # yes and no stay promises: base R evaluates only what the test needs.
  with_user_call(
    sys.call(),
    base::ifelse(plain(test, "ifelse"), plain(yes, "ifelse"), plain(no, "ifelse"))
  )
}

#' @rdname base_masks
#' @export
pmax <- function(..., na.rm = FALSE) {
  args <- list(...)
  on.exit(.Call(C_release_operands, args, NULL))  # as in Ops.gufunc_lazy
  if (any_lazy_class(args)) {
    value <- lazy_extreme("pmax", args, na.rm, sys.call())
    if (!is.null(value)) return(value)
    return(extreme_of_values("pmax", args, na.rm, sys.call()))
  }
  with_user_call(sys.call(), base::pmax(..., na.rm = na.rm))
}

#' @rdname base_masks
#' @export
pmin <- function(..., na.rm = FALSE) {
  args <- list(...)
  on.exit(.Call(C_release_operands, args, NULL))  # as in Ops.gufunc_lazy
  if (any_lazy_class(args)) {
    value <- lazy_extreme("pmin", args, na.rm, sys.call())
    if (!is.null(value)) return(value)
    return(extreme_of_values("pmin", args, na.rm, sys.call()))
  }
  with_user_call(sys.call(), base::pmin(..., na.rm = na.rm))
}

#' @rdname base_masks
#' @export
atan2 <- function(y, x) {
  if (is_lazy(y) || is_lazy(x)) {
    args <- list(y, x)
    on.exit(.Call(C_release_operands, args, NULL))  # as in Ops.gufunc_lazy
    value <- lazy_builtin_map("atan2", args, sys.call())
    if (!is.null(value)) return(value)
  }
  with_user_call(sys.call(), base::atan2(plain(y, "atan2"), plain(x, "atan2")))
}

#' @rdname base_masks
#' @export
choose <- function(n, k) {
  with_user_call(sys.call(), base::choose(plain(n, "choose"), plain(k, "choose")))
}

#' @rdname base_masks
#' @export
lchoose <- function(n, k) {
  with_user_call(sys.call(), base::lchoose(plain(n, "lchoose"), plain(k, "lchoose")))
}

#' @rdname base_masks
#' @export
beta <- function(a, b) {
  with_user_call(sys.call(), base::beta(plain(a, "beta"), plain(b, "beta")))
}

#' @rdname base_masks
#' @export
lbeta <- function(a, b) {
  with_user_call(sys.call(), base::lbeta(plain(a, "lbeta"), plain(b, "lbeta")))
}

#' @rdname base_masks
#' @export
besselI <- function(x, nu, expon.scaled = FALSE) {
  with_user_call(sys.call(), base::besselI(plain(x, "besselI"), plain(nu, "besselI"), expon.scaled))
}

#' @rdname base_masks
#' @export
besselK <- function(x, nu, expon.scaled = FALSE) {
  with_user_call(sys.call(), base::besselK(plain(x, "besselK"), plain(nu, "besselK"), expon.scaled))
}

#' @rdname base_masks
#' @export
besselJ <- function(x, nu) {
  with_user_call(sys.call(), base::besselJ(plain(x, "besselJ"), plain(nu, "besselJ")))
}

#' @rdname base_masks
#' @export
besselY <- function(x, nu) {
  with_user_call(sys.call(), base::besselY(plain(x, "besselY"), plain(nu, "besselY")))
}

# ifelse(test, yes, no) deferred: test a lazy logical vector, yes and no of one type
# (double, integer or logical), each of test's length or one value, without a class.
# NULL when that does not hold, or when every test is NA (base R's result is then
# logical, whatever yes and no are).
lazy_ifelse <- function(test, yes, no) {
  n <- length(test)
  if (typeof(test) != "logical" || n < lazy_min_length()) return(NULL)
  # Base R evaluates `yes` only when some test is TRUE, `no` only when some is FALSE;
  # a branch no element takes becomes NA of the other's type (base R's result where
  # the test is NA). All NA: base R's logical NAs.
  taken <- branches_taken(test)
  if (!any(taken)) return(NULL)
  numbers <- c("double", "integer", "logical")
  if (!taken[["yes"]]) {
    if (!typeof(no) %in% numbers) return(NULL)
    yes <- vector(typeof(no), 1L)[NA_integer_]
  }
  if (!taken[["no"]]) {
    if (!typeof(yes) %in% numbers) return(NULL)
    no <- vector(typeof(yes), 1L)[NA_integer_]
  }
  type <- typeof(yes)
  if (!type %in% numbers || typeof(no) != type) return(NULL)
  branch_fits <- function(v) {
    length(v) %in% c(1L, n) && (is.null(oldClass(v)) || identical(oldClass(v), "gufunc_lazy"))
  }
  if (!branch_fits(yes) || !branch_fits(no)) return(NULL)
  operands <- list(test, unclass_plain(yes), unclass_plain(no))
  on.exit(.Call(C_release_operands, operands, NULL))  # as in Ops.gufunc_lazy
  .Call(C_lazy_map, "ifelse", operands, "base", attributes_but_class(test))
}

# Whether lazy logical `test` has a TRUE (yes) and a FALSE (no). The first elements
# decide it almost always, and computing only those (a view) spares a pass over a
# test that may be costly to compute.
# Its warnings are the evaluation's that follows, which computes the whole test:
# muffled here, so that base R's one warning is raised once.
branches_taken <- function(test) {
  suppressWarnings({
    first <- materialize(test[seq_len(min(length(test), 1024L))])
    yes <- isTRUE(any(first, na.rm = TRUE)) || isTRUE(any(test, na.rm = TRUE))
    no <- isTRUE(any(!first, na.rm = TRUE)) || isTRUE(any(!test, na.rm = TRUE))
  })
  c(yes = yes, no = no)
}

# A plain operand without attributes (rep() in base R's ifelse() drops them); a lazy
# one as it is.
unclass_plain <- function(v) if (inherits(v, "gufunc_lazy")) v else as.vector(v)
