// Plans for lazy_plan(): the kernels a graph's batches are cut into, and the bytes
// the fused evaluation moves next to what base R would move (see evaluate.hpp).
#include <algorithm>
#include <unordered_set>

#include "dispatch/apply.hpp"
#include "engine/batch.hpp"
#include "engine/block_iterations.hpp"
#include "engine/block_size.hpp"
#include "engine/evaluate.hpp"

namespace gufunc {
namespace engine {

namespace {

double bytes_of(const Node& n) { return static_cast<double>(n.length) * dtype_size(n.dtype); }

void add_batches(const Node& root, const EvalOptions& options, Plan* plan,
                 std::unordered_set<const char*>* inputs_seen);

std::string region_text(const Region& r) {
  const std::string elements = std::to_string(r.rows) + (r.rows == 1 ? " element" : " elements");
  const std::string from = " from position " + std::to_string(r.first + 1);
  if (r.columns == 1) return elements + from;
  return std::to_string(r.columns) + " runs of " + elements + ", " + std::to_string(r.step) +
         " apart," + from;
}

// A chain of subassignments: the kernels of its base and values (computed straight
// into the result), then one step that writes them (assign.hpp).
void add_assigns(const Node& root, const EvalOptions& options, Plan* plan,
                 std::unordered_set<const char*>* inputs_seen) {
  std::vector<const Node*> writes;
  const Node* base = &root;
  for (; base->kind == NodeKind::Assign; base = base->children[0].get()) writes.push_back(base);
  PlanKernel step;
  if (!base->at_hand()) add_batches(*base, options, plan, inputs_seen);
  step.instructions.push_back(
      "the version before (" + std::to_string(base->length) +
      (base->at_hand() ? " elements), where no write reaches" : " elements), computed whole"));
  for (auto it = writes.rbegin(); it != writes.rend(); ++it) {
    const Node& value = *(*it)->children[1];
    if (!value.at_hand()) {
      const size_t before = plan->kernels.size();
      add_batches(value, options, plan, inputs_seen);
      if (plan->kernels.size() > before) {
        plan->kernels.back().split_reason =
            "none: its values go into the new version's positions as they are computed, "
            "a cache-sized chunk at a time";
      }
    }
    step.instructions.push_back("`[<-` of " + region_text((*it)->region) +
                                (!value.at_hand() ? ", computed by the kernel before" : ""));
    plan->bytes_written += static_cast<double>((*it)->region.count()) * dtype_size(root.dtype);
  }
  step.notes.push_back("a subassignment: the new version is written once, in its own memory");
  plan->kernels.push_back(step);
}

// Adds the kernels of the batch for `root` (after those of its nested reductions
// and staged values, which run first).
void add_batches(const Node& root, const EvalOptions& options, Plan* plan,
                 std::unordered_set<const char*>* inputs_seen) {
  if (root.kind == NodeKind::Assign) {
    add_assigns(root, options, plan, inputs_seen);
    return;
  }
  const Batch b = build_batch(root, root.kind == NodeKind::Reduce ? nullptr : &root);
  auto end_previous = [&](const std::string& why) {
    if (!plan->kernels.empty() && plan->kernels.back().split_reason.empty()) {
      plan->kernels.back().split_reason = why;
    }
  };
  for (const Node* r : b.reductions) {
    add_batches(*r, options, plan, inputs_seen);
    end_previous(
        "the next kernel reads the result of a reduction, final only after all its blocks");
  }
  for (size_t k = 0; k < b.staged.size(); ++k) {
    const Value& v = b.values[b.staged[k]];
    add_batches(*v.node, options, plan, inputs_seen);
    end_previous(b.stage_reasons[k]);
    plan->bytes_read += static_cast<double>(v.node->length) * dtype_size(v.dtype);
  }
  if (b.code.empty()) return;
  const size_t elements = block_elements(batch_streams(b), options.block_size);
  for (size_t k = 0; k < b.kernel_starts.size(); ++k) {
    PlanKernel kernel;
    const size_t first = b.kernel_starts[k];
    const size_t last = k + 1 < b.kernel_starts.size() ? b.kernel_starts[k + 1] : b.code.size();
    for (size_t i = first; i < last; ++i) {
      kernel.instructions.push_back(describe_instruction(b, b.code[i]));
      if (b.code[i].op == Op::Gufunc) {
        kernel.notes.push_back("runs in blocks of " +
                               std::to_string(block_iterations(b, root, elements)) +
                               " loop iterations; element-wise producers of its operands run "
                               "per block, in block scratch");
      }
    }
    if (k + 1 < b.kernel_starts.size()) {
      kernel.split_reason = b.split_reasons[k];
    } else {
      for (const std::string& why : b.stage_reasons) kernel.notes.push_back("fusion stops: " + why);
    }
    plan->kernels.push_back(kernel);
  }
  for (const Value& v : b.values) {
    if (v.kind != ValueKind::Input) continue;
    plan->bytes_read += bytes_of(*v.node);  // every batch reads its inputs once
    if (!inputs_seen->insert(v.node->view.data).second) continue;  // one entry per vector
    const View& view = v.node->view;
    std::string text =
        std::string(dtype_name(v.dtype)) + "[" + std::to_string(v.node->length) + "]";
    if (view.each > 1) {
      text += " (view: each element " + std::to_string(view.each) + " times)";
    } else if (view.is_block() && view.column_step == 0) {
      text += " (view: " + std::to_string(view.rows) + " elements, repeated)";
    } else if (view.is_block()) {
      text += " (view: " + std::to_string(view.length / view.rows) + " columns of " +
              std::to_string(view.rows) +
              (view.is_rolled() ? ", shifted circularly by " + std::to_string(view.row_roll) +
                                      " rows and " + std::to_string(view.column_roll) + " columns"
                                : "") +
              ")";
    }
    plan->inputs.push_back(text);
  }
  plan->bytes_written += root.kind == NodeKind::Reduce ? 0 : bytes_of(root);
  for (int t = 0; t < b.temps; ++t) {
    plan->bytes_written += static_cast<double>(b.length * b.max_width) * sizeof(double);
    plan->bytes_read += static_cast<double>(b.length * b.max_width) * sizeof(double);
  }
  plan->block_size = elements;
}

// Base R evaluates operation by operation: each reads its operands in full and
// writes a full-length result.
double base_r_bytes(const NodePtr& root) {
  double total = 0;
  for_each_node(root, [&](const Node& n) {
    if (n.at_hand()) return;
    for (const NodePtr& c : n.children) total += bytes_of(*c);
    total += bytes_of(n);
  });
  return total;
}

}  // namespace

Plan describe(const NodePtr& root, const EvalOptions& options) {
  Plan plan;
  plan.threads = options.runner ? options.runner->threads() : 1;
  std::unordered_set<const char*> inputs_seen;
  add_batches(*root, options, &plan, &inputs_seen);
  if (plan.block_size == 0) plan.block_size = block_elements(2, options.block_size);
  plan.base_r_bytes = base_r_bytes(root);
  return plan;
}

}  // namespace engine
}  // namespace gufunc
