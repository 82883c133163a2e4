// .Call entry points register themselves next to their definition, so adding an
// entry touches one file; R_init_gufunc installs the collected table.
#pragma once

#define R_NO_REMAP
#include <R.h>
#include <R_ext/Rdynload.h>
#include <Rinternals.h>

#include <vector>

namespace gufunc {
namespace r {

std::vector<R_CallMethodDef>& call_entries();

struct CallEntry {
  CallEntry(const char* name, DL_FUNC fn, int nargs) {
    call_entries().push_back({name, fn, nargs});
  }
};

}  // namespace r
}  // namespace gufunc

// GUFUNC_CALL_ENTRY(parse_signature, gufunc_r_parse_signature, 1) makes the C
// function available to R as C_parse_signature.
#define GUFUNC_CALL_ENTRY(r_name, fn, nargs) \
  static const gufunc::r::CallEntry r_name##_entry(#r_name, (DL_FUNC)(void (*)(void)) & fn, nargs)
