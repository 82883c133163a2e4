#' Errors and warnings gufunc raises
#'
#' Every error gufunc raises is an R condition of class `c(<class>,
#' "gufunc_error", "error", "condition")`, so `tryCatch(..., gufunc_error = )` catches
#' them all and a handler for one class catches only that kind. The call of each is
#' the user's call (`matmul(a, b)`, `x + y`, `materialize(z)`), and a message about
#' an argument names it and says what was wrong with its value.
#'
#' Base R's own conditions keep their classes: an operation gufunc hands to base R
#' (see [lazy()]) raises base R's error or warning, and Ctrl-C and [setTimeLimit()]
#' stop an evaluation with R's own interrupt and time-limit error.
#'
#' @section Error classes:
#' \describe{
#'   \item{`gufunc_argument_error`}{An argument or option has a bad value: a flag
#'     that is not `TRUE`/`FALSE`, dimensions out of range, a missing operand, an
#'     option such as `gufunc.threads` out of range (see [gufunc_options]).}
#'   \item{`gufunc_type_error`}{An operand of the wrong type: not a double, integer
#'     or logical vector or array, a classed object, a non-lazy value where a lazy
#'     one is needed.}
#'   \item{`gufunc_shape_error`}{Operand shapes that do not fit: core dimensions that
#'     disagree, loop dimensions that do not broadcast, non-conformable arrays.
#'     Where base R raises the same error for plain values (operators on arrays
#'     that do not fit), it is also a `simpleError`, as base R's is.}
#'   \item{`gufunc_signature_error`}{A gufunc signature that does not parse, or
#'     whose types do not fit the kernel (see [parse_signature()]).}
#'   \item{`gufunc_dispatch_error`}{No kernel of the function accepts the argument
#'     types, or the call has the wrong number of arguments; the message lists the
#'     function's signatures.}
#'   \item{`gufunc_lookup_error`}{No such function or namespace in the lookup tables
#'     (see [gufunc_kernels()]).}
#'   \item{`gufunc_registration_error`}{A kernel cannot be registered or removed
#'     (a duplicate signature, the `"base"` namespace).}
#'   \item{`gufunc_kernel_error`}{A kernel failed while running; the message says
#'     which loop iteration (`slice [, , 3]`). Subclass `gufunc_kernel_result_error`:
#'     an R kernel (see [gufunc()]) returned a value of the wrong type or shape.}
#'   \item{`gufunc_compile_error`}{[gufunc_cpp()] could not compile the body; the
#'     condition's `output` holds the compiler's output.}
#'   \item{`gufunc_depth_error`}{A lazy value nests too many gufunc calls to be
#'     evaluated: `materialize()` an intermediate value.}
#'   \item{`gufunc_memory_error`}{Memory for a result could not be allocated.}
#'   \item{`gufunc_file_error`}{A file of [lazy_file()] or `materialize(file =)`
#'     cannot be opened, read, mapped or written (missing, too short for its data,
#'     no space left on the device); the message names the file. Subclasses:
#'     `gufunc_file_format_error` (not a `.npy` or HDF5 file gufunc can read: bad
#'     magic string, header, version or shape), `gufunc_file_type_error` (a type
#'     gufunc does not read, such as float32 or big-endian values),
#'     `gufunc_file_order_error` (a `.npy` array in C order, see [lazy_file()]).}
#'   \item{`gufunc_file_changed_error`}{A file a lazy value reads has another size,
#'     modification time or inode than when [lazy_file()] mapped it (checked before
#'     each evaluation): call [lazy_file()] again. A file cut short while an
#'     evaluation reads it stops that evaluation with this error too.}
#'   \item{`gufunc_interrupt`}{An evaluation stopped without R's own interrupt to
#'     deliver (a stop requested from C code); Ctrl-C itself is R's interrupt.}
#'   \item{`gufunc_internal_error`}{A bug in gufunc: please report it with the code
#'     that raised it.}
#' }
#'
#' @section Warning classes:
#' \describe{
#'   \item{`gufunc_lookup_warning`}{[gufunc_unregister()] found nothing to remove.}
#' }
#' Warnings of base R's kernels ("NaNs produced", integer overflow, ...) are base
#' R's own `simpleWarning`s with base R's messages, raised once per evaluation on
#' the main thread.
#'
#' @name gufunc_errors
#' @examples
#' r <- tryCatch(matmul(matrix(1:6, 2), matrix(1:6, 2)), gufunc_error = function(e) e)
#' class(r)
#' conditionMessage(r)
#' conditionCall(r)
NULL
