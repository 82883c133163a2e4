// Every .Call entry and ALTREP method runs its body through guarded(): a C++
// exception becomes a classed R condition, raised only after all C++ frames are gone.
#pragma once

#define R_NO_REMAP
#include <R.h>
#include <Rinternals.h>

#include <exception>
#include <utility>

#include "abi/error.hpp"

namespace gufunc {
namespace r {

// Thrown by unwind_protect() when R code longjmps; guarded() resumes the unwind.
struct RUnwind {
  SEXP token;
};

// Evaluates `call` (an R call of a function of gufunc's R code) in gufunc's
// namespace; it may jump (an R error or interrupt).
SEXP eval_in_namespace(SEXP call);

// Raises an R error of class c(cls, "gufunc_error", "error", "condition"). Never returns.
[[noreturn]] void raise_condition(const char* cls, const char* msg);

// Runs R API code that may longjmp (allocation, evaluation, interrupts) so that the
// jump becomes a C++ exception and C++ destructors still run.
SEXP unwind_protect(SEXP (*fn)(void*), void* data);

template <class F>
SEXP guarded(F&& body) noexcept {
  static const int kClassSize = 128, kMsgSize = 4096;
  char cls[kClassSize] = "gufunc_internal_error";
  char msg[kMsgSize] = "";
  SEXP token = nullptr;
  try {
    return std::forward<F>(body)();
  } catch (const RUnwind& u) {
    token = u.token;
  } catch (const Error& e) {
    snprintf(cls, kClassSize, "%s", e.condition_class().c_str());
    snprintf(msg, kMsgSize, "%s", e.what());
  } catch (const std::bad_alloc&) {
    snprintf(cls, kClassSize, "%s", "gufunc_memory_error");
    snprintf(msg, kMsgSize, "%s", "cannot allocate memory");
  } catch (const std::exception& e) {
    snprintf(msg, kMsgSize, "%s", e.what());
  } catch (...) {
    snprintf(msg, kMsgSize, "%s", "unknown C++ exception");
  }
  // Only plain C data is alive here, so a longjmp is safe.
  if (token != nullptr) R_ContinueUnwind(token);
  raise_condition(cls, msg);
}

}  // namespace r
}  // namespace gufunc
