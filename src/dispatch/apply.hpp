// The apply algorithm: type check, shape resolution, variant choice, and the
// threaded loop over loop dimensions (gumath-kernel-application.md, steps 1-7).
#pragma once

#include <cstdint>
#include <vector>

#include "dispatch/parallel.hpp"
#include "dispatch/rounds.hpp"
#include "dispatch/table.hpp"
#include "dispatch/typecheck.hpp"
#include "dispatch/variant.hpp"
#include "types/shape.hpp"

namespace gufunc {

// One input as the caller sees it: its type and R dims ({length} for a plain vector).
struct ArgShape {
  gufunc_dtype dtype;
  std::vector<intptr_t> dims;
};

struct ApplyPlan {
  const Function* function = nullptr;
  TypeMatch match;           // kernel set and argument types (inputs after promotion)
  bool elementwise = false;  // all cores scalar: base R recycling instead of broadcasting
  std::vector<intptr_t> in_lengths;
  intptr_t loop_length = 0;  // elementwise: the recycled length
  ResolvedShape shape;       // core-dim calls only
  Variant variant = Variant::Strided;

  const Signature& sig() const { return function->signature(match.index); }
  const gufunc_kernel_set& set() const { return function->set(match.index); }
  int nin() const { return sig().nin; }
  int nout() const { return sig().nout; }
  // Length and R dims of output `o` (dims empty for an element-wise call).
  intptr_t out_length(int o) const;
  const std::vector<intptr_t>& out_dims(int o) const;
};

// Steps 1-3: type check and shapes. Throws dispatch and shape errors.
ApplyPlan plan_apply(const Function& f, const std::vector<ArgShape>& in);

// True when every kernel set of `f` taking `nin` inputs has scalar cores only.
bool is_elementwise(const Function& f, int nin);

// Steps 6-7: runs the kernel over all loop iterations, in rounds sized by time with
// `hooks` between them (rounds.hpp). `in` must already have the plan's input types;
// `out` is allocated by the caller (step 4). Returns the GUFUNC_WARN_* bits raised;
// throws gufunc_kernel_error when a kernel fails, Interrupted when hooks.interrupted
// said stop (`out` is then partly written: the caller discards it).
unsigned run_apply(const ApplyPlan& plan, const std::vector<const char*>& in,
                   const std::vector<char*>& out, Runner& runner,
                   const RoundHooks& hooks = RoundHooks());

size_t dtype_size(gufunc_dtype t);

}  // namespace gufunc
