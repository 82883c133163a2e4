/* gufunc C ABI: version of the binary interface described by these headers. */
#ifndef GUFUNC_VERSION_H
#define GUFUNC_VERSION_H

/* Bumped whenever a struct layout or a function prototype in inst/include/gufunc changes.
   A consumer compares it with gufunc_abi_version() at load time. */
#define GUFUNC_ABI_VERSION 1

#endif
