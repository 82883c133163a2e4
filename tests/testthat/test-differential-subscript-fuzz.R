# Random subscripts of random arrays: every dimension picks one of the forms R users
# write (nothing, one index, a:b, b:a, seq() either way, negative runs, irregular
# positions), with and without drop = FALSE, of lazy values at hand, of deferred
# expressions and of views; the values and attributes must be base R's, whichever
# of them the view code reads as views (src/r/array_region.cpp, lazy_view.cpp).

random_subscript <- function(extent) {
  a <- sample.int(extent, 1)
  b <- sample.int(extent, 1)
  lo <- min(a, b)
  hi <- max(a, b)
  k <- sample(1:3, 1)
  switch(sample.int(9, 1),
    quote(expr = ),                       # missing: the whole dimension
    a,                                    # one index
    lo:hi,                                # a run
    hi:lo,                                # a run counting down
    seq(lo, hi, by = k),                  # spaced
    seq(hi, lo, by = -k),                 # spaced, counting down
    if (extent > 1) -(lo:hi) else 1L,     # negative run (never all of it: see below)
    sample.int(extent, min(extent, 3)),   # irregular
    c(lo, lo)                             # repeated
  )
}

# x[subs] (drop as given) evaluated by base R's `[` on x.
subset_call <- function(x, subs, drop) {
  args <- c(list(x), subs)
  if (!drop) args <- c(args, list(drop = FALSE))
  do.call(`[`, args)
}

# x as a view: the same values as a block of a bigger lazy array (one more index
# in every dimension), or a run of a longer lazy vector.
as_view <- function(x) {
  if (is.null(dim(x))) return(lazy(c(x[1], x, x[1]))[seq_along(x) + 1L])
  d <- dim(x)
  big <- array(x[1], d + 1L)
  block <- lapply(d, seq_len)
  big <- do.call(`[<-`, c(list(big), block, list(value = x)))
  y <- do.call(`[`, c(list(lazy(big)), block, list(drop = FALSE)))
  if (!is.null(dimnames(x))) dimnames(y) <- dimnames(x)
  y
}

test_that("random subscripts of random arrays give base R's values and attributes", {
  withr::local_options(gufunc.lazy_min_length = 0)
  set.seed(20261202)
  bad <- character(0)
  lazy_results <- 0L  # subsets that stayed lazy: views (or a deferred expression's)
  for (case in 1:400) {
    rank <- sample(1:4, 1)
    d <- sample(1:7, rank, replace = TRUE)
    n <- prod(d)
    values <- switch(sample.int(3, 1), c(runif(n - 1), NA)[seq_len(n)],
                     sample(c(-5:5, NA), n, TRUE), sample(c(TRUE, FALSE, NA), n, TRUE))
    x <- if (rank == 1 && runif(1) < 0.5) values else array(values, d)
    if (rank >= 2 && runif(1) < 0.3) {
      dimnames(x) <- lapply(d, function(e) paste0("n", seq_len(e)))
    }
    subs <- lapply(if (is.null(dim(x))) length(x) else dim(x), random_subscript)
    drop <- runif(1) < 0.8
    outcome <- function(f) tryCatch(f(), error = function(e) "error")
    forms <- list(
      values = list(lazy(x), x),
      deferred = list(lazy(x) * 1L, x * 1L),
      view = list(as_view(x), x)
    )
    for (form in names(forms)) {
      want <- outcome(function() subset_call(forms[[form]][[2]], subs, drop))
      got <- outcome(function() {
        y <- subset_call(forms[[form]][[1]], subs, drop)
        if (is_lazy(y)) lazy_results <<- lazy_results + 1L
        materialize(y)
      })
      if (!identical(got, want)) {
        bad <- c(bad, sprintf("case %d (%s): dims %s, %s, drop %s", case, form,
                              paste(d, collapse = "x"), deparse(subs), drop))
      }
    }
  }
  expect_identical(bad, character(0))
  expect_gt(lazy_results, 400)
})

test_that("random subscripts of subsets (views of views) give base R's values", {
  # Half of the subsets are given other dims (or none) first: a block view read in
  # another shape, where a run counting down may span several of its columns
  # (v[4:1] of m[1:2, 1:2] as a vector).
  withr::local_options(gufunc.lazy_min_length = 0)
  set.seed(7)
  bad <- character(0)
  for (case in 1:500) {
    d <- sample(2:8, 2, replace = TRUE)
    m <- matrix(runif(prod(d)), d[1])
    first <- lapply(d, random_subscript)
    inner <- subset_call(m, first, FALSE)
    n <- length(inner)
    if (n < 2) next
    shape <- dim(inner)
    if (case %% 2 == 0) {
      divisors <- Filter(function(k) n %% k == 0, seq_len(n))
      rows <- if (length(divisors) > 1) sample(divisors, 1) else n
      shape <- if (runif(1) < 0.3) NULL else c(rows, n %/% rows)
    }
    reshape <- function(y) { dim(y) <- shape; y }
    second <- lapply(if (is.null(shape)) n else shape, random_subscript)
    want <- subset_call(reshape(inner), second, TRUE)
    got <- materialize(subset_call(reshape(subset_call(lazy(m), first, FALSE)), second, TRUE))
    if (!identical(got, want)) {
      bad <- c(bad, sprintf("case %d: %s, dims %s, then %s", case, deparse(first),
                            deparse(shape), deparse(second)))
    }
  }
  expect_identical(bad, character(0))
})

# x[subs] <- value evaluated by base R's `[<-` on x.
assign_call <- function(x, subs, value) do.call(`[<-`, c(list(x), subs, list(value = value)))

test_that("random subassignments of random arrays give base R's values and attributes", {
  withr::local_options(gufunc.lazy_min_length = 0)
  set.seed(20261203)
  bad <- character(0)
  lazy_results <- 0L  # writes that gave a lazy new version
  for (case in 1:400) {
    rank <- sample(1:4, 1)
    d <- sample(1:7, rank, replace = TRUE)
    n <- prod(d)
    x <- array(c(runif(n - 1), NA)[seq_len(n)], d)
    if (rank == 1 && runif(1) < 0.5) x <- as.vector(x)
    if (rank >= 2 && runif(1) < 0.3) {
      dimnames(x) <- lapply(d, function(e) paste0("n", seq_len(e)))
    }
    subs <- lapply(if (is.null(dim(x))) length(x) else dim(x), random_subscript)
    count <- tryCatch(length(subset_call(x, subs, TRUE)), error = function(e) 0L)
    value <- switch(sample.int(4, 1), runif(max(count, 1)), -1,
                    sample(c(-5:5, NA), max(count, 1), TRUE), runif(max(count, 1)))
    outcome <- function(f) tryCatch(f(), error = function(e) "error")
    want <- outcome(function() assign_call(x, subs, value))
    values <- list(plain = value, lazy = if (length(value) > 1) lazy(value) * 1 else value)
    for (form in names(values)) {
      got <- outcome(function() {
        y <- assign_call(lazy(x), subs, values[[form]])
        if (is_lazy(y)) lazy_results <<- lazy_results + 1L
        materialize(y)
      })
      if (!identical(got, want)) {
        bad <- c(bad, sprintf("case %d (%s value): dims %s, %s", case, form,
                              paste(d, collapse = "x"), deparse(subs)))
      }
    }
  }
  expect_identical(bad, character(0))
  expect_gt(lazy_results, 420) # 388 before writes counting down were deferred, 472 after
})
