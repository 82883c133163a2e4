// Package load (R requires a source file at the top of src/): builtin kernels into
// the "base" table, .Call routines, callables. The rest of the bridge is in src/r/.
#include "dispatch/table.hpp"
#include "engine/mapped_guard.hpp"
#include "kernels/builtins.hpp"
#include "r/call_registry.hpp"
#include "r/guard.hpp"

namespace gufunc {
namespace r {

std::vector<R_CallMethodDef>& call_entries() {
  static std::vector<R_CallMethodDef> entries;
  return entries;
}

void register_callables();                  // r/callables.cpp
void register_lazy_altrep(DllInfo* dll);    // r/lazy_altrep.cpp
void register_rmath_kernels(Table& table);  // r/rmath_kernels.cpp
void install_kept_memory();                 // r/kept_holders.cpp

}  // namespace r
}  // namespace gufunc

extern "C" void R_init_gufunc(DllInfo* dll) {
  std::vector<R_CallMethodDef> entries = gufunc::r::call_entries();
  entries.push_back({nullptr, nullptr, 0});
  R_registerRoutines(dll, nullptr, entries.data(), nullptr, nullptr);
  R_useDynamicSymbols(dll, FALSE);
  R_forceSymbols(dll, TRUE);
  // A broken builtin table is a bug in gufunc itself: loading fails and says why.
  char failure[512] = "";
  try {
    gufunc::register_builtin_kernels(gufunc::table("base"));
    gufunc::r::register_rmath_kernels(gufunc::table("base"));
  } catch (const std::exception& e) {
    snprintf(failure, sizeof failure, "%s", e.what());
  }
  if (failure[0] != '\0') Rf_error("gufunc could not register its builtin kernels: %s", failure);
  gufunc::r::register_callables();
  gufunc::r::register_lazy_altrep(dll);
  gufunc::r::install_kept_memory();
}

// The bus-error handler of mapped files must not outlive the code it runs.
extern "C" void R_unload_gufunc(DllInfo*) { gufunc::engine::remove_mapped_guard(); }
