# plot(lazy_plan(x)) with grid, and format(p, "dot") for Graphviz.

# A plan of three kernels: a gufunc ends the first; its output is read whole.
three_kernel_plan <- function() {
  m <- matrix(runif(8e5), 8)
  v <- runif(1e5)
  a <- lazy(v)
  lazy_plan(sqrt(inner(lazy(m) * 2, m) + a) - 1e-10)
}

test_that("the plot draws every node, edge and kernel box, and renders to PNG", {
  skip_if_not(capabilities("png"), "no PNG device")
  p <- three_kernel_plan()
  file <- tempfile(fileext = ".png")
  grDevices::png(file, width = 900, height = 700)
  plot(p)
  grobs <- grid::grid.ls(print = FALSE)$name
  split <- grid::grid.get("split:1")
  grDevices::dev.off()
  expect_gt(file.size(file), 5000)
  expect_identical(readBin(file, "raw", 4L), as.raw(c(0x89, 0x50, 0x4e, 0x47)))
  names <- unique(c(names(p$inputs), p$graph$values$name[p$graph$steps$out]))
  for (node in names) expect_true(paste0("node:", node) %in% grobs, label = node)
  for (k in seq_along(p$kernels)) {
    expect_true(sprintf("kernel:%d", k) %in% grobs)
    expect_true(sprintf("split:%d", k) %in% grobs)
  }
  expect_true("edge:m->t1" %in% grobs)
  expect_true("traffic" %in% grobs)
  expect_match(split$label, "split: the output of gufunc `inner`",
               fixed = TRUE)
})

test_that("format(p, 'dot') declares every node, edge and one cluster per kernel", {
  p <- three_kernel_plan()
  dot <- format(p, "dot")
  expect_identical(dot[1], "digraph gufunc_lazy_plan {")
  expect_identical(dot[length(dot)], "}")
  declared <- sub("^ *\"([^\"]+)\" \\[label=.*", "\\1", grep("^ *\"[^\"]+\" \\[label=", dot,
                                                             value = TRUE))
  names <- unique(c(names(p$inputs), p$graph$values$name[p$graph$steps$out]))
  expect_setequal(declared, names)
  expect_false(anyDuplicated(declared) > 0)
  edges <- regmatches(dot, regexec("^ *\"([^\"]+)\" -> \"([^\"]+)\";$", dot))
  edges <- do.call(rbind, Filter(length, edges))
  operands <- unlist(p$graph$steps$args)
  expect_identical(nrow(edges), sum(p$graph$values$kind[operands] != "constant"))
  expect_true(all(edges[, 2:3] %in% declared))
  clusters <- grep("^  subgraph cluster_[0-9]+ \\{$", dot, value = TRUE)
  expect_identical(clusters, sprintf("  subgraph cluster_%d {", seq_along(p$kernels)))
  expect_true(any(grepl("split: the output of gufunc", dot, fixed = TRUE)))
  expect_true(any(grepl("base R would move", dot, fixed = TRUE)))
  # braces balance: every cluster is closed
  expect_identical(sum(grepl("\\{$", dot)), sum(grepl("^ *\\}$", dot)))
})
