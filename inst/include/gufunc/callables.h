/* gufunc C ABI: entry points for other packages, through R's C-callable registry.

   Add `LinkingTo: gufunc` and `Imports: gufunc` (with an import from gufunc in
   NAMESPACE, so gufunc is loaded first) and include this header. The wrappers look up
   gufunc's functions with R_GetCCallable on first use, so call them from R's main
   thread: at load time (R_init_<pkg>) or inside .Call. A kernel obtained with
   gufunc_request_kernel() may then be called from any thread.

   Functions returning int give 0, or -1 with a message in ctx; functions returning a
   pointer give NULL on failure. */
#ifndef GUFUNC_CALLABLES_H
#define GUFUNC_CALLABLES_H

#include <R_ext/Rdynload.h>

#include "gufunc.h"

/* Looks `name` up once. R hands out a generic function pointer; the detour through
   void (*)(void) tells compilers the conversion is intended (-Wcast-function-type). */
#define GUFUNC_CALLABLE(type, name) \
  static type fn = NULL;            \
  if (fn == NULL) fn = (type)(void (*)(void))R_GetCCallable("gufunc", name)

/* The GUFUNC_ABI_VERSION gufunc was built with; compare it with the one in your
   copy of version.h before using anything else. */
static inline int gufunc_abi_version(void) {
  typedef int (*abi_version_fn)(void);
  GUFUNC_CALLABLE(abi_version_fn, "gufunc_c_abi_version");
  return fn();
}

/* The lookup table of namespace `ns`, created if missing. */
static inline gufunc_table* gufunc_table_get(const char* ns) {
  typedef gufunc_table* (*table_get_fn)(const char*);
  GUFUNC_CALLABLE(table_get_fn, "gufunc_c_table_get");
  return fn(ns);
}

/* Adds one kernel set (a name, a typed signature, at least one kernel) to `table`.
   The name and signature are copied; the kernels and their state must outlive the
   process's use of the table, i.e. stay loaded. */
static inline int gufunc_add_kernel(gufunc_table* table, const gufunc_kernel_init* init,
                                    gufunc_context* ctx) {
  typedef int (*add_kernel_fn)(gufunc_table*, const gufunc_kernel_init*, gufunc_context*);
  GUFUNC_CALLABLE(add_kernel_fn, "gufunc_c_add_kernel");
  return fn(table, init, ctx);
}

/* Adds `n` kernel sets to the table of namespace `ns`; stops at the first failure. */
static inline int gufunc_register_kernels(const char* ns, const gufunc_kernel_init* inits, int n,
                                          gufunc_context* ctx) {
  typedef int (*register_fn)(const char*, const gufunc_kernel_init*, int, gufunc_context*);
  GUFUNC_CALLABLE(register_fn, "gufunc_c_register_kernels");
  return fn(ns, inits, n, ctx);
}

/* Frees the state of a kernel set whose state gufunc owns. */
typedef void (*gufunc_state_release_t)(void* state);

/* As gufunc_add_kernel(), for a kernel set with closure-like state (parameters bound
   at construction): gufunc owns init->state from this call on, in every case, and
   calls release(init->state) exactly once, on the main thread, when the kernel set is
   removed: its function is removed or replaced (gufunc_remove_function), its namespace
   is removed (gufunc_remove_namespace), or the process ends. If registration fails,
   release runs before this returns -1. `release` may be NULL (nothing to free) and
   must stay loaded as long as the kernel set exists. Kernel instances requested from
   the set share its state: release them before removing the set. */
static inline int gufunc_add_owned_kernel(gufunc_table* table, const gufunc_kernel_init* init,
                                          gufunc_state_release_t release, gufunc_context* ctx) {
  typedef int (*add_owned_fn)(gufunc_table*, const gufunc_kernel_init*, gufunc_state_release_t,
                              gufunc_context*);
  GUFUNC_CALLABLE(add_owned_fn, "gufunc_c_add_owned_kernel");
  return fn(table, init, release, ctx);
}

/* Removes function `name` (with all its kernel sets, releasing the states gufunc
   owns) from `table`, e.g. before registering it again with other parameters.
   Removing a function that does not exist is not an error. */
static inline int gufunc_remove_function(gufunc_table* table, const char* name,
                                         gufunc_context* ctx) {
  typedef int (*remove_function_fn)(gufunc_table*, const char*, gufunc_context*);
  GUFUNC_CALLABLE(remove_function_fn, "gufunc_c_remove_function");
  return fn(table, name, ctx);
}

/* Kernel set states owned by gufunc (gufunc_add_owned_kernel) not yet released. */
static inline long gufunc_live_owned_states(void) {
  typedef long (*live_owned_fn)(void);
  GUFUNC_CALLABLE(live_owned_fn, "gufunc_c_live_owned_states");
  return fn();
}

/* Installs a fast type check for function `name` of `table` (NULL restores the
   generic one). It must choose what the generic check would choose. */
static inline int gufunc_set_typecheck(gufunc_table* table, const char* name,
                                       gufunc_typecheck_t typecheck, gufunc_context* ctx) {
  typedef int (*set_typecheck_fn)(gufunc_table*, const char*, gufunc_typecheck_t, gufunc_context*);
  GUFUNC_CALLABLE(set_typecheck_fn, "gufunc_c_set_typecheck");
  return fn(table, name, typecheck, ctx);
}

/* Chooses the kernel of `name` in namespace `ns` for `nin` inputs of the given types
   (exact match first, then logical -> integer -> double promotion) and returns it in
   `out` as a dynamic kernel whose function is a gufunc_instance_fn. Call it with
   gufunc_instance_call(); destroy and free it with gufunc_dynamic_kernel_release().
   `out_info` (may be NULL) receives the type every argument must have. */
static inline int gufunc_request_kernel(const char* ns, const char* name,
                                        const gufunc_dtype* in_types, int nin,
                                        gufunc_dynamic_kernel* out, gufunc_kernel_info* out_info,
                                        gufunc_context* ctx) {
  typedef int (*request_fn)(const char*, const char*, const gufunc_dtype*, int,
                            gufunc_dynamic_kernel*, gufunc_kernel_info*, gufunc_context*);
  GUFUNC_CALLABLE(request_fn, "gufunc_c_request_kernel");
  return fn(ns, name, in_types, nin, out, out_info, ctx);
}

/* Drops the lookup table of namespace `ns` with all its kernel sets. A package that
   registered kernels calls it from R_unload_<pkg>, so no table points into a library
   that is gone; loading the package again registers afresh. Instances requested
   earlier keep their own copy of the kernel set and must be released before unloading. */
static inline int gufunc_remove_namespace(const char* ns, gufunc_context* ctx) {
  typedef int (*remove_fn)(const char*, gufunc_context*);
  GUFUNC_CALLABLE(remove_fn, "gufunc_c_remove_namespace");
  return fn(ns, ctx);
}

/* Kernel instances handed out by gufunc_request_kernel() and not yet destroyed. */
static inline long gufunc_live_kernel_instances(void) {
  typedef long (*live_fn)(void);
  GUFUNC_CALLABLE(live_fn, "gufunc_c_live_kernel_instances");
  return fn();
}

#undef GUFUNC_CALLABLE

#endif
