# Short lazy operations and outer(): computed by base R's own functions without
# the fallback's condition handlers where they cannot warn or fail
# (quiet_arithmetic() in R/builtin_traits.R), a short outer() of lazy vectors on
# their values, and a long one of two double vectors built as one deferred
# broadcast (outer_vectors_product() in R/outer_mask.R).

specials <- c(NA, NaN, -0, 0, Inf, -Inf, 1.5, -2.25, 1e308, 5e-324)

test_that("a long outer() of double vectors is deferred, with base R's bits and dims", {
  withr::local_options(gufunc.lazy_min_length = 65536)
  withr::local_seed(31)
  x <- c(specials, runif(290))
  y <- c(rev(specials), runif(390, -1, 1))
  for (threads in 1:2) {
    withr::local_options(gufunc.threads = threads)
    for (form in c("lazy x", "lazy y", "both")) {
      lx <- if (form != "lazy y") lazy(x) else x
      ly <- if (form != "lazy x") lazy(y) else y
      got <- outer(lx, ly)
      expect_true(is_lazy(got), label = form)
      expect_identical(materialize(got), base::outer(x, y), label = form)
      expect_identical(materialize(lx %o% ly), base::outer(x, y), label = form)
      expect_identical(materialize(outer(lx, ly) - 1), base::outer(x, y) - 1, label = form)
    }
  }
  # Named vectors and arrays keep base R's dimnames and dims (not the short path).
  nx <- stats::setNames(x[1:300], paste0("r", 1:300))
  expect_identical(materialize(outer(lazy(nx), y)), base::outer(nx, y))
  ax <- array(x[1:300], c(10, 30))
  expect_identical(materialize(outer(lazy(ax), y)), base::outer(ax, y))
})

test_that("a short outer() of lazy vectors is base R's, with no fallback", {
  withr::local_options(gufunc.lazy_min_length = 65536)
  x <- lazy(c(specials, 1:40))
  y <- lazy(c(3, specials))
  lazy_fallbacks(reset = TRUE)
  got <- outer(x, y)
  expect_false(is_lazy(got))
  expect_identical(got, base::outer(materialize(x), materialize(y)))
  expect_identical(outer(x, y, "-"), base::outer(materialize(x), materialize(y), "-"))
  expect_length(lazy_fallbacks(reset = TRUE), 0L)
})

test_that("short double arithmetic of lazy values is base R's, attributes and conditions too", {
  withr::local_options(gufunc.lazy_min_length = 65536)
  withr::local_seed(32)
  m <- lazy(matrix(runif(600 * 600), 600))
  plain <- materialize(m)
  col <- m[1:300, 7]
  block <- m[1:40, 1:30]
  other <- matrix(c(specials, runif(1190)), 40)
  # (Results and subsets of 256 elements or more stay lazy, their values at hand.)
  values <- function(v) if (is_lazy(v)) materialize(v) else v
  expect_identical(values(col / m[7, 7]), plain[1:300, 7] / plain[7, 7])
  expect_identical(values(block - other), plain[1:40, 1:30] - other)
  expect_identical(values(other * block), other * plain[1:40, 1:30])
  expect_identical(values(block^2), plain[1:40, 1:30]^2)
  expect_identical(values(2 / block), 2 / plain[1:40, 1:30])
  expect_identical(values(block + as.vector(other)), plain[1:40, 1:30] + as.vector(other))
  # Conditions are base R's, naming the user's call.
  expect_identical(tryCatch(block + matrix(1, 30, 40), error = conditionMessage),
                   tryCatch(plain[1:40, 1:30] + matrix(1, 30, 40), error = conditionMessage))
  expect_warning(col + 1:7, "longer object length is not a multiple")
  expect_identical(values(suppressWarnings(col + c(1, 2, 3, 4, 5, 6, 7))),
                   suppressWarnings(plain[1:300, 7] + c(1, 2, 3, 4, 5, 6, 7)))
  # A 1 x 1 matrix against a vector: base R's deprecation warning.
  expect_identical(
    tryCatch(m[1:2, 1:2][1, 1, drop = FALSE] + col, warning = conditionMessage),
    tryCatch(plain[1:2, 1:2][1, 1, drop = FALSE] + plain[1:300, 7], warning = conditionMessage)
  )
})
