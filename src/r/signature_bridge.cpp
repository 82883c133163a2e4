// .Call entry for parse_signature(): the C++ Signature as an R list. R validates the
// argument (a single non-NA UTF-8 string) before calling.
#include <string>
#include <vector>

#include "r/call_registry.hpp"
#include "r/guard.hpp"
#include "types/signature.hpp"

namespace {

// Everything the R list needs, computed in C++ before any R allocation so that the
// R-building step below cannot throw.
struct SignatureView {
  const gufunc::Signature* sig;
  std::vector<std::vector<std::string>> labels;
};

SEXP mk_utf8(const std::string& s) {
  return Rf_mkCharLenCE(s.data(), static_cast<int>(s.size()), CE_UTF8);
}

// Runs under unwind_protect: may longjmp (allocation), never throws.
SEXP signature_to_list(void* data) {
  const SignatureView& view = *static_cast<const SignatureView*>(data);
  const gufunc::Signature& sig = *view.sig;
  const int nargs = sig.nargs();

  SEXP core_dims = PROTECT(Rf_allocVector(VECSXP, nargs));
  SEXP dtypes = PROTECT(Rf_allocVector(STRSXP, nargs));
  for (int i = 0; i < nargs; ++i) {
    const std::vector<std::string>& labels = view.labels[i];
    SEXP dims = Rf_allocVector(STRSXP, static_cast<R_xlen_t>(labels.size()));
    SET_VECTOR_ELT(core_dims, i, dims);
    for (size_t j = 0; j < labels.size(); ++j) SET_STRING_ELT(dims, j, mk_utf8(labels[j]));
    const std::string& dtype = sig.args[i].dtype;
    SET_STRING_ELT(dtypes, i, dtype.empty() ? NA_STRING : mk_utf8(dtype));
  }

  const char* names[] = {"text", "nin", "nout", "core_dims", "dtypes", ""};
  SEXP out = PROTECT(Rf_mkNamed(VECSXP, names));
  SEXP text = Rf_allocVector(STRSXP, 1);
  SET_VECTOR_ELT(out, 0, text);
  SET_STRING_ELT(text, 0, mk_utf8(sig.text));
  SET_VECTOR_ELT(out, 1, Rf_ScalarInteger(sig.nin));
  SET_VECTOR_ELT(out, 2, Rf_ScalarInteger(sig.nout));
  SET_VECTOR_ELT(out, 3, core_dims);
  SET_VECTOR_ELT(out, 4, dtypes);
  UNPROTECT(3);
  return out;
}

}  // namespace

extern "C" SEXP gufunc_r_parse_signature(SEXP sig) {
  return gufunc::r::guarded([&] {
    const std::string text = CHAR(STRING_ELT(sig, 0));
    const gufunc::Signature parsed = gufunc::parse_signature(text);
    SignatureView view{&parsed, {}};
    for (int i = 0; i < parsed.nargs(); ++i) view.labels.push_back(parsed.core_dim_labels(i));
    return gufunc::r::unwind_protect(signature_to_list, &view);
  });
}

GUFUNC_CALL_ENTRY(parse_signature, gufunc_r_parse_signature, 1);
