/* gufuncext: a kernel with closure-like state, registered through gufunc's owned-state
   ABI. pnorm "double(n) -> double()" is the p-norm (sum |x|^p)^(1/p) of each core
   vector; p is bound when R calls gufuncext_bind_pnorm(), stored in a state this file
   allocates, and freed by pnorm_release() when gufunc drops the kernel set: on binding
   again (gufunc_remove_function), on gufunc_remove_namespace (.onUnload) or at exit. */
#include <math.h>
#include <stdlib.h>

#include "gufuncext.h"

typedef struct pnorm_state {
  double p;
} pnorm_state;

/* gufunc calls release on the main thread, so plain counters do. */
static double states_created = 0, states_released = 0;

static void pnorm_release(void* state) {
  free(state);
  states_released += 1;
}

/* dimensions = {loop n, core n}; steps = {loop steps of x, out; core step of x}. */
static int pnorm_strided(char** args, const intptr_t* dimensions, const intptr_t* steps,
                         void* data) {
  const pnorm_state* st = (const pnorm_state*)((gufunc_loop_data*)data)->state;
  intptr_t i, j;
  for (i = 0; i < dimensions[0]; ++i) {
    const char* x = args[0] + i * steps[0];
    long double acc = 0.0;
    for (j = 0; j < dimensions[1]; ++j) {
      acc += pow(fabs(*(const double*)(x + j * steps[2])), st->p);
    }
    *(double*)(args[1] + i * steps[1]) = pow((double)acc, 1.0 / st->p);
  }
  return 0;
}

/* Binds p into a new state and registers it as function `name` of namespace
   "gufuncext", replacing (and so releasing) an earlier binding of that name. */
SEXP gufuncext_bind_pnorm(SEXP name, SEXP p) {
  gufunc_context ctx;
  gufunc_kernel_init init = {NULL, "double(n) -> double()", NULL, NULL, NULL,
                             NULL, pnorm_strided,           NULL};
  gufunc_table* table;
  pnorm_state* state;
  double value = Rf_asReal(p);
  if (!R_FINITE(value) || value <= 0) Rf_error("p must be a positive number");
  gufunc_context_init(&ctx);
  table = gufunc_table_get("gufuncext");
  if (table == NULL) Rf_error("no lookup table for namespace gufuncext");
  if (gufunc_remove_function(table, CHAR(STRING_ELT(name, 0)), &ctx) != 0) {
    Rf_error("%s", ctx.msg);
  }
  state = (pnorm_state*)malloc(sizeof(pnorm_state));
  if (state == NULL) Rf_error("out of memory");
  state->p = value;
  states_created += 1;
  init.name = CHAR(STRING_ELT(name, 0));
  init.state = state;
  /* From here gufunc owns the state, even if registration fails. */
  if (gufunc_add_owned_kernel(table, &init, pnorm_release, &ctx) != 0) {
    Rf_error("%s", ctx.msg);
  }
  return R_NilValue;
}

SEXP gufuncext_pnorm_states(void) {
  SEXP out = PROTECT(Rf_allocVector(REALSXP, 2));
  SEXP names = PROTECT(Rf_allocVector(STRSXP, 2));
  REAL(out)[0] = states_created;
  REAL(out)[1] = states_released;
  SET_STRING_ELT(names, 0, Rf_mkChar("created"));
  SET_STRING_ELT(names, 1, Rf_mkChar("released"));
  Rf_setAttrib(out, R_NamesSymbol, names);
  UNPROTECT(2);
  return out;
}
