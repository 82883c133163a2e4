// The evaluation settings in effect, for R's getters (R/settings.R): each read as an
// evaluation reads it, so a bad option raises the same error here.
#include "r/call_registry.hpp"
#include "r/eval_settings.hpp"
#include "r/guard.hpp"

namespace gufunc {
namespace r {

namespace {

// The block size in elements (NULL: sized from the cache), and the sum order.
SEXP settings_entry() {
  return guarded([&]() -> SEXP {
    const size_t block = block_size_setting();
    const bool exact = sum_order_setting() == engine::SumOrder::Exact;
    SEXP out = PROTECT(Rf_allocVector(VECSXP, 2));
    SET_VECTOR_ELT(out, 0, block == 0 ? R_NilValue : Rf_ScalarReal(static_cast<double>(block)));
    SET_VECTOR_ELT(out, 1, Rf_mkString(exact ? "exact" : "fast"));
    UNPROTECT(1);
    return out;
  });
}

}  // namespace

}  // namespace r
}  // namespace gufunc

GUFUNC_CALL_ENTRY(eval_settings_now, gufunc::r::settings_entry, 0);
