// Test-only entries for the allocation of large results: a limit on the process's
// address space, so a test in a child process can make fresh allocations fail, and
// the weight R's collector counts for a lazy vector's values (output_alloc.hpp).
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "engine/buffer_readers.hpp"
#include "r/call_registry.hpp"
#include "r/guard.hpp"
#include "r/lazy_altrep.hpp"
#include "r/lazy_state.hpp"

#if defined(__linux__)
#include <sys/resource.h>
#endif

namespace gufunc {
namespace r {

namespace {

#if defined(__linux__)
// Bytes of address space the process uses now (/proc), or 0.
double address_space_now() {
  double kb = 0;
  if (FILE* f = std::fopen("/proc/self/status", "r")) {
    char line[256];
    while (std::fgets(line, sizeof line, f)) {
      if (std::strncmp(line, "VmSize:", 7) == 0) kb = std::atof(line + 7);
    }
    std::fclose(f);
  }
  return kb * 1024;
}
#endif

// Limits the address space to what is used now plus `extra_mb`; FALSE where that
// cannot be done (not Linux).
SEXP limit_address_space(SEXP extra_mb) {
  return guarded([&]() -> SEXP {
#if defined(__linux__)
    const double now = address_space_now();
    if (now > 0) {
      rlimit limit;
      limit.rlim_cur = limit.rlim_max = static_cast<rlim_t>(now + Rf_asReal(extra_mb) * 1048576.0);
      if (setrlimit(RLIMIT_AS, &limit) == 0) return Rf_ScalarLogical(TRUE);
    }
#endif
    return Rf_ScalarLogical(FALSE);
  });
}

// Bytes of the collector weight kept beside lazy vector x's values (0 if none).
SEXP collector_weight_bytes(SEXP x) {
  return guarded([&]() -> SEXP {
    if (!is_lazy_vector(x)) return Rf_ScalarReal(0);
    SEXP weight = VECTOR_ELT(R_altrep_data2(x), kWeightSlot);
    return Rf_ScalarReal(weight == R_NilValue ? 0 : static_cast<double>(XLENGTH(weight)));
  });
}

}  // namespace

extern double in_place_writes, direct_writes, mirrored_writes;  // lazy_assign.cpp
extern double donated_results, min_donor_bytes;                 // donated_memory.cpp

namespace {
// c(subassignments written in place, bytes of values copied for their readers
// first, of those writes the ones whose value was computed straight into x,
// values computed into a temporary operand's memory, writes whose value was
// stored into x as it was computed) so far; all zero afterwards if `reset`.
SEXP in_place_counters(SEXP reset) {
  return guarded([&]() -> SEXP {
    SEXP out = Rf_allocVector(REALSXP, 5);
    REAL(out)[0] = in_place_writes;
    REAL(out)[1] = engine::reader_bytes_copied();
    REAL(out)[2] = direct_writes;
    REAL(out)[3] = donated_results;
    REAL(out)[4] = mirrored_writes;
    if (Rf_asLogical(reset) == TRUE) {
      in_place_writes = direct_writes = donated_results = mirrored_writes = 0;
      engine::reader_bytes_copied() = 0;
    }
    return out;
  });
}
// The smallest operand whose memory a lazy value may take, in bytes
// (donated_memory.cpp), set to `bytes`; returns the one before.
SEXP set_min_donor_bytes(SEXP bytes) {
  return guarded([&]() -> SEXP {
    const double before = min_donor_bytes;
    min_donor_bytes = Rf_asReal(bytes);
    return Rf_ScalarReal(before);
  });
}
}  // namespace

}  // namespace r
}  // namespace gufunc

GUFUNC_CALL_ENTRY(test_limit_address_space, gufunc::r::limit_address_space, 1);
GUFUNC_CALL_ENTRY(test_collector_weight, gufunc::r::collector_weight_bytes, 1);
GUFUNC_CALL_ENTRY(test_in_place_counters, gufunc::r::in_place_counters, 1);
GUFUNC_CALL_ENTRY(test_min_donor_bytes, gufunc::r::set_min_donor_bytes, 1);
