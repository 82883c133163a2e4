// Plans for lazy_plan(): the kernels a graph's batches are cut into, and the bytes
// the fused evaluation moves next to what base R would move (see evaluate.hpp).
#include <unordered_set>

#include "dispatch/apply.hpp"
#include "engine/batch.hpp"
#include "engine/block_size.hpp"
#include "engine/evaluate.hpp"

namespace gufunc {
namespace engine {

namespace {

double bytes_of(const Node& n) { return static_cast<double>(n.length) * dtype_size(n.dtype); }

// Adds the kernels of the batch for `root` (after those of its nested reductions).
void add_batches(const Node& root, const EvalOptions& options, Plan* plan,
                 std::unordered_set<const Node*>* inputs_seen) {
  const Batch b = build_batch(root, root.kind == NodeKind::Reduce ? nullptr : &root);
  for (const Node* r : b.reductions) add_batches(*r, options, plan, inputs_seen);
  if (b.code.empty()) return;
  for (size_t k = 0; k < b.kernel_starts.size(); ++k) {
    PlanKernel kernel;
    const size_t first = b.kernel_starts[k];
    const size_t last = k + 1 < b.kernel_starts.size() ? b.kernel_starts[k + 1] : b.code.size();
    for (size_t i = first; i < last; ++i) {
      kernel.instructions.push_back(describe_instruction(b, b.code[i]));
    }
    if (k + 1 < b.kernel_starts.size()) kernel.split_reason = b.split_reasons[k];
    plan->kernels.push_back(kernel);
  }
  if (!b.reductions.empty() && plan->kernels.size() > b.kernel_starts.size()) {
    PlanKernel& before = plan->kernels[plan->kernels.size() - b.kernel_starts.size() - 1];
    if (before.split_reason.empty()) {
      before.split_reason =
          "the next kernel reads the result of a reduction, final only after all its blocks";
    }
  }
  for (const Value& v : b.values) {
    if (v.kind != ValueKind::Input) continue;
    plan->bytes_read += bytes_of(*v.node);  // every batch reads its inputs once
    if (!inputs_seen->insert(v.node).second) continue;
    plan->inputs.push_back(std::string(dtype_name(v.dtype)) + "[" + std::to_string(v.node->length) +
                           "]");
  }
  plan->bytes_written += root.kind == NodeKind::Reduce ? 0 : bytes_of(root);
  for (int t = 0; t < b.temps; ++t) {
    plan->bytes_written += static_cast<double>(b.length) * sizeof(double);
    plan->bytes_read += static_cast<double>(b.length) * sizeof(double);
  }
  plan->block_size = block_elements(batch_streams(b), options.block_size);
}

// Base R evaluates operation by operation: each reads its operands in full and
// writes a full-length result.
double base_r_bytes(const NodePtr& root) {
  double total = 0;
  for_each_node(root, [&](const Node& n) {
    if (n.kind != NodeKind::Map && n.kind != NodeKind::Reduce) return;
    for (const NodePtr& c : n.children) total += bytes_of(*c);
    total += bytes_of(n);
  });
  return total;
}

}  // namespace

Plan describe(const NodePtr& root, const EvalOptions& options) {
  Plan plan;
  plan.threads = options.runner ? options.runner->threads() : 1;
  std::unordered_set<const Node*> inputs_seen;
  add_batches(*root, options, &plan, &inputs_seen);
  if (plan.block_size == 0) plan.block_size = block_elements(2, options.block_size);
  plan.base_r_bytes = base_r_bytes(root);
  return plan;
}

}  // namespace engine
}  // namespace gufunc
