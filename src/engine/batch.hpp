// The batch: a graph linearized into instructions over values (each value assigned
// once), with common subexpressions shared, casts for promoted arguments, kernels
// formed by the blockability rule, and storage assigned: block scratch registers
// reused after their last use, full-length temporaries only for values that cross
// a kernel boundary.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/blockability.hpp"
#include "engine/graph.hpp"

namespace gufunc {
namespace engine {

enum class ValueKind { Input, Constant, Reduced, Computed };
enum class Storage { None, Register, Temp, Output };

struct Value {
  ValueKind kind;
  gufunc_dtype dtype;
  const Node* node = nullptr;  // Input, Reduced (the Reduce node) or Computed by a Map
  double c_double = 0;         // Constant, and Reduced once computed
  int c_int = 0;
  Storage storage = Storage::None;
  int slot = -1;  // register or temporary index
};

enum class Op { Map, Cast, Reduce };

struct Instruction {
  Op op;
  const Node* node = nullptr;  // Map or Reduce
  std::vector<int> args;       // value ids
  int out = -1;                // value id (Map, Cast)
};

struct Batch {
  std::vector<Value> values;
  std::vector<Instruction> code;
  int result = -1;                      // value computed for the root (Map or input)
  std::vector<const Node*> reductions;  // nested Reduce nodes, to evaluate first
  std::vector<size_t> kernel_starts;    // first instruction of each kernel
  std::vector<std::string> split_reasons;
  int registers = 0;
  int temps = 0;
  intptr_t length = 0;  // elements the instructions run over
};

// Linearizes `root`: a Map (or Input/Scalar) node whose values go to an output buffer
// `out` (only its identity matters here: the blockability rule), or a Reduce node,
// whose child is computed and reduced. Nested reductions become Reduced values.
Batch build_batch(const Node& root, const void* out);

// Arrays one block of the batch touches (inputs, registers, the output): sizes blocks.
size_t batch_streams(const Batch& b);

// Instruction text for plans, e.g. "v3 = `*`(v1, v2) [double, double -> double]".
std::string describe_instruction(const Batch& b, const Instruction& ins);

}  // namespace engine
}  // namespace gufunc
