// Evaluation settings from R options and the environment (see eval_settings.hpp).
#include "r/eval_settings.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "r/guard.hpp"
#include "r/option_text.hpp"
#include "r/progress_report.hpp"
#include "r/threads.hpp"

namespace gufunc {
namespace r {

namespace {

// Every thread keeps a scratch buffer of a block per register, so blocks past the
// cache gain nothing and a huge block reserves gigabytes (2^24 doubles: 128 MiB).
const double kMaxBlockSize = 16777216.0;
const char* const kBlockSizeRule =
    "must be a whole number of elements per block from 1 to 16777216";

size_t block_size_from_option(SEXP opt) {
  const bool number = (TYPEOF(opt) == REALSXP || TYPEOF(opt) == INTSXP) && XLENGTH(opt) == 1 &&
                      Rf_getAttrib(opt, R_ClassSymbol) == R_NilValue;
  const double n = number ? Rf_asReal(opt) : NA_REAL;
  if (ISNAN(n) || n < 1 || n > kMaxBlockSize || n != std::floor(n)) {
    char given[64];
    if (number) {
      snprintf(given, sizeof given, "%.15g", n);
    } else {
      snprintf(given, sizeof given, "a %s vector of length %lld", Rf_type2char(TYPEOF(opt)),
               static_cast<long long>(Rf_xlength(opt)));
    }
    throw Error("gufunc_argument_error",
                std::string("option `gufunc.block_size` ") + kBlockSizeRule + ", not " + given);
  }
  return static_cast<size_t>(n);
}

size_t block_size_from_env(const char* text) {
  errno = 0;
  char* end = nullptr;
  const unsigned long long n = std::strtoull(text, &end, 10);
  const bool digits_only = text[0] >= '0' && text[0] <= '9' && *end == '\0';
  if (!digits_only || errno != 0 || n < 1 || static_cast<double>(n) > kMaxBlockSize) {
    throw Error("gufunc_argument_error", std::string("environment variable `GUFUNC_BLOCK_SIZE` ") +
                                             kBlockSizeRule + ", not \"" + text + "\"");
  }
  return static_cast<size_t>(n);
}

// R checks the limits of setTimeLimit() in R_ProcessEvents(), which
// R_CheckUserInterrupt() calls; but R 4.2 (src/unix/sys-std.c) reads the clock only
// on every 5th call, and at most every 0.05 s. One check per round would so see a
// passed limit only five rounds later: each round makes five calls, so a passed
// limit is seen at the next round's end. A call costs microseconds.
const int kCallsPerTimeCheck = 5;

SEXP check_user_interrupt(void*) {
  for (int i = 0; i < kCallsPerTimeCheck; ++i) R_CheckUserInterrupt();
  return R_NilValue;
}

// The jump R began at the last interrupt check (its interrupt, or the error of a
// time limit set by setTimeLimit()), resumed once the engine has stopped.
SEXP pending_jump = nullptr;

// Tests: checks left until a simulated Ctrl-C (0: none).
int checks_to_simulated_interrupt = 0;

// The index in `choices` of string option `name`, or 0 (the default) when it is
// unset; throws gufunc_argument_error naming the option and the choices otherwise.
size_t option_choice(const char* name, const std::vector<std::string>& choices) {
  SEXP opt = Rf_GetOption1(Rf_install(name));
  if (Rf_isNull(opt)) return 0;
  if (TYPEOF(opt) == STRSXP && XLENGTH(opt) == 1 && STRING_ELT(opt, 0) != NA_STRING) {
    const auto at = std::find(choices.begin(), choices.end(), CHAR(STRING_ELT(opt, 0)));
    if (at != choices.end()) return static_cast<size_t>(at - choices.begin());
  }
  std::string allowed;
  for (size_t k = 0; k < choices.size(); ++k) {
    allowed += (k == 0 ? "" : k + 1 == choices.size() ? " or " : ", ") + ('"' + choices[k] + '"');
  }
  throw Error("gufunc_argument_error", std::string("option `") + name + "` must be " + allowed +
                                           ", not " + option_value_text(opt));
}

}  // namespace

size_t block_size_setting() {
  SEXP opt = Rf_GetOption1(Rf_install("gufunc.block_size"));
  if (!Rf_isNull(opt)) return block_size_from_option(opt);
  const char* env = std::getenv("GUFUNC_BLOCK_SIZE");
  if (env != nullptr && env[0] != '\0') return block_size_from_env(env);
  return 0;
}

engine::SumOrder sum_order_setting() {
  return option_choice("gufunc.sum_order", {"exact", "fast"}) == 0 ? engine::SumOrder::Exact
                                                                   : engine::SumOrder::Fast;
}

engine::FileReads file_reads_setting() {
  const engine::FileReads ways[] = {engine::FileReads::Auto, engine::FileReads::Mapped,
                                    engine::FileReads::Pread};
  return ways[option_choice("gufunc.file_reads", {"auto", "mapped", "pread"})];
}

void hold_jump(SEXP token) {
  if (pending_jump == nullptr) pending_jump = token;  // stays protected until resumed
}

void simulate_interrupt_at_check(int k) { checks_to_simulated_interrupt = k; }

bool interrupt_pending() {
  if (pending_jump != nullptr) return true;  // a progress report's R code jumped
  if (checks_to_simulated_interrupt > 0 && --checks_to_simulated_interrupt == 0) return true;
  try {
    unwind_protect(check_user_interrupt, nullptr);
    return false;
  } catch (const RUnwind& jump) {
    pending_jump = jump.token;  // stays protected until R resumes it
    return true;
  }
}

void stop_interrupted() {
  const SEXP token = pending_jump;
  pending_jump = nullptr;
  if (token != nullptr) throw RUnwind{token};
  throw Error("gufunc_interrupt", "evaluation interrupted");
}

RoundHooks round_hooks() {
  pending_jump = nullptr;
  RoundHooks hooks;
  hooks.interrupted = interrupt_pending;
  hooks.progress = progress_reporter();
  return hooks;
}

EvalSettings::EvalSettings() : runner(thread_count()) {
  options.runner = &runner;
  options.block_size = block_size_setting();
  options.sum_order = sum_order_setting();
  engine::set_file_reads(file_reads_setting());
  options.hooks = round_hooks();
}

}  // namespace r
}  // namespace gufunc
