# Lazy values in data frames and S4 code.
#
# A lazy vector becomes a data frame column as it is, still lazy (as tibble and
# data.table keep their columns): data.frame(), as.data.frame(), transform() and
# cbind() do not compute it, and base R's data frame code (printing, subsetting,
# rbind()) works on it as on any vector. A lazy matrix or array becomes columns
# as base R's as.data.frame() makes them from the plain values (View() of a lazy
# matrix goes this way).

#' @export
as.data.frame.gufunc_lazy <- function(x, row.names = NULL, optional = FALSE, ...,
                                      nm = deparse1(substitute(x))) {
  if (is.null(dim(x))) {
    return(as.data.frame.vector(x, row.names = row.names, optional = optional, ..., nm = nm))
  }
  out <- as.data.frame(fallback_values(x, "as.data.frame"), row.names = row.names,
                       optional = optional, ...)
  # A 1-d array's column is named after the argument, as base R names it.
  if (length(dim(x)) == 1L && !optional) names(out) <- nm
  out
}

# ggplot2 picks a column's scale by its class: a lazy column takes the scale of
# its plain type (continuous for numbers, discrete for logicals), silently.
#' @rawNamespace S3method(ggplot2::scale_type, gufunc_lazy)
scale_type.gufunc_lazy <- function(x) ggplot2::scale_type(vector(typeof(x), 0L))

# For S4 code (Matrix's as(x, "dgeMatrix"), setMethod() signatures naming
# "gufunc_lazy"): the S3 class is registered as a matrix, so S4 methods and
# coercions written for base matrices apply to lazy matrices. Registered when the
# namespace loads (at the top level, roxygen's source loading could not document it).
register_s4_class <- function(ns) {
  methods::setOldClass(c("gufunc_lazy", "matrix"), where = ns)
}
