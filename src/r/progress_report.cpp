// Progress reports to R (see progress_report.hpp).
#include "r/progress_report.hpp"

#include <chrono>
#include <memory>

#include "r/eval_settings.hpp"
#include "r/guard.hpp"

namespace gufunc {
namespace r {

namespace {

// Evaluations shorter than this report nothing (cli shows a bar only after 2 s).
const std::chrono::milliseconds kQuietStart(500);

struct Report {
  double done, total;
};

// gufunc:::<fn>(done, total) or gufunc:::<fn>().
SEXP call_namespace(const char* fn, const Report* report) {
  SEXP call = PROTECT(report == nullptr ? Rf_lang1(Rf_install(fn))
                                        : Rf_lang3(Rf_install(fn), Rf_ScalarReal(report->done),
                                                   Rf_ScalarReal(report->total)));
  SEXP value = eval_in_namespace(call);
  UNPROTECT(1);
  return value;
}

SEXP ask_wanted(void*) { return call_namespace("progress_wanted", nullptr); }

SEXP send_report(void* data) {
  call_namespace("progress_update", static_cast<const Report*>(data));
  return R_NilValue;
}

struct ProgressState {
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
  enum class Wanted { Unknown, Yes, No } wanted = Wanted::Unknown;
  bool stopped = false;  // R code jumped: report nothing more
};

}  // namespace

std::function<void(size_t, size_t)> progress_reporter() {
  auto state = std::make_shared<ProgressState>();
  return [state](size_t done, size_t total) {
    if (state->stopped || state->wanted == ProgressState::Wanted::No) return;
    if (std::chrono::steady_clock::now() - state->started < kQuietStart) return;
    try {
      if (state->wanted == ProgressState::Wanted::Unknown) {
        const bool yes = Rf_asLogical(unwind_protect(ask_wanted, nullptr)) == TRUE;
        state->wanted = yes ? ProgressState::Wanted::Yes : ProgressState::Wanted::No;
        if (!yes) return;
      }
      Report report{static_cast<double>(done), static_cast<double>(total)};
      unwind_protect(send_report, &report);
    } catch (const RUnwind& jump) {
      state->stopped = true;
      hold_jump(jump.token);
    }
  };
}

}  // namespace r
}  // namespace gufunc
