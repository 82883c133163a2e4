# Views of arrays from their subscripts alone: m[i:j, k:l], a[, , s], m[-1, ] and
# the like, where every subscript is missing or numeric and picks one run of its
# extent. Base R's rules for the result's dim and dimnames (drop) are applied here
# to the runs, so no stand-in of the picked positions is made (for a large block
# that cost about half of copying it).

# The subscripts of a call x[...] as a list (NULL for a missing one) and its drop
# argument, or NULL when the call has other named arguments. `dots` is
# substitute(list(...)) of the method; `frame` its environment, where the
# subscripts are evaluated (forced once: they are promises).
array_subscripts <- function(dots, frame) {
  args <- as.list(dots)[-1L]
  tags <- names(args)
  if (is.null(tags)) tags <- rep("", length(args))
  if (any(!tags %in% c("", "drop"))) return(NULL)
  drop <- TRUE
  if (any(tags == "drop")) {
    drop <- eval(call("...elt", which(tags == "drop")[1L]), frame)
    if (!isTRUE(drop) && !isFALSE(drop)) return(NULL)
  }
  positions <- which(tags == "")
  subscripts <- vector("list", length(positions))
  for (k in seq_along(positions)) {
    if (identical(args[[positions[k]]], quote(expr = ))) next
    subscripts[k] <- list(eval(call("...elt", positions[k]), frame))
  }
  list(subscripts = subscripts, drop = drop)
}

# The view x[subscripts] of lazy array x, or NULL (a subscript that is not one run,
# more than one partial dimension after the inner run, or values not at hand).
array_view <- function(x, subscripts, drop) {
  d <- dim(x)
  if (length(subscripts) != length(d) || length(d) < 2L) return(NULL)
  first <- n <- numeric(length(d))
  for (k in seq_along(d)) {
    s <- subscripts[[k]]
    if (is.null(s)) {
      n[k] <- d[k]
      next
    }
    if (!is.numeric(s) || !is.null(attributes(s))) return(NULL)
    run <- .Call(C_subscript_run, s, d[k])
    if (is.null(run)) return(NULL)
    first[k] <- run[1L]
    n[k] <- run[2L]
  }
  stride <- cumprod(c(1, d))[seq_along(d)]
  # Full dimensions first, then one run: consecutive elements; then at most one
  # more dimension with several indices: runs a regular step apart.
  full <- cumprod(n == d) == 1
  inner <- sum(full) + 1L
  rows <- if (inner > length(d)) prod(d) else stride[inner] * n[inner]
  outer <- which(seq_along(d) > inner & n > 1)
  if (length(outer) > 1L) return(NULL)
  pick <- c(first = sum(first * stride), rows = rows, columns = 1, step = 0)
  if (length(outer) == 1L) {
    pick[["columns"]] <- n[outer]
    pick[["step"]] <- stride[outer]
    if (pick[["step"]] == rows) pick[c("rows", "columns", "step")] <- c(rows * n[outer], 1, 0)
  }
  .Call(C_lazy_view_block, x, pick, lazy_min_length(), array_view_attributes(x, first, n, drop))
}

# base R's attributes of x[...] picking runs (first, n) of x's dimensions.
array_view_attributes <- function(x, first, n, drop) {
  dn <- dimnames(x)
  if (!is.null(dn)) {
    picked <- dn
    for (k in seq_along(dn)) {
      if (!is.null(dn[[k]])) picked[k] <- list(dn[[k]][first[k] + seq_len(n[k])])
    }
    dn <- picked
  }
  keep <- if (drop) n != 1 else rep(TRUE, length(n))
  if (sum(keep) <= 1L && drop) {
    # A vector: names from the one dimension left, if it has them; a single
    # element takes the names of the only dimension that has any (R's DropDims).
    if (is.null(dn)) return(NULL)
    named <- if (sum(keep) == 1L) which(keep) else which(!vapply(dn, is.null, NA))
    if (length(named) == 1L && !is.null(dn[[named]])) return(list(names = dn[[named]]))
    return(NULL)
  }
  out <- list(dim = as.integer(n[keep]))
  if (!is.null(dn)) {
    dn <- dn[keep]
    if (!all(vapply(dn, is.null, NA))) out$dimnames <- dn
  }
  out
}
