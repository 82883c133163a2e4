# Views of arrays from their subscripts alone: m[i:j, k:l], a[, , s], m[-1, ] and
# the like, where every subscript is missing or numeric and picks one run of its
# extent (read in C: src/r/array_region.cpp). Base R's rules for the result's dim
# and dimnames (drop) are applied here to the runs, so no stand-in of the picked
# positions is made (for a large block that cost about half of copying it).

# Elements between consecutive indices of each dimension of an array of dims `d`.
array_strides <- function(d) cumprod(c(1, d))[seq_along(d)]

# The view of lazy array x that `region` (what .Call(C_array_region, x, frame)
# found the subscripts of x[...] pick: src/r/array_region.cpp) describes, with base
# R's dim, dimnames and names.
array_view <- function(x, region) {
  .Call(C_lazy_view_block, x, c(region$pick, region$roll[1L], region$roll[2L]),
        lazy_min_length(), array_view_attributes(x, region, region$drop))
}

# base R's attributes of x[...] picking `runs` of x's dimensions (first, n, by and
# roll of each: C_array_region).
array_view_attributes <- function(x, runs, drop) {
  n <- runs$n
  dn <- dimnames(x)
  if (!is.null(dn)) {
    picked <- dn
    for (k in seq_along(dn)) {
      at <- if (runs$roll[k] != 0) (seq_len(n[k]) - 1 + runs$roll[k]) %% n[k] + 1
            else runs$first[k] + 1 + (seq_len(n[k]) - 1) * runs$by[k]
      if (!is.null(dn[[k]])) picked[k] <- list(dn[[k]][at])
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
