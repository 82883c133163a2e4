# Base R's rules around an element-wise (all-scalar-core) kernel call: the shape
# errors and warnings before computing, and the attributes of the result after.
# They follow R 4.2's R_binary/R_unary (arithmetic.c), relop.c, logic.c and
# math1(), family by family, so gufunc_call() results are identical() to base R.

# Which of base R's code paths a builtin name follows (aliases included).
elementwise_family <- function(name, nargs) {
  family <- builtin_family(name)
  if (is.na(family)) {
    # Element-wise functions of other namespaces: base R's general rules.
    return(switch(as.character(nargs), "1" = "math", "2" = "arithmetic", "none"))
  }
  if (nargs == 1L && family == "arithmetic") return("unary")
  if (nargs == 1L && family == "math2") return("math")
  family
}

# Raises base R's errors and warnings for the shapes of the arguments, in base
# R's order. `call` is the call the conditions are attributed to.
elementwise_check <- function(args, name, call = NULL) {
  if (length(args) != 2L) return(invisible(NULL))
  if (is.null(attributes(args[[1L]])) && is.null(attributes(args[[2L]]))) {
    # Plain vectors: only the recycling warning can apply.
    nx <- length(args[[1L]])
    ny <- length(args[[2L]])
    if (nx > 0L && ny > 0L && max(nx, ny) %% min(nx, ny) != 0L &&
        elementwise_family(name, 2L) %in% c("arithmetic", "comparison", "logic")) {
      warning(warningCondition(
        "longer object length is not a multiple of shorter object length", call = call))
    }
    return(invisible(NULL))
  }
  family <- elementwise_family(name, 2L)
  if (!family %in% c("arithmetic", "comparison", "logic")) return(invisible(NULL))
  layout <- binary_layout(args[[1L]], args[[2L]], family)
  for (w in layout$array_warnings) warning(warningCondition(w, call = call))
  if (layout$nonconformable) shape_error("non-conformable arrays", call)
  if (layout$ts_mismatch) shape_error("time-series/vector length mismatch", call)
  if (layout$recycle_warning) {
    warning(warningCondition(
      "longer object length is not a multiple of shorter object length",
      call = call
    ))
  }
  invisible(NULL)
}

# Returns `value` (the bare kernel result) with the attributes base R's
# operator or function gives its result.
elementwise_attributes <- function(value, args, name, call = NULL) {
  family <- elementwise_family(name, length(args))
  if (family == "none") return(value)
  x <- args[[1L]]
  switch(family,
    unary = if (is.logical(x)) keep_array_attributes(value, x) else keep_attributes(value, x),
    not = if (is.logical(x)) keep_attributes(value, x) else keep_array_attributes(value, x),
    math = keep_attributes(value, x),
    predicate = keep_predicate_attributes(value, x),
    select = ,
    extreme = value,
    # math2(): all attributes of the operand as long as the result, x first.
    math2 = if (length(value) == length(x)) {
      keep_attributes(value, x)
    } else if (length(value) == length(args[[2L]])) {
      keep_attributes(value, args[[2L]])
    } else {
      value
    },
    binary_attributes(nan_operand_order(value, x, args[[2L]], name), x, args[[2L]], family,
                      call)
  )
}

# Base R's errors for operands that do not fit, with its message; a simpleError,
# as base R's is, so handlers for either class catch it.
shape_error <- function(message, call) {
  stop(errorCondition(message, class = c("gufunc_shape_error", "gufunc_error", "simpleError"),
                      call = call))
}

# Everything base R decides about two operands before computing. Arithmetic
# drops the dim of a length-1 array against a longer vector (with a deprecation
# warning); comparison and logic keep it, and fail later on the length.
binary_layout <- function(x, y, family) {
  nx <- length(x)
  ny <- length(y)
  xarray <- !is.null(attr(x, "dim"))
  yarray <- !is.null(attr(y, "dim"))
  out <- list(nx = nx, ny = ny, array_warnings = character(), dims = NULL,
              xnames = NULL, ynames = NULL, use_dimnames = FALSE, nonconformable = FALSE,
              ts_mismatch = FALSE, tsp = NULL, ts_class = NULL, ts = FALSE,
              dropped_y = FALSE)
  if (family == "arithmetic" && xarray != yarray) {
    recycling <- paste0("Recycling array of length 1 in %s arithmetic is deprecated.\n",
                        "  Use c() or as.vector() instead.\n")
    if (xarray && nx == 1L && ny != 1L) {
      if (ny != 0L) out$array_warnings <- sprintf(recycling, "array-vector")
      x <- drop_dim(x)
    }
    if (yarray && ny == 1L && nx != 1L) {
      if (nx != 0L) out$array_warnings <- sprintf(recycling, "vector-array")
      y <- drop_dim(y)
      out$dropped_y <- TRUE
    }
  }
  if (xarray || yarray) {
    if (xarray && yarray) {
      dx <- attr(x, "dim")
      dy <- attr(y, "dim")
      out$nonconformable <- length(dx) != length(dy) || any(dx != dy)
      out$dims <- dx
    } else if (xarray && (ny != 0L || nx == 0L)) {
      out$dims <- attr(x, "dim")
    } else if (yarray && (nx != 0L || ny == 0L)) {
      out$dims <- attr(y, "dim")
    }
    out$use_dimnames <- TRUE
    out$xnames <- attr(x, "dimnames")
    out$ynames <- attr(y, "dimnames")
  } else {
    out$xnames <- attr(x, "names")
    out$ynames <- attr(y, "names")
  }
  xts <- !is.null(attr(x, "tsp"))
  yts <- !is.null(attr(y, "tsp"))
  if (xts || yts) {
    from_x <- xts
    out$ts_mismatch <- if (xts && yts) FALSE else if (xts) nx < ny else ny < nx
    out$ts <- TRUE
    out$tsp <- attr(if (from_x) x else y, "tsp")
    out$ts_class <- attr(if (from_x) x else y, "class")
  }
  out$recycle_warning <- nx > 0L && ny > 0L && max(nx, ny) %% min(nx, ny) != 0L
  out$x <- x
  out$y <- y
  out
}

binary_attributes <- function(value, x, y, family, call) {
  if (is.null(attributes(x)) && is.null(attributes(y))) return(value)
  layout <- binary_layout(x, y, family)
  n <- length(value)
  # Arithmetic keeps the other attributes of the operands as long as the result
  # (the first operand's win); comparison and logic do not.
  if (family == "arithmetic" && n > 0L) {
    if (n == layout$ny) value <- copy_most_attributes(value, y)
    if (n == layout$nx) value <- copy_most_attributes(value, layout$x)
  }
  if (!is.null(layout$dims)) {
    size <- prod(layout$dims)
    if (size != n) {
      shape_error(sprintf("dims [product %.0f] do not match the length of object [%.0f]",
                          size, as.numeric(n)), call)
    }
    dim(value) <- layout$dims
    if (!is.null(layout$xnames)) {
      dimnames(value) <- layout$xnames
    } else if (!is.null(layout$ynames)) {
      dimnames(value) <- layout$ynames
    }
  } else if (!layout$use_dimnames) {
    # Arithmetic compares lengths only, so an absent first name vector of a
    # zero-length result still shadows the second; the other families skip NULL.
    xnames <- layout$xnames
    ynames <- layout$ynames
    if ((family == "arithmetic" || !is.null(xnames)) && n == length(xnames)) {
      names(value) <- xnames
    } else if (!is.null(ynames) && n == length(ynames)) {
      names(value) <- ynames
    }
  }
  # R computes on a double copy of a logical first operand and returns that copy,
  # names included; only visible when a length-1 array lost its dim.
  if (family == "arithmetic" && layout$dropped_y && is.logical(x) && is.double(y) &&
      n == layout$nx && n > 0L && !is.null(attr(x, "names"))) {
    names(value) <- attr(x, "names")
  }
  if (layout$ts) {
    attr(value, "tsp") <- layout$tsp
    attr(value, "class") <- layout$ts_class
  }
  value
}

# For + and * on doubles R's compiled loops return the second operand's NaN when
# both are NaN if the first operand is recycled, and for any two lengths above 1
# that differ (R 4.2's loops, as compiled, compute `y[i] op x[j]`). An integer
# operand sends R through its mixed loop, where the first wins. The kernels return
# the first operand's NaN, so such calls run with the operands swapped (+ and *
# commute in value): a length-1 first operand, or unequal lengths above 1 (lazy
# column recycling reads the shorter operand through a repeating view; the eager
# path also sets those elements in nan_operand_order()). Returns `args`, possibly
# swapped.
swap_nan_order <- function(args, name) {
  if (length(args) != 2L || !name %in% c("+", "*", "add", "multiply")) return(args)
  x <- args[[1L]]
  y <- args[[2L]]
  if (length(x) >= 1L && length(y) > 1L && length(x) != length(y) &&
      (is.double(x) || is.logical(x)) && (is.double(y) || is.logical(y)) &&
      (is.double(x) || is.double(y))) {
    return(list(y, x))
  }
  args
}

nan_operand_order <- function(value, x, y, name) {
  if (!name %in% c("+", "*", "add", "multiply") || !is.double(value)) return(value)
  n <- length(value)
  nx <- length(x)
  ny <- length(y)
  if (n == 0L || nx == ny || nx == 1L || ny == 1L) return(value)
  if (!(is.double(x) || is.logical(x)) || !(is.double(y) || is.logical(y))) return(value)
  if (!anyNA(x) || !anyNA(y)) return(value)
  xr <- rep_len(as.vector(x), n)
  yr <- rep_len(as.vector(y), n)
  both <- is.na(xr) & is.na(yr)
  # R's loop computes the sum or product of the two: a signalling NA comes out quiet.
  value[both] <- as.double(yr[both]) + 0
  value
}

drop_dim <- function(x) {
  attr(x, "dim") <- NULL
  attr(x, "dimnames") <- NULL
  x
}

# All attributes of `from` (math functions, unary - on numbers, ! on logicals).
keep_attributes <- function(value, from) {
  a <- attributes(from)
  if (!is.null(a)) attributes(value) <- a
  value
}

# Only names, dim and dimnames of `from` (unary - on logicals, ! on numbers).
keep_array_attributes <- function(value, from) {
  for (which in c("names", "dim", "dimnames")) {
    a <- attr(from, which, exact = TRUE)
    if (!is.null(a)) attr(value, which) <- a
  }
  value
}

# is.na() and the like: dim and dimnames of an array, else names (R's do_isna; a
# 1-d array's names() are its dimnames, which the result does not get twice).
keep_predicate_attributes <- function(value, from) {
  dim <- attr(from, "dim", exact = TRUE)
  if (is.null(dim)) {
    names <- attr(from, "names", exact = TRUE)
    if (!is.null(names)) names(value) <- names
    return(value)
  }
  attr(value, "dim") <- dim
  dimnames <- attr(from, "dimnames", exact = TRUE)
  if (!is.null(dimnames)) attr(value, "dimnames") <- dimnames
  value
}

# Every attribute of `from` except names, dim and dimnames (R's copyMostAttrib).
copy_most_attributes <- function(value, from) {
  a <- attributes(from)
  for (which in setdiff(names(a), c("names", "dim", "dimnames"))) {
    attr(value, which) <- a[[which]]
  }
  value
}
