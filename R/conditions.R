# Classed conditions raised from C++ (src/r/guard.cpp) and from R code.

# Signals an error of class c(class, "gufunc_error", "error", "condition") attributed
# to the user's call that reached the C++ code.
raise_condition <- function(class, message) {
  call <- sys.call(-1L)
  stop(errorCondition(message, class = c(class, "gufunc_error"), call = call))
}

# Errors about a user's argument: names the argument and what was wrong with it.
abort_argument <- function(arg, problem, class = "gufunc_argument_error",
                           call = sys.call(-1L)) {
  msg <- sprintf("argument `%s` %s", arg, problem)
  stop(errorCondition(msg, class = c(class, "gufunc_error"), call = call))
}
