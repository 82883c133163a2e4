# gufunc demo: signatures, dispatch tables and eager gufunc calls.
library(gufunc)

# A signature carries the layout (NumPy's gufunc grammar) and the argument types.
s <- parse_signature("double(m,n), double(n,p) -> double(m,p)")
print(s)
s$core_dims

# The builtin kernels live in namespace "base" under base R's names.
head(gufunc_kernels())
gufunc_kernels("add")

# Element-wise calls are identical() to base R, NA vs NaN and attributes included.
x <- 1:3
y <- c(0.5, NA, 2)
gufunc_call("add", x, y)
stopifnot(identical(gufunc_call("+", x, y), x + y))
m <- matrix(c(-1, 4, 9, 16), 2, dimnames = list(c("a", "b"), c("u", "v")))
stopifnot(identical(suppressWarnings(gufunc_call("sqrt", m)), suppressWarnings(sqrt(m))))

# Integer overflow gives NA with base R's warning.
tryCatch(gufunc_call("*", .Machine$integer.max, 2L), warning = function(w) print(conditionMessage(w)))

# Large inputs run on several threads (RcppParallel; see get_gufunc_threads()).
n <- 1e7
a <- runif(n)
b <- runif(n)
cat("threads:", get_gufunc_threads(), "\n")
stopifnot(identical(a * b, gufunc_call("*", a, b)))
median_ms <- function(f) {
  median(vapply(1:5, function(i) {
    gc(FALSE)
    system.time(f())[["elapsed"]]
  }, 0)) * 1e3
}
t_base <- median_ms(function() a * b)
t_gufunc <- median_ms(function() gufunc_call("*", a, b))
cat(sprintf("a * b on 1e7 doubles (median of 5): base R %.0f ms, gufunc %.0f ms\n",
            t_base, t_gufunc))
