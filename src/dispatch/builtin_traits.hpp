// What gufunc knows of a builtin element-wise function beyond its kernel sets,
// declared where its kernels are registered: the family whose attribute rules its
// results follow in R, whether lazy values defer it, and whether the engine may
// fold it into a following reduction. R reads this through builtin_traits(); the
// engine reads the flags of the kernel set a node runs.
#pragma once

namespace gufunc {

// The families of base R's element-wise functions, by how R attributes their
// results (see R/elementwise.R).
enum class Family {
  None,        // not a builtin element-wise function (user kernels, gufuncs)
  Arithmetic,  // + - * / ^ %% %/% (unary + and - too)
  Comparison,  // == != < <= > >=
  Logic,       // & |
  Not,         // !
  Math,        // one argument, the argument's attributes (sqrt, exp, ...)
  Math2,       // a number and a parameter: round, signif, log(x, base), atan2
  Predicate,   // is.na and the like: logical, keeping dim, dimnames and names only
  Select,      // ifelse's choice
  Extreme,     // one step of pmax()/pmin() (the R side gives the attributes)
};

// The family's name as R code spells it.
inline const char* family_name(Family f) {
  switch (f) {
    case Family::Arithmetic:
      return "arithmetic";
    case Family::Comparison:
      return "comparison";
    case Family::Logic:
      return "logic";
    case Family::Not:
      return "not";
    case Family::Math:
      return "math";
    case Family::Math2:
      return "math2";
    case Family::Predicate:
      return "predicate";
    case Family::Select:
      return "select";
    case Family::Extreme:
      return "extreme";
    default:
      return "none";
  }
}

// Flags of one builtin function.
enum BuiltinFlag : unsigned {
  kDeferred = 1u,  // lazy values record it (else base R computes it)
};

// Flags of one kernel set of a builtin function.
enum KernelSetFlag : unsigned {
  // An IEEE double product that a trailing sum or mean may compute itself.
  kFoldsIntoSum = 1u,
  // A "(m,n),(n,p)->(m,p)" kernel whose output row i reads only row i of its first
  // operand (matmul): a first operand read from a file may be computed a block of
  // rows at a time (engine/row_blocks.hpp), with the same bits.
  kRowsIndependent = 2u,
  // A "(m,n),(n,p)->(m,p)" kernel each of whose output elements is 0.0 plus its
  // products in the order of n, rounded to double at each step (matmul): operands
  // read from a file may be computed a block of n at a time, each block starting from
  // the sums so far (engine/contraction_blocks.hpp), with the same bits.
  kSumsInIndexOrder = 4u,
  // Neither warns nor fails, whatever its operands (IEEE double arithmetic): a value
  // computed by such kernels alone cannot stop half way, so it may be computed
  // straight into the memory it replaces (engine/assign.hpp, writes_without_failing).
  kNeverFails = 8u,
  // A few instructions per element, not more than reading its operands costs
  // (arithmetic but powers and remainders, comparisons, logic, choices): base R's
  // mean() makes a second pass over the values, which computes such values again
  // rather than keeping them from the first in fresh memory (engine/reduce_kernel.hpp).
  kCheapToRecompute = 16u,
};

struct BuiltinTraits {
  Family family = Family::None;
  unsigned flags = 0;
};

}  // namespace gufunc
