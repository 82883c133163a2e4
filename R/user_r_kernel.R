# The slow path of gufunc(): an R function called once per loop iteration, with the
# dispatcher's rules for types, shapes (the C++ resolver) and output allocation.

dtype_rank <- c(logical = 0L, integer = 1L, double = 2L)

apply_r_kernel <- function(spec, args, call) {
  # The slow path computes eagerly: deferred inputs are materialized first.
  args <- lapply(args, plain_values)
  check_operands(args, call = call)
  names(args) <- NULL
  sig <- spec$sig
  types <- bind_r_kernel_types(spec, vapply(args, typeof, ""), call)
  inputs <- Map(promote_to, args, types[seq_len(sig$nin)])
  out_types <- types[sig$nin + seq_len(sig$nout)]
  elementwise <- all(lengths(sig$core_dims) == 0L)
  layout <- if (elementwise) {
    elementwise_check(args, spec$name, call = call)
    elementwise_layout(args, sig)
  } else {
    dims <- lapply(args, function(x) as.double(if (is.null(dim(x))) length(x) else dim(x)))
    tryCatch(.Call(C_user_resolve_shape, sig$text, dims), gufunc_error = function(e) {
      e$call <- call
      stop(e)
    })
  }
  values <- run_r_kernel_loop(spec, inputs, layout, out_types, call)
  outs <- lapply(seq_len(sig$nout), function(o) {
    y <- unlist(values[[o]], use.names = FALSE)
    if (is.null(y)) y <- logical()
    storage.mode(y) <- out_types[[o]]
    d <- layout$out_dims[[o]]
    if (length(d) >= 2L) dim(y) <- d
    y
  })
  if (elementwise) outs[[1L]] <- elementwise_attributes(outs[[1L]], args, spec$name, call = call)
  if (length(outs) == 1L) outs[[1L]] else outs
}

# The type of every argument (inputs after promotion, then outputs), chosen as the
# dispatcher does: inputs promote logical -> integer -> double, never back; a type
# variable binds to the widest of its inputs.
bind_r_kernel_types <- function(spec, in_types, call) {
  sig <- spec$sig
  dt <- sig$dtypes
  if (length(in_types) == sig$nin) {
    vars <- list()
    for (a in seq_len(sig$nin)) {
      if (dt[[a]] %in% names(dtype_rank)) next
      bound <- vars[[dt[[a]]]]
      if (is.null(bound) || dtype_rank[[in_types[[a]]]] > dtype_rank[[bound]]) {
        vars[[dt[[a]]]] <- in_types[[a]]
      }
    }
    types <- vapply(dt, function(t) if (t %in% names(dtype_rank)) t else vars[[t]], "")
    types <- unname(types)
    if (all(dtype_rank[types[seq_len(sig$nin)]] >= dtype_rank[in_types])) return(types)
  }
  stop(errorCondition(
    sprintf("no kernel of `%s` accepts argument types (%s)\n  signatures of `%s`:\n    %s",
            spec$name, paste(in_types, collapse = ", "), spec$name, sig$text),
    class = c("gufunc_dispatch_error", "gufunc_error"), call = call))
}

promote_to <- function(x, type) {
  if (typeof(x) == type) return(as.vector(x))
  switch(type, double = as.double(x), integer = as.integer(x))
}

# The loop layout of an all-scalar-core signature: base R recycling.
elementwise_layout <- function(args, sig) {
  lens <- lengths(args)
  n <- if (length(lens) == 0L) 1 else if (any(lens == 0L)) 0 else max(lens)
  t <- seq_len(n) - 1
  list(
    loop_shape = n, loop_length = n, elementwise = TRUE,
    in_core_sizes = rep(list(numeric()), sig$nin),
    out_core_sizes = rep(list(numeric()), sig$nout),
    out_dims = rep(list(numeric()), sig$nout),
    in_offsets = lapply(lens, function(len) t %% len)
  )
}

# Calls the kernel on every loop iteration; returns, per output, the list of its
# slices in loop order (so unlist() gives the output's data).
run_r_kernel_loop <- function(spec, inputs, layout, out_types, call) {
  kernel <- spec$kernel
  nin <- length(inputs)
  nout <- length(out_types)
  n <- layout$loop_length
  # No iterations: nothing to index (an empty input's core may be larger than any vector).
  if (n == 0) return(rep(list(list()), nout))
  core_index <- lapply(layout$in_core_sizes, function(s) seq_len(prod(s)))
  core_dim <- lapply(layout$in_core_sizes, function(s) if (length(s) >= 2L) as.integer(s))
  out_length <- vapply(layout$out_core_sizes, prod, 0)
  offsets <- layout$in_offsets
  values <- rep(list(vector("list", n)), nout)
  slices <- vector("list", nin)
  t <- 0L
  in_kernel <- FALSE
  tryCatch(
    for (t in seq_len(n)) {
      for (a in seq_len(nin)) {
        s <- inputs[[a]][offsets[[a]][[t]] + core_index[[a]]]
        if (!is.null(core_dim[[a]])) dim(s) <- core_dim[[a]]
        slices[[a]] <- s
      }
      in_kernel <- TRUE
      value <- do.call(kernel, slices)
      in_kernel <- FALSE
      value <- check_r_kernel_value(value, spec, layout, t, out_types, out_length, call)
      for (o in seq_len(nout)) values[[o]][[t]] <- value[[o]]
    },
    error = function(e) {
      if (!in_kernel) stop(e)
      stop(r_kernel_error(spec, layout, t, e, call))
    }
  )
  values
}

# The kernel's value for iteration `t` as a list of output slices, or an error
# naming the slice.
check_r_kernel_value <- function(value, spec, layout, t, out_types, out_length, call) {
  nout <- length(out_types)
  if (nout == 1L) {
    value <- list(value)
  } else if (!is.list(value) || is.object(value) || length(value) != nout) {
    r_kernel_result_error(spec, layout, t, call, sprintf(
      "returned %s; it must return a list of %d output slices", describe(value), nout))
  }
  for (o in seq_len(nout)) {
    v <- value[[o]]
    what <- if (nout == 1L) "the output" else sprintf("output %d", o)
    ok_type <- !is.object(v) && typeof(v) %in% names(dtype_rank) &&
      dtype_rank[[typeof(v)]] <= dtype_rank[[out_types[[o]]]]
    if (!ok_type) {
      r_kernel_result_error(spec, layout, t, call, sprintf(
        "returned %s for %s, which has type %s", describe(v), what, out_types[[o]]))
    }
    if (length(v) != out_length[[o]]) {
      r_kernel_result_error(spec, layout, t, call, sprintf(
        "returned %d value(s) for %s, whose core slice has length %d",
        length(v), what, out_length[[o]]))
    }
  }
  value
}

# Loop iteration `t` (1-based) as R indexes the first input, like native kernel
# errors: "element 5", or "slice [, , 2, 3]" with the core dims left empty.
r_kernel_slice_text <- function(layout, t) {
  if (isTRUE(layout$elementwise)) return(sprintf("element %d", t))
  loop <- layout$loop_shape
  if (length(loop) == 0L) return(NULL)
  ncore <- if (length(layout$in_core_sizes)) length(layout$in_core_sizes[[1L]]) else 0L
  idx <- arrayInd(t, loop)
  paste0("slice [", strrep(", ", ncore), paste(idx, collapse = ", "), "]")
}

r_kernel_where <- function(layout, t) {
  slice <- r_kernel_slice_text(layout, t)
  if (is.null(slice)) "" else paste0(" for ", slice)
}

r_kernel_error <- function(spec, layout, t, parent, call) {
  msg <- sprintf("kernel of `%s` failed%s: %s", spec$name, r_kernel_where(layout, t),
                 conditionMessage(parent))
  structure(
    class = c("gufunc_kernel_error", "gufunc_error", "error", "condition"),
    list(message = msg, call = call, parent = parent, iteration = t)
  )
}

r_kernel_result_error <- function(spec, layout, t, call, problem) {
  msg <- sprintf("kernel of `%s` %s%s", spec$name, problem, r_kernel_where(layout, t))
  stop(structure(
    class = c("gufunc_kernel_result_error", "gufunc_kernel_error", "gufunc_error", "error",
              "condition"),
    list(message = msg, call = call, iteration = t)
  ))
}
