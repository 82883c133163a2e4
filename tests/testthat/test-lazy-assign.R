# Deferred subassignment (R/lazy_assign.R, src/r/lazy_assign.cpp,
# src/engine/assign.cpp): every form against base R on the same plain values.

# x after `assign(x)` on a plain copy and on lazy(x): the lazy result materialized
# must be identical to base R's, and x itself unchanged.
expect_assign_like_base <- function(x, assign, lazy_result = TRUE) {
  base <- assign(x)
  got <- assign(lazy(x))
  if (lazy_result) expect_true(is_lazy(got))
  expect_identical(materialize(got), base)
}

test_that("each subscript form gives base R's values", {
  set.seed(11)
  v <- runif(3000)
  m <- matrix(runif(60 * 50), 60, dimnames = list(paste0("r", 1:60), NULL))
  a <- array(runif(20 * 15 * 4), c(20, 15, 4))
  for_engine_settings({
    expect_assign_like_base(v, function(x) { x[11:2000] <- 0.5; x })
    expect_assign_like_base(v, function(x) { x[-1] <- x[-3000] * 2; x })
    expect_assign_like_base(v, function(x) { x[-3000] <- x[-1]; x })
    expect_assign_like_base(v, function(x) { x[-(1:10)] <- 7; x })
    expect_assign_like_base(v, function(x) { x[seq(3, 2999, by = 4)] <- -x[seq(1, 2997, by = 4)]; x })
    expect_assign_like_base(v, function(x) { x[] <- x * x; x })
    expect_assign_like_base(v, function(x) { x[5] <- NA; x })
    expect_assign_like_base(m, function(x) { x[2:59, 2:49] <- x[1:58, 3:50] + x[3:60, 1:48]; x })
    expect_assign_like_base(m, function(x) { x[1, ] <- 40; x[, c(1, 50)] <- -273.15; x })
    expect_assign_like_base(m, function(x) { x[seq(1, 59, by = 2), ] <- x[seq(2, 60, by = 2), ]; x })
    expect_assign_like_base(m, function(x) { x[, 7] <- x[, 8]; x[60, ] <- x[59, ]; x })
    expect_assign_like_base(a, function(x) { x[, , 3] <- x[, , 2] * 0.5; x })
    expect_assign_like_base(a, function(x) { for (k in 2:4) x[, , k] <- x[, , k - 1] + x[, , k]; x })
    expect_assign_like_base(a, function(x) { x[2:19, 2:14, 1] <- 0; x })
  })
})

test_that("values of lower types are converted as R converts them", {
  d <- runif(2000)
  i <- sample(c(1:5, NA), 2000, TRUE)
  l <- sample(c(TRUE, FALSE, NA), 2000, TRUE)
  expect_assign_like_base(d, function(x) { x[1:1000] <- i[1:1000]; x })
  expect_assign_like_base(d, function(x) { x[1001:2000] <- l[1:1000]; x })
  expect_assign_like_base(d, function(x) { x[1:2000] <- lazy(i) * 2L; x })
  expect_assign_like_base(d, function(x) { x[1:2000] <- lazy(d) > 0.5; x })
  expect_assign_like_base(i, function(x) { x[3:2000] <- x[1:1998]; x })
  expect_assign_like_base(i, function(x) { x[] <- NA_integer_; x })
  expect_assign_like_base(l, function(x) { x[2:2000] <- !x[1:1999]; x })
  # A higher type changes x's type: base R's subassignment.
  expect_assign_like_base(i, function(x) { x[1:10] <- 0.5; x }, lazy_result = FALSE)
  expect_assign_like_base(l, function(x) { x[1:10] <- 2L; x }, lazy_result = FALSE)
})

test_that("reads and writes of one vector give base R's result, not a running update", {
  x <- as.numeric(1:5000)
  for_engine_settings({
    expect_assign_like_base(x, function(y) { y[2:5000] <- y[1:4999] + 1; y })
    expect_assign_like_base(x, function(y) { y[1:4999] <- y[2:5000] * y[1:4999]; y })
    expect_assign_like_base(x, function(y) {
      y[1001:3000] <- y[1:2000]
      y[1:2000] <- y[2001:4000] - y[1001:3000]
      y
    })
  })
})

test_that("other references to the old value are unchanged", {
  g <- matrix(runif(100 * 80), 100)
  L <- lazy(g)
  before <- L
  inner <- L[2:99, 2:79]
  L[2:99, 2:79] <- inner * 2
  L[1, ] <- 0
  expected <- g
  expected[2:99, 2:79] <- g[2:99, 2:79] * 2
  expected[1, ] <- 0
  expect_identical(materialize(L), expected)
  expect_identical(materialize(inner), g[2:99, 2:79])
  expect_identical(materialize(before), g)
  # Views of the new version: inside the interior write, outside every write, and
  # across writes.
  expect_identical(materialize(L[3:98, 5:70]), expected[3:98, 5:70])
  expect_identical(materialize(L[, 80]), expected[, 80])
  expect_identical(materialize(L[1:50, ]), expected[1:50, ])
  expect_identical(L[[1, 5]], expected[[1, 5]])
  expect_identical(L[cbind(1:3, 1:3)], expected[cbind(1:3, 1:3)])
})

test_that("the Jacobi loop of the issue fuses and gives base R's grid and delta", {
  jacobi <- function(grid, steps) {
    n <- nrow(grid)
    for (i in seq_len(steps)) {
      ctr <- grid[2:(n - 1), 2:(n - 1)]
      work <- 0.2 * (ctr + grid[1:(n - 2), 2:(n - 1)] + grid[3:n, 2:(n - 1)] +
        grid[2:(n - 1), 1:(n - 2)] + grid[2:(n - 1), 3:n])
      delta <- sum(abs(work - ctr))
      grid[2:(n - 1), 2:(n - 1)] <- work
    }
    list(grid = grid, delta = delta)
  }
  g <- matrix(0, 62, 62)
  g[1, ] <- 40
  g[, c(1, 62)] <- -273.15
  G <- lazy(matrix(0, 62, 62))
  G[1, ] <- 40
  G[, c(1, 62)] <- -273.15
  for_engine_settings({
    got <- jacobi(G, 7)
    want <- jacobi(g, 7)
    expect_true(is_lazy(got$grid))
    expect_identical(materialize(got$grid), want$grid)
    expect_identical(got$delta, want$delta)
  })
  # One step's new version: the write straight into the result, after the fused
  # kernel that computes it.
  plan <- lazy_plan(jacobi(G, 1)$grid)
  text <- paste(capture.output(print(plan)), collapse = "\n")
  expect_match(text, "`[<-` of 60 runs of 60 elements", fixed = TRUE)
  expect_match(text, "computed by the kernel before", fixed = TRUE)
  expect_match(text, "as they are computed", fixed = TRUE)
})

test_that("long loops of subassignments keep memory and graphs bounded", {
  n <- 20000
  x <- lazy(numeric(n))
  base <- numeric(n)
  for (i in 1:10000) {
    x[i] <- i
    base[i] <- i
  }
  expect_identical(x, base) # plain after a few deferred writes: base R's loop
  # Large writes: every step reads the previous version, so each is computed once
  # and the graph stays one step deep.
  y <- lazy(runif(n))
  yb <- materialize(y)
  for (i in 1:2000) {
    y[2:n] <- y[1:(n - 1)] * 0.5
    yb[2:n] <- yb[1:(n - 1)] * 0.5
  }
  expect_identical(materialize(y), yb)
  expect_lt(length(capture.output(print(lazy_plan(y)))), 30)
  # Memory: the versions no longer referred to are freed (their buffers reused).
  gc()
  before <- sum(gc()[, 2])
  for (i in 1:2000) y[2:n] <- y[1:(n - 1)] * 0.5
  materialize(y)
  gc()
  expect_lt(sum(gc()[, 2]) - before, 5)
})

test_that("a small region written again goes to base R; border writes before a large one stay deferred", {
  h <- matrix(runif(300 * 300), 300)
  H <- lazy(h)
  base <- h
  H[, 1] <- H[, 2]
  base[, 1] <- base[, 2]
  expect_true(is_lazy(H))
  # The same column again: a loop of small writes, base R's from here on.
  H[, 1] <- H[, 3]
  base[, 1] <- base[, 3]
  expect_false(is_lazy(H))
  expect_identical(H, base)
  # A stencil step's four borders, then its interior: one deferred chain.
  S <- lazy(h)
  sb <- h
  for (step in 1:2) {
    S[, 1] <- S[, 2]; S[, 300] <- S[, 299]; S[1, ] <- S[2, ]; S[300, ] <- S[299, ]
    sb[, 1] <- sb[, 2]; sb[, 300] <- sb[, 299]; sb[1, ] <- sb[2, ]; sb[300, ] <- sb[299, ]
    S[2:299, 2:299] <- S[2:299, 2:299] * 0.5 + S[1:298, 2:299] * 0.25
    sb[2:299, 2:299] <- sb[2:299, 2:299] * 0.5 + sb[1:298, 2:299] * 0.25
    expect_true(is_lazy(S))
  }
  expect_identical(materialize(S), sb)
})

test_that("chains of large writes that no read computes stay lazy past 16 writes", {
  # Every plane written, step after step, read only through views of single planes:
  # the chain is computed when it is full and the next write starts a new one.
  a <- array(runif(30 * 20 * 4), c(30, 20, 4))
  la <- lazy(a)
  for (step in 1:10) {
    for (k in 1:4) {
      la[, , k] <- la[, , k] * 0.5 + la[, , (k %% 4) + 1]
      a[, , k] <- a[, , k] * 0.5 + a[, , (k %% 4) + 1]
    }
  }
  expect_true(is_lazy(la))
  expect_identical(materialize(la), a)
  # Its warnings come when the full chain is computed, once.
  x <- lazy(matrix(c(-1, rep(1, 7999)), 2000))
  w <- character()
  withCallingHandlers(
    for (i in 1:17) x[, i %% 3 + 2] <- sqrt(x[, 1]) * 0 + i,
    warning = function(cnd) {
      w <<- c(w, conditionMessage(cnd))
      invokeRestart("muffleWarning")
    }
  )
  expect_identical(w, "NaNs produced")
  expect_true(is_lazy(x))
})

test_that("warnings of a deferred value are raised when the new version is computed", {
  x <- runif(2000)
  y <- lazy(x)
  y[1:2000] <- sqrt(lazy(x) - 2)
  expect_warning(v <- materialize(y), "NaNs produced")
  expect_identical(v, suppressWarnings(sqrt(x - 2)))
})

test_that("subassignments that base R lengthens, recycles or changes keep base R's rules", {
  x <- runif(2000)
  for (assign in list(
    function(y) { y[2001:2010] <- 1; y },
    function(y) { y[1:10] <- 1:3; y },
    function(y) { y[c(TRUE, FALSE)] <- 0; y },
    function(y) { y[c(5, 3, 1)] <- 1:3; y },
    function(y) { y[1:3] <- "a"; y },
    function(y) { y[1:3] <- NULL; y },
    function(y) { y[1:10] <- numeric(0); y }
  )) {
    expect_identical(lazy_outcome(assign(lazy(x))), base_outcome(assign(x)))
  }
})

test_that("diag<- and matrix subscripts on the diagonal are deferred", {
  m <- matrix(runif(80 * 80), 80)
  for_engine_settings({
    expect_assign_like_base(m, function(x) { diag(x) <- 1; x })
    expect_assign_like_base(m, function(x) { diag(x) <- x[, 3]; x })
    expect_assign_like_base(m, function(x) { x[cbind(2:5, 2:5)] <- 0; x })
  })
  # Irregular or invalid matrix subscripts: base R's rules and errors.
  expect_identical(lazy_outcome({ x <- lazy(m); x[cbind(c(3, 1), c(2, 2))] <- 0; x }),
                   base_outcome({ x <- m; x[cbind(c(3, 1), c(2, 2))] <- 0; x }))
  expect_identical(lazy_outcome({ x <- lazy(m); x[cbind(c(1, 81), 1)] <- 0; x }),
                   base_outcome({ x <- m; x[cbind(c(1, 81), 1)] <- 0; x }))
  expect_identical(lazy_outcome({ x <- lazy(m); x[cbind(NA, 1)] <- 0; x }),
                   base_outcome({ x <- m; x[cbind(NA, 1)] <- 0; x }))
})

test_that("the value grid goes through subassignment bit for bit", {
  rank <- function(type) match(type, names(value_grid))
  for (tx in names(value_grid)) {
    x <- rep_len(value_grid[[tx]], 2000)
    for (tv in names(value_grid)) {
      v <- rev(rep_len(value_grid[[tv]], 1000))
      # A value of a higher type changes x's type: base R's subassignment.
      expect_assign_like_base(x, function(y) { y[501:1500] <- v; y },
                              lazy_result = rank(tv) <= rank(tx))
      # A deferred value of the same or a lower type.
      lv <- lazy(rep_len(value_grid[[tv]], 2000))
      expect_assign_like_base(x, function(y) { y[] <- lv; y }, lazy_result = FALSE)
    }
  }
  # NaN payloads and signs, and -0, as base R writes them.
  x <- rep_len(grid_double, 2000)
  nan <- rep_len(c(grid_nan_bits, -0), 1998)
  got <- lazy(x)
  got[3:2000] <- nan
  want <- x
  want[3:2000] <- nan
  expect_true(identical_bits(materialize(got), want))
})

test_that("values from gufuncs and integer overflow warnings", {
  a <- matrix(runif(40 * 40), 40)
  got <- lazy(matrix(0, 80, 80))
  got[1:40, 41:80] <- matmul(lazy(a), lazy(a))
  want <- matrix(0, 80, 80)
  want[1:40, 41:80] <- a %*% a
  expect_true(is_lazy(got))
  expect_equal(materialize(got), want, tolerance = 1e-12)
  i <- rep(.Machine$integer.max, 2000L)
  y <- lazy(integer(2000))
  y[1:2000] <- lazy(i) + 1L
  expect_warning(v <- materialize(y), "NAs produced by integer overflow")
  expect_identical(v, rep(NA_integer_, 2000))
})

test_that("a pending subassignment is read by reductions, gufuncs and ifelse", {
  m <- matrix(runif(50 * 50) - 0.5, 50)
  L <- lazy(m)
  L[2:49, 2:49] <- L[1:48, 3:50] * 2
  want <- m
  want[2:49, 2:49] <- m[1:48, 3:50] * 2
  for_engine_settings({
    expect_identical(sum(L), sum(want))
    expect_identical(mean(L * L), mean(want * want))
    expect_identical(range(L), range(want))
    expect_identical(materialize(ifelse(L > 0, L, -L)), ifelse(want > 0, want, -want))
  })
  expect_equal(materialize(matmul(L, L)), want %*% want, tolerance = 1e-12)
  expect_identical(materialize(t(L)), t(want))
})

test_that("subassignments that pick nothing give x as it was", {
  withr::local_options(gufunc.lazy_min_length = 0)
  m30 <- matrix(numeric(0), 3, 0)
  m03 <- matrix(numeric(0), 0, 3)
  a <- array(numeric(0), c(2, 0, 2))
  x <- lazy(numeric(0))
  x[] <- 5
  expect_identical(materialize(x), numeric(0))
  x[] <- numeric(0)
  expect_identical(materialize(x), numeric(0))
  m <- lazy(m03)
  m[, 1] <- 5
  expect_identical(materialize(m), m03)
  m <- lazy(m30)
  m[1, ] <- 5
  expect_identical(materialize(m), m30)
  aa <- lazy(a)
  aa[, , 1] <- 5
  expect_identical(materialize(aa), a)
  y <- lazy(c(a = 1, b = 2))
  y[0] <- 5
  expect_identical(materialize(y), c(a = 1, b = 2))
})

test_that("`[<-` and `[[<-` called as functions take the value by position", {
  b <- matrix(1:2, ncol = 2)
  big <- matrix(runif(2e5), 400)
  expect_identical(materialize(`[<-`(lazy(big), 1, 2, 5)), `[<-`(big, 1, 2, 5))
  withr::local_options(gufunc.lazy_min_length = 0)
  expect_identical(materialize(`[<-`(lazy(b), 1, 5L)), `[<-`(b, 1, 5L))
  expect_identical(materialize(`[<-`(lazy(b), , 2, 9L)), `[<-`(b, , 2, 9L))
  expect_identical(materialize(`[[<-`(lazy(b), 2, 7L)), `[[<-`(b, 2, 7L))
  expect_identical(materialize(`[<-`(lazy(b), 1, value = 3L)), `[<-`(b, 1, value = 3L))
  calls <- 0
  v <- function() { calls <<- calls + 1; 4L }
  expect_identical(materialize(`[<-`(lazy(b), 2, v())), `[<-`(b, 2, 4L))
  expect_identical(calls, 1) # the value is evaluated once
})

test_that("large inputs copied on several threads give base R's values", {
  # A chain of small writes on a large input falls back to base R on a copy, which
  # the engine makes on every thread from 1 MB up: plain memory, R's compact
  # sequences, and views.
  h <- matrix(runif(3e5), 500)
  s <- seq_len(4e5)
  expected_h <- h
  for (i in 1:3) expected_h[, 1] <- expected_h[, 2] + i
  expected_s <- s
  expected_s[2:5] <- 7L
  expected_s[2:5] <- 8L
  for (threads in 1:2) {
    with_options(list(gufunc.threads = threads), {
      H <- lazy(h)
      for (i in 1:3) H[, 1] <- H[, 2] + i
      expect_identical(materialize(H), expected_h)
      S <- lazy(s)
      S[2:5] <- 7L
      S[2:5] <- 8L
      expect_identical(materialize(S), expected_s)
      expect_identical(materialize(lazy(h)[, 2:600]), h[, 2:600])
      expect_identical(materialize(lazy(s)[-1]), s[-1])
    })
  }
})
