/* gufunc C ABI: the relocatable kernel block and the dynamic kernel instance.

   A kernel is a block of memory that starts with {function, destructor} and is
   followed by data the kernel owns. Rules, so a block can cross library boundaries
   and be moved with memcpy:
   - the block is aligned to a pointer, and its size is a multiple of that alignment;
   - it holds no pointer into itself: a child kernel is found by its byte offset;
   - it assumes no alignment greater than a pointer's for anything inside it. */
#ifndef GUFUNC_KERNEL_H
#define GUFUNC_KERNEL_H

#include <stddef.h>
#include <stdint.h>

typedef struct gufunc_kernel_prefix gufunc_kernel_prefix;
typedef void (*gufunc_destructor_t)(gufunc_kernel_prefix *self);

/* The seed spells the first member `void *`; ISO C does not allow converting an
   object pointer to a function pointer, so it is a generic function pointer here
   (same size and position on every supported platform). */
typedef void (*gufunc_function_t)(void);

struct gufunc_kernel_prefix {
  gufunc_function_t function;     /* prototype known from how the kernel was obtained */
  gufunc_destructor_t destructor; /* releases what the block owns; never frees the block */
};

/* A kernel handed across a library boundary, with the function that frees its memory. */
typedef struct gufunc_dynamic_kernel {
  gufunc_kernel_prefix *kernel;
  size_t kernel_size;
  void (*free_func)(void *);
} gufunc_dynamic_kernel;

/* The child kernel stored `offset` bytes after the start of `self`. */
static inline gufunc_kernel_prefix *gufunc_kernel_child(gufunc_kernel_prefix *self,
                                                        size_t offset) {
  return (gufunc_kernel_prefix *)((char *)self + offset);
}

/* Destroys the kernel, then frees its memory: the two steps the ABI requires. */
static inline void gufunc_dynamic_kernel_release(gufunc_dynamic_kernel *k) {
  if (k->kernel == NULL) return;
  if (k->kernel->destructor != NULL) k->kernel->destructor(k->kernel);
  k->free_func(k->kernel);
  k->kernel = NULL;
  k->kernel_size = 0;
}

#endif
