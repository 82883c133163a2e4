// Generic O(N) multimethod type check with base R's implicit promotion.
#include "dispatch/typecheck.hpp"

#include <algorithm>
#include <climits>

namespace gufunc {

const char* dtype_name(gufunc_dtype t) {
  switch (t) {
    case GUFUNC_LOGICAL:
      return "logical";
    case GUFUNC_INTEGER:
      return "integer";
    case GUFUNC_DOUBLE:
      return "double";
    default:
      return "unknown";
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

// Binds kernel set `i`'s argument types to the inputs. Returns the number of
// promotion steps (the enum is ordered logical < integer < double), or -1 when an
// input would have to be demoted. Type variables bind to the widest of their inputs.
int bind_types(const Function& f, int i, const std::vector<gufunc_dtype>& in,
               std::vector<gufunc_dtype>* types) {
  const std::vector<int>& codes = f.type_codes(i);
  const int nin = f.signature(i).nin;
  int vars[GUFUNC_MAX_ARGS];
  std::fill(vars, vars + GUFUNC_MAX_ARGS, -1);
  for (int a = 0; a < nin; ++a) {
    if (codes[a] < 0 && vars[-codes[a] - 1] < in[a]) vars[-codes[a] - 1] = in[a];
  }
  types->resize(codes.size());
  int cost = 0;
  for (size_t a = 0; a < codes.size(); ++a) {
    const gufunc_dtype d =
        static_cast<gufunc_dtype>(codes[a] >= 0 ? codes[a] : vars[-codes[a] - 1]);
    (*types)[a] = d;
    if (static_cast<int>(a) < nin) {
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

std::string signatures_text(const Function& f) {
  std::string text = "\n  signatures of `" + f.name() + "`:";
  for (int i = 0; i < f.size(); ++i) text += "\n    " + f.signature(i).text;
  return text;
}

// "takes 2 arguments, not 1" when no signature has as many inputs as given.
std::string argument_count_problem(const Function& f, size_t given) {
  std::vector<int> counts;
  for (int i = 0; i < f.size(); ++i) {
    const int nin = f.signature(i).nin;
    if (nin == static_cast<int>(given)) return "";
    if (std::find(counts.begin(), counts.end(), nin) == counts.end()) counts.push_back(nin);
  }
  std::sort(counts.begin(), counts.end());
  std::string takes;
  for (size_t i = 0; i < counts.size(); ++i) {
    takes += (i == 0 ? "" : i + 1 == counts.size() ? " or " : ", ") + std::to_string(counts[i]);
  }
  const bool one = counts.size() == 1 && counts[0] == 1;
  return "`" + f.name() + "` takes " + takes + " argument" + (one ? "" : "s") + ", not " +
         std::to_string(given);
}

[[noreturn]] void no_match(const Function& f, const std::vector<gufunc_dtype>& in,
                           const std::string& why) {
  std::string msg = "no kernel of `" + f.name() + "` accepts argument types " + types_text(in);
  if (!why.empty()) msg += ": " + why;
  throw Error("gufunc_dispatch_error", msg + signatures_text(f));
}

}  // namespace

TypeMatch typecheck(const Function& f, const std::vector<gufunc_dtype>& in) {
  TypeMatch best;
  int best_cost = INT_MAX;
  std::vector<gufunc_dtype> types;
  types.reserve(GUFUNC_MAX_ARGS);
  for (int i = 0; i < f.size(); ++i) {
    if (f.signature(i).nin != static_cast<int>(in.size())) continue;
    int cost = bind_types(f, i, in, &types);
    if (cost >= 0 && cost < best_cost) {
      best_cost = cost;
      best.index = i;
      best.types = types;
      if (cost == 0) break;  // an exact match cannot be beaten
    }
  }
  if (best.index < 0) {
    const std::string count = argument_count_problem(f, in.size());
    if (!count.empty()) throw Error("gufunc_dispatch_error", count + signatures_text(f));
    no_match(f, in, "");
  }
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
  if (sig.nin != static_cast<int>(in.size()) || bind_types(f, m.index, in, &m.types) < 0) {
    throw Error("gufunc_dispatch_error", "the typecheck hook of `" + f.name() + "` chose \"" +
                                             sig.text + "\", which does not accept " +
                                             types_text(in));
  }
  return m;
}

}  // namespace gufunc
