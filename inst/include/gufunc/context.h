/* gufunc C ABI: the error context every kernel and entry point reports through. */
#ifndef GUFUNC_CONTEXT_H
#define GUFUNC_CONTEXT_H

#include <stdarg.h>
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
} gufunc_context;

static inline void gufunc_context_init(gufunc_context *ctx) {
  ctx->status = 0;
  ctx->warnings = 0u;
  ctx->msg[0] = '\0';
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

#endif
