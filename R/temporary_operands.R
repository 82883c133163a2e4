# Operands made for one call alone. R counts references to a value (REFCNT); a
# group method's operand that nothing but the call refers to (abs(a[i, j] - b),
# sum(abs(x - y))) can give its graph to the result, so that once the statement is
# done no garbage lazy value still reads the arrays its views read (a later
# x[i, j] <- v then writes x in place; src/r/operand_references.cpp). The count such
# an operand has depends on how R dispatches: 1 in an Ops or Math method (its
# promise), 3 in a Summary method on R 4.2 (R passes `...` through more lists).
# Measured once at load on a probe class, beside the count of a bound operand, which
# must be larger: where it is not, no Summary or Math operand is taken as a
# temporary.
temporary_counts <- new.env(parent = emptyenv())

measure_temporary_counts <- function() {
  Summary.gufunc_reference_probe <- function(..., na.rm = FALSE) .Call(C_lazy_references, ..1)
  Math.gufunc_reference_probe <- function(x, ...) .Call(C_lazy_references, x)
  probe <- function() structure(0, class = "gufunc_reference_probe")
  bound <- probe()
  measured <- function(temporary, bound) if (temporary < bound) temporary else NA_integer_
  temporary_counts$summary <- measured(sum(probe()), sum(bound))
  temporary_counts$math <- measured(abs(probe()), abs(bound))
  invisible(NULL)
}

# Whether `count`, an operand's REFCNT as a Summary or Math method (`kind`) saw it
# first, is that of an operand made for the call alone.
made_for_call <- function(count, kind) {
  expected <- temporary_counts[[kind]]
  !is.null(expected) && !is.na(expected) && count == expected
}
