// Test-only entry for the blockability rule: kernels formed from access descriptors
// given in R, so overlapping views of one buffer can be tested directly.
#include <string>
#include <vector>

#include "engine/blockability.hpp"
#include "r/call_registry.hpp"
#include "r/guard.hpp"
#include "r/r_arrays.hpp"

namespace gufunc {
namespace r {

namespace {

// One access from a numeric vector c(space, buffer, offset, extent, step); space is
// 0 memory, 1 scratch, 2 reduced, 3 constant; `buffer` is a buffer number (memory)
// or a slot id (scratch, reduced).
engine::Access access_from(SEXP v) {
  if (TYPEOF(v) != REALSXP || XLENGTH(v) != 5) {
    throw Error("gufunc_argument_error", "an access is c(space, buffer, offset, extent, step)");
  }
  const double* d = REAL(v);
  engine::Access a;
  a.space = static_cast<engine::Space>(static_cast<int>(d[0]));
  if (a.space == engine::Space::Memory) {
    // Distinct buffer numbers stand for distinct allocations.
    a.buffer = reinterpret_cast<const void*>(static_cast<uintptr_t>(d[1]) + 1);
  } else {
    a.id = static_cast<intptr_t>(d[1]);
  }
  a.offset = static_cast<intptr_t>(d[2]);
  a.extent = static_cast<intptr_t>(d[3]);
  a.step = static_cast<intptr_t>(d[4]);
  return a;
}

// `batch` is a list of list(inputs = list(access...), outputs = list(access...)).
// Returns list(starts = 1-based first instruction of each kernel, reasons).
SEXP kernels_of(SEXP batch) {
  return guarded([&]() -> SEXP {
    std::vector<engine::InstructionAccess> instructions;
    for (R_xlen_t i = 0; i < XLENGTH(batch); ++i) {
      SEXP ins = VECTOR_ELT(batch, i);
      engine::InstructionAccess ia;
      SEXP in = VECTOR_ELT(ins, 0), out = VECTOR_ELT(ins, 1);
      for (R_xlen_t k = 0; k < XLENGTH(in); ++k)
        ia.inputs.push_back(access_from(VECTOR_ELT(in, k)));
      for (R_xlen_t k = 0; k < XLENGTH(out); ++k) {
        ia.outputs.push_back(access_from(VECTOR_ELT(out, k)));
      }
      instructions.push_back(ia);
    }
    std::vector<std::string> reasons;
    const std::vector<size_t> starts = engine::form_kernels(instructions, &reasons);
    SEXP res = PROTECT(alloc_vector(VECSXP, 2));
    SEXP s = alloc_vector(INTSXP, static_cast<R_xlen_t>(starts.size()));
    SET_VECTOR_ELT(res, 0, s);
    for (size_t k = 0; k < starts.size(); ++k) INTEGER(s)[k] = static_cast<int>(starts[k]) + 1;
    SEXP r = alloc_vector(STRSXP, static_cast<R_xlen_t>(reasons.size()));
    SET_VECTOR_ELT(res, 1, r);
    for (size_t k = 0; k < reasons.size(); ++k) SET_STRING_ELT(r, k, Rf_mkChar(reasons[k].c_str()));
    UNPROTECT(1);
    return res;
  });
}

}  // namespace

}  // namespace r
}  // namespace gufunc

GUFUNC_CALL_ENTRY(test_form_kernels, gufunc::r::kernels_of, 1);
