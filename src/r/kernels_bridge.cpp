// .Call entries listing the kernel sets of a namespace for gufunc_kernels(), and
// the traits of the builtin element-wise functions.
#include <string>
#include <vector>

#include "dispatch/table.hpp"
#include "r/call_registry.hpp"
#include "r/guard.hpp"
#include "r/lookup.hpp"
#include "r/r_arrays.hpp"

namespace gufunc {
namespace r {

namespace {

std::string variants_of(const gufunc_kernel_set& s) {
  std::string out;
  auto add = [&](bool has, const char* v) {
    if (has) out += (out.empty() ? "" : ",") + std::string(v);
  };
  add(s.C != nullptr, "C");
  add(s.Fortran != nullptr, "Fortran");
  add(s.Xnd != nullptr, "Xnd");
  add(s.Strided != nullptr, "Strided");
  return out;
}

// list(name, signature, variants) over one function (name given) or all of them.
SEXP kernels(SEXP name, SEXP ns) {
  return guarded([&]() -> SEXP {
    std::vector<Function*> fns;
    if (Rf_isNull(name)) {
      Table& t = existing_table(CHAR(STRING_ELT(ns, 0)));
      for (const std::string& n : t.names()) fns.push_back(t.find(n));
    } else {
      fns.push_back(&lookup_function(name, ns));
    }
    std::vector<std::string> names, sigs, variants;
    for (Function* f : fns) {
      for (int i = 0; i < f->size(); ++i) {
        names.push_back(f->name());
        sigs.push_back(f->signature(i).text);
        variants.push_back(variants_of(f->set(i)));
      }
    }
    SEXP out = PROTECT(alloc_vector(VECSXP, 3));
    SET_VECTOR_ELT(out, 0, utf8_strings(names));
    SET_VECTOR_ELT(out, 1, utf8_strings(sigs));
    SET_VECTOR_ELT(out, 2, utf8_strings(variants));
    UNPROTECT(1);
    return out;
  });
}

SEXP namespaces() {
  return guarded([&]() -> SEXP { return utf8_strings(table_names()); });
}

// list(name, family, deferred) of the builtin element-wise functions of "base"
// and their aliases: what R's methods read to treat them (R/builtin_traits.R).
SEXP builtin_traits() {
  return guarded([&]() -> SEXP {
    Table& t = existing_table("base");
    std::vector<std::string> names, families;
    std::vector<int> deferred;
    auto add = [&](const std::string& name, const Function* f) {
      if (f == nullptr || f->traits().family == Family::None) return;
      names.push_back(name);
      families.push_back(family_name(f->traits().family));
      deferred.push_back((f->traits().flags & kDeferred) != 0);
    };
    for (const std::string& n : t.names()) add(n, t.find(n));
    for (const auto& alias : t.aliases()) add(alias.first, t.find(alias.second));
    SEXP flags = PROTECT(alloc_vector(LGLSXP, static_cast<R_xlen_t>(deferred.size())));
    for (size_t i = 0; i < deferred.size(); ++i) LOGICAL(flags)[i] = deferred[i];
    SEXP out = PROTECT(alloc_vector(VECSXP, 3));
    SET_VECTOR_ELT(out, 0, utf8_strings(names));
    SET_VECTOR_ELT(out, 1, utf8_strings(families));
    SET_VECTOR_ELT(out, 2, flags);
    UNPROTECT(2);
    return out;
  });
}

}  // namespace

}  // namespace r
}  // namespace gufunc

GUFUNC_CALL_ENTRY(gufunc_kernels, gufunc::r::kernels, 2);
GUFUNC_CALL_ENTRY(gufunc_namespaces, gufunc::r::namespaces, 0);
GUFUNC_CALL_ENTRY(builtin_traits, gufunc::r::builtin_traits, 0);
