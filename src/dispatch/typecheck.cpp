// Generic O(N) multimethod type check with base R's implicit promotion.
#include "dispatch/typecheck.hpp"

#include <climits>
#include <map>

namespace gufunc {

const char* dtype_name(gufunc_dtype t) {
  switch (t) {
    case GUFUNC_LOGICAL: return "logical";
    case GUFUNC_INTEGER: return "integer";
    case GUFUNC_DOUBLE: return "double";
    default: return "unknown";
  }
}

bool dtype_from_name(const std::string& name, gufunc_dtype* out) {
  for (int t = 0; t < GUFUNC_NDTYPES; ++t) {
    if (name == dtype_name(static_cast<gufunc_dtype>(t))) {
      *out = static_cast<gufunc_dtype>(t);
      return true;
    }
  }
  return false;
}

namespace {

// Binds the signature's argument types to the inputs. Returns the number of
// promotion steps (the enum is ordered logical < integer < double), or -1 when
// an input would have to be demoted.
int bind_types(const Signature& sig, const std::vector<gufunc_dtype>& in,
               std::vector<gufunc_dtype>* types) {
  std::map<std::string, gufunc_dtype> vars;
  for (int a = 0; a < sig.nin; ++a) {
    gufunc_dtype d;
    if (!dtype_from_name(sig.args[a].dtype, &d)) {
      auto it = vars.find(sig.args[a].dtype);
      if (it == vars.end() || it->second < in[a]) vars[sig.args[a].dtype] = in[a];
    }
  }
  types->assign(sig.nargs(), GUFUNC_DOUBLE);
  int cost = 0;
  for (int a = 0; a < sig.nargs(); ++a) {
    gufunc_dtype d;
    if (!dtype_from_name(sig.args[a].dtype, &d)) d = vars.at(sig.args[a].dtype);
    (*types)[a] = d;
    if (a < sig.nin) {
      if (d < in[a]) return -1;
      cost += d - in[a];
    }
  }
  return cost;
}

std::string types_text(const std::vector<gufunc_dtype>& in) {
  std::string s = "(";
  for (size_t i = 0; i < in.size(); ++i) s += (i ? ", " : "") + std::string(dtype_name(in[i]));
  return s + ")";
}

[[noreturn]] void no_match(const Function& f, const std::vector<gufunc_dtype>& in,
                           const std::string& why) {
  std::string msg = "no kernel of `" + f.name() + "` accepts argument types " + types_text(in);
  if (!why.empty()) msg += ": " + why;
  msg += "\n  signatures of `" + f.name() + "`:";
  for (int i = 0; i < f.size(); ++i) msg += "\n    " + f.signature(i).text;
  throw Error("gufunc_dispatch_error", msg);
}

}  // namespace

TypeMatch typecheck(const Function& f, const std::vector<gufunc_dtype>& in) {
  TypeMatch best;
  int best_cost = INT_MAX;
  std::vector<gufunc_dtype> types;
  for (int i = 0; i < f.size(); ++i) {
    const Signature& sig = f.signature(i);
    if (sig.nin != static_cast<int>(in.size())) continue;
    int cost = bind_types(sig, in, &types);
    if (cost >= 0 && cost < best_cost) {
      best_cost = cost;
      best.index = i;
      best.types = types;
    }
  }
  if (best.index < 0) no_match(f, in, "");
  return best;
}

TypeMatch typecheck_with_hook(const Function& f, const std::vector<gufunc_dtype>& in) {
  gufunc_typecheck_t hook = f.view()->typecheck;
  if (hook == nullptr) return typecheck(f, in);
  gufunc_context ctx;
  gufunc_context_init(&ctx);
  const gufunc_kernel_set* set = hook(f.view(), in.data(), static_cast<int>(in.size()), &ctx);
  if (set == nullptr) no_match(f, in, ctx.msg);
  TypeMatch m;
  m.index = static_cast<int>(set - &f.set(0));
  if (m.index < 0 || m.index >= f.size()) {
    throw Error("gufunc_dispatch_error",
                "the typecheck hook of `" + f.name() + "` returned a foreign kernel set");
  }
  const Signature& sig = f.signature(m.index);
  if (sig.nin != static_cast<int>(in.size()) || bind_types(sig, in, &m.types) < 0) {
    throw Error("gufunc_dispatch_error", "the typecheck hook of `" + f.name() +
                                             "` chose \"" + sig.text +
                                             "\", which does not accept " + types_text(in));
  }
  return m;
}

}  // namespace gufunc
