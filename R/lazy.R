#' Lazy arrays: deferred element-wise expressions
#'
#' `lazy(x)` brings a double, integer or logical vector, matrix or array into
#' gufunc's engine without copying it (R's compact sequences such as `1:n` and
#' `seq_len(n)` stay compact: the engine generates their values block by block as
#' it reads them). Arithmetic, comparison and logic operators
#' and the builtin math functions on lazy values then record a graph instead of
#' computing: `sqrt(a * a + b * b) + c` returns at once, whatever the length. The
#' result is a lazy value whose `typeof()`, `length()`, `dim()`, `dimnames()` and
#' `names()` are what base R would give, known without computing anything.
#'
#' Values are computed when they are needed, in one fused pass over cache-sized
#' blocks on all threads (see [get_gufunc_threads()]), with no full-length temporary
#' for intermediate results:
#' * `materialize(x)` returns the plain base R object, `identical()` to what base R
#'   computes for the same expression;
#' * `sum()`, `prod()`, `min()`, `max()`, `range()`, `mean()`, `any()` and `all()` of
#'   one lazy value reduce it in the same pass, without materializing it;
#' * printing, `head()`, `tail()` and subsets that pick a few elements (`x[i]`,
#'   `x[i, j]`: at most a quarter of `x`, or one run of consecutive positions)
#'   compute only those elements;
#' * any other function (for example `median()`, `sort()`, `format()`) sees an
#'   ordinary R vector: its values are computed once, on first access, and cached.
#'
#' A costly deferred value kept in a variable and read by several evaluations (`f`
#' in `rowSums(f * dx)` and `rowSums(f * dy)`) is computed whole at its second
#' evaluation and kept for the later ones, in memory R's garbage collector counts;
#' it is freed with the last lazy value that can still read it. A value read by one
#' evaluation is never stored.
#'
#' To base R a lazy value is a classed object, and base R code that sets classed
#' objects apart does so with it too. A function that stores an argument as it is
#' keeps the lazy value: `dim(m) <- lazy(d)` gives `m` a lazy `dim` attribute and
#' `scale(m, center = lazy(v))` of a plain `m` a lazy `"scaled:center"` (their values are base
#' R's); `array(v, lazy(d))` of a double `d` converts it but keeps its attributes,
#' so its `dim` is plain data that still carries the class. Base R's own `pmax()` and `pmin()` (`base::pmax()`, as package code calls
#' them) take their branch for classed objects, which gives `NA` where the plain
#' values give `NaN`; gufunc's (see [base_masks]) give base R's plain result.
#' `sort.int()` keeps the attributes of a sorted lazy value as of any classed one,
#' and `all.equal()` of a plain target and a lazy current value reports the class,
#' even where the values are equal. `is.vector()` is `FALSE` for it, so `stack()`, `rle()`, `embed()` and
#' `writeBin()` refuse it; `str()` and `dput()` show the class; `strcapture()` looks for a converter
#' named after it; and before R 4.3 an operator between a data frame and a lazy value
#' is an error (R's internal operator on a list; see below on classes with their own
#' methods). Where that matters, give such functions `materialize(x)`.
#'
#' A subset that picks regular runs of elements (`x[a:b]`, `x[-1]`, `x[-n]`,
#' `x[seq(a, b, by)]`, `m[, j:k]`, `m[i:j, k:l]`, `a[, , i]`, a block of an array
#' with runs in up to three of its dimensions such as `a[i:j, k:l, m:n]`, of any
#' rank when dimensions that continue each other make at most three levels of
#' runs, as `a[2:5, , , ]` of a 4-D array does), or all of a vector or
#' of the first two dimensions shifted circularly (`x[c(n, 1:(n - 1))]`,
#' `a[c(2:n, 1), c(m, 1:(m - 1)), k]`), or runs counting down (`x[n:1]`,
#' `x[seq(b, a, by = -k)]`, `m[n:1, ]`, `m[, k:1]`, `a[, , k:1]`, `a[2:9, 5:2, 8:3]`), or
#' equally spaced rows of a block (`m[seq(1, n, 2), j:k]`), is a view, still lazy,
#' with base R's attributes: of values at hand (`lazy(x)`, a materialized value),
#' the same memory, not a copy; of a deferred element-wise expression, the
#' expression over the picked elements. So `sum((x[-1] - x[-n])^2)` is one pass
#' over `x`. Other subsets are base R's. [lazy_fallbacks()] counts what was handed
#' to base R.
#'
#' `round()`, `signif()`, `log(x, base)` and `atan2()` (with their second argument a
#' number or a lazy value), `is.na()`, `is.nan()`, `is.finite()` and `is.infinite()`
#' are deferred and fused like the operators.
#'
#' `cumsum()`, `cumprod()`, `cummax()` and `cummin()` are deferred scans: the
#' element-wise expression they read is computed block by block on all threads
#' and the running value is carried through the blocks in index order (sums and
#' products in one long double, as base R), so the values have base R's bits.
#' Later operations read the scan's values like an input.
#'
#' Everything the engine does not know falls back to base R with base R's result:
#' other functions (`median()`, `quantile()`, ...), character, complex, factor or
#' Date operands, and operands whose lengths differ (other than a single value
#' against many, which is mapped lazily). An operator between a lazy value and an
#' object whose class has its own method (a Date, difftime or factor) runs
#' gufunc's method, which hands it to base R, from R 4.3 on; older R warns about
#' "Incompatible methods" and computes it without either method.
#'
#' Operations on shorter vectors (fewer than 65536 elements, option
#' `gufunc.lazy_min_length`) are computed at once by base R: while the data fit the
#' processor's cache, recording and evaluating a graph costs more than base R's own
#' loops. Such a result of 256 elements or more, and a subset as short (`m[, j]`,
#' `x[a:b]`), is still a lazy value (its values at hand), so that short vectors that
#' feed large arrays later (`outer(x, x, "-")` in a loop that updates `x`,
#' `outer(a[i, j] / p, a[k, l])` in an elimination step) keep those arrays deferred;
#' a shorter result is a plain vector, so loops over scalars and tiny vectors run at
#' base R's speed.
#'
#' `sum()`, `mean()` and `prod()` give base R's value to the last bit: like base R
#' they accumulate in one long double in index order (`mean()` with base R's second
#' pass), whatever the threads and the block size, so the additions are one chain
#' while the expression is computed on all threads. (While the total keeps its sign
#' and power of two, that chain runs as exact integer additions with the x87 unit's
#' rounding, about twice as fast as the x87 loop and with its bits.) Option
#' `gufunc.sum_order = "fast"` (default `"exact"`) adds sums and means of doubles
#' in chunks of 1024 values instead, each into 16 interleaved double accumulators
#' (vector additions; a chunk whose accumulators are not all finite is added in
#' long double instead), the chunks' sums in order in a long double, every thread
#' summing the chunks it computed; and `mean()` makes one pass: faster, but the last
#' bits may differ from base R's (the result still does not depend on the threads or
#' the block size, and `NA`, `NaN` and infinities come out as base R's).
#'
#' Blocks hold option `gufunc.block_size` elements, else environment variable
#' `GUFUNC_BLOCK_SIZE`, else as many as fit the per-core cache. A block size is a
#' whole number from 1 to 16777216 (2^24; every thread keeps a block-sized buffer
#' per intermediate, so larger blocks only reserve memory); other values are an
#' error of class `gufunc_argument_error` at evaluation. Warnings of an
#' evaluation (for example `NaNs produced`) are raised when the values are computed,
#' once, for the elements computed: where base R warns when it computes a whole
#' expression, `sqrt(x)[2:10]` of a lazy `x` computes, and warns for, only the nine
#' elements it picks; a deferred value computed by two evaluations (into a version
#' of it after a subassignment, then itself) warns in each; and one warning that
#' several operations of an evaluation give (`sqrt(x) + log(y)`, both `NaNs
#' produced`) is raised once. So is `probable complete loss of accuracy in modulus`
#' of `%%` and `^` (a quotient beyond 2^53), which base R gives once for each
#' element. Ctrl-C stops a long evaluation within a fraction of a
#' second and is R's own interrupt, delivered once the engine has stopped: `tryCatch(interrupt = )`
#' sees it, `try()` and `tryCatch(error = )` do not catch it, and the lazy value
#' stays usable (nothing of the stopped evaluation is kept). When an evaluation fails, the
#' same error is raised on every later access.
#'
#' Saved lazy values (`saveRDS()`, `save()`, `serialize()`) are written as their
#' values, computed then, and read back as lazy values. Reading them needs gufunc
#' installed (R loads it); for a session without gufunc, save `materialize(x)`. The
#' format of R before 3.5 (`version = 2`) has no place for a lazy value: it is
#' written as plain data with its attributes, class included, and reads back as
#' such (see the classed objects above); `materialize()` of it gives the plain value.
#'
#' `sum()`, `prod()`, `min()`, `max()` and `range()` of several arguments with a lazy
#' one (`sum(x, y)`, `max(x, 0)`), and `range(x, finite = TRUE)`, reduce each lazy
#' argument in one pass and combine the results as base R does (its types, integer
#' sums that turn double past the int range, `NA` over `NaN`, the warning for no
#' values); other arguments than numbers are base R's.
#'
#' `ifelse()`, `pmax()` and `pmin()` are deferred and fused too (see [base_masks]).
#' Subassignment to a lazy `x` whose subscripts pick regular runs (`x[a:b] <- v`,
#' `x[-1] <- v`, `x[] <- v`, `m[i:j, k:l] <- v`, `m[, c(1, n)] <- v`,
#' `a[, , k] <- v`, `a[i:j, k:l, m:n] <- v`, `diag(m) <- v`, equally spaced
#' indices `x[seq(1, n, 2)] <- v`, `m[seq(1, n, 2), j:k] <- v`, and runs counting
#' down: `x[n:1] <- v`, `m[n:1, ] <- v`, `m[, k:1] <- v`, `a[n:1, j:k, l:m] <- v`, with
#' the value taken in that order, a view of a lazy `v`) with a value of
#' `x`'s type or a lower one, of
#' the region's length or length 1, is deferred: the result is a new lazy version of
#' `x` (other references to the old `x` are unchanged, as in base R), computed when
#' needed in one pass into its own memory, with a deferred `v` computed straight into
#' the positions it goes to. Subsets of the new version read the old version or
#' `v` where they do not meet a write in part. When 5 writes that write less than a
#' quarter of a value wait on it, the next write is base R's on the computed values;
#' writes of more (whole planes, step after step) are computed when 16 wait, and
#' the next write stays deferred. `x[mask] <- v` with a logical `mask` as long as
#' `x` (lazy or not) and one value `v` is deferred as an element-wise choice, so
#' `r[is.infinite(r)] <- 0` fuses with what reads `r` (an `NA` in the mask leaves
#' the element as it is, as in base R). Where `x`'s values are already computed
#' and nothing else refers to `x` (R's complex assignment `x[i] <- v` on a local
#' variable, as base R writes a plain vector in place), a regular write of a small
#' region goes into `x`'s own values instead of a new version: a deferred `v` is
#' computed first, and lazy values made from `x` before (views, deferred
#' expressions) keep reading `x`'s old values (those the write reaches are copied
#' first). This is chosen when it leaves no more garbage than a new version: a
#' deferred `v` (computed first, into memory of its own) and the copies for
#' readers come to at most `x`'s length divided by the writes a new version
#' serves (as many as waited on `x` when its values were computed, or 16). A
#' view or expression that an operator took as a temporary (`a[i, j]` in
#' `a[i, j] <- a[i, j] - b`, which nothing else can read) belongs to the value
#' alone, and needs no copy once the value is computed. So a loop of small writes
#' (`a[k, ] <- v`) and every step of a Gaussian elimination write in place, and a
#' stencil step that keeps views of `x` makes a new version. A direct call
#' `` `[<-`(x, i, value = v) `` never writes in place (unless its first argument is
#' a variable named `` `*tmp*` ``, the name R keeps for its complex assignment, that
#' nothing else refers to). Called as functions, `` `[<-` `` and `` `[[<-` `` take
#' their arguments by position and evaluate them from left to right, as base R's.
#' Other subassignments are base R's too
#' (shorter or longer masks, names, positions past the end, values of a higher type
#' or to be recycled, equally spaced rows of several columns and planes): one
#' copy of the values (a deferred `x` computed straight into it), and a lazy result
#' when the write covers at least half of a
#' large `x`, otherwise a plain one (a loop of small writes then runs as base R's,
#' in place). `rep(x, n)` and `rep(x, each = n)` of a
#' lazy vector read `x` again instead of copying it, so `outer(x, y, f)` of lazy
#' vectors fuses `f` with what follows. `as.vector()`, `as.double()` (or
#' `as.numeric()`), `as.integer()` and `as.logical()` keep a lazy value lazy when
#' they change only its attributes or turn integers or logicals into doubles.
#'
#' `t()`, `rev()`, `diff()` and `aperm()` with a permutation that rotates the dims
#' (`c(2, 1)`, `c(3, 1, 2)`, ...) of a lazy value are views too: they read its memory
#' in another order (an expression's operands, so `t(x) * 2 + y` is one fused pass),
#' with base R's values and attributes; `aperm()` with another permutation computes
#' once. `%*%`, `crossprod()` and `tcrossprod()` compute lazy operands once and then
#' call base R's own product ([base_masks]).
#'
#' Base R functions give base R's plain result: other
#' forms of `rep()`, `Re()` and the like compute on the values, and
#' gufunc's versions of `choose()` and other functions that
#' would keep the class do the same ([base_masks]). Functions
#' that copy every attribute of their first argument without dispatching and that
#' gufunc does not mask (`stats::dnorm()` and the other distribution functions,
#' `stats::fft()`, `storage.mode<-`, `log()`, `round()` and `signif()` of a plain `x` with
#' a longer lazy second argument (R dispatches on `x` only), and base R's functions
#' called from other packages) give
#' plain data that still carries the class; [materialize()] and every gufunc
#' function treat it as the plain value it is, it prints as the plain value, and
#' [is_lazy()] is `FALSE` for it.
#'
#' A lazy value has a class, and base R code that takes only vectors without one
#' tells it apart: `is.vector()` is `FALSE` for it, so `rle()` and `stack()` refuse
#' it and `data.frame()` does not recycle a shorter lazy column; S4 methods see a
#' `"matrix"`. Give such code `materialize(x)`.
#'
#' @param x For `lazy()`: a double, integer or logical vector, matrix or array
#'   without a class. For `is_lazy()` and `materialize()`: any R object.
#' @param file For `materialize()`: `NULL` (the default) to compute the values into
#'   memory, or the path of a `.npy` file to stream them into, block by block, without
#'   holding them in memory (see [lazy_file()]). The file is written under a
#'   temporary name in the same directory and takes its name only when complete:
#'   an error, Ctrl-C or a crash leaves an existing file of that name as it was.
#'   Doubles are written as float64, integers and logicals as int32 (NumPy has no
#'   logical type with `NA`; they read back as integers).
#' @param dataset For `materialize()` with `file`: `NULL` (the default) to write a
#'   `.npy` file, or the name of the dataset to write an HDF5 file of (through the
#'   hdf5r package): a new file holding that one dataset, chunked, written a slab
#'   of about 2^22 values at a time (each computed when written), under a
#'   temporary name until complete; a name with groups (`"g/x"`) creates them.
#' @return `lazy()`: a lazy value of class `"gufunc_lazy"` with the attributes of
#'   `x`. `is_lazy()`: `TRUE` or `FALSE`. `materialize()`: the plain values with the
#'   attributes of `x` but the `"gufunc_lazy"` class; `x` itself when it is not lazy.
#'   With `file`: the file-backed lazy value `lazy_file(file)` (or `lazy_file(file,
#'   dataset)`), with `x`'s dimnames or names, and the dim of a 1-d array.
#' @seealso [lazy_plan()] for how an expression will be evaluated;
#'   [gufunc_buffer_pool()] for the memory of large results.
#' @export
#' @examples
#' a <- lazy(runif(1e6))
#' b <- runif(1e6)
#' z <- sqrt(a * a + b * b) + 1 # records a graph, computes nothing
#' z # computes only the values printed
#' sum(z > 1.5) # one fused pass, no temporary of length 1e6
#' y <- materialize(z)
#' identical(y, sqrt(materialize(a)^2 + b * b) + 1)
#' median(z) # not known to the engine: base R on the values
lazy <- function(x) {
  if (is_lazy(x)) return(x)
  # Plain data that a base R function gave the class (see materialize()).
  if (inherits(x, "gufunc_lazy")) x <- materialize(x)
  if (!typeof(x) %in% c("double", "integer", "logical") || !is.null(attr(x, "class"))) {
    abort_argument("x", sprintf(
      "must be a double, integer or logical vector, matrix or array, not %s", describe(x)),
      class = "gufunc_type_error")
  }
  .Call(C_lazy_wrap, x)
}

#' @rdname lazy
#' @export
is_lazy <- function(x) inherits(x, "gufunc_lazy") && .Call(C_lazy_is_vector, x)

# The values of `v` as a plain vector: a lazy value computed, anything else as it is.
plain_values <- function(v) if (is_lazy(v)) materialize(v) else v

#' @rdname lazy
#' @export
materialize <- function(x, file = NULL, dataset = NULL) {
  if (!is.null(file)) return(materialize_to_file(x, file, dataset, sys.call()))
  if (.Call(C_lazy_is_vector, x)) {
    res <- .Call(C_lazy_materialize, x)
    if (length(res[[2L]]) > 0L) raise_warnings(res[[2L]], sys.call())
    x <- res[[1L]]
    if (is.null(oldClass(x))) return(x)
  }
  # R's own wrapper around a lazy vector (its values are computed now), or plain
  # data with the class (a lazy value read back from a file).
  if (inherits(x, "gufunc_lazy")) oldClass(x) <- setdiff(oldClass(x), "gufunc_lazy")
  x
}

# Whether the values of x are computed (TRUE for plain vectors); tests use it too.
is_materialized <- function(x) .Call(C_lazy_is_materialized, x)

#' Whether a lazy value is deferred or computed
#'
#' A lazy value is *deferred* until something needs its values: [materialize()],
#' a reduction, printing more than its first values, or base R code that reads it
#' whole. From then on it holds its values (*materialized*) and is not computed
#' again. When computing its values raised an error, the value is *failed*: using
#' it raises the error again. (A reduction such as `sum(x)` computes its result,
#' not `x`'s values: an error there leaves `x` as it was.) `lazy(x)` of values at hand is materialized from the start.
#' Asking computes nothing.
#'
#' @param x A lazy value (see [is_lazy()]).
#' @return `"deferred"`, `"materialized"` or `"failed: <the error message>"`.
#' @seealso [lazy_plan()] for what a deferred value will compute.
#' @export
#' @examples
#' a <- lazy(runif(1e5))
#' lazy_state(a)
#' b <- sqrt(a) + 1
#' lazy_state(b)
#' s <- sum(b) # the sum is computed; b itself stays deferred
#' lazy_state(b)
#' invisible(materialize(b))
#' lazy_state(b)
lazy_state <- function(x) {
  if (!is_lazy(x)) {
    abort_argument("x", sprintf("must be a lazy value (see lazy()), not %s", describe(x)),
                   class = "gufunc_type_error")
  }
  sub("^[^,]*, ", "", .Call(C_lazy_describe, x))
}

raise_warnings <- function(texts, call) {
  for (w in texts) warning(warningCondition(w, call = call))
}

# Below this length operations are computed by base R at once (see lazy_methods.R).
lazy_min_length <- function() .Call(C_lazy_min_length)
