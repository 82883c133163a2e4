// Plans for lazy_plan(): the kernels a graph's batches are cut into, the bytes the
// fused evaluation moves next to what base R would move (see evaluate.hpp), and the
// same evaluation as a graph of values and steps (plan_graph.hpp).
#include <algorithm>
#include <cstdlib>
#include <map>
#include <tuple>
#include <unordered_map>

#include "dispatch/apply.hpp"
#include "engine/batch.hpp"
#include "engine/block_iterations.hpp"
#include "engine/block_size.hpp"
#include "engine/contraction_blocks.hpp"
#include "engine/evaluate.hpp"
#include "engine/mapped_file.hpp"
#include "engine/row_blocks.hpp"

namespace gufunc {
namespace engine {

namespace {

double bytes_of(const Node& n) { return static_cast<double>(n.length) * dtype_size(n.dtype); }

}  // namespace

std::string region_text(const Region& r) {
  const std::string elements = std::to_string(r.rows) + (r.rows == 1 ? " element" : " elements");
  const std::string from = " from position " + std::to_string(r.first + 1);
  if (r.columns == 1 && r.planes == 1) return elements + from;
  std::string runs = std::to_string(r.columns) + " runs of " + elements + ", " +
                     std::to_string(r.step) + " apart,";
  if (r.planes > 1) {
    runs = std::to_string(r.planes) + " planes, " + std::to_string(r.plane_step) + " apart, of " +
           runs;
  }
  return runs + from;
}

namespace {

// The columns of a block view taken last to first (m[, n:1]), said so.
std::string last_first(const View& view) {
  return view.column_step < 0 && view.length > view.rows ? ", last column first" : "";
}

std::string input_text(const View& view) {
  std::string text = std::string(dtype_name(view.dtype)) + "[" + std::to_string(view.length) + "]";
  if (view.file_fd >= 0) {
    const MappedFile* file = mapped_file_holding(view.data);
    text += " from file '" + (file ? file->path() : std::string("?")) + "'";
    if (view.bytes) text += " (one byte per value)";
  }
  if (view.generated) text += " from a compact sequence, generated as it is read";
  if (view.each > 1) {
    text += " (view: each element " + std::to_string(view.each) + " times)";
  } else if (view.is_block() && view.column_step == 0) {
    text += " (view: " + std::to_string(view.rows) + " elements, repeated)";
  } else if (view.is_strided()) {
    const std::string columns = std::to_string(view.length / view.rows) + " columns of " +
                                std::to_string(view.rows) + " elements";
    if (view.rows == view.length && view.row_stride == -1) {
      text += " (view: reversed)";
    } else if (view.row_stride < 0) {  // m[n:1, ], m[seq(n, 1, by = -2), ]
      const std::string apart =
          view.row_stride == -1 ? "" : " " + std::to_string(-view.row_stride) + " apart";
      text += " (view: " + columns + apart + ", each read backwards" + last_first(view) + ")";
    } else {  // t(x) reads rows as columns; m[seq(1, n, 2), ] spaced rows
      const bool across = std::abs(view.column_step) < std::abs(view.row_stride);
      text += " (view: " + columns + " " + std::to_string(view.row_stride) + " apart" +
              (across ? ", transposed" : "") + last_first(view) + ")";
    }
  } else if (view.has_planes()) {
    text += " (view: " + std::to_string(view.length / view.rows / view.plane_columns) +
            " planes of " + std::to_string(view.plane_columns) + " columns of " +
            std::to_string(view.rows) + " elements" +
            (view.column_step < 0 ? ", each plane's last column first" : "") +
            (view.plane_step < 0 ? ", last plane first" : "") + ")";
  } else if (view.is_block()) {
    text += " (view: " + std::to_string(view.length / view.rows) + " columns of " +
            std::to_string(view.rows) +
            (view.is_rolled() ? ", shifted circularly by " + std::to_string(view.row_roll) +
                                    " rows and " + std::to_string(view.column_roll) + " columns"
                              : "") +
            last_first(view) + ")";
  }
  return text;
}

// Builds the plan batch by batch, numbering values across batches.
class Describer {
 public:
  Describer(const EvalOptions& options, Plan* plan) : options_(options), plan_(*plan) {}

  // Adds the kernels of the batch for `root` (after those of its nested reductions
  // and staged values, which run first); returns the value computed for root.
  int add(const Node& root) {
    if (root.kind == NodeKind::Assign) return add_assigns(root);
    const bool folded = root.kind == NodeKind::Reduce || root.kind == NodeKind::Scan;
    const Batch b = build_batch(root, folded ? nullptr : &root);
    for (const Node* r : b.reductions) {
      add(*r);
      end_previous(
          "the next kernel reads the result of a reduction, final only after all its blocks");
    }
    for (size_t k = 0; k < b.staged.size(); ++k) {
      const Value& v = b.values[b.staged[k]];
      add(*v.node);
      end_previous(b.stage_reasons[k]);
      plan_.bytes_read += static_cast<double>(v.node->length) * dtype_size(v.dtype);
    }
    std::vector<int> ids(b.values.size(), -1);
    int result = b.result >= 0 ? global_value(b, b.result, &ids) : -1;
    if (b.code.empty()) return produced_[&root] = result;
    const size_t elements = batch_block_elements(b, options_.block_size);
    // A product split into blocks reads its operands block by block, not whole first.
    const bool split = splits_by_rows(root) || splits_by_contraction(root);
    for (size_t k = 0; k < b.kernel_starts.size(); ++k) {
      PlanKernel kernel;
      const size_t first = b.kernel_starts[k];
      const size_t last = k + 1 < b.kernel_starts.size() ? b.kernel_starts[k + 1] : b.code.size();
      for (size_t i = first; i < last; ++i) {
        kernel.instructions.push_back(describe_instruction(b, b.code[i]));
        const int out = add_step(b, b.code[i], &ids);
        if (b.code[i].op == Op::Reduce || b.code[i].op == Op::Scan) result = out;
        if (b.code[i].op == Op::Scan && i > first) {
          kernel.notes.push_back(
              "the scan's input is computed block by block on all threads, in block scratch; "
              "one thread carries the scan through the blocks in index order");
        }
        if (b.code[i].op == Op::Gufunc && splits_by_contraction(*b.code[i].node)) {
          kernel.notes.push_back(
              "its operands are long in a file: computed a block of their shared dim at a time, "
              "each read into memory of its own, the sums carried from block to block (the same "
              "bits)");
        } else if (b.code[i].op == Op::Gufunc && splits_by_rows(*b.code[i].node)) {
          kernel.notes.push_back(
              "its first operand is a long file: computed a block of its rows at a time, each "
              "read into memory of its own (the same bits)");
        } else if (b.code[i].op == Op::Gufunc) {
          kernel.notes.push_back("runs in blocks of " +
                                 std::to_string(block_iterations(b, root, elements)) +
                                 " loop iterations; element-wise producers of its operands run "
                                 "per block, in block scratch");
        }
      }
      for (const FusedRun& run : b.fused) {
        if (run.first < first || run.last > last) continue;
        kernel.notes.push_back("instructions " + std::to_string(run.first - first + 1) + "-" +
                               std::to_string(run.last - first) +
                               " run fused: " + std::to_string(kFusedRow) +
                               " elements at a time through all of them, the values between "
                               "them kept in the first-level cache");
      }
      if (k + 1 < b.kernel_starts.size()) {
        kernel.split_reason = b.split_reasons[k];
      } else if (!split) {
        for (const std::string& why : b.stage_reasons) {
          kernel.notes.push_back("fusion stops: " + why);
        }
      }
      plan_.kernels.push_back(kernel);
    }
    for (const Value& v : b.values) {
      if (v.kind != ValueKind::Input) continue;
      plan_.bytes_read += bytes_of(*v.node);  // once per batch
      const View& view = v.node->view;
      if (view.file_fd >= 0) {
        plan_.file_bytes_read += view.bytes ? static_cast<double>(view.length) : bytes_of(*v.node);
      }
    }
    plan_.bytes_written += root.kind == NodeKind::Reduce ? 0 : bytes_of(root);
    for (int t = 0; t < b.temps; ++t) {
      plan_.bytes_written += static_cast<double>(b.length * b.max_width) * sizeof(double);
      plan_.bytes_read += static_cast<double>(b.length * b.max_width) * sizeof(double);
    }
    plan_.block_size = elements;
    return produced_[&root] = result;
  }

 private:
  void end_previous(const std::string& why) {
    if (!plan_.kernels.empty() && plan_.kernels.back().split_reason.empty()) {
      plan_.kernels.back().split_reason = why;
    }
  }

  int new_value(PlanValueKind kind, gufunc_dtype dtype, intptr_t length) {
    PlanValue v{kind, dtype};
    v.length = length;
    plan_.graph.values.push_back(v);
    return static_cast<int>(plan_.graph.values.size()) - 1;
  }

  // The value of an at-hand node: one per distinct view (a vector read by several
  // operations is one input), or a constant.
  int at_hand_value(const Node& n) {
    if (n.kind == NodeKind::Scalar) {
      const int id = new_value(PlanValueKind::Constant, n.dtype, 1);
      plan_.graph.values[id].c_double = n.scalar_double;
      plan_.graph.values[id].c_int = n.scalar_int;
      return id;
    }
    const View& v = n.view;
    const ViewKey key = view_key(v);
    const auto seen = inputs_.find(key);
    if (seen != inputs_.end()) return seen->second;
    const int id = new_value(PlanValueKind::Input, n.dtype, n.length);
    plan_.graph.values[id].input = static_cast<int>(plan_.graph.inputs.size());
    PlanInput input{v, input_text(v)};
    // A view of a shared source's values: its buffer is the source node.
    const auto source = v.data == nullptr && v.buffer != nullptr && !v.generated
                            ? produced_.find(static_cast<const Node*>(v.buffer))
                            : produced_.end();
    if (source != produced_.end()) input.source = source->second;
    plan_.graph.inputs.push_back(input);
    plan_.inputs.push_back(plan_.graph.inputs.back().text);
    return inputs_[key] = id;
  }

  // The plan value of batch value v (ids caches the batch's values).
  int global_value(const Batch& b, int v, std::vector<int>* ids) {
    int& id = (*ids)[v];
    if (id >= 0) return id;
    const Value& val = b.values[v];
    switch (val.kind) {
      case ValueKind::Input:
        return id = at_hand_value(*val.node);
      case ValueKind::Constant:
        id = new_value(PlanValueKind::Constant, val.dtype, 1);
        plan_.graph.values[id].c_double = val.c_double;
        plan_.graph.values[id].c_int = val.c_int;
        return id;
      case ValueKind::Reduced:
      case ValueKind::Staged:
        return id = produced_.at(val.node);  // added before this batch
      default:
        return id = new_value(PlanValueKind::Computed, val.dtype,
                              val.node != nullptr && val.node->kind != NodeKind::Reduce
                                  ? val.node->length
                                  : b.length * val.width);
    }
  }

  int add_step(const Batch& b, const Instruction& ins, std::vector<int>* ids) {
    PlanStep step;
    step.kernel = static_cast<int>(plan_.kernels.size());
    step.width = ins.width;
    for (int a : ins.args) step.args.push_back(global_value(b, a, ids));
    switch (ins.op) {
      case Op::Cast:
        step.op = PlanOp::Cast;
        step.function = dtype_name(b.values[ins.out].dtype);
        break;
      case Op::Reduce:
        step.op = PlanOp::Reduce;
        step.function = reduction_name(ins.node->reduction);
        step.na_rm = ins.node->na_rm;
        break;
      case Op::Patch:
        step.op = PlanOp::Assign;
        step.function = "[<-";
        step.region = ins.node->region;
        break;
      case Op::Scan:
        step.op = PlanOp::Scan;
        step.function = scan_name(ins.node->scan);
        break;
      case Op::Gufunc: {
        step.op = PlanOp::Gufunc;
        const ResolvedShape& shape = ins.node->apply->shape;
        for (size_t k = 0; k < ins.args.size(); ++k) {
          std::vector<intptr_t> dims = shape.arg_core_sizes[k];
          dims.insert(dims.end(), shape.arg_loop_dims[k].begin(), shape.arg_loop_dims[k].end());
          step.arg_dims.push_back(dims);
        }
        step.detail = describe_gufunc(*ins.node);
      }
        [[fallthrough]];
      default:
        step.function = ins.node->function->name();
        step.signature = ins.node->function->signature(ins.node->match.index).text;
    }
    if (ins.op == Op::Reduce || ins.op == Op::Scan) {
      const intptr_t length = ins.op == Op::Scan                        ? ins.node->length
                              : ins.node->reduction == Reduction::Range ? 2
                                                                        : 1;
      step.out = new_value(PlanValueKind::Computed, ins.node->dtype, length);
      produced_[ins.node] = step.out;
    } else {
      step.out = global_value(b, ins.out, ids);
    }
    plan_.graph.steps.push_back(step);
    return step.out;
  }

  // A chain of subassignments: the kernels of its base and values (computed straight
  // into the result), then one step that writes them (assign.hpp).
  int add_assigns(const Node& root) {
    std::vector<const Node*> writes;
    const Node* base = &root;
    for (; base->kind == NodeKind::Assign; base = base->children[0].get()) writes.push_back(base);
    PlanKernel kernel;
    int version = base->at_hand() ? at_hand_value(*base) : add(*base);
    kernel.instructions.push_back(
        "the version before (" + std::to_string(base->length) +
        (base->at_hand() ? " elements), where no write reaches" : " elements), computed whole"));
    std::vector<PlanStep> steps;
    for (auto it = writes.rbegin(); it != writes.rend(); ++it) {
      const Node& value = *(*it)->children[1];
      int written = -1;
      if (value.at_hand()) {
        written = at_hand_value(value);
      } else {
        const size_t before = plan_.kernels.size();
        written = add(value);
        if (plan_.kernels.size() > before) {
          plan_.kernels.back().split_reason =
              "none: its values go into the new version's positions as they are computed, "
              "a cache-sized chunk at a time";
        }
      }
      kernel.instructions.push_back("`[<-` of " + region_text((*it)->region) +
                                    (!value.at_hand() ? ", computed by the kernel before" : ""));
      plan_.bytes_written += static_cast<double>((*it)->region.count()) * dtype_size(root.dtype);
      PlanStep step;
      step.op = PlanOp::Assign;
      step.function = "[<-";
      step.args = {version, written};
      step.region = (*it)->region;
      step.out = version = new_value(PlanValueKind::Computed, root.dtype, root.length);
      steps.push_back(step);
    }
    for (PlanStep& step : steps) {
      step.kernel = static_cast<int>(plan_.kernels.size());
      plan_.graph.steps.push_back(step);
    }
    kernel.notes.push_back("a subassignment: the new version is written once, in its own memory");
    plan_.kernels.push_back(kernel);
    return produced_[&root] = version;
  }

  const EvalOptions& options_;
  Plan& plan_;
  std::map<ViewKey, int> inputs_;
  // The value each node added so far computes: what later batches read of it.
  std::unordered_map<const Node*, int> produced_;
};

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
  plan.graph.result = Describer(options, &plan).add(*root);
  if (plan.block_size == 0) plan.block_size = block_elements(2, options.block_size);
  plan.base_r_bytes = base_r_bytes(root);
  return plan;
}

// The instruction as plan text (batch.hpp).
std::string describe_instruction(const Batch& b, const Instruction& ins) {
  auto name = [&](int v) {
    const Value& val = b.values[v];
    switch (val.kind) {
      case ValueKind::Constant:
        return val.dtype == GUFUNC_DOUBLE ? std::to_string(val.c_double)
                                          : std::to_string(val.c_int);
      case ValueKind::Input:
        return "x" + std::to_string(v);
      case ValueKind::Reduced:
        return std::string(reduction_name(val.node->reduction)) + "(...)";
      case ValueKind::Staged:
        return "s" + std::to_string(v);
      default:
        return (v == b.result ? std::string("out") : "t" + std::to_string(v));
    }
  };
  std::string args;
  for (size_t k = 0; k < ins.args.size(); ++k) args += (k ? ", " : "") + name(ins.args[k]);
  switch (ins.op) {
    case Op::Cast:
      return name(ins.out) + " = as." + dtype_name(b.values[ins.out].dtype) + "(" + args + ")" +
             (ins.width != 1 ? "  (" + std::to_string(ins.width) + " per loop iteration)" : "");
    case Op::Reduce:
      return std::string(reduction_name(ins.node->reduction)) + "(" + args +
             (ins.node->na_rm ? ", na.rm = TRUE" : "") + ")";
    case Op::Patch:
      return name(ins.out) + " = " + name(ins.args[0]) + " with `[<-` of " +
             region_text(ins.node->region) + ": " + name(ins.args[1]);
    case Op::Scan:
      return std::string("out = ") + scan_name(ins.node->scan) + "(" + args +
             ")  (carried in index order, block after block)";
    case Op::Gufunc:
      return name(ins.out) + " = `" + ins.node->function->name() + "`(" + args + ")  [" +
             ins.node->function->signature(ins.node->match.index).text + "]  " +
             describe_gufunc(*ins.node);
    default: {
      const Function& f = *ins.node->function;
      std::string text = name(ins.out) + " = `" + f.name() + "`(" + args + ")  [" +
                         f.signature(ins.node->match.index).text + "]";
      if (ins.width != 1) text += "  (" + std::to_string(ins.width) + " per loop iteration)";
      return text;
    }
  }
}

std::string describe_gufunc(const Node& g) {
  const ApplyPlan& plan = *g.apply;
  const Signature& sig = plan.sig();
  std::string core;
  for (size_t d = 0; d < sig.dims.size(); ++d) {
    if (plan.shape.dim_missing[d]) continue;
    core += (core.empty() ? "" : ", ") + sig.dims[d].name + " = " +
            std::to_string(plan.shape.dim_sizes[d]);
  }
  std::string loop;
  for (intptr_t d : plan.shape.loop_shape) loop += (loop.empty() ? "" : " x ") + std::to_string(d);
  return "gufunc: core " + (core.empty() ? std::string("none") : core) + "; " +
         std::to_string(plan.loop_length) + " loop iterations" +
         (plan.shape.loop_shape.size() > 1 ? " (" + loop + ")" : "");
}

}  // namespace engine
}  // namespace gufunc
