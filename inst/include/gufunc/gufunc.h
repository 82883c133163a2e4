/* gufunc C ABI: everything a kernel author needs, without R. */
#ifndef GUFUNC_H
#define GUFUNC_H

#include "context.h"
#include "kernel.h"
#include "kernel_set.h"
#include "ndarray.h"
#include "version.h"

#endif
