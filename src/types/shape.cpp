// Core and loop dimension resolution (see shape.hpp).
#include "types/shape.hpp"

#include <algorithm>
#include <climits>
#include <string>

#include "types/checked_size.hpp"

namespace gufunc {

namespace {

[[noreturn]] void shape_error(const std::string& msg) { throw Error("gufunc_shape_error", msg); }

std::string dims_text(const std::vector<intptr_t>& d) {
  std::string s = "(";
  for (size_t i = 0; i < d.size(); ++i) s += (i ? "," : "") + std::to_string(d[i]);
  return s + ")";
}

// "from argument 1 of dims (3,0,16) and argument 2 of dims (0,3,16)": the inputs a
// too large size came from.
std::string inputs_text(const std::vector<std::vector<intptr_t>>& in_dims) {
  if (in_dims.empty()) return "no inputs";
  std::string s = "from ";
  for (size_t a = 0; a < in_dims.size(); ++a) {
    s += (a == 0 ? "" : a + 1 < in_dims.size() ? ", " : " and ");
    s += "argument " + std::to_string(a + 1) + " of dims " + dims_text(in_dims[a]);
  }
  return s;
}

}  // namespace

ResolvedShape resolve_shape(const Signature& sig,
                            const std::vector<std::vector<intptr_t>>& in_dims) {
  const int ndims = static_cast<int>(sig.dims.size());
  ResolvedShape r;
  r.dim_sizes.assign(ndims, -1);
  r.dim_missing.assign(ndims, false);
  // Which flexible dims are missing (NumPy's rule): an input with fewer dims than
  // its core drops its flexible dims, first to last, until it has enough; a dim
  // dropped is dropped from every argument (an argument that had it then reads that
  // dim as a loop dim).
  std::vector<int> core_count(sig.nin);
  for (int a = 0; a < sig.nin; ++a) core_count[a] = static_cast<int>(sig.args[a].dims.size());
  for (int a = 0; a < sig.nin; ++a) {
    const int have = static_cast<int>(in_dims[a].size());
    for (int d : sig.args[a].dims) {
      if (have >= core_count[a]) break;
      if (!sig.dims[d].flexible || r.dim_missing[d]) continue;
      r.dim_missing[d] = true;
      r.dim_sizes[d] = 1;
      for (int b = 0; b < sig.nin; ++b) {
        core_count[b] -=
            static_cast<int>(std::count(sig.args[b].dims.begin(), sig.args[b].dims.end(), d));
      }
    }
    if (have < core_count[a]) {
      shape_error("argument " + std::to_string(a + 1) + " has " + std::to_string(have) +
                  " dimension(s) but its core \"" + sig.text + "\" needs " +
                  std::to_string(core_count[a]));
    }
  }

  // Core dim sizes must agree across inputs and with frozen sizes.
  std::vector<int> size_from(ndims, -1);
  r.arg_core_sizes.resize(sig.nargs());
  std::vector<std::vector<intptr_t>> loops(sig.nin);
  size_t rank = 0;
  for (int a = 0; a < sig.nin; ++a) {
    size_t k = 0;
    for (int d : sig.args[a].dims) {
      if (r.dim_missing[d]) continue;
      const intptr_t size = in_dims[a][k++];
      const CoreDim& cd = sig.dims[d];
      if (cd.frozen_size >= 0 && size != cd.frozen_size) {
        shape_error("argument " + std::to_string(a + 1) + ": core dimension " + cd.name +
                    " must have size " + std::to_string(cd.frozen_size) + ", not " +
                    std::to_string(size));
      }
      if (r.dim_sizes[d] >= 0 && r.dim_sizes[d] != size) {
        shape_error("argument " + std::to_string(a + 1) + ": core dimension " + cd.name +
                    " has size " + std::to_string(size) + " but argument " +
                    std::to_string(size_from[d] + 1) + " gives it size " +
                    std::to_string(r.dim_sizes[d]));
      }
      r.dim_sizes[d] = size;
      size_from[d] = a;
      r.arg_core_sizes[a].push_back(size);
    }
    loops[a].assign(in_dims[a].begin() + k, in_dims[a].end());
    rank = std::max(rank, loops[a].size());
  }
  for (int d = 0; d < ndims; ++d) {
    if (r.dim_sizes[d] < 0 && sig.dims[d].frozen_size >= 0)
      r.dim_sizes[d] = sig.dims[d].frozen_size;
    if (r.dim_sizes[d] < 0) {
      shape_error("core dimension " + sig.dims[d].name + " of \"" + sig.text +
                  "\" appears only in outputs, so its size is unknown");
    }
  }

  // Loop dims broadcast position by position: equal sizes, or 1.
  r.loop_shape.assign(rank, 1);
  for (int a = 0; a < sig.nin; ++a) {
    loops[a].resize(rank, 1);
    for (size_t j = 0; j < rank; ++j) {
      const intptr_t s = loops[a][j];
      if (s == r.loop_shape[j] || s == 1) continue;
      if (r.loop_shape[j] != 1) {
        shape_error("loop dimensions of argument " + std::to_string(a + 1) + " " +
                    dims_text(loops[a]) + " do not broadcast with " + dims_text(r.loop_shape));
      }
      r.loop_shape[j] = s;
    }
  }
  // e.g. "output 1 of \"(m,n),(n,p)->(m,p)\" (dims (8,8), from argument 1 of dims ...)"
  auto name = [&](const std::string& part, const std::vector<intptr_t>& dims) {
    return part + " of \"" + sig.text + "\" (dims " + dims_text(dims) + ", " +
           inputs_text(in_dims) + ")";
  };
  r.loop_length = checked_length(r.loop_shape, [&] { return name("the loop", r.loop_shape); });

  r.arg_loop_dims = loops;
  for (int o = sig.nin; o < sig.nargs(); ++o) {
    std::vector<intptr_t> dims;
    for (int d : sig.args[o].dims) {
      if (!r.dim_missing[d]) dims.push_back(r.dim_sizes[d]);
    }
    r.arg_core_sizes[o] = dims;
    r.arg_loop_dims.push_back(r.loop_shape);
    dims.insert(dims.end(), r.loop_shape.begin(), r.loop_shape.end());
    auto what = [&] { return name("output " + std::to_string(o - sig.nin + 1), dims); };
    r.out_lengths.push_back(checked_length(dims, what));
    // R stores dims as int; a plain vector (one dim) may be longer.
    for (intptr_t d : dims) {
      if (dims.size() > 1 && d > INT_MAX) {
        shape_error(what() + " has a dimension larger than R's largest (2^31 - 1)");
      }
    }
    r.out_dims.push_back(dims);
  }
  for (int a = 0; a < sig.nargs(); ++a) {
    auto what = [&] {
      return name(a < sig.nin ? "the core of argument " + std::to_string(a + 1)
                              : "the core of output " + std::to_string(a - sig.nin + 1),
                  r.arg_core_sizes[a]);
    };
    r.arg_core_lengths.push_back(checked_product(r.arg_core_sizes[a], what));
  }
  return r;
}

ArgStrides arg_strides(const ResolvedShape& r, int arg) {
  const std::vector<intptr_t>& core = r.arg_core_sizes[arg];
  const std::vector<intptr_t>& loop = r.arg_loop_dims[arg];
  bool empty = r.arg_core_lengths[arg] == 0;
  for (intptr_t d : loop) empty = empty || d == 0;
  auto what = [&] { return "argument " + std::to_string(arg + 1); };
  ArgStrides out;
  intptr_t stride = empty ? 0 : 1;
  for (intptr_t d : core) {
    out.core.push_back(stride);
    stride = checked_mul(stride, d, what);
  }
  for (intptr_t d : loop) {
    out.loop.push_back(d == 1 ? 0 : stride);
    stride = checked_mul(stride, d, what);
  }
  return out;
}

}  // namespace gufunc
