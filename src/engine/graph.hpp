// The deferred graph: immutable nodes shared between lazy values. A node is an input
// (a view of memory the caller keeps alive), a scalar constant, an element-wise map
// of a dispatch-table function over child nodes, or a reduction of a child.
// Nodes are created and destroyed on the main thread; destruction is iterative, so
// chains of 1e5 nodes do not overflow the C stack.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "dispatch/table.hpp"
#include "dispatch/typecheck.hpp"

namespace gufunc {
namespace engine {

struct Node;
using NodePtr = std::shared_ptr<const Node>;

enum class NodeKind { Input, Scalar, Map, Reduce };

enum class Reduction { Sum, Prod, Min, Max, Range, Mean, Any, All };
const char* reduction_name(Reduction r);

// Memory an input node reads: `length` elements of `dtype` at `data`. `buffer` and
// `offset` (in bytes from the buffer's start) identify what the view shares with
// other views, for the blockability rule.
struct View {
  const char* data = nullptr;
  gufunc_dtype dtype = GUFUNC_DOUBLE;
  intptr_t length = 0;
  const void* buffer = nullptr;
  intptr_t offset = 0;
};

struct Node {
  NodeKind kind;
  gufunc_dtype dtype;  // type of the node's values
  intptr_t length;     // number of elements (1 for scalars and reductions)

  View view;                           // Input
  double scalar_double = 0;            // Scalar of dtype double
  int scalar_int = 0;                  // Scalar of dtype integer or logical
  const Function* function = nullptr;  // Map
  TypeMatch match;                     // Map: kernel set and argument types
  Reduction reduction = Reduction::Sum;
  bool na_rm = false;  // Reduce
  std::vector<NodePtr> children;

  Node(NodeKind k, gufunc_dtype t, intptr_t n) : kind(k), dtype(t), length(n) {}
  ~Node();  // iterative: children whose last owner this is are released in a loop
};

NodePtr make_input(const View& view);
NodePtr make_scalar_double(double value);
NodePtr make_scalar_int(int value, gufunc_dtype dtype);  // integer or logical

// An element-wise map of `f` (every kernel set for this arity has scalar cores) over
// `args`. Each argument has the result's length or length 1 (broadcast); anything
// else throws gufunc_shape_error (the caller falls back to eager evaluation).
// Type-checks now, so an unsupported call fails at creation, not at evaluation.
NodePtr make_map(const Function& f, std::vector<NodePtr> args);

// A reduction of `arg` to one value (two for Range: min and max in one pass).
NodePtr make_reduce(Reduction r, bool na_rm, NodePtr arg);

// Calls visit(node) once for every distinct node reachable from root (iteratively,
// so deep graphs do not overflow the stack).
void for_each_node(const NodePtr& root, const std::function<void(const Node&)>& visit);

}  // namespace engine
}  // namespace gufunc
