// Progress reports to R (see progress_report.hpp).
#include "r/progress_report.hpp"

#include <chrono>
#include <memory>

#include "r/eval_settings.hpp"
#include "r/guard.hpp"
#include "r/option_text.hpp"

namespace gufunc {
namespace r {

namespace {

// Evaluations shorter than this report nothing (cli shows a bar only after 2 s),
// unless option gufunc.progress_after says otherwise.
const double kQuietStartSeconds = 0.5;
const double kMaxQuietStartSeconds = 86400;  // a day: more is a typo

// Option gufunc.progress_after: seconds of silence at the start of an evaluation.
std::chrono::steady_clock::duration quiet_start_setting() {
  static const SEXP option = Rf_install("gufunc.progress_after");
  SEXP opt = Rf_GetOption1(option);
  double seconds = kQuietStartSeconds;
  if (!Rf_isNull(opt)) {
    seconds = option_number(opt);
    if (ISNAN(seconds) || seconds < 0 || seconds > kMaxQuietStartSeconds) {
      throw Error("gufunc_argument_error",
                  "option `gufunc.progress_after` must be a single number of seconds from 0 to "
                  "86400, not " +
                      option_value_text(opt));
    }
  }
  return std::chrono::duration_cast<std::chrono::steady_clock::duration>(
      std::chrono::duration<double>(seconds));
}

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
  std::chrono::steady_clock::duration quiet = quiet_start_setting();
  enum class Wanted { Unknown, Yes, No } wanted = Wanted::Unknown;
  bool stopped = false;  // R code jumped: report nothing more
};

}  // namespace

std::function<void(size_t, size_t)> progress_reporter() {
  auto state = std::make_shared<ProgressState>();
  return [state](size_t done, size_t total) {
    if (state->stopped || state->wanted == ProgressState::Wanted::No) return;
    if (std::chrono::steady_clock::now() - state->started < state->quiet) return;
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
