# R's compact integer sequences (1:n, seq_len(n), n:1) as lazy inputs: generated
# block by block as the engine reads them, never expanded.

compact_cases <- function(n) {
  list(up = seq_len(n), down = n:1, shifted = (-7L):(n - 8L), high = (2147483647L - n + 1L):2147483647L)
}

test_that("expressions over a compact sequence are base R's, in any blocks and threads", {
  n <- 70001L
  for (name in names(compact_cases(n))) {
    for (threads in 1:2) {
      for (block in c(1, 7, 4096)) {
        withr::local_options(gufunc.threads = threads, gufunc.block_size = block)
        s <- compact_cases(n)[[name]]
        x <- lazy(s)
        label <- sprintf("%s, %d threads, block %d", name, threads, block)
        expect_identical(materialize(x %/% 3L + x %% 5L), s %/% 3L + s %% 5L, label = label)
        expect_identical(materialize(sqrt(abs(x)) * 2), sqrt(abs(s)) * 2, label = label)
        expect_identical(sum(x), sum(s), label = label)
        expect_identical(sum(x * 0.5), sum(s * 0.5), label = label)
        expect_identical(mean(x), mean(s), label = label)
        expect_identical(range(x), range(s), label = label)
        expect_identical(materialize(x[-1] - x[-n]), s[-1] - s[-n], label = label)
        expect_identical(materialize(x[seq(2, n, by = 3)] + 0L), s[seq(2, n, by = 3)] + 0L,
                         label = label)
        expect_identical(materialize(rev(x) * 1L), rev(s) * 1L, label = label)
        expect_identical(materialize(cumsum(x * 1.5)), cumsum(s * 1.5), label = label)
      }
    }
  }
})

test_that("integer overflow in arithmetic on a sequence warns as base R does", {
  s <- (2147483647L - 69999L):2147483647L
  expect_warning(got <- materialize(lazy(s) + 1L), "NAs produced by integer overflow")
  expect_identical(got, suppressWarnings(s + 1L))
})

test_that("views, recycling and reductions over dims read a sequence as its values", {
  s <- seq_len(120000L)
  m <- matrix(s, 300)
  x <- lazy(s)
  expect_identical(materialize(x * c(1L, 2L)), s * c(1L, 2L))
  lm <- lazy(m)
  expect_identical(materialize(t(lm) * 1L), t(m) * 1L)
  expect_identical(materialize(lm[2:299, 3:400] - lm[1:298, 3:400]), m[2:299, 3:400] - m[1:298, 3:400])
  expect_identical(rowSums(lm * 1L), rowSums(m * 1L))
  expect_identical(colMeans(lm), colMeans(m))
  expect_identical(materialize(matmul(lazy(matrix(1:1e5, 100) + 0), diag(1000))),
                   matmul(matrix(1:1e5, 100) + 0, diag(1000)))
})

test_that("the plan says a sequence is generated", {
  x <- lazy(seq_len(100000L))
  text <- paste(capture.output(print(lazy_plan(x * 2L + 1L))), collapse = "\n")
  expect_match(text, "from a compact sequence, generated as it is read", fixed = TRUE)
  # Two views of one sequence are two inputs.
  text <- capture.output(print(lazy_plan(x[-1] - x[-100000L])))
  expect_length(grep("from a compact sequence", text, fixed = TRUE), 2)
  # An expanded sequence (R has written out its values) is read as memory.
  y <- seq_len(100000L)
  y[1] <- 1L
  text <- paste(capture.output(print(lazy_plan(lazy(y) * 2L + 1L))), collapse = "\n")
  expect_no_match(text, "compact sequence", fixed = TRUE)
})

test_that("a reduction over a long sequence keeps memory at its blocks", {
  skip_on_cran()
  skip_without_rss()
  got <- child_rss_growth(
    # base R's sum(1:1e8 / 2) holds 800 MB for the quotient alone
    work = c("x <- lazy(seq_len(1e8))", "s <- sum(x / 2); m <- max(x %% 1000L)"),
    checks = c("identical(s, 2500000025000000)", "identical(m, 999L)")
  )
  expect_lt(got$mb, 100)
  expect_identical(got$checks, c("TRUE", "TRUE"))
})

test_that("compact subscripts (x[a:b]) pick their runs by base R's rules", {
  v <- runif(100000)
  lv <- lazy(v)
  expect_identical(materialize(lv[2:100000]), v[2:100000])
  expect_true(is_lazy(lv[2:100000]))
  expect_identical(materialize(lv[seq_len(70000)] * 2), v[seq_len(70000)] * 2)
  # Past the end, from 0, or decreasing: base R's rules (NA, dropped, reversed).
  expect_identical(lv[99990:100005], v[99990:100005])
  expect_identical(lv[0:5], v[0:5])
  expect_identical(materialize(lv[100000:1] + 0), v[100000:1] + 0)
  m <- matrix(v, 400)
  lm <- lazy(m)
  expect_identical(materialize(lm[2:399, 3:250]), m[2:399, 3:250])
})
