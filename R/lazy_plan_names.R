# Names in plans: inputs by the variables that hold them, constants exactly,
# computed values t1, t2, ... in the order their steps run, the result `out`.

# The variables of env and its enclosures up to the global environment (not into
# namespaces) that hold a vector a plan could read: name, key, buffer, lazy.
plan_holders <- function(env) {
  found <- list()
  while (!identical(env, emptyenv()) && !isNamespace(env) && !identical(env, baseenv())) {
    found[[length(found) + 1L]] <- .Call(C_lazy_plan_holders, env)
    if (identical(env, globalenv())) break
    env <- parent.env(env)
  }
  holders <- do.call(rbind, lapply(found, as.data.frame, stringsAsFactors = FALSE))
  if (is.null(holders)) {
    holders <- data.frame(name = character(), key = character(), buffer = character(),
                          lazy = numeric(), stringsAsFactors = FALSE)
  }
  # Nearer frames first (rbind kept that order); the first holder of a name wins.
  holders[!duplicated(holders$name), , drop = FALSE]
}

# Input names: the variable holding the very same elements (preferring a name the
# user wrote in the call, then a lazy value over the plain vector it wraps), else
# x1, x2, ...; `base` names a variable holding the whole vector a view reads.
plan_input_names <- function(inputs, written, env) {
  holders <- plan_holders(env)
  holders <- holders[order(!holders$name %in% written, !holders$lazy), , drop = FALSE]
  name <- holders$name[match(inputs$key, holders$key)]
  whole <- holders[holders$key == paste0(holders$buffer, sub("^[^/]*", "", holders$key)) &
                     grepl("/0/0/1/0/0/1/0/0$", holders$key), , drop = FALSE]
  base <- whole$name[match(inputs$buffer, whole$buffer)]
  unnamed <- which(is.na(name))
  name[unnamed] <- fresh_names("x", length(unnamed), taken = holders$name)
  list(name = name, base = ifelse(is.na(base) | base == name, NA_character_, base))
}

# n names prefix1, prefix2, ... that are not in `taken`.
fresh_names <- function(prefix, n, taken) {
  out <- character()
  i <- 0L
  while (length(out) < n) {
    i <- i + 1L
    candidate <- paste0(prefix, i)
    if (!candidate %in% taken) out <- c(out, candidate)
  }
  out
}

# Constants as R would read them back exactly: the shortest of 15 and 17
# significant digits that round-trips (as deparse() does), integers with L.
format_constant <- function(value, dtype) {
  out <- sprintf("%.15g", value)
  inexact <- is.finite(value) & suppressWarnings(as.numeric(out)) != value
  out[inexact] <- sprintf("%.17g", value[inexact])
  out[is.infinite(value)] <- ifelse(value[is.infinite(value)] > 0, "Inf", "-Inf")
  out[is.nan(value)] <- "NaN"
  int <- dtype == "integer"
  out[int] <- paste0(out[int], "L")
  out[dtype == "logical"] <- ifelse(value[dtype == "logical"] != 0, "TRUE", "FALSE")
  na <- is.na(value) & !is.nan(value)
  out[na] <- c(double = "NA_real_", integer = "NA_integer_", logical = "NA")[dtype[na]]
  out
}

# The name of every value of the plan's graph.
plan_value_names <- function(graph, input_names) {
  values <- graph$values
  steps <- graph$steps
  name <- character(length(values$kind))
  is_input <- values$kind == "input"
  name[is_input] <- input_names[values$input[is_input]]
  is_constant <- values$kind == "constant"
  name[is_constant] <- format_constant(values$constant[is_constant], values$dtype[is_constant])
  computed <- setdiff(unique(steps$out), graph$result)
  name[computed] <- fresh_names("t", length(computed), taken = input_names)
  if (values$kind[graph$result] == "computed") name[graph$result] <- "out"
  name
}

# One line per step, e.g. "t2 = `+`(t1, b)  [double, double -> double]".
plan_step_text <- function(steps, values, names) {
  args <- vapply(steps$args, function(a) paste(names[a], collapse = ", "), "")
  out <- names[steps$out]
  region <- vapply(steps$region, region_text, "")
  written <- vapply(steps$args, function(a) a[length(a)], 0)
  text <- switch_vec(steps$op,
    map = sprintf("%s = `%s`(%s)  [%s]", out, steps$fun, args, steps$signature),
    cast = sprintf("%s = as.%s(%s)", out, steps$fun, args),
    reduce = sprintf("%s = %s(%s%s)", out, steps$fun, args,
                     ifelse(steps$na_rm != 0, ", na.rm = TRUE", "")),
    scan = sprintf("%s = %s(%s)  (carried in index order, block after block)", out,
                   steps$fun, args),
    gufunc = sprintf("%s = `%s`(%s)  [%s]  %s", out, steps$fun, args, steps$signature,
                     steps$detail),
    assign = sprintf("%s = %s with `[<-` of %s: %s%s", out,
                     names[vapply(steps$args, `[`, 0, 1L)], region, names[written],
                     ifelse(values$kind[written] == "computed",
                            ", computed by the kernel before", "")))
  per_iteration <- steps$width != 1 & steps$op %in% c("map", "cast")
  text[per_iteration] <- sprintf("%s  (%.0f per loop iteration)", text[per_iteration],
                                 steps$width[per_iteration])
  text
}

# For each element of `key`, the element of the argument with that name.
switch_vec <- function(key, ...) {
  choices <- list(...)
  out <- character(length(key))
  for (k in names(choices)) out[key == k] <- choices[[k]][key == k]
  out
}

# "10 elements from position 3", or runs of them (in planes): the positions `[<-`
# writes (r: first, rows, columns, step, planes, plane_step).
region_text <- function(r) {
  elements <- sprintf("%.0f element%s", r[2], if (r[2] == 1) "" else "s")
  planes <- r[5] > 1
  if (r[3] == 1 && !planes) return(sprintf("%s from position %.0f", elements, r[1] + 1))
  runs <- sprintf("%.0f runs of %s, %.0f apart,", r[3], elements, r[4])
  if (planes) runs <- sprintf("%.0f planes, %.0f apart, of %s", r[5], r[6], runs)
  sprintf("%s from position %.0f", runs, r[1] + 1)
}
