// Test-only entries for the round scheduler (dispatch/rounds.hpp): its rounds and
// progress reports over items of a given cost, the progress an evaluation of a lazy
// value reports, and a simulated Ctrl-C at a given interrupt check.
#include <chrono>
#include <thread>
#include <vector>

#include "dispatch/rounds.hpp"
#include "engine/evaluate.hpp"
#include "engine/scratch_buffer.hpp"
#include "r/call_registry.hpp"
#include "r/eval_settings.hpp"
#include "r/guard.hpp"
#include "r/lazy_altrep.hpp"

namespace gufunc {
namespace r {

namespace {

// A numeric vector of the values.
SEXP reals(const std::vector<double>& v) {
  SEXP out = Rf_allocVector(REALSXP, static_cast<R_xlen_t>(v.size()));
  for (size_t i = 0; i < v.size(); ++i) REAL(out)[i] = v[i];
  return out;
}

// list(rounds, done, total): the round sizes and progress reports of n items of
// item_us[i] microseconds each, the first round of `first` items.
SEXP test_rounds(SEXP n_, SEXP first_, SEXP item_us_) {
  return guarded([&]() -> SEXP {
    const size_t n = static_cast<size_t>(Rf_asReal(n_));
    const double* cost = REAL(item_us_);
    std::vector<double> rounds, done, total;
    RoundHooks hooks;
    hooks.progress = [&](size_t d, size_t t) {
      done.push_back(static_cast<double>(d));
      total.push_back(static_cast<double>(t));
    };
    const size_t first = static_cast<size_t>(Rf_asReal(first_));
    run_in_rounds(n, first, first, hooks, nullptr, [&](size_t from, size_t to) {
      rounds.push_back(static_cast<double>(to - from));
      double us = 0;
      for (size_t i = from; i < to; ++i) us += cost[i % XLENGTH(item_us_)];
      std::this_thread::sleep_for(std::chrono::duration<double, std::micro>(us));
    });
    SEXP out = PROTECT(Rf_allocVector(VECSXP, 3));
    SET_VECTOR_ELT(out, 0, reals(rounds));
    SET_VECTOR_ELT(out, 1, reals(done));
    SET_VECTOR_ELT(out, 2, reals(total));
    UNPROTECT(1);
    return out;
  });
}

// list(done, total): the progress reports of evaluating lazy value x (the value is
// computed into a scratch buffer and dropped).
SEXP test_eval_progress(SEXP x) {
  return guarded([&]() -> SEXP {
    SEXP lazy = lazy_inside(x);
    if (lazy == nullptr) throw Error("gufunc_argument_error", "not a lazy value");
    const engine::NodePtr node = lazy_node_use(lazy).node;
    EvalSettings settings;
    std::vector<double> done, total;
    settings.options.hooks.progress = [&](size_t d, size_t t) {
      done.push_back(static_cast<double>(d));
      total.push_back(static_cast<double>(t));
    };
    engine::ScratchBuffer out;
    out.resize(static_cast<size_t>(node->length) * dtype_size(node->dtype));
    try {
      engine::evaluate(node, 0, node->length, out.data(), settings.options);
    } catch (const Interrupted&) {
      stop_interrupted();
    }
    SEXP res = PROTECT(Rf_allocVector(VECSXP, 2));
    SET_VECTOR_ELT(res, 0, reals(done));
    SET_VECTOR_ELT(res, 1, reals(total));
    UNPROTECT(1);
    return res;
  });
}

// The k-th interrupt check from now says stop (simulate_interrupt_at_check()).
SEXP test_interrupt_at_check(SEXP k) {
  return guarded([&]() -> SEXP {
    simulate_interrupt_at_check(Rf_asInteger(k));
    return R_NilValue;
  });
}

}  // namespace

}  // namespace r
}  // namespace gufunc

GUFUNC_CALL_ENTRY(test_rounds, gufunc::r::test_rounds, 3);
GUFUNC_CALL_ENTRY(test_eval_progress, gufunc::r::test_eval_progress, 1);
GUFUNC_CALL_ENTRY(test_interrupt_at_check, gufunc::r::test_interrupt_at_check, 1);
