// Type check: choose the kernel set of a function for the given input types.
#pragma once

#include <string>
#include <vector>

#include "dispatch/table.hpp"

namespace gufunc {

// The chosen kernel set and the concrete type of every argument it takes
// (inputs after promotion, then outputs).
struct TypeMatch {
  int index = -1;
  std::vector<gufunc_dtype> types;
};

// Exact match first, then base R's implicit promotion logical -> integer -> double
// (fewest promotion steps wins; ties go to the earlier registration). Type variables
// bind to one type for all their arguments. Throws gufunc_dispatch_error listing the
// function's signatures and the types received.
TypeMatch typecheck(const Function& f, const std::vector<gufunc_dtype>& in);

// The same, through the function's typecheck hook when it has one; the result must
// agree with typecheck().
TypeMatch typecheck_with_hook(const Function& f, const std::vector<gufunc_dtype>& in);

const char* dtype_name(gufunc_dtype t);
// "double", "integer", "logical" -> dtype; returns false for anything else.
bool dtype_from_name(const std::string& name, gufunc_dtype* out);

}  // namespace gufunc
