// The C entry points other packages reach through R_GetCCallable (wrapped in
// inst/include/gufunc/callables.h). No C++ exception may cross into C: each entry
// catches everything and reports it through the caller's context.
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "dispatch/request.hpp"
#include "dispatch/table.hpp"
#include "gufunc/gufunc.h"
#include "r/call_registry.hpp"

namespace gufunc {
namespace r {
namespace {

// Runs body(); returns 0, or -1 with the exception's message in ctx.
template <class F>
int report_errors(gufunc_context* ctx, F&& body) noexcept {
  try {
    body();
    return 0;
  } catch (const std::bad_alloc&) {
    return ctx ? gufunc_error(ctx, "cannot allocate memory") : -1;
  } catch (const std::exception& e) {
    return ctx ? gufunc_error(ctx, "%s", e.what()) : -1;
  } catch (...) {
    return ctx ? gufunc_error(ctx, "unknown C++ exception") : -1;
  }
}

void require(const void* p, const char* what) {
  if (p == nullptr) throw Error("gufunc_argument_error", std::string(what) + " is NULL");
}

Table& table_of(gufunc_table* t) {
  require(t, "the table");
  return *reinterpret_cast<Table*>(t);
}

}  // namespace
}  // namespace r
}  // namespace gufunc

using gufunc::r::report_errors;
using gufunc::r::require;
using gufunc::r::table_of;

extern "C" {

int gufunc_c_abi_version(void) { return GUFUNC_ABI_VERSION; }

gufunc_table* gufunc_c_table_get(const char* ns) {
  if (ns == nullptr) return nullptr;
  try {
    return reinterpret_cast<gufunc_table*>(&gufunc::table(ns));
  } catch (...) {
    return nullptr;
  }
}

int gufunc_c_add_kernel(gufunc_table* table, const gufunc_kernel_init* init, gufunc_context* ctx) {
  return report_errors(ctx, [&] {
    require(init, "the kernel init");
    table_of(table).add_kernel(*init);
  });
}

int gufunc_c_add_owned_kernel(gufunc_table* table, const gufunc_kernel_init* init,
                              void (*release)(void*), gufunc_context* ctx) {
  // gufunc owns the state whatever happens: every path that does not hand it to
  // the table releases it.
  bool handed = false;
  const int status = report_errors(ctx, [&] {
    require(init, "the kernel init");
    gufunc::Table& t = table_of(table);
    handed = true;
    t.add_owned_kernel(*init, release);
  });
  if (!handed && init != nullptr && release != nullptr) release(init->state);
  return status;
}

int gufunc_c_remove_function(gufunc_table* table, const char* name, gufunc_context* ctx) {
  return report_errors(ctx, [&] {
    require(name, "the function name");
    gufunc::Table& t = table_of(table);
    if (t.ns() == "base") {
      throw gufunc::Error("gufunc_registration_error",
                          "the \"base\" namespace holds gufunc's builtins");
    }
    t.remove_function(name);
  });
}

long gufunc_c_live_owned_states(void) { return gufunc::live_owned_states(); }

int gufunc_c_register_kernels(const char* ns, const gufunc_kernel_init* inits, int n,
                              gufunc_context* ctx) {
  return report_errors(ctx, [&] {
    require(ns, "the namespace");
    if (n > 0) require(inits, "the kernel inits");
    gufunc::Table& t = gufunc::table(ns);
    for (int i = 0; i < n; ++i) t.add_kernel(inits[i]);
  });
}

int gufunc_c_set_typecheck(gufunc_table* table, const char* name, gufunc_typecheck_t fn,
                           gufunc_context* ctx) {
  return report_errors(ctx, [&] {
    require(name, "the function name");
    gufunc::Table& t = table_of(table);
    gufunc::Function* f = t.find(name);
    if (f == nullptr) {
      throw gufunc::Error("gufunc_lookup_error", "there is no function `" + std::string(name) +
                                                     "` in gufunc namespace \"" + t.ns() + "\"");
    }
    f->set_typecheck(fn);
  });
}

int gufunc_c_request_kernel(const char* ns, const char* name, const gufunc_dtype* in_types, int nin,
                            gufunc_dynamic_kernel* out, gufunc_kernel_info* out_info,
                            gufunc_context* ctx) {
  return report_errors(ctx, [&] {
    require(ns, "the namespace");
    require(name, "the function name");
    require(out, "the output kernel");
    if (nin < 0 || nin > GUFUNC_MAX_ARGS) {
      throw gufunc::Error("gufunc_argument_error",
                          "nin must be in 0.." + std::to_string(GUFUNC_MAX_ARGS));
    }
    if (nin > 0) require(in_types, "the input types");
    *out = gufunc_dynamic_kernel{nullptr, 0, nullptr};
    gufunc::request_kernel(ns, name, std::vector<gufunc_dtype>(in_types, in_types + nin), out,
                           out_info);
  });
}

int gufunc_c_remove_namespace(const char* ns, gufunc_context* ctx) {
  return report_errors(ctx, [&] {
    require(ns, "the namespace");
    gufunc::remove_table(ns);
  });
}

long gufunc_c_live_kernel_instances(void) { return gufunc::live_kernel_instances(); }

}  // extern "C"

namespace gufunc {
namespace r {

namespace {
// R stores every callable as a DL_FUNC; the detour through void (*)(void) marks the
// conversion as intended (-Wcast-function-type).
template <class F>
DL_FUNC as_dl_func(F* fn) {
  return reinterpret_cast<DL_FUNC>(reinterpret_cast<void (*)(void)>(fn));
}
}  // namespace

void register_callables() {
  const struct {
    const char* name;
    DL_FUNC fn;
  } entries[] = {
      {"gufunc_c_abi_version", as_dl_func(&gufunc_c_abi_version)},
      {"gufunc_c_table_get", as_dl_func(&gufunc_c_table_get)},
      {"gufunc_c_add_kernel", as_dl_func(&gufunc_c_add_kernel)},
      {"gufunc_c_register_kernels", as_dl_func(&gufunc_c_register_kernels)},
      {"gufunc_c_add_owned_kernel", as_dl_func(&gufunc_c_add_owned_kernel)},
      {"gufunc_c_remove_function", as_dl_func(&gufunc_c_remove_function)},
      {"gufunc_c_live_owned_states", as_dl_func(&gufunc_c_live_owned_states)},
      {"gufunc_c_set_typecheck", as_dl_func(&gufunc_c_set_typecheck)},
      {"gufunc_c_request_kernel", as_dl_func(&gufunc_c_request_kernel)},
      {"gufunc_c_remove_namespace", as_dl_func(&gufunc_c_remove_namespace)},
      {"gufunc_c_live_kernel_instances", as_dl_func(&gufunc_c_live_kernel_instances)},
  };
  for (const auto& e : entries) R_RegisterCCallable("gufunc", e.name, e.fn);
}

}  // namespace r
}  // namespace gufunc
