# gufunc(): user-defined gufuncs from R functions (the slow path) and from kernels
# registered through the C ABI. R kernels follow the dispatcher's rules for types,
# shapes and outputs, so they are checked against base R and native kernels.

spread <- gufunc("double(n) -> double()", function(v) max(v) - min(v), name = "spread")

test_that("an R kernel runs once per loop iteration like apply() over the loop dims", {
  set.seed(11)
  x <- matrix(c(grid_double[1:12], rnorm(18)), 5)
  expect_identical(spread(x), apply(x, 2, function(v) max(v) - min(v)))
  a <- array(rnorm(4 * 3 * 2), c(4, 3, 2))
  expect_identical(spread(a), apply(a, c(2, 3), function(v) max(v) - min(v)))
  # A plain vector is one core slice; special values go through R's own max/min.
  expect_identical(spread(c(1, NA, 3)), NA_real_)
  expect_identical(spread(c(-Inf, 0, Inf)), Inf)
  expect_identical(spread(c(NaN, 1)), NaN)
  # Integer and logical inputs are promoted to the signature's double.
  expect_identical(spread(matrix(1:6, 2)), c(1, 1, 1))
  expect_identical(spread(c(TRUE, FALSE)), 1)
  # Deferred inputs are materialized first: the slow path computes eagerly.
  expect_identical(spread(lazy(x) * 2), spread(x * 2))
})

test_that("the kernel sees core slices with their core dims; outputs get core + loop dims", {
  seen <- NULL
  colsum2 <- gufunc("double(m,n) -> double(n)", function(s) {
    seen <<- dim(s)
    colSums(s)
  })
  a <- array(as.double(1:24), c(2, 3, 4))
  r <- colsum2(a)
  expect_identical(seen, c(2L, 3L))
  expect_identical(r, apply(a, 3, colSums))
  expect_identical(dim(r), c(3L, 4L))
  outer1 <- gufunc("double(n), double(p) -> double(n,p)", function(u, v) outer(u, v))
  u <- matrix(as.double(1:6), 2)
  v <- matrix(as.double(1:9), 3)
  r <- outer1(u, v)
  expect_identical(dim(r), c(2L, 3L, 3L))
  for (k in 1:3) expect_identical(r[, , k], outer(u[, k], v[, k]))
})

test_that("loop dims broadcast as for native kernels, and agree with them", {
  test_kernels()
  inner_r <- gufunc("double(n), double(n) -> double()", function(a, b) sum(a * b))
  inner_c <- function(...) gufunc_call("inner", ..., namespace = "gufunc_test")
  set.seed(2)
  A <- array(rnorm(3 * 4 * 2), c(3, 4, 2))
  B <- matrix(rnorm(3 * 4), 3)
  v <- rnorm(3)
  expect_equal(inner_r(A, B), inner_c(A, B), tolerance = 1e-12)
  expect_equal(inner_r(A, v), inner_c(A, v), tolerance = 1e-12)
  expect_equal(inner_r(v, A), apply(A, c(2, 3), function(col) sum(v * col)), tolerance = 1e-12)
  C <- array(rnorm(3 * 1 * 2), c(3, 1, 2))
  expect_equal(inner_r(B, C), inner_c(B, C), tolerance = 1e-12)
  expect_identical(dim(inner_r(B, C)), c(4L, 2L))
  # Empty loop dims give empty outputs without calling the kernel.
  calls <- 0
  counted <- gufunc("double(n) -> double()", function(v) {
    calls <<- calls + 1
    sum(v)
  })
  expect_identical(counted(matrix(numeric(), 3, 0)), numeric())
  expect_identical(calls, 0)
})

test_that("shape errors are the resolver's: they name the argument and the dimension", {
  inner_r <- gufunc("double(n), double(n) -> double()", function(a, b) sum(a * b))
  expect_error(inner_r(matrix(1, 3, 2), matrix(1, 4, 2)),
               "argument 2: core dimension n has size 4 but argument 1 gives it size 3",
               class = "gufunc_shape_error")
  expect_error(inner_r(matrix(1, 3, 2), matrix(1, 3, 5)), "do not broadcast",
               class = "gufunc_shape_error")
  mat <- gufunc("double(m,n) -> double()", function(m) sum(m))
  expect_error(mat(1:3), "needs 2", class = "gufunc_shape_error")
  frozen <- gufunc("double(3) -> double()", sum)
  expect_error(frozen(1:4), "must have size 3, not 4", class = "gufunc_shape_error")
  expect_identical(frozen(1:3), 6)
})

test_that("types follow the dispatcher: promotion only, type variables bind to the widest", {
  int_sum <- gufunc("integer(n) -> integer()", function(v) sum(v))
  expect_identical(int_sum(matrix(1:6, 3)), c(6L, 15L))
  expect_identical(int_sum(c(TRUE, NA)), NA_integer_)
  expect_error(int_sum(c(1.5, 2)), "no kernel of `r_kernel` accepts argument types \\(double\\)",
               class = "gufunc_dispatch_error")
  expect_error(int_sum(1:3, 1:3), class = "gufunc_dispatch_error")
  first <- gufunc("T(n), T(n) -> T()", function(a, b) a[1] + b[1])
  expect_identical(first(1:2, 3:4), 4L)
  expect_identical(first(1:2, c(0.5, 1)), 1.5)
  both <- gufunc("T(n), T(n) -> T()", function(a, b) a[1] & b[1])
  expect_identical(both(c(TRUE, FALSE), c(NA, TRUE)), NA)
  expect_identical(both(c(2L, 0L), c(TRUE, TRUE)), 1L) # logical promoted to integer
  expect_error(gufunc("(n) -> ()", sum), "has no type", class = "gufunc_registration_error")
  expect_error(gufunc("double(n) -> T()", sum), "no input binds",
               class = "gufunc_registration_error")
  expect_error(spread("a"), class = "gufunc_type_error")
})

test_that("several outputs come back as a list, each with its own type", {
  stats2 <- gufunc("double(n) -> double(), integer()",
                   function(v) list(mean(v), sum(!is.na(v))))
  x <- matrix(c(1, 2, NA, 4, 5, 6), 3)
  r <- stats2(x)
  expect_identical(r, list(colMeans(x), as.integer(colSums(!is.na(x)))))
  eig <- gufunc("double(n,n) -> double(n), double(n,n)", function(m) {
    e <- eigen(m, symmetric = TRUE)
    list(e$values, e$vectors)
  })
  S <- array(c(2, 1, 1, 2, 4, 0, 0, 1), c(2, 2, 2))
  r <- eig(S)
  expect_identical(dim(r[[1]]), c(2L, 2L))
  expect_identical(dim(r[[2]]), c(2L, 2L, 2L))
  expect_identical(r[[1]][, 2], eigen(S[, , 2], symmetric = TRUE)$values)
})

test_that("all-scalar signatures recycle and keep attributes like native element-wise calls", {
  clamp <- gufunc("double, double -> double", function(x, hi) min(x, hi), name = "clamp")
  x <- matrix(c(1, 5, 3, 9), 2, dimnames = list(c("a", "b"), NULL))
  expect_identical(clamp(x, 4), pmin(x, 4))
  expect_identical(clamp(c(1, 5, 3, 9), c(2, 4)), pmin(c(1, 5, 3, 9), c(2, 4)))
  expect_warning(clamp(1:3, 1:2), "longer object length")
  expect_identical(clamp(numeric(), 1), numeric())
  e <- tryCatch(clamp(c(1, 2, 3), c(1, NA, 1)), error = identity)
  expect_false(inherits(e, "error"))
  boom <- gufunc("double -> double", function(x) if (x > 2) stop("no") else x, name = "boom")
  expect_error(boom(1:4), "kernel of `boom` failed for element 3: no",
               class = "gufunc_kernel_error")
})

test_that("an error inside the R kernel names the slice and keeps the original condition", {
  picky <- gufunc("double(n) -> double()", name = "picky", function(v) {
    if (any(v < 0)) stop("negative values are not allowed")
    sum(v)
  })
  a <- array(1, c(2, 3, 4))
  a[2, 3, 2] <- -1
  e <- expect_error(picky(a), class = "gufunc_kernel_error")
  expect_match(conditionMessage(e),
               "kernel of `picky` failed for slice [, 3, 2]: negative values are not allowed",
               fixed = TRUE)
  expect_s3_class(e$parent, "simpleError")
  expect_identical(conditionMessage(e$parent), "negative values are not allowed")
  expect_identical(e$iteration, 6L)
  expect_identical(deparse(e$call), "picky(a)")
  # Classed conditions from the kernel stay reachable; the session goes on.
  classed <- gufunc("double(n) -> double()", function(v) {
    stop(errorCondition("custom", class = "my_error"))
  })
  e <- expect_error(classed(1:3), class = "gufunc_kernel_error")
  expect_s3_class(e$parent, "my_error")
  expect_identical(picky(abs(a)), apply(abs(a), c(2, 3), sum))
  # Warnings pass through unchanged.
  noisy <- gufunc("double(n) -> double()", function(v) {
    warning("careful")
    sum(v)
  })
  expect_warning(r <- noisy(c(1, 2)), "careful")
  expect_identical(r, 3)
})

test_that("a wrong result is a classed error naming the slice", {
  wrong_length <- gufunc("double(n) -> double()", function(v) v, name = "wl")
  e <- expect_error(wrong_length(matrix(1, 2, 3)), class = "gufunc_kernel_result_error")
  expect_s3_class(e, "gufunc_kernel_error")
  expect_match(conditionMessage(e), paste("kernel of `wl` returned 2 value(s) for the output,",
                                          "whose core slice has length 1 for slice [, 1]"),
               fixed = TRUE)
  wrong_type <- gufunc("integer(n) -> integer()", function(v) mean(v), name = "wt")
  expect_error(wrong_type(1:3),
               "returned a double vector of length 1 for the output, which has type integer",
               class = "gufunc_kernel_result_error")
  not_a_list <- gufunc("double(n) -> double(), double()", function(v) c(1, 2), name = "nl")
  expect_error(not_a_list(1:2), "must return a list of 2 output slices",
               class = "gufunc_kernel_result_error")
  chars <- gufunc("double(n) -> double()", function(v) "x", name = "ch")
  expect_error(chars(array(1, c(1, 2, 2))), "for slice \\[, 1, 1\\]",
               class = "gufunc_kernel_result_error")
  # A lower type is promoted, as for native outputs.
  count <- gufunc("double(n) -> double()", function(v) length(v))
  expect_identical(count(matrix(0, 4, 2)), c(4, 4))
})

test_that("gufunc() wraps a natively registered kernel after checking its signature", {
  test_kernels()
  inner <- gufunc("double(n), double(n) -> double()", "inner", namespace = "gufunc_test")
  expect_s3_class(inner, "gufunc_function")
  A <- matrix(c(1, 2, 3, 4, NA, 6), 3)
  expect_identical(inner(A, c(1, 1, 1)), gufunc_call("inner", A, c(1, 1, 1),
                                                    namespace = "gufunc_test"))
  # Same signature in another spelling is the same signature.
  expect_s3_class(gufunc("double(n),double(n)->double", "inner", namespace = "gufunc_test"),
                  "gufunc_function")
  expect_error(gufunc("double(n) -> double()", "inner", namespace = "gufunc_test"),
               "is not a signature of `inner`", class = "gufunc_signature_error")
  expect_error(gufunc("double(n) -> double()", "nope", namespace = "gufunc_test"),
               "no function `nope`", class = "gufunc_lookup_error")
  expect_error(gufunc("double(n) -> double()", "x", namespace = "no_such_ns"),
               class = "gufunc_lookup_error")
  expect_error(gufunc("double(n) -> double()", 42), "must be an R function or the name",
               class = "gufunc_argument_error")
  # Errors from the dispatcher are attributed to the user's call.
  e <- expect_error(inner(matrix(1, 2, 2), matrix(1, 3, 2)), class = "gufunc_shape_error")
  expect_identical(deparse(e$call), "inner(matrix(1, 2, 2), matrix(1, 3, 2))")
})

test_that("gufunc functions print their name, namespace, signature and kind", {
  expect_output(print(spread), "<gufunc_function> spread \\(namespace \"user\"\\)")
  expect_output(print(spread), "signature: double\\(n\\) -> double\\(\\)")
  expect_output(print(spread), "R function \\(slow path")
  test_kernels()
  expect_output(print(gufunc("double(n), double(n) -> double()", "inner",
                             namespace = "gufunc_test")), "native kernel")
})

test_that("gufunc() checks its arguments", {
  expect_error(gufunc(1, sum), class = "gufunc_argument_error")
  expect_error(gufunc("double(n) -> double(", sum), class = "gufunc_signature_error")
  expect_error(gufunc("double(n) -> double()", sum, name = ""), class = "gufunc_argument_error")
  expect_error(gufunc("double(n) -> double()", sum, namespace = NA),
               class = "gufunc_argument_error")
})
