// Deferred values read again by a later evaluation. A lazy value that a program
// keeps in a variable and reads in several evaluations (f in rowSums(f * dx),
// rowSums(f * dy), rowSums(f * dz)) would be computed again by each of them, where
// base R computes it once. So a costly element-wise node that an earlier request
// (an R call that evaluates) computed is computed whole at its second request and
// its values are kept on the node, in memory R's garbage collector counts; that
// evaluation and every later one read them as an input. A value read by one
// evaluation only is never stored, and fusion is unchanged: the first request
// computes it in blocks as before. Cheap expressions (a few additions) are computed
// again instead: reading stored values costs about as much. Values that read a
// file are never kept (memory stays bounded by blocks, not by the file).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "engine/graph.hpp"

namespace gufunc {
namespace engine {

struct EvalOptions;  // evaluate.hpp

// The values of a node, computed whole, and the warning bits their computation
// raised (given again to every evaluation that reads them, as the computations
// they replace would have).
struct KeptValues {
  const char* data = nullptr;
  unsigned warnings = 0;
  std::shared_ptr<void> memory;  // owns data
};

// Where the kept values of `node` live: `bytes` of memory at *data, owned by the
// handle returned (released on the main thread) or by node.kept_holder. The R
// bridge gives R vectors, so that R's garbage collector, which frees the lazy
// values holding kept values, counts their size; unset, malloc.
using KeptMemory =
    std::function<std::shared_ptr<void>(const Node& node, size_t bytes, char** data)>;
void set_kept_memory(KeptMemory memory);

// Whether keep_reused() may ever keep the values of `n`: an element-wise node of
// at least kMinKeptElements elements.
bool may_be_kept(const Node& n);

// Before `root`'s batch is built for request options.request: marks the nodes its
// element-wise code computes as computed by this request, and computes whole (and
// keeps) those an earlier request computed already. Does nothing when
// options.keep_reused is false (the computation of a kept value itself).
void keep_reused(const Node& root, const EvalOptions& options);

// Keeping whatever it costs: while one lives (main thread), keep_reused() keeps
// every node an earlier request computed, however cheap to compute again. The R
// bridge computes so a value it writes in place where the value reads such nodes
// that read the vector written (lattice Boltzmann's ux, read by the value of each
// plane of f): kept, they read it no more and need no copy (src/r/lazy_assign.cpp).
class KeepReusedAnyCost {
 public:
  KeepReusedAnyCost();
  ~KeepReusedAnyCost();
  KeepReusedAnyCost(const KeepReusedAnyCost&) = delete;
  KeepReusedAnyCost& operator=(const KeepReusedAnyCost&) = delete;

 private:
  bool before_;
};

// Evaluations read a map's kept values, never the subgraph they were computed
// from: it goes (where nothing else holds it), and with it the inputs that read
// vectors written in place later (buffer_readers.hpp), which then need no copy.
// Not at once: a batch built before may still call the map's kernel on its
// children. The R bridge drops them before it counts or makes such copies (main
// thread, no evaluation running). Nodes are made non-const (make_map); a patch
// keeps its children (plans walk its chain of writes).
void drop_kept_subgraphs();

// The nodes a new request evaluating `root` would keep under KeepReusedAnyCost.
std::vector<const Node*> reused_nodes(const Node& root);

// An input view of the kept values of `n` (n.kept set), holding them.
View kept_view(const Node& n);

// A new request id: every EvalOptions made is one request (an R call that
// evaluates), however many evaluations it runs.
uint64_t new_request_id();

}  // namespace engine
}  // namespace gufunc
