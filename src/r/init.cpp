// Package load: builtin kernels into the "base" table, .Call routines, callables.
#include "dispatch/table.hpp"
#include "kernels/builtins.hpp"
#include "r/call_registry.hpp"
#include "r/guard.hpp"

namespace gufunc {
namespace r {

std::vector<R_CallMethodDef>& call_entries() {
  static std::vector<R_CallMethodDef> entries;
  return entries;
}

void register_callables();  // r/callables.cpp

}  // namespace r
}  // namespace gufunc

extern "C" void R_init_gufunc(DllInfo* dll) {
  std::vector<R_CallMethodDef> entries = gufunc::r::call_entries();
  entries.push_back({nullptr, nullptr, 0});
  R_registerRoutines(dll, nullptr, entries.data(), nullptr, nullptr);
  R_useDynamicSymbols(dll, FALSE);
  R_forceSymbols(dll, TRUE);
  try {
    gufunc::register_builtin_kernels(gufunc::table("base"));
  } catch (const std::exception& e) {
    // A broken builtin table is a bug in gufunc itself; loading must say so.
    Rf_warning("gufunc could not register its builtin kernels: %s", e.what());
  }
  gufunc::r::register_callables();
}
