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
    s <- eval(call("...elt", positions[k]), frame)
    # NULL picks nothing, as integer(0) does (a missing subscript is NULL here).
    subscripts[k] <- list(if (is.null(s)) integer(0) else s)
  }
  list(subscripts = subscripts, drop = drop)
}

# What `subscripts` (a list, NULL for a missing one) pick of each dimension of an
# array of dims `d`: list(first = 0-based starts, n = counts, by = distances, roll
# = circular shifts), or NULL when a subscript does not pick equally spaced
# increasing indices of its extent (a:b, seq(a, b, by), c(1, n), -1) or all of it
# shifted circularly (c(n, 1:(n - 1)): roll n - 1).
array_runs <- function(d, subscripts) {
  if (length(subscripts) != length(d) || length(d) < 2L) return(NULL)
  first <- numeric(length(d))
  n <- as.numeric(d)
  by <- rep(1, length(d))
  roll <- numeric(length(d))
  for (k in seq_along(d)) {
    s <- subscripts[[k]]
    if (is.null(s)) next
    if (!is.numeric(s) || !is.null(attributes(s))) return(NULL)
    pick <- .Call(C_subscript_pick, s, d[k])
    if (is.null(pick)) return(NULL)
    roll[k] <- pick[5L]
    first[k] <- pick[1L]
    if (pick[3L] == 1) {
      n[k] <- pick[2L]
    } else if (pick[2L] == 1) {
      n[k] <- pick[3L]
      by[k] <- pick[4L]
    } else {
      return(NULL)
    }
  }
  list(first = first, n = n, by = by, roll = roll)
}

# Elements between consecutive indices of each dimension of an array of dims `d`.
array_strides <- function(d) cumprod(c(1, d))[seq_along(d)]

# What (first, n, by) of each dimension of an array of dims `d` pick of its
# elements in storage order: c(first, rows, columns, step), `columns` runs of
# `rows` consecutive elements, `step` apart; or NULL when that is not their shape.
array_pick <- function(d, first, n, by) {
  stride <- array_strides(d)
  # Full dimensions first, then the inner one: runs of consecutive indices are one
  # run of elements, then at most one more dimension with several indices picks
  # runs at a regular step; equally spaced indices of the inner one are such runs
  # themselves, and then no other dimension may pick several.
  full <- cumprod(n == d) == 1
  inner <- sum(full) + 1L
  if (inner > length(d)) return(c(first = 0, rows = prod(d), columns = 1, step = 0))
  several <- which(seq_along(d) > inner & n > 1)
  pick <- c(first = sum(first * stride), rows = stride[inner] * n[inner], columns = 1, step = 0)
  if (by[inner] > 1 && n[inner] > 1) {
    if (length(several) > 0L) return(NULL)
    return(c(first = pick[["first"]], rows = stride[inner], columns = n[inner],
             step = stride[inner] * by[inner]))
  }
  if (length(several) > 1L) return(NULL)
  if (length(several) == 1L) {
    pick[["columns"]] <- n[several]
    pick[["step"]] <- stride[several] * by[several]
    if (pick[["step"]] == pick[["rows"]]) {
      pick[c("rows", "columns", "step")] <- c(pick[["rows"]] * n[several], 1, 0)
    }
  }
  pick
}

# The view x[subscripts] of lazy array x, or NULL (a subscript that is not one run,
# more than one partial dimension after the inner run, or values not at hand).
array_view <- function(x, subscripts, drop) {
  d <- dim(x)
  runs <- array_runs(d, subscripts)
  if (is.null(runs)) return(NULL)
  pick <- if (any(runs$roll != 0)) rolled_pick(d, runs) else array_pick(d, runs$first, runs$n, runs$by)
  if (is.null(pick)) return(NULL)
  .Call(C_lazy_view_block, x, c(pick, runs$roll[1L], runs$roll[2L]), lazy_min_length(),
        array_view_attributes(x, runs, drop))
}

# A circular shift of the first two dimensions (the streaming step of a lattice
# Boltzmann code, f[c(n, 1:(n - 1)), c(2:m, 1), k]): c(first, rows, columns, step)
# of the block of d[1] rows it rolls, or NULL. All of dimension 1 is picked, all of
# dimension 2 when it is shifted (else consecutive indices), and one index of each
# later dimension.
rolled_pick <- function(d, runs) {
  later <- seq_along(d) > 2L
  if (any(runs$roll[later] != 0) || runs$n[1L] != d[1L] || any(runs$n[later] != 1) ||
      runs$by[2L] != 1) {
    return(NULL)
  }
  first <- sum(runs$first * array_strides(d))
  c(first = first, rows = d[1L], columns = runs$n[2L], step = d[1L])
}

# base R's attributes of x[...] picking `runs` of x's dimensions (array_runs).
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
