# scale() of a lazy matrix, deferred. Base R's scale.default() starts with
# as.matrix(), which gives the plain values (R/lazy_plain_methods.R), and then finds
# each column's root mean square with apply(). Here the same steps run on the lazy
# value: colMeans(x, na.rm = TRUE) and sweep() centre it, and the root mean square
# of the non-NA values of each column, sqrt(sum(v^2) / max(1, length(v) - 1)), comes
# from two fused column sums: sum(v^2) in one long double in index order, as base
# R's sum() and colSums() add, so the bits are base R's. The result stays lazy, with
# base R's "scaled:center" and "scaled:scale" attributes. Anything else (a lazy
# vector, other attributes, centres or scales that are neither TRUE/FALSE nor
# numbers) is base R's scale() on the plain values, with its errors.

#' @export
scale.gufunc_lazy <- function(x, center = TRUE, scale = TRUE) {
  # Lazy centres and scales become attributes: their plain values.
  center <- plain(center, "scale")
  scale <- plain(scale, "scale")
  d <- dim(x)
  plain_attributes <- all(names(attributes_but_class(x)) %in% c("dim", "dimnames"))
  if (length(d) != 2L || !plain_attributes || !typeof(x) %in% c("double", "integer", "logical") ||
      !scale_argument_ok(center, d[2L]) || !scale_argument_ok(scale, d[2L])) {
    return(scale(fallback_values(x, "scale"), center = center, scale = scale))
  }
  if (is.logical(center)) {
    if (center) {
      # Plain: it becomes an attribute (a wide matrix's column means can be a lazy
      # value with its values at hand).
      center <- plain_values(colMeans(x, na.rm = TRUE))
      x <- sweep(x, 2L, center, check.margin = FALSE)
    }
  } else {
    x <- sweep(x, 2L, center, check.margin = FALSE)
  }
  if (is.logical(scale)) {
    if (scale) {
      squares <- colSums(x^2, na.rm = TRUE)
      counts <- colSums(!is.na(x))
      scale <- plain_values(sqrt(squares / pmax(1, counts - 1)))
      x <- sweep(x, 2L, scale, `/`, check.margin = FALSE)
    }
  } else {
    x <- sweep(x, 2L, scale, `/`, check.margin = FALSE)
  }
  if (is.numeric(center)) attr(x, "scaled:center") <- center
  if (is.numeric(scale)) attr(x, "scaled:scale") <- scale
  x
}

# TRUE or FALSE, or a plain number vector with one element per column (of `columns`
# columns): what the lazy scale() takes; base R handles the rest.
scale_argument_ok <- function(a, columns) {
  if (is.logical(a)) return(length(a) == 1L && !is.na(a))
  is.numeric(a) && !is.object(a) && length(a) == columns
}
