#' A plan as text, as base R code, or as Graphviz DOT
#'
#' `format(p, "r")` writes the evaluation a plan describes as base R code, as
#' dbplyr's `show_query()` shows the SQL of a lazy table: one statement per value
#' that is read more than once (or written into), the other operations nested where
#' they are read. Evaluated where the inputs are bound to their names (the names
#' `print(p)` shows under `inputs:`, as plain vectors), the code computes the value
#' `materialize(x)` gives, with its attributes. Inputs that are views of a vector a
#' variable holds (`m[1:10, ]`) are written as a subset of that variable. An
#' element-wise function that is not a base R function, and a gufunc, are called
#' through [gufunc_call()]. Constants are written exactly.
#'
#' `format(p, "dot")` writes the graph [plot.gufunc_lazy_plan()] draws in Graphviz's
#' DOT language: a node per input and per operation, an edge per operand, and a
#' `subgraph cluster_k` per kernel labelled with its split reason; render it with
#' `dot -Tsvg`. `format(p)` gives the lines `print(p)` shows.
#'
#' @param x A plan from [lazy_plan()].
#' @param style `"text"` (as printed), `"r"` (base R code) or `"dot"` (Graphviz).
#' @param n For `"text"`: largest number of instructions shown.
#' @param ... Ignored.
#' @return A character vector of lines.
#' @seealso [lazy_plan()], [plot.gufunc_lazy_plan()]
#' @export
#' @examples
#' v <- runif(1e5)
#' a <- lazy(v)
#' b <- runif(1e5)
#' y <- sqrt(a * a + b) / 273.15
#' code <- format(lazy_plan(y), "r")
#' cat(code, sep = "\n")
#' identical(eval(parse(text = code), list(a = v, b = b)), materialize(y))
#' cat(format(lazy_plan(y), "dot"), sep = "\n")
format.gufunc_lazy_plan <- function(x, style = c("text", "r", "dot"), n = 30, ...) {
  style <- match.arg(style)
  switch(style, text = format_plan_text(x, n), r = plan_r_code(x$graph), dot = plan_dot(x))
}

# Base R code for the plan's graph (see format.gufunc_lazy_plan).
plan_r_code <- function(graph) {
  values <- graph$values
  steps <- graph$steps
  names <- values$name
  uses <- tabulate(unlist(steps$args), nbins = length(names))
  expr <- lapply(names, as.name)
  constants <- which(values$kind == "constant")
  placeholders <- sprintf(".gufunc_constant_%d", constants)
  expr[constants] <- lapply(placeholders, as.name)
  # A negative constant is an operand in parentheses: (-2)^a, not -2^a.
  constant_text <- ifelse(startsWith(names[constants], "-"), sprintf("(%s)", names[constants]),
                          names[constants])
  code <- function(e) {
    text <- paste(deparse(e, width.cutoff = 500L), collapse = "\n")
    for (k in rev(seq_along(constants))) {
      text <- gsub(paste0("\\", placeholders[k], "\\b"), constant_text[k], text, perl = TRUE)
    }
    text
  }
  lines <- plan_code_inputs(graph)
  # Values that views read (shared_views.cpp) get a statement, then the views.
  sources <- graph$inputs$source[!is.na(graph$inputs$source)]
  for (i in seq_along(steps$op)) {
    out <- steps$out[i]
    args <- expr[steps$args[[i]]]
    if (steps$op[i] == "assign") {
      lines <- c(lines, sprintf("%s <- %s", names[out], code(args[[1L]])),
                 sprintf("%s[%s] <- %s", names[out], region_index(steps$region[[i]]),
                         code(args[[2L]])))
      next
    }
    call <- plan_step_call(steps$op[i], steps$fun[i], args, steps$na_rm[i] != 0,
                           steps$arg_dims[[i]])
    if (uses[out] == 1L && out != graph$result && !out %in% sources) {
      expr[[out]] <- call
    } else {
      lines <- c(lines, sprintf("%s <- %s", names[out], code(call)), plan_code_views(graph, out))
    }
  }
  if (names[graph$result] != "out") {
    lines <- c(lines, sprintf("out <- %s", code(expr[[graph$result]])))
  }
  c(lines, sprintf("attributes(out) <- %s", paste(deparse(graph$attributes), collapse = "")),
    "out")
}

# The call computing one step from its operands' expressions.
plan_step_call <- function(op, fun, args, na_rm, arg_dims) {
  switch(op,
    map = if (exists(fun, envir = baseenv(), mode = "function")) {
      as.call(c(as.name(fun), args))
    } else {
      as.call(c(quote(gufunc::gufunc_call), fun, args))
    },
    cast = as.call(list(as.name(paste0("as.", fun)), args[[1L]])),
    reduce = as.call(c(as.name(fun), args, if (na_rm) list(na.rm = TRUE))),
    scan = as.call(c(as.name(fun), args)),
    gufunc = {
      # The engine reads operands in R layout: core dims, then loop dims.
      operands <- Map(function(a, d) call("array", a, as.integer(d)), args, arg_dims)
      call("as.vector", as.call(c(quote(gufunc::gufunc_call), fun, operands)))
    })
}

# The views of computed value `v` (values computed once for several views).
plan_code_views <- function(graph, v) {
  inputs <- graph$inputs
  k <- which(!is.na(inputs$source) & inputs$source == v)
  sprintf("%s <- %s[%s]", inputs$name[k], inputs$base[k],
          vapply(k, function(i) view_index(inputs$key[i], inputs$offset[i]), ""))
}

# Comment lines naming the inputs, and the subsets of variables that views read.
plan_code_inputs <- function(graph) {
  inputs <- graph$inputs
  keep <- is.na(inputs$source)  # views of computed values come after them
  inputs <- lapply(inputs, function(column) column[keep])
  lines <- sprintf("# base R code for the plan; inputs: %s", paste(inputs$name, collapse = ", "))
  unheld <- grepl("^x[0-9]+$", inputs$name) & is.na(inputs$base)
  if (any(unheld)) {
    lines <- c(lines, sprintf("# %s: %s, held by no variable: bind it to its values",
                              inputs$name[unheld], inputs$text[unheld]))
  }
  for (i in seq_along(inputs$name)) {
    if (!is.na(inputs$base[i])) {
      lines <- c(lines, sprintf("%s <- %s[%s]", inputs$name[i], inputs$base[i],
                                view_index(inputs$key[i], inputs$offset[i])))
    }
  }
  lines
}

# The positions of a vector a view reads, from its key (data/dtype/length/rows/
# column step/each/row roll/column roll/row stride/plane columns/plane step) and its
# offset: R code for base[index].
view_index <- function(key, offset) {
  p <- as.numeric(strsplit(key, "/", fixed = TRUE)[[1L]][-1L])
  names(p)[1:10] <- c("dtype", "length", "rows", "step", "each", "row_roll", "column_roll",
                      "stride", "plane_columns", "plane_step")
  runs <- p[["length"]] / p[["each"]]
  index <- if (p[["stride"]] != 1) {  # t(x), rev(x): rows read with a stride
    sprintf("rep(%.0f + 0:%.0f * %.0f, %.0f) + rep(seq(0, by = %.0f, length.out = %.0f), each = %.0f)",
            offset + 1, p[["rows"]] - 1, p[["stride"]], runs / p[["rows"]], p[["step"]],
            runs / p[["rows"]], p[["rows"]])
  } else if (p[["rows"]] == 0) {
    sprintf("%.0f:%.0f", offset + 1, offset + runs)
  } else {
    rows <- p[["rows"]]
    columns <- runs / rows
    row_index <- if (p[["row_roll"]] == 0) {
      sprintf("%.0f:%.0f", offset + 1, offset + rows)
    } else {
      sprintf("%.0f + (0:%.0f + %.0f) %%%% %.0f", offset + 1, rows - 1, p[["row_roll"]], rows)
    }
    column_start <- if (p[["plane_columns"]] > 0) {  # a[i:j, k:l, m:n]: planes of columns
      planes <- columns / p[["plane_columns"]]
      paste0(
        sprintf("rep(seq(0, by = %.0f, length.out = %.0f), %.0f)", p[["step"]],
                p[["plane_columns"]], planes),
        sprintf(" + rep(seq(0, by = %.0f, length.out = %.0f), each = %.0f)", p[["plane_step"]],
                planes, p[["plane_columns"]])
      )
    } else if (p[["column_roll"]] == 0) {
      sprintf("seq(0, by = %.0f, length.out = %.0f)", p[["step"]], columns)
    } else {
      sprintf("(0:%.0f + %.0f) %%%% %.0f * %.0f", columns - 1, p[["column_roll"]], columns,
              p[["step"]])
    }
    sprintf("rep(%s, %.0f) + rep(%s, each = %.0f)", row_index, columns, column_start, rows)
  }
  if (p[["each"]] > 1) sprintf("rep(%s, each = %.0f)", index, p[["each"]]) else index
}

# The positions a subassignment writes (region: first, rows, columns, step, planes,
# plane_step).
region_index <- function(r) {
  # `index` `count` times, each time `step` further on (`each` positions per time).
  repeated <- function(index, count, step, each) {
    sprintf("rep(%s, %.0f) + rep(seq(0, by = %.0f, length.out = %.0f), each = %.0f)", index,
            count, step, count, each)
  }
  index <- sprintf("%.0f:%.0f", r[1] + 1, r[1] + r[2])
  if (r[3] > 1) index <- repeated(index, r[3], r[4], r[2])
  if (r[5] > 1) index <- repeated(index, r[5], r[6], r[2] * r[3])
  index
}
