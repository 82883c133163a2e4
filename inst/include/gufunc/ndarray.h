/* gufunc C ABI: element types and the array descriptor nd kernels receive. */
#ifndef GUFUNC_NDARRAY_H
#define GUFUNC_NDARRAY_H

#include <stdint.h>

/* R's three numeric storage types. Logical and integer are both stored as int
   (NA is INT_MIN); double NA is R's NaN with payload 1954. */
typedef enum gufunc_dtype {
  GUFUNC_LOGICAL = 0,
  GUFUNC_INTEGER = 1,
  GUFUNC_DOUBLE = 2,
  GUFUNC_NDTYPES = 3
} gufunc_dtype;

#define GUFUNC_NA_INTEGER INT32_MIN

/* One argument of a kernel call. Dimensions are listed first-fastest (R layout):
   the core dimensions of the signature lead, loop dimensions follow. Strides are
   in bytes and may be 0 for a broadcast dimension. */
typedef struct gufunc_ndarray {
  char *data;
  gufunc_dtype dtype;
  int ndim;
  const intptr_t *shape;
  const intptr_t *strides;
} gufunc_ndarray;

#endif
