/* gufunc C ABI: the error context every kernel and entry point reports through. */
#ifndef GUFUNC_CONTEXT_H
#define GUFUNC_CONTEXT_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#define GUFUNC_MSG_SIZE 512

/* Warnings are bits, so kernels running on many threads can report them without
   allocation; the caller raises each distinct warning once, on the main thread. */
#define GUFUNC_WARN_INT_OVERFLOW 1u /* "NAs produced by integer overflow" */
#define GUFUNC_WARN_NAN_PRODUCED 2u /* "NaNs produced" */
#define GUFUNC_WARN_MOD_ACCURACY 4u /* "probable complete loss of accuracy in modulus" */
#define GUFUNC_WARN_EMPTY_MIN 16u  /* "no non-missing arguments to min; returning Inf" */
#define GUFUNC_WARN_EMPTY_MAX 32u  /* "no non-missing arguments to max; returning -Inf" */

typedef struct gufunc_context {
  int status;        /* 0 while fine, -1 once an error message is set */
  unsigned warnings; /* GUFUNC_WARN_* bits raised so far */
  char msg[GUFUNC_MSG_SIZE];
  /* With an error: the loop iteration (0-based, counted from the start of the failing
     kernel call) it happened in, or -1 if unknown. gufunc turns it into the index of
     the failing slice in the user's array. */
  intptr_t failed_at;
} gufunc_context;

static inline void gufunc_context_init(gufunc_context *ctx) {
  ctx->status = 0;
  ctx->warnings = 0u;
  ctx->msg[0] = '\0';
  ctx->failed_at = -1;
}

/* Sets an error message (printf-style) and returns -1, so kernels can
   `return gufunc_error(ctx, "...");`. */
static inline int gufunc_error(gufunc_context *ctx, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(ctx->msg, GUFUNC_MSG_SIZE, fmt, ap);
  va_end(ap);
  ctx->status = -1;
  return -1;
}

/* As gufunc_error(), for an error in loop iteration `i` of the current kernel call
   (e.g. a singular matrix in a stack): the user's error names that slice. */
static inline int gufunc_error_at(gufunc_context *ctx, intptr_t i, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(ctx->msg, GUFUNC_MSG_SIZE, fmt, ap);
  va_end(ap);
  ctx->status = -1;
  ctx->failed_at = i;
  return -1;
}

#endif
