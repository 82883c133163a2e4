// Keeping the values of deferred nodes that a later request reads again (see
// reused_values.hpp).
#include "engine/reused_values.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <string>
#include <unordered_set>
#include <vector>

#include "engine/evaluate.hpp"

namespace gufunc {
namespace engine {

namespace {

// Smaller values cost little to compute again.
const intptr_t kMinKeptElements = intptr_t(1) << 15;
// Operations (in additions) per element a value must cost to be kept: storing it
// and reading it back costs about as much as this many additions in block scratch.
const int kCostToKeep = 8;

KeptMemory& kept_memory() {
  static KeptMemory memory;
  return memory;
}

// Computed in the batch's element-wise code: a map, or a write of one constant
// (diag(f) <- 0, a patch of its base).
bool element_wise(const Node& n) {
  return n.kind == NodeKind::Map ||
         (n.kind == NodeKind::Assign && n.children[1]->kind == NodeKind::Scalar);
}

// What one element of `n` costs, in additions: comparisons, logic and the basic
// arithmetic cost one, a division two, anything else (a math function, `^`, a
// user's kernel) kCostToKeep.
int operation_cost(const Node& n) {
  if (n.kind != NodeKind::Map) return 1;
  static const std::unordered_set<std::string> cheap = {
      "+",          "-",          "*",     "!",      "!=",        "&",          "|",    "<",
      "<=",         "==",         ">",     ">=",     "ifelse",    "pmax",       "pmin", "abs",
      "pmax_na_rm", "pmin_na_rm", "is.na", "is.nan", "is.finite", "is.infinite"};
  const std::string& name = n.function->name();
  if (cheap.count(name)) return 1;
  return name == "/" ? 2 : kCostToKeep;
}

bool keep_any_cost = false;  // set by KeepReusedAnyCost

// Whether computing `n` costs enough to keep its values, and it reads no file.
bool worth_keeping(const Node& n) {
  int cost = 0;
  bool reads_file = false;
  walk_nodes({&n}, [&](const Node& m) {
    if (reads_file) return false;
    if (m.kind == NodeKind::Input && m.view.file_fd >= 0) {
      reads_file = true;
      return false;
    }
    if (m.kept || !element_wise(m)) return false;  // read as an input
    cost += operation_cost(m);
    return true;
  });
  return !reads_file && (keep_any_cost || cost >= kCostToKeep);
}

// Maps whose values were kept, their subgraphs not dropped yet.
std::vector<std::weak_ptr<const Node>>& kept_maps() {
  static std::vector<std::weak_ptr<const Node>> maps;
  return maps;
}

void keep(const NodePtr& node, const EvalOptions& options) {
  const Node& n = *node;
  const size_t bytes = static_cast<size_t>(n.length) * dtype_size(n.dtype);
  auto kept = std::make_shared<KeptValues>();
  char* data = nullptr;
  if (kept_memory()) {
    kept->memory = kept_memory()(n, bytes, &data);
  } else {
    data = static_cast<char*>(std::malloc(bytes));
    if (data == nullptr) throw std::bad_alloc();
    kept->memory = std::shared_ptr<void>(data, std::free);
  }
  EvalOptions whole = options;
  whole.keep_reused = false;  // what it reads is computed in this one pass
  const NodePtr handle(std::shared_ptr<const Node>(), &n);  // non-owning: the graph owns it
  kept->warnings = evaluate(handle, 0, n.length, data, whole);
  kept->data = data;
  n.kept = std::move(kept);
  if (n.kind != NodeKind::Map) return;
  std::vector<std::weak_ptr<const Node>>& maps = kept_maps();
  // Where no write drops them, the maps gone since are forgotten now and then.
  if (maps.size() >= 64 && (maps.size() & (maps.size() - 1)) == 0) {
    maps.erase(std::remove_if(maps.begin(), maps.end(),
                              [](const std::weak_ptr<const Node>& m) { return m.expired(); }),
               maps.end());
  }
  maps.push_back(node);
}

// Whether keep_reused() keeps `n` in request `request` (0: a new request).
bool kept_in(const Node& n, uint64_t request) {
  return n.computed_in != 0 && n.computed_in != request && may_be_kept(n) && worth_keeping(n);
}

// walk_nodes() over the owning pointers.
template <class Visit>
void walk_owned(const Node& root, Visit visit) {
  std::unordered_set<const Node*> seen;
  std::vector<NodePtr> stack(root.children.begin(), root.children.end());
  while (!stack.empty()) {
    const NodePtr n = std::move(stack.back());
    stack.pop_back();
    if (!seen.insert(n.get()).second || !visit(n)) continue;
    for (const NodePtr& c : n->children) stack.push_back(c);
  }
}

// Where the walks of requests stop: nodes read as inputs, not computed in the
// batch's element-wise code (views of a deferred expression share its values
// their own way: shared_views.hpp).
bool read_as_input(const Node& n) { return n.kept || n.source || !element_wise(n); }

}  // namespace

void set_kept_memory(KeptMemory memory) { kept_memory() = std::move(memory); }

bool may_be_kept(const Node& n) { return element_wise(n) && n.length >= kMinKeptElements; }

KeepReusedAnyCost::KeepReusedAnyCost() : before_(keep_any_cost) { keep_any_cost = true; }
KeepReusedAnyCost::~KeepReusedAnyCost() { keep_any_cost = before_; }

std::vector<const Node*> reused_nodes(const Node& root) {
  const KeepReusedAnyCost any_cost;
  std::vector<const Node*> out;
  walk_owned(root, [&](const NodePtr& n) {
    if (read_as_input(*n)) return false;
    if (kept_in(*n, 0)) {
      out.push_back(n.get());
      return false;
    }
    return true;
  });
  return out;
}

void drop_kept_subgraphs() {
  for (const std::weak_ptr<const Node>& kept : kept_maps()) {
    if (const NodePtr n = kept.lock()) const_cast<Node&>(*n).children.clear();
  }
  kept_maps().clear();
}

View kept_view(const Node& n) {
  View view;
  view.data = n.kept->data;
  view.dtype = n.dtype;
  view.length = n.length;
  view.buffer = view.data;
  view.memory = std::shared_ptr<void>(n.kept, const_cast<char*>(n.kept->data));
  return view;
}

uint64_t new_request_id() {
  static std::atomic<uint64_t> last{0};
  return ++last;
}

void keep_reused(const Node& root, const EvalOptions& options) {
  if (!options.keep_reused) return;
  // Walked already by this request (an earlier chunk of a margin sum, a run of a
  // subset, or a node of an earlier walk): its subtree is marked and kept as needed.
  if (element_wise(root)) {
    if (root.computed_in == options.request) return;
    root.computed_in = options.request;
  }
  walk_owned(root, [&](const NodePtr& node) {
    const Node& n = *node;
    if (read_as_input(n)) return false;
    if (kept_in(n, options.request)) {
      keep(node, options);
      return false;
    }
    n.computed_in = options.request;
    return true;
  });
}

}  // namespace engine
}  // namespace gufunc
