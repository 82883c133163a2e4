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
#define GUFUNC_WARN_CUMSUM_OVERFLOW \
  64u /* "integer overflow in 'cumsum'; use 'cumsum(as.numeric(.))'" */

typedef struct gufunc_context {
  int status;        /* 0 while fine, -1 once an error message is set */
  unsigned warnings; /* GUFUNC_WARN_* bits raised so far */
  char msg[GUFUNC_MSG_SIZE];
  /* With an error: the loop iteration (0-based, counted from the start of the failing
     kernel call) it happened in, or -1 if unknown. gufunc turns it into the index of
     the failing slice in the user's array. */
  intptr_t failed_at;
  /* How a long kernel asks whether to stop (Ctrl-C, a time limit): set by gufunc for
     the kernels it runs, NULL when nobody asks; read it through gufunc_should_stop().
     Appended last, so kernels built against the layout without it keep working. */
  int (*should_stop)(void *stop_data);
  void *stop_data;
} gufunc_context;

static inline void gufunc_context_init(gufunc_context *ctx) {
  ctx->status = 0;
  ctx->warnings = 0u;
  ctx->msg[0] = '\0';
  ctx->failed_at = -1;
  ctx->should_stop = NULL;
  ctx->stop_data = NULL;
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

/* Nonzero when the kernel should stop now: the user pressed Ctrl-C or a time limit
   passed. A kernel whose single slice may take more than a few milliseconds (an
   O(n^3) core) asks every few milliseconds of work and, on a yes, returns
   gufunc_stopped(ctx); the rest of its output is then never used. Callable from any
   thread; cheap enough to ask every millisecond of work. 0 when ctx is NULL or
   gufunc set no check. A gufunc built before this field existed passes a shorter
   context: a package calling this declares the gufunc version it needs in Imports. */
static inline int gufunc_should_stop(const gufunc_context *ctx) {
  return ctx != NULL && ctx->should_stop != NULL && ctx->should_stop(ctx->stop_data) != 0;
}

/* What a kernel returns when gufunc_should_stop() said yes: -1 with a message. gufunc
   shows none: it stops the evaluation with R's own interrupt (or time-limit error). */
static inline int gufunc_stopped(gufunc_context *ctx) {
  return ctx == NULL ? -1 : gufunc_error(ctx, "stopped: the evaluation was interrupted");
}

#endif
