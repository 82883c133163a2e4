// The batch: a graph linearized into instructions over values (each value assigned
// once), with common subexpressions shared, casts for promoted arguments, kernels
// formed by the blockability rule, and storage assigned: block scratch registers
// reused after their last use, full-length temporaries only for values that cross
// a kernel boundary.
//
// A batch runs over ITERATIONS. For an element-wise root an iteration is an element.
// For a gufunc root it is a loop iteration of the gufunc: an instruction of width w
// computes w elements per iteration, so the element-wise producers of an operand with
// core length w run on elements [i0 * w, i1 * w) of a block of iterations [i0, i1),
// in block scratch, and the gufunc instruction then runs on that block.
// A gufunc node that is not the root, and a gufunc operand that cannot be computed
// block by block (its loop dims broadcast), are STAGED: computed first, whole, into a
// buffer the batch reads (this is where fusion stops; see `stage_reasons`).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/blockability.hpp"
#include "engine/fused_runs.hpp"
#include "engine/graph.hpp"
#include "engine/reused_values.hpp"
#include "engine/scratch_buffer.hpp"
#include "engine/shared_views.hpp"

namespace gufunc {
namespace engine {

enum class ValueKind { Input, Constant, Reduced, Staged, Computed };
enum class Storage { None, Register, Temp, Output };

struct Value {
  ValueKind kind;
  gufunc_dtype dtype;
  const Node* node = nullptr;  // Input, Reduced (the Reduce node) or Computed by a Map
  double c_double = 0;         // Constant, and Reduced once computed
  int c_int = 0;
  Storage storage = Storage::None;
  int slot = -1;       // register or temporary index
  intptr_t width = 1;  // Computed, Staged: elements per iteration (Staged 0: read whole)
  // Staged: the values of `node` as `dtype`, elements [stage_begin, ...), once
  // resolved (resolve_staged in execute.cpp).
  const char* staged = nullptr;
  intptr_t stage_begin = 0;
};

// Patch: the values of args[0] with the positions of node->region set to the
// constant args[1] (a subassignment of one value, diag(m) <- 0, fused with its base
// and its readers instead of computed first).
enum class Op { Map, Cast, Reduce, Gufunc, Patch, Scan };

struct Instruction {
  Op op;
  const Node* node = nullptr;  // Map, Reduce, Gufunc or Scan
  std::vector<int> args;       // value ids
  int out = -1;                // value id (Map, Cast, Gufunc)
  intptr_t width = 1;          // elements per iteration (Gufunc: of its output)
};

struct Batch {
  std::vector<Value> values;
  std::vector<Instruction> code;
  int result = -1;                         // value computed for the root (Map or input)
  std::vector<const Node*> reductions;     // nested Reduce nodes, to evaluate first
  std::vector<int> staged;                 // Staged values, to evaluate first
  std::vector<std::string> stage_reasons;  // why each staged value is not fused
  std::vector<size_t> kernel_starts;       // first instruction of each kernel
  std::vector<std::string> split_reasons;
  int registers = 0;
  int temps = 0;
  intptr_t length = 0;     // iterations the instructions run over
  intptr_t max_width = 1;  // largest instruction width: registers hold block * max_width
  std::vector<ScratchBuffer> staged_buffers;  // filled by resolve_staged
  // A builtin double `*` whose products only a trailing sum or mean reads: the
  // reduction multiplies as it accumulates, in one pass (-1: none).
  int fused_product = -1;
  // Runs of instructions computed a row at a time (fused_runs.hpp).
  std::vector<FusedRun> fused;
  // Sources computed once for the views that read them (shared_views.hpp): the
  // staged value of each, and the input nodes of its views, owned here, whose data
  // is set when the source's values are (resolve_shared).
  struct SharedSource {
    NodePtr source;
    int staged = -1;
    std::vector<std::shared_ptr<Node>> views;
  };
  std::vector<SharedSource> shared;
  std::vector<std::shared_ptr<const SharedValues>> shared_values;  // read while the batch runs
  // Nodes whose values an earlier request kept (reused_values.hpp), read as inputs
  // (owned here), and the warning bits computing them raised.
  std::vector<std::shared_ptr<const Node>> kept_inputs;
  unsigned kept_warnings = 0;
};

// Linearizes `root`: a Map, Gufunc (or Input/Scalar) node whose values go to an output
// buffer `out` (only its identity matters here: the blockability rule), or a Reduce
// or Scan node, whose child is computed and reduced or scanned (a trailing Reduce or
// Scan instruction). Nested reductions become Reduced values; nested scans are
// staged (each value depends on all before it).
Batch build_batch(const Node& root, const void* out);

// Arrays one block of the batch touches (inputs, registers, the output): sizes blocks.
size_t batch_streams(const Batch& b);
// Inputs of the batch that read a file (their pages are released as it goes).
size_t batch_file_streams(const Batch& b);
// Elements per block for `b` (block_size.hpp): from its streams, and whether it reads
// a file; `requested` > 0 overrides.
size_t batch_block_elements(const Batch& b, size_t requested);

// Instruction text for plans, e.g. "v3 = `*`(v1, v2) [double, double -> double]".
std::string describe_instruction(const Batch& b, const Instruction& ins);

// "gufunc: core n = 100; 1000 loop iterations" for a Gufunc node.
std::string describe_gufunc(const Node& g);

}  // namespace engine
}  // namespace gufunc
