// Conversion between C++ exceptions and R conditions (see guard.hpp).
#include "r/guard.hpp"

#include <csetjmp>

namespace gufunc {
namespace r {

SEXP eval_in_namespace(SEXP call) {
  SEXP ns = PROTECT(R_FindNamespace(PROTECT(Rf_mkString("gufunc"))));
  SEXP value = Rf_eval(call, ns);
  UNPROTECT(2);
  return value;
}

void raise_condition(const char* cls, const char* msg) {
  SEXP call = PROTECT(Rf_lang3(Rf_install("raise_condition"), Rf_mkString(cls), Rf_mkString(msg)));
  eval_in_namespace(call);
  Rf_error("%s", msg);  // raise_condition() always signals; this is a fallback
}

namespace {
struct JumpTarget {
  std::jmp_buf buf;
};

void jump_back(void* target, Rboolean jump) {
  if (jump) std::longjmp(static_cast<JumpTarget*>(target)->buf, 1);
}
}  // namespace

SEXP unwind_protect(SEXP (*fn)(void*), void* data) {
  // The token stays protected on the error path: R resets the protection stack
  // when guarded() resumes the unwind.
  SEXP token = PROTECT(R_MakeUnwindCont());
  JumpTarget target;
  if (setjmp(target.buf)) throw RUnwind{token};
  SEXP result = R_UnwindProtect(fn, data, jump_back, &target, token);
  // R keeps the result in the token's CAR, which counts as a reference: without
  // this, every vector made here looks shared and R copies it on its first change.
  SETCAR(token, R_NilValue);
  UNPROTECT(1);
  return result;
}

}  // namespace r
}  // namespace gufunc
