# t(), aperm(), rev() and diff() of lazy values: views that read the same memory
# in another order (src/r/lazy_reorder_view.cpp) or, for diff(), differences of two
# views, so expressions on them fuse with everything else. Each gives base R's
# values and attributes. A value with a class besides "gufunc_lazy" goes to base R's
# method on its values.

# Whether x is a lazy value with no other class (whose attributes the methods
# below know how base R treats).
lazy_only <- function(x) identical(oldClass(x), "gufunc_lazy") && is_lazy(x)

#' @export
t.gufunc_lazy <- function(x) {
  d <- dim(x)
  if (length(d) > 2L) return(NextMethod())  # base R's error, naming the user's call
  if (!lazy_only(x)) return(t(fallback_values(x, "t")))
  nr <- if (length(d)) d[1L] else length(x)
  nc <- if (length(d) == 2L) d[2L] else 1L
  view <- .Call(C_lazy_transpose_view, x, nr, nc, lazy_min_length(), transposed_attributes(x))
  if (!is.null(view)) return(view)
  t(materialize(x))  # few values, at hand
}

# Base R's attributes of t(x) (do_transpose): dims swapped; dimnames swapped with
# their names (a vector's names become column names); the others but names kept.
transposed_attributes <- function(x) {
  a <- attributes(x)
  a$class <- NULL
  d <- a$dim
  rows <- cols <- NULL
  dnn <- NULL
  has_dimnames <- FALSE
  if (is.null(d)) {
    rows <- a$names
    has_dimnames <- !is.null(rows)
  } else if (!is.null(a$dimnames)) {
    has_dimnames <- TRUE
    rows <- a$dimnames[[1L]]
    if (length(d) == 2L) cols <- a$dimnames[[2L]]
    dnn <- names(a$dimnames)
  }
  a$names <- NULL
  a$dimnames <- NULL
  # A new dim, without the names x's may have.
  a$dim <- unname(if (is.null(d)) c(1L, length(x)) else if (length(d) == 1L) c(1L, d) else d[2:1])
  if (has_dimnames) {
    dn <- list(cols, rows)
    if (!is.null(dnn)) names(dn) <- c(if (length(d) == 2L) dnn[2L] else "", dnn[1L])
    a$dimnames <- dn
  }
  a
}

#' @export
aperm.gufunc_lazy <- function(a, perm = NULL, resize = TRUE, ...) {
  d <- dim(a)
  if (!lazy_only(a)) return(aperm(fallback_values(a, "aperm"), perm, resize, ...))
  p <- permutation_of(d, dimnames(a), perm)
  # What base R would refuse: its error, naming the user's call.
  if (is.null(p) || !isTRUE(resize) && !isFALSE(resize)) return(NextMethod())
  attrs <- if (resize) permuted_attributes(d, dimnames(a), p) else list(dim = d)
  # A rotation of the dims, c(s + 1, ..., k, 1, ..., s), is a transpose of the
  # prod(d[1:s]) x prod(d[-(1:s)]) matrix; other orders are computed once.
  k <- length(d)
  s <- p[1L] - 1L
  if (identical(p, c(seq_len(k - s) + s, seq_len(s)))) {
    nr <- prod(d[seq_len(s)])
    view <- .Call(C_lazy_transpose_view, a, nr, length(a) / nr, lazy_min_length(), attrs)
    if (!is.null(view)) return(view)
    return(aperm(materialize(a), perm, resize, ...))  # few values, at hand
  }
  note_materializing(a, "aperm() with a permutation that does not rotate the dims")
  out <- aperm(materialize(a), perm, resize, ...)
  if (length(out) >= lazy_min_length()) lazy(out) else out
}

# The permutation (integer, 1-based) that aperm() makes of an array of dims `d` for
# `perm` (NULL: reversed; names of dimnames; numbers), or NULL when base R would
# not take it (base R then gives its error).
permutation_of <- function(d, dn, perm) {
  k <- length(d)
  if (k == 0L) return(NULL)
  if (is.null(perm)) return(rev(seq_len(k)))
  if (is.character(perm)) {
    perm <- match(perm, names(dn))
  } else if (!is.numeric(perm) || !is.null(attributes(perm))) {
    return(NULL)
  }
  if (length(perm) != k || anyNA(perm) || any(perm != trunc(perm))) return(NULL)
  perm <- as.integer(perm)
  if (!identical(sort(perm), seq_len(k))) return(NULL)
  perm
}

# Base R's attributes of aperm(a, perm) (do_aperm, resize = TRUE): dims and
# dimnames (with their names) permuted, nothing else.
permuted_attributes <- function(d, dn, p) {
  out <- list(dim = as.integer(d[p]))
  if (!is.null(dn)) out$dimnames <- dn[p]
  out
}

#' @export
rev.gufunc_lazy <- function(x) {
  if (!lazy_only(x)) return(rev(fallback_values(x, "rev")))
  view <- .Call(C_lazy_reverse_view, x, lazy_min_length(), reversed_attributes(x))
  if (!is.null(view)) return(view)
  rev(materialize(x))  # few values, at hand
}

# Base R's attributes of rev(x), which is x[length(x):1L]: names reversed, every
# other attribute dropped, but a one-dimensional array stays one, its dimnames
# reversed (of extent 1, it is dropped to a vector named by its dimnames).
reversed_attributes <- function(x) {
  d <- dim(x)
  if (length(d) == 1L && d == 1L) {
    nm <- dimnames(x)[[1L]]
    return(if (!is.null(nm)) list(names = nm))
  }
  if (length(d) == 1L) {
    dn <- dimnames(x)
    if (!is.null(dn)) dn[[1L]] <- rev(dn[[1L]])
    return(if (is.null(dn)) list(dim = d) else list(dim = d, dimnames = dn))
  }
  nm <- names(x)
  if (!is.null(nm)) list(names = rev(nm))
}

#' @export
diff.gufunc_lazy <- function(x, lag = 1L, differences = 1L, ...) {
  if (!lazy_only(x)) return(diff(fallback_values(x, "diff"), lag, differences, ...))
  ismat <- is.matrix(x)
  xlen <- if (ismat) dim(x)[1L] else length(x)
  # Invalid arguments: base R's error, naming the user's call.
  if (length(lag) != 1L || length(differences) != 1L || !is.numeric(lag) ||
      !is.numeric(differences) || is.na(lag) || is.na(differences) || lag < 1L ||
      differences < 1L) {
    return(NextMethod())
  }
  # A fractional lag or number of differences: base R's, whose subscripts
  # truncate them in one place and not in another.
  if (lag != trunc(lag) || differences != trunc(differences)) {
    return(diff(fallback_values(x, "diff"), lag, differences, ...))
  }
  if (lag * differences >= xlen) return(materialize(x)[0L])
  # Differences of views: base R's x[-(1:lag)] - x[-(n - lag + 1):n], written
  # with subscripts that are one run each, so each term is a view.
  if (!.Call(C_lazy_viewable, x)) materialize(x)  # a gufunc or reduction: computed once
  r <- x
  for (i in seq_len(differences)) {
    n <- if (ismat) nrow(r) else length(r)
    r <- if (ismat) {
      r[-seq_len(lag), , drop = FALSE] - r[seq_len(n - lag), , drop = FALSE]
    } else {
      r[-seq_len(lag)] - r[seq_len(n - lag)]
    }
  }
  r
}
