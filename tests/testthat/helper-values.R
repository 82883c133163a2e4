# The value grid every builtin is checked on against base R: missing values,
# infinities, signed zeros, the integer limits, tiny/huge/fractional doubles.

grid_double <- c(
  NA_real_, NaN, Inf, -Inf, 0, -0, 1, -1, 2, -2, 3, -3, 0.5, -0.5, 2.5, -7.25,
  1 / 3, pi, 1e-300, -1e-300, 5e-324, 1e300, -1e300, 1e17, -1e17, 2^53 + 2,
  .Machine$integer.max, -.Machine$integer.max, 2^31, 46341, 1e-8, 0.99, 1.01
)

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
  "trunc", "sign"
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
