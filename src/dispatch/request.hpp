// Kernels handed out as dynamic kernel instances: what another package (or the
// benchmarks) gets when it asks for "the kernel of `+` for double, double".
#pragma once

#include <string>
#include <vector>

#include "gufunc/kernel_set.h"

namespace gufunc {

// Type-checks `name` in namespace `ns` for the input types (its typecheck hook
// first), and returns the chosen kernel set as a kernel block whose function is a
// gufunc_instance_fn: the set's Strided loop, or else its C/Fortran/Xnd kernel
// adapted to the strided calling convention. `info` receives the argument counts,
// the type of every argument after promotion, and the number of core dims. The
// caller owns `out` and must destroy and free it (gufunc_dynamic_kernel_release).
// Throws gufunc_lookup_error, gufunc_dispatch_error.
void request_kernel(const std::string& ns, const std::string& name,
                    const std::vector<gufunc_dtype>& in_types, gufunc_dynamic_kernel* out,
                    gufunc_kernel_info* info);

// Kernel instances created and not yet destroyed, across the process: tests check
// that every instance is destroyed exactly once.
long live_kernel_instances();

}  // namespace gufunc
