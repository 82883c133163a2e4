// The plan as a graph, for lazy_plan()'s names, its R code, its plot and its DOT
// export: values numbered across all batches (the result of a reduction or of a
// staged gufunc is one value wherever a later kernel reads it) and the steps that
// compute them, kernel by kernel. Built by describe() (describe.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/graph.hpp"

namespace gufunc {
namespace engine {

struct PlanInput {
  View view;
  std::string text;  // e.g. "double[1000] (view: 10 columns of 100)"
  // A view of values computed first for several views (shared_views.hpp): their
  // value's id, its elements from byte view.offset; else -1.
  int source = -1;
};

enum class PlanValueKind { Input, Constant, Computed };

struct PlanValue {
  PlanValueKind kind;
  gufunc_dtype dtype;
  intptr_t length = 1;
  int input = -1;       // Input: index in PlanGraph::inputs
  double c_double = 0;  // Constant of dtype double
  int c_int = 0;        // Constant of dtype integer or logical
};

enum class PlanOp { Map, Cast, Reduce, Gufunc, Assign, Scan };

struct PlanStep {
  int kernel = 0;
  PlanOp op = PlanOp::Map;
  std::string function;   // Map, Gufunc: its name; Reduce, Scan: the R function; Cast: the dtype
  std::string signature;  // Map, Gufunc
  std::string detail;     // Gufunc: core sizes and loop iterations
  bool na_rm = false;     // Reduce
  std::vector<int> args;  // value ids (Assign: the version before, the value written)
  int out = -1;           // value id
  intptr_t width = 1;     // elements per loop iteration
  std::vector<std::vector<intptr_t>> arg_dims;  // Gufunc: R dims of each operand
  Region region;                                // Assign: the positions written
};

struct PlanGraph {
  std::vector<PlanInput> inputs;
  std::vector<PlanValue> values;
  std::vector<PlanStep> steps;
  int result = -1;  // the value of the whole expression
};

}  // namespace engine
}  // namespace gufunc
