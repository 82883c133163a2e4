# The value grid every builtin is checked on against base R: missing values,
# infinities, signed zeros, the integer limits, tiny/huge/fractional doubles.

grid_double <- c(
  NA_real_, NaN, Inf, -Inf, 0, -0, 1, -1, 2, -2, 3, -3, 0.5, -0.5, 2.5, -7.25,
  1 / 3, pi, 1e-300, -1e-300, 5e-324, 1e300, -1e300, 1e17, -1e17, 2^53 + 2,
  .Machine$integer.max, -.Machine$integer.max, 2^31, 46341, 1e-8, 0.99, 1.01
)

# NaNs that differ from NA_real_ and NaN only in bits identical() ignores by
# default: the sign, the quiet bit of NA (what arithmetic on NA returns), a payload.
nan_from_bits <- function(hex) {
  readBin(as.raw(strtoi(substring(hex, seq(15, 1, -2), seq(16, 2, -2)), 16L)), "double")
}
grid_nan_bits <- c(-NaN, -NA_real_, NA_real_ + 0, nan_from_bits("7ff8000000000123"),
                   nan_from_bits("fff0000000000456"))

# identical() down to the bits of every double (sign of NaN, NaN payloads, -0).
identical_bits <- function(x, y) identical(x, y, num.eq = FALSE, single.NA = FALSE)

grid_integer <- c(
  NA_integer_, 0L, 1L, -1L, 2L, -2L, 3L, -7L, 10L, 46341L, -46341L, 65536L,
  1073741824L, -1073741824L, .Machine$integer.max, -.Machine$integer.max,
  .Machine$integer.max - 1L
)

grid_logical <- c(NA, TRUE, FALSE)

value_grid <- list(double = grid_double, integer = grid_integer, logical = grid_logical)

# Every pair of values of two grids, as two equal-length vectors.
grid_pairs <- function(x, y) {
  list(x = rep(x, each = length(y)), y = rep(y, times = length(x)))
}

# The names of the builtins by family, as registered in the "base" table.
builtin_arithmetic <- c("+", "-", "*", "/", "^", "%%", "%/%")
builtin_comparison <- c("==", "!=", "<", "<=", ">", ">=")
builtin_logic <- c("&", "|")
builtin_math <- c(
  "abs", "sqrt", "exp", "expm1", "log", "log2", "log10", "log1p", "sin", "cos",
  "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "floor", "ceiling",
  "trunc", "sign", "acosh", "asinh", "atanh", "cospi", "sinpi", "tanpi", "digamma",
  "trigamma"
)

# Runs `expr` and returns its value with the distinct warning messages it raised.
capture_warnings <- function(expr) {
  messages <- character()
  value <- withCallingHandlers(expr, warning = function(w) {
    messages <<- union(messages, conditionMessage(w))
    invokeRestart("muffleWarning")
  })
  list(value = value, warnings = messages)
}

# What a call gives: its value and warning messages, or its error message.
call_outcome <- function(fn, args) {
  tryCatch(capture_warnings(do.call(fn, args)),
           error = function(e) list(error = conditionMessage(e)))
}

# Labels of the argument lists for which gufunc_call(name, ...) and base R's
# `fun` differ in value (bit for bit unless `bitwise` is FALSE), warnings or
# error message (empty when all agree).
base_mismatches <- function(name, arg_lists, fun = match.fun(name), bitwise = TRUE) {
  gu <- function(...) gufunc_call(name, ...)
  same <- if (bitwise) identical_bits else identical
  bad <- character()
  for (i in seq_along(arg_lists)) {
    if (!same(call_outcome(gu, arg_lists[[i]]), call_outcome(fun, arg_lists[[i]]))) {
      label <- names(arg_lists)[i]
      bad <- c(bad, if (is.null(label) || !nzchar(label)) as.character(i) else label)
    }
  }
  bad
}

# Argument lists for a binary operator over two grids: all pairs at once, each
# pair alone (so every warning is attributed), and each value recycled against
# the other whole grid on either side.
binary_grid_cases <- function(gx, gy) {
  p <- grid_pairs(gx, gy)
  cases <- list(all_pairs = list(p$x, p$y))
  for (i in seq_along(p$x)) {
    cases[[sprintf("pair %s, %s", format(p$x[i]), format(p$y[i]))]] <- list(p$x[i], p$y[i])
  }
  for (v in gx) cases[[sprintf("scalar %s, grid", format(v))]] <- list(v, gy)
  for (v in gy) cases[[sprintf("grid, scalar %s", format(v))]] <- list(gx, v)
  cases[["grids as they are"]] <- list(gx, gy)
  cases[["non-multiple lengths"]] <- list(gx, gy[-1L])
  cases[["non-multiple lengths, swapped"]] <- list(gx[-1L], gy)
  cases[["second recycled"]] <- list(rep(gx, length(gy)), gy)
  cases[["first recycled"]] <- list(gx, rep(gy, length(gx)))
  cases[["first empty"]] <- list(gx[0L], gy)
  cases[["second empty"]] <- list(gx, gy[0L])
  cases
}

# Every type combination of the value grid for a binary operator.
expect_binary_grid_matches_base <- function(name, fun = match.fun(name)) {
  for (tx in names(value_grid)) {
    for (ty in names(value_grid)) {
      cases <- binary_grid_cases(value_grid[[tx]], value_grid[[ty]])
      expect_identical(base_mismatches(name, cases, fun, bitwise = TRUE), character(),
                       label = sprintf("`%s` on %s, %s mismatches", name, tx, ty))
    }
  }
}

# Every type of the value grid for a one-argument function, whole and value by value.
expect_unary_grid_matches_base <- function(name, fun = match.fun(name), extra = numeric()) {
  for (tx in names(value_grid)) {
    g <- value_grid[[tx]]
    if (tx == "double") g <- c(g, extra)
    cases <- c(list(whole_grid = list(g)), lapply(g, list))
    expect_identical(base_mismatches(name, cases, fun), character(),
                     label = sprintf("`%s` on %s mismatches", name, tx))
  }
}
