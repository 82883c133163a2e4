/* gufunc C ABI: kernel function types, kernel sets, multimethods and lookup tables. */
#ifndef GUFUNC_KERNEL_SET_H
#define GUFUNC_KERNEL_SET_H

#include "context.h"
#include "kernel.h"
#include "ndarray.h"

#define GUFUNC_MAX_ARGS 16

/* What a strided kernel's `data` points to: the kernel's own state and the
   context it reports errors and warnings through. */
typedef struct gufunc_loop_data {
  void *state;
  gufunc_context *ctx;
} gufunc_loop_data;

/* NumPy-compatible strided loop. dimensions[0] is the loop length n, followed by
   the size of each core dimension of the signature (in order of first appearance).
   steps[0..nargs-1] are the byte steps of each argument along the loop, followed by
   the byte strides of each argument's core dimensions. Returns 0, or -1 with a
   message set in ((gufunc_loop_data *)data)->ctx. */
typedef int (*gufunc_strided_kernel_t)(char **args, const intptr_t *dimensions,
                                       const intptr_t *steps, void *data);

/* Kernel over whole array descriptors (the C, Fortran and Xnd slots). Each
   descriptor has the argument's core dimensions first and one loop dimension last.
   Returns 0, or -1 with a message set in ctx. */
typedef int (*gufunc_nd_kernel_t)(const gufunc_ndarray *stack, void *state,
                                  gufunc_context *ctx);

/* Optional check of the resolved core dimension sizes (in order of first
   appearance), e.g. "n must be at least 1". Returns 0, or -1 with a message. */
typedef int (*gufunc_constraint_t)(const intptr_t *dim_sizes, void *state,
                                   gufunc_context *ctx);

/* Specialized kernels for one typed signature. Any slot may be NULL. The dispatcher
   prefers C when the core dimensions are C-contiguous, Fortran when they are
   Fortran-contiguous, then Xnd, then Strided. */
typedef struct gufunc_kernel_set {
  const char *signature; /* e.g. "double(m,n), double(n,p) -> double(m,p)" */
  gufunc_constraint_t constraint;
  gufunc_nd_kernel_t C;
  gufunc_nd_kernel_t Fortran;
  gufunc_nd_kernel_t Xnd;
  gufunc_strided_kernel_t Strided;
  void *state; /* passed to every kernel of the set; owned by the registrant */
} gufunc_kernel_set;

/* One line of a registration array: a function name and one of its kernel sets. */
typedef struct gufunc_kernel_init {
  const char *name;
  const char *signature;
  gufunc_constraint_t constraint;
  gufunc_nd_kernel_t C;
  gufunc_nd_kernel_t Fortran;
  gufunc_nd_kernel_t Xnd;
  gufunc_strided_kernel_t Strided;
  void *state;
} gufunc_kernel_init;

/* A multimethod: a function name with its kernel sets. */
typedef struct gufunc_func gufunc_func;

/* Optional fast type check. It must choose exactly the kernel set the generic
   check would choose (exact match first, then logical -> integer -> double
   promotion), or return NULL with a message set in ctx. */
typedef const gufunc_kernel_set *(*gufunc_typecheck_t)(const gufunc_func *f,
                                                       const gufunc_dtype *in, int nin,
                                                       gufunc_context *ctx);

struct gufunc_func {
  const char *name;
  gufunc_typecheck_t typecheck; /* NULL: the generic O(N) check is used */
  int nkernels;
  const gufunc_kernel_set *kernels;
};

/* A lookup table: one per namespace. Opaque. */
typedef struct gufunc_table gufunc_table;

/* The prototype of a kernel requested as a dynamic kernel instance: a strided
   loop (same dimensions/steps layout as gufunc_strided_kernel_t) that receives
   its own kernel block. */
typedef int (*gufunc_instance_fn)(char **args, const intptr_t *dimensions,
                                  const intptr_t *steps, gufunc_kernel_prefix *self,
                                  gufunc_context *ctx);

/* What a requested kernel expects: argument counts, the type of every argument
   (inputs then outputs, after promotion) and the number of core dimensions. */
typedef struct gufunc_kernel_info {
  int nin;
  int nout;
  gufunc_dtype types[GUFUNC_MAX_ARGS];
  int ndims;
} gufunc_kernel_info;

/* Calls a requested kernel. */
static inline int gufunc_instance_call(gufunc_dynamic_kernel *k, char **args,
                                       const intptr_t *dimensions, const intptr_t *steps,
                                       gufunc_context *ctx) {
  gufunc_instance_fn fn = (gufunc_instance_fn)(k->kernel->function);
  return fn(args, dimensions, steps, k->kernel, ctx);
}

#endif
