#' Draw a plan: the fused graph, its kernels and the bytes they move
#'
#' Draws the evaluation [lazy_plan()] describes with the grid package: a node per
#' input and per operation (element-wise operations, casts, reductions, gufuncs,
#' subassignments; constants are shown in the label of the operation reading them),
#' an arrow per operand, and a box per kernel, labelled with the reason fusion stops
#' after it. The title gives the bytes the fused evaluation reads and writes next to
#' what base R would move. Grobs are named `node:<name>` (the names `print()` shows),
#' `edge:<from>-><to>` and `kernel:<k>`, `split:<k>`, so `grid::grid.ls()` lists them.
#' `format(p, "dot")` writes the same graph for Graphviz.
#'
#' @param x A plan from [lazy_plan()].
#' @param ... Ignored.
#' @return `x`, invisibly.
#' @seealso [format.gufunc_lazy_plan()]
#' @export
#' @examples
#' a <- lazy(matrix(runif(8e5), 8))
#' m <- matrix(runif(8e5), 8)
#' plot(lazy_plan(sqrt(inner(a * 2, m) + 1)))
plot.gufunc_lazy_plan <- function(x, ...) {
  grid::grid.newpage()
  grid::grid.draw(plan_grob(x))
  invisible(x)
}

# Nodes (inputs and steps), edges between them and the kernel of each step node.
plan_graph_parts <- function(plan) {
  graph <- plan$graph
  values <- graph$values
  steps <- graph$steps
  used <- unique(unlist(steps$args))
  inputs <- sort(c(used[values$kind[used] == "input"],
                   if (values$kind[graph$result] == "input") graph$result))
  producer <- integer(length(values$name))
  producer[inputs] <- seq_along(inputs)
  producer[steps$out] <- length(inputs) + seq_along(steps$op)
  labels <- vapply(seq_along(steps$op), function(i) {
    args <- steps$args[[i]]
    constants <- values$name[args[values$kind[args] == "constant"]]
    what <- if (steps$op[i] == "cast") paste0("as.", steps$fun[i]) else steps$fun[i]
    paste0(values$name[steps$out[i]], "\n", paste(c(what, constants), collapse = " "))
  }, "")
  nodes <- data.frame(
    name = c(values$name[inputs], values$name[steps$out]),
    label = c(sprintf("%s\n%s", values$name[inputs], graph$inputs$text[values$input[inputs]]),
              labels),
    type = c(rep("input", length(inputs)), steps$op),
    kernel = c(rep(0L, length(inputs)), as.integer(steps$kernel)), stringsAsFactors = FALSE)
  from <- unlist(lapply(steps$args, function(a) producer[a[values$kind[a] != "constant"]]))
  to <- rep(length(inputs) + seq_along(steps$op),
            vapply(steps$args, function(a) sum(values$kind[a] != "constant"), 0L))
  list(nodes = nodes, edges = data.frame(from = from, to = to))
}

# Layers top to bottom: inputs first, every node below its operands, and every
# kernel below the kernels before it.
plan_layers <- function(parts) {
  nodes <- parts$nodes
  level <- integer(nrow(nodes))
  floor <- 1L
  for (i in which(nodes$type != "input")) {
    if (nodes$kernel[i] != nodes$kernel[max(i - 1L, 1L)] && nodes$type[i - 1L] != "input") {
      floor <- max(level) + 1L
    }
    sources <- parts$edges$from[parts$edges$to == i]
    level[i] <- max(c(floor, level[sources] + 1L))
  }
  level
}

node_fill <- c(input = "#dbe9f6", map = "#e8f5e0", cast = "#f2f2f2", reduce = "#fde3c8",
               gufunc = "#f6d5e5", assign = "#fff2b3", scan = "#e3dcf4")

# The plan as one grob tree (see plot.gufunc_lazy_plan).
plan_grob <- function(plan) {
  parts <- plan_graph_parts(plan)
  nodes <- parts$nodes
  level <- plan_layers(parts)
  rows <- max(level) + 1L
  x <- numeric(nrow(nodes))
  for (l in unique(level)) {
    at <- which(level == l)
    x[at] <- (seq_along(at) - 0.5) / length(at)
  }
  y <- 1 - (level + 0.5) / rows
  width <- min(0.9 / max(tabulate(level + 1L)), 0.22)
  height <- 0.55 / rows
  body <- grid::viewport(y = 0.46, height = 0.88, width = 0.96, name = "plan_body")
  boxes <- lapply(seq_along(plan$kernels), function(k) {
    ks <- level[nodes$kernel == k]
    top <- 1 - (min(ks)) / rows
    bottom <- 1 - (max(ks) + 1) / rows
    reason <- plan$kernels[[k]]$split_reason
    grid::gTree(name = sprintf("kernel:%d", k), children = grid::gList(
      grid::roundrectGrob(y = (top + bottom) / 2, height = top - bottom - 0.01, width = 1,
                          gp = grid::gpar(fill = NA, col = "grey40", lty = 2), name = "box"),
      grid::textGrob(sprintf("kernel %d", k), x = 0.005, y = top - 0.008, just = c(0, 1),
                     gp = grid::gpar(fontsize = 8, col = "grey30"), name = "label"),
      grid::textGrob(if (nzchar(reason)) paste("split:", reason) else "", x = 0.995,
                     y = bottom + 0.008, just = c(1, 0),
                     gp = grid::gpar(fontsize = 7, fontface = "italic", col = "firebrick"),
                     name = sprintf("split:%d", k))))
  })
  edges <- lapply(seq_len(nrow(parts$edges)), function(e) {
    from <- parts$edges$from[e]
    to <- parts$edges$to[e]
    grid::segmentsGrob(x[from], y[from] - height / 2, x[to], y[to] + height / 2,
                       arrow = grid::arrow(length = grid::unit(1.5, "mm")),
                       gp = grid::gpar(col = "grey35"),
                       name = sprintf("edge:%s->%s", nodes$name[from], nodes$name[to]))
  })
  node_grobs <- lapply(seq_len(nrow(nodes)), function(i) {
    grid::gTree(name = sprintf("node:%s", nodes$name[i]), children = grid::gList(
      grid::roundrectGrob(x[i], y[i], width, height, name = "shape",
                          gp = grid::gpar(fill = node_fill[[nodes$type[i]]], col = "grey20")),
      grid::textGrob(nodes$label[i], x[i], y[i], name = "label",
                     gp = grid::gpar(fontsize = max(5, min(9, 60 / max(tabulate(level + 1L))))))))
  })
  title <- grid::textGrob(
    sprintf("%s: reads %s, writes %s (base R would move %s)", plan$state,
            format_bytes(plan$bytes_read), format_bytes(plan$bytes_written),
            format_bytes(plan$base_r_bytes)),
    y = 0.97, gp = grid::gpar(fontsize = 10, fontface = "bold"), name = "traffic")
  grid::gTree(name = "gufunc_lazy_plan", children = grid::gList(
    title, grid::gTree(vp = body, name = "graph",
                       children = do.call(grid::gList, c(boxes, edges, node_grobs)))))
}

# The graph in Graphviz's DOT language (see format.gufunc_lazy_plan).
plan_dot <- function(plan) {
  parts <- plan_graph_parts(plan)
  nodes <- parts$nodes
  quote_dot <- function(s) sprintf("\"%s\"", gsub("\n", "\\n", gsub("([\"\\\\])", "\\\\\\1", s),
                                                  fixed = TRUE))
  declare <- function(i) {
    sprintf("    %s [label=%s, fillcolor=\"%s\"];", quote_dot(nodes$name[i]),
            quote_dot(nodes$label[i]), node_fill[nodes$type[i]])
  }
  lines <- c("digraph gufunc_lazy_plan {",
             "  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\"];",
             sprintf("  label=%s; labelloc=t;", quote_dot(sprintf(
               "reads %s, writes %s (base R would move %s)", format_bytes(plan$bytes_read),
               format_bytes(plan$bytes_written), format_bytes(plan$base_r_bytes)))),
             vapply(which(nodes$type == "input"), declare, ""))
  for (k in seq_along(plan$kernels)) {
    reason <- plan$kernels[[k]]$split_reason
    lines <- c(lines, sprintf("  subgraph cluster_%d {", k),
               sprintf("    label=%s; style=dashed;", quote_dot(paste0(
                 "kernel ", k, if (nzchar(reason)) paste0("\nsplit: ", reason)))),
               vapply(which(nodes$kernel == k), declare, ""), "  }")
  }
  c(lines, sprintf("  %s -> %s;", quote_dot(nodes$name[parts$edges$from]),
                   quote_dot(nodes$name[parts$edges$to])), "}")
}
