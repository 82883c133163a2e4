// Thread count resolution (see threads.hpp).
#include "r/threads.hpp"

#include <tbb/task_arena.h>  // RcppParallel ships TBB (LinkingTo)

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string>

#include "r/call_registry.hpp"
#include "r/guard.hpp"
#include "r/option_text.hpp"

namespace gufunc {
namespace r {

namespace {

bool check_limits_cores() {
  const char* v = std::getenv("_R_CHECK_LIMIT_CORES_");
  if (v == nullptr || v[0] == '\0') return false;
  std::string s(v);
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s != "false";
}

// More threads than this is a mistake, not a setting: four per core (at least 16),
// so oversubscribing a small machine on purpose still works.
int max_threads() {
  const int cores = static_cast<int>(tbb::this_task_arena::max_concurrency());
  return cores * 4 > 16 ? cores * 4 : 16;
}

int configured_threads() {
  SEXP opt = Rf_GetOption1(Rf_install("gufunc.threads"));
  if (!Rf_isNull(opt)) {
    const double n = option_number(opt);
    const int most = max_threads();
    if (ISNAN(n) || n < 1 || n > most || n != std::floor(n)) {
      throw Error("gufunc_argument_error",
                  "option `gufunc.threads` must be a whole number from 1 to " +
                      std::to_string(most) + " (four per core, at least 16), not " +
                      option_value_text(opt));
    }
    return static_cast<int>(n);
  }
  if (const char* env = std::getenv("RCPP_PARALLEL_NUM_THREADS")) {
    const int n = std::atoi(env);
    if (n > 0) return n;
  }
  return static_cast<int>(tbb::this_task_arena::max_concurrency());
}

}  // namespace

int thread_count() {
  const int n = configured_threads();
  return check_limits_cores() && n > 2 ? 2 : n;
}

namespace {
SEXP threads_entry() {
  return guarded([&]() -> SEXP { return Rf_ScalarInteger(thread_count()); });
}
}  // namespace

}  // namespace r
}  // namespace gufunc

GUFUNC_CALL_ENTRY(gufunc_threads, gufunc::r::threads_entry, 0);
