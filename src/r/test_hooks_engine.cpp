// Test-only entries for the engine: kernels formed by the blockability rule from
// access descriptors given in R (so overlapping views of one buffer can be tested
// directly), the engine's counters, and core-dim kernels for the lazy gufunc tests.
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "dispatch/table.hpp"
#include "engine/blockability.hpp"
#include "engine/file_read_mode.hpp"
#include "engine/gufunc_step.hpp"
#include "engine/mapped_file.hpp"
#include "engine/ordered_sum.hpp"
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

// The long double sum of double vector x (from `start`, a double) three ways, as
// the raw bytes of each result (the ten bytes an x87 long double uses, one after
// the other): add_in_order(); add_prepared() of its halves, each prepared for the
// binade of the x87 loop's total where the half starts (chunks whose total has left
// that binade by then are refused); the x87 loop. All three must be identical.
SEXP ordered_sum_of(SEXP x, SEXP start) {
  return guarded([&]() -> SEXP {
    if (TYPEOF(x) != REALSXP || TYPEOF(start) != REALSXP || XLENGTH(start) != 1) {
      throw Error("gufunc_argument_error", "`x` and `start` must be double, `start` of length 1");
    }
    const double* v = REAL(x);
    const R_xlen_t n = XLENGTH(x), half = n / 2;
    const long double t0 = REAL(start)[0];
    const long double at_half = engine::add_in_order_x87(t0, v, half);
    engine::InOrderHint hint, prepared_hint;
    std::vector<engine::PreparedChunk> chunks(n / engine::kPreparedChunk + 2);
    engine::prepare_in_order(engine::binade_key(t0), v, half, chunks.data());
    long double prepared = engine::add_prepared(t0, v, half, chunks.data(), &prepared_hint);
    engine::prepare_in_order(engine::binade_key(at_half), v + half, n - half, chunks.data());
    prepared = engine::add_prepared(prepared, v + half, n - half, chunks.data(), &prepared_hint);
    const long double sums[3] = {engine::add_in_order(t0, v, n, &hint), prepared,
                                 engine::add_in_order_x87(t0, v, n)};
    const int used = sizeof(long double) > 10 ? 10 : static_cast<int>(sizeof(long double));
    SEXP out = PROTECT(alloc_vector(RAWSXP, 3 * used));
    for (int k = 0; k < 3; ++k) std::memcpy(RAW(out) + k * used, &sums[k], used);
    UNPROTECT(1);
    return out;
  });
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

// c(gufunc loop iterations run, largest full-length engine buffer in bytes) since the
// last reset; `reset` TRUE sets both to 0 afterwards. Then the bytes of files read in
// place since the package was loaded (engine::mapped_bytes_read(); never reset).
SEXP engine_counters_of(SEXP reset) {
  return guarded([&]() -> SEXP {
    engine::EngineCounters& c = engine::engine_counters();
    SEXP out = alloc_vector(REALSXP, 3);
    REAL(out)[0] = static_cast<double>(c.gufunc_iterations.load());
    REAL(out)[1] = static_cast<double>(c.largest_buffer.load());
    REAL(out)[2] = static_cast<double>(engine::mapped_bytes_read());
    if (Rf_asLogical(reset) == TRUE) {
      c.gufunc_iterations = 0;
      c.largest_buffer = 0;
    }
    return out;
  });
}

// c(seconds per 8 MiB read in place, the same with pread(), whether blocks read
// files in place now) of engine/file_read_mode.hpp (0, 0 before a measurement);
// `forget` TRUE then forgets the measurement, so the next large file is measured.
SEXP file_reads_of(SEXP forget) {
  return guarded([&]() -> SEXP {
    const engine::FileReadsMeasurement m = engine::file_reads_measurement();
    SEXP out = alloc_vector(REALSXP, 3);
    REAL(out)[0] = m.in_place_seconds;
    REAL(out)[1] = m.copied_seconds;
    REAL(out)[2] = engine::file_reads_in_place() ? 1 : 0;
    if (Rf_asLogical(forget) == TRUE) engine::forget_file_reads_measurement();
    return out;
  });
}

// "double(n) -> double()": sum of squares; fails for a slice with a negative value,
// naming the loop iteration (gufunc_error_at).
int sumsq_checked(char** args, const intptr_t* dims, const intptr_t* steps, void* data) {
  auto* loop = static_cast<gufunc_loop_data*>(data);
  for (intptr_t l = 0; l < dims[0]; ++l) {
    double s = 0;
    for (intptr_t k = 0; k < dims[1]; ++k) {
      const double v = *reinterpret_cast<const double*>(args[0] + l * steps[0] + k * steps[2]);
      if (v < 0) return gufunc_error_at(loop->ctx, l, "negative value %g", v);
      s += v * v;
    }
    *reinterpret_cast<double*>(args[1] + l * steps[1]) = s;
  }
  return 0;
}

// "double(n) -> double(n)" as a Fortran nd kernel: running sums, core output.
int running_sum(const gufunc_ndarray* stack, void*, gufunc_context*) {
  const gufunc_ndarray &x = stack[0], &y = stack[1];
  const intptr_t n = x.shape[0], loops = x.shape[1];
  for (intptr_t l = 0; l < loops; ++l) {
    double s = 0;
    for (intptr_t k = 0; k < n; ++k) {
      s += *reinterpret_cast<const double*>(x.data + l * x.strides[1] + k * x.strides[0]);
      *reinterpret_cast<double*>(y.data + l * y.strides[1] + k * y.strides[0]) = s;
    }
  }
  return 0;
}

// "double(n) -> double(), double()": two outputs (min and max of each slice).
int min_max(char** args, const intptr_t* dims, const intptr_t* steps, void*) {
  for (intptr_t l = 0; l < dims[0]; ++l) {
    double lo = HUGE_VAL, hi = -HUGE_VAL;
    for (intptr_t k = 0; k < dims[1]; ++k) {
      const double v = *reinterpret_cast<const double*>(args[0] + l * steps[0] + k * steps[3]);
      lo = v < lo ? v : lo;
      hi = v > hi ? v : hi;
    }
    *reinterpret_cast<double*>(args[1] + l * steps[1]) = lo;
    *reinterpret_cast<double*>(args[2] + l * steps[2]) = hi;
  }
  return 0;
}

SEXP register_lazy_test_kernels() {
  return guarded([&]() -> SEXP {
    if (find_table("gufunc_test_lazy") != nullptr) return R_NilValue;
    Table& t = table("gufunc_test_lazy");
    t.add_kernel({"sumsq_checked", "double(n) -> double()", nullptr, nullptr, nullptr, nullptr,
                  sumsq_checked, nullptr});
    t.add_kernel({"running_sum", "double(n) -> double(n)", nullptr, nullptr, running_sum, nullptr,
                  nullptr, nullptr});
    t.add_kernel({"min_max", "double(n) -> double(), double()", nullptr, nullptr, nullptr, nullptr,
                  min_max, nullptr});
    return R_NilValue;
  });
}

}  // namespace

}  // namespace r
}  // namespace gufunc

GUFUNC_CALL_ENTRY(test_ordered_sum, gufunc::r::ordered_sum_of, 2);
GUFUNC_CALL_ENTRY(test_form_kernels, gufunc::r::kernels_of, 1);
GUFUNC_CALL_ENTRY(test_engine_counters, gufunc::r::engine_counters_of, 1);
GUFUNC_CALL_ENTRY(test_file_reads, gufunc::r::file_reads_of, 1);
GUFUNC_CALL_ENTRY(register_lazy_test_kernels, gufunc::r::register_lazy_test_kernels, 0);
