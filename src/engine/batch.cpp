// Batch construction (see batch.hpp).
#include "engine/batch.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "dispatch/apply.hpp"
#include "dispatch/builtin_traits.hpp"
#include "kernels/r_summary.hpp"

namespace gufunc {
namespace engine {

namespace {

class Linearizer {
 public:
  Linearizer(Batch* b, std::unordered_set<const Node*> shared)
      : b_(*b), shared_sources_(std::move(shared)) {}

  // Value of `top` computed `width` elements per iteration (not descending into
  // nested Reduce and Gufunc nodes), iteratively. Values are shared per width.
  int value_of(const Node* top, intptr_t width) {
    std::vector<std::pair<const Node*, bool>> stack = {{top, false}};
    while (!stack.empty()) {
      auto [n, expanded] = stack.back();
      stack.pop_back();
      const Key key = key_of(n, width);
      if (ids_.count(key)) continue;
      if (n->kept) {
        ids_[key] = kept_input(*n);
        continue;
      }
      if (n->source && width == 1 && shared_sources_.count(n->source->base.get())) {
        ids_[key] = shared_view(*n->source);
        continue;
      }
      if (n->kind == NodeKind::Reduce) {
        ids_[key] = add_value({ValueKind::Reduced, n->dtype, n});
        b_.reductions.push_back(n);
        continue;
      }
      if (n->kind == NodeKind::Gufunc) {
        ids_[key] = stage(n, n->dtype, width,
                          "the output of gufunc `" + n->function->name() +
                              "` is read whole: a gufunc ends its kernel");
        continue;
      }
      if (n->kind == NodeKind::Scan) {
        ids_[key] = stage(n, n->dtype, width,
                          std::string("the result of ") + scan_name(n->scan) +
                              "() is computed first: each of its values depends on all before it");
        continue;
      }
      if (n->kind == NodeKind::Assign && !patchable(*n, width)) {
        ids_[key] = stage(n, n->dtype, width,
                          "a subassignment's result is computed first: its positions come "
                          "from two values");
        continue;
      }
      if (n->kind == NodeKind::Input) {
        // Input nodes viewing the same elements (a plain vector given to several
        // operations) are one value: read once per block, listed once in plans.
        const ViewKey view = view_key(n->view);
        const auto seen = inputs_.find(view);
        ids_[key] = seen != inputs_.end()
                        ? seen->second
                        : (inputs_[view] = add_value({ValueKind::Input, n->dtype, n}));
        continue;
      }
      if (n->kind == NodeKind::Scalar) {
        ids_[key] = constant(n, n->dtype);
        continue;
      }
      if (!expanded) {
        stack.push_back({n, true});
        for (auto it = n->children.rbegin(); it != n->children.rend(); ++it) {
          if (!ids_.count(key_of(it->get(), width))) stack.push_back({it->get(), false});
        }
        continue;
      }
      if (n->kind == NodeKind::Assign) {
        emit_patch(n, width);
      } else {
        emit_map(n, width);
      }
    }
    return ids_.at(key_of(top, width));
  }

  // The trailing Reduce or Scan instruction of a reduction's or a scan's batch.
  void emit_fold(Op op, const Node* r) {
    const Node* child = r->children[0].get();
    int arg = value_of(child, 1);
    Instruction ins{op, r, {arg}, -1};
    b_.code.push_back(ins);
  }

  // The root gufunc `g`: each operand read in place (inputs, constants), computed
  // block by block at its core length (element-wise producers over every loop dim),
  // or staged; then the gufunc instruction.
  int emit_gufunc(const Node* g) {
    std::vector<int> args;
    const std::string name = g->function->name();
    for (size_t k = 0; k < g->children.size(); ++k) {
      const Node* c = g->children[k].get();
      const gufunc_dtype want = g->match.types[k];
      const intptr_t w = core_length(*g, static_cast<int>(k));
      const bool spans = spans_loop(*g, static_cast<int>(k)) && c->length == w * b_.length;
      const std::string operand = "operand " + std::to_string(k + 1) + " of `" + name + "`";
      if (c->kind == NodeKind::Scalar) {
        args.push_back(constant(c, want));
      } else if (c->kind == NodeKind::Input &&
                 (c->view.is_block() || c->view.each > 1 || c->view.copied_only())) {
        args.push_back(stage(
            c, want, 0,
            operand +
                " is a block, a repetition, a sequence or a file of bytes, copied whole first: "
                "a gufunc reads its operands in place"));
      } else if (c->kind == NodeKind::Input && same_storage(c->dtype, want)) {
        args.push_back(value_of(c, w));
      } else if (c->kind == NodeKind::Gufunc) {
        args.push_back(stage(c, want, 0,
                             operand + " is the output of gufunc `" + c->function->name() +
                                 "`, read whole: a gufunc ends its kernel"));
      } else if (spans) {
        args.push_back(as_type(value_of(c, w), want, w));
      } else {
        args.push_back(stage(c, want, 0,
                             operand + " is computed whole first: its loop dims broadcast, so "
                                       "blocks of loop iterations are not ranges of it"));
      }
    }
    const intptr_t width = core_length(*g, static_cast<int>(g->children.size()));
    int out = add_value({ValueKind::Computed, g->dtype, g});
    b_.values[out].width = width;
    Instruction ins{Op::Gufunc, g, std::move(args), out};
    ins.width = width;
    b_.code.push_back(ins);
    return out;
  }

 private:
  using Key = std::pair<const Node*, intptr_t>;

  // Inputs, constants and reduction results read the same at any width.
  static Key key_of(const Node* n, intptr_t width) {
    const bool shared =
        n->kind == NodeKind::Input || n->kind == NodeKind::Scalar || n->kind == NodeKind::Reduce;
    return {n, shared ? -1 : width};
  }

  static bool same_storage(gufunc_dtype from, gufunc_dtype to) {
    return from == to || (from == GUFUNC_LOGICAL && to == GUFUNC_INTEGER);
  }

  int add_value(const Value& v) {
    b_.values.push_back(v);
    return static_cast<int>(b_.values.size()) - 1;
  }

  // Scalar node `n` as a constant of dtype t (R's NA integer becomes NA_real_).
  int constant(const Node* n, gufunc_dtype t) {
    Value v{ValueKind::Constant, t, n};
    v.c_double = n->scalar_double;
    v.c_int = n->scalar_int;
    if (t == GUFUNC_DOUBLE && n->dtype != GUFUNC_DOUBLE) {
      v.c_double = rsem::int_to_double(n->scalar_int);
    }
    return add_value(v);
  }

  int stage(const Node* n, gufunc_dtype t, intptr_t width, const std::string& why) {
    Value v{ValueKind::Staged, t, n};
    v.width = width;
    int id = add_value(v);
    b_.staged.push_back(id);
    b_.stage_reasons.push_back(why);
    return id;
  }

  // The value `v` as dtype `t`: a cast instruction (shared) unless no conversion is
  // needed (logical is stored as integer).
  int as_type(int v, gufunc_dtype t, intptr_t width) {
    const gufunc_dtype from = b_.values[v].dtype;
    if (same_storage(from, t)) return v;
    auto key = std::make_tuple(v, static_cast<int>(t), width);
    auto it = casts_.find(key);
    if (it != casts_.end()) return it->second;
    int out = add_value({ValueKind::Computed, t, nullptr});
    b_.values[out].width = width;
    Instruction ins{Op::Cast, nullptr, {v}, out};
    ins.width = width;
    b_.code.push_back(ins);
    casts_[key] = out;
    return out;
  }

  void emit_map(const Node* n, intptr_t width) {
    std::vector<int> args;
    for (size_t k = 0; k < n->children.size(); ++k) {
      args.push_back(
          as_type(ids_.at(key_of(n->children[k].get(), width)), n->match.types[k], width));
    }
    int out = add_value({ValueKind::Computed, n->dtype, n});
    b_.values[out].width = width;
    Instruction ins{Op::Map, n, std::move(args), out};
    ins.width = width;
    b_.code.push_back(ins);
    ids_[key_of(n, width)] = out;
  }

  // A view of a source computed once (shared_views.hpp): an input reading the
  // source's staged values, one per distinct view.
  int shared_view(const ViewSource& source) {
    const Node* base = source.base.get();
    auto found = shared_index_.find(base);
    if (found == shared_index_.end()) {
      Batch::SharedSource s;
      s.source = source.base;
      s.staged = stage(base, base->dtype, 0,
                       "views of this expression read its values, computed once, before "
                       "(several views read them, or an earlier evaluation kept them)");
      found = shared_index_.emplace(base, b_.shared.size()).first;
      b_.shared.push_back(std::move(s));
    }
    View view = source.view;
    view.buffer = base;  // for the blockability rule: memory of its own, only read
    const ViewKey key = view_key(view);
    const auto seen = inputs_.find(key);
    if (seen != inputs_.end()) return seen->second;
    auto node = std::make_shared<Node>(NodeKind::Input, view.dtype, view.length);
    node->view = view;
    const int id = add_value({ValueKind::Input, view.dtype, node.get()});
    b_.shared[found->second].views.push_back(std::move(node));
    return inputs_[key] = id;
  }

  // The values an earlier request kept for `n`: an input reading them.
  int kept_input(const Node& n) {
    View view;
    view.data = n.kept->data;
    view.dtype = n.dtype;
    view.length = n.length;
    view.buffer = view.data;
    NodePtr input = make_input(view);
    const int id = add_value({ValueKind::Input, n.dtype, input.get()});
    b_.kept_inputs.push_back(std::move(input));
    b_.kept_warnings |= n.kept->warnings;
    return id;
  }

  // A write of one value (a constant) over a base of the same storage: each block
  // of the new version is the base's block with the region's positions in it set.
  static bool patchable(const Node& n, intptr_t width) {
    const Node& value = *n.children[1];
    return width == 1 && value.kind == NodeKind::Scalar &&
           same_storage(n.children[0]->dtype, n.dtype) && same_storage(value.dtype, n.dtype);
  }

  void emit_patch(const Node* n, intptr_t width) {
    const int base = ids_.at(key_of(n->children[0].get(), width));
    const int value = constant(n->children[1].get(), n->dtype);
    int out = add_value({ValueKind::Computed, n->dtype, n});
    Instruction ins{Op::Patch, n, {base, value}, out};
    b_.code.push_back(ins);
    ids_[key_of(n, width)] = out;
  }

  Batch& b_;
  const std::unordered_set<const Node*> shared_sources_;
  std::unordered_map<const Node*, size_t> shared_index_;  // into b_.shared
  std::map<Key, int> ids_;
  // Input values by the view they read.
  std::map<ViewKey, int> inputs_;
  std::map<std::tuple<int, int, intptr_t>, int> casts_;
};

// What instruction data access `v` touches. Steps are in bytes per ITERATION of the
// batch: `width` elements of the value per iteration for element-wise reads; a
// gufunc reads `width` (its operand's core length) per iteration, or, for an operand
// whose loop dims broadcast, no fixed step (0), which is never the same data as a
// value written block by block.
Access access_of(const Batch& b, int v, const void* out, intptr_t width, bool spans = true) {
  const Value& val = b.values[v];
  Access a;
  switch (val.kind) {
    case ValueKind::Constant:
      a.space = Space::Constant;
      break;
    case ValueKind::Reduced:
      a.space = Space::Reduced;
      a.id = v;
      break;
    case ValueKind::Input:
    case ValueKind::Staged: {
      const intptr_t es = static_cast<intptr_t>(dtype_size(val.dtype));
      a.space = Space::Memory;
      // A staged value is a buffer of its own (read only).
      a.buffer = val.kind == ValueKind::Input ? val.node->view.buffer : &val;
      const bool input = val.kind == ValueKind::Input;
      a.offset = input ? val.node->view.offset + val.node->view.lowest_byte() : 0;
      a.extent = input ? val.node->view.span_bytes() : val.node->length * es;
      // A strided view (t(x), rev(x)) reads across its whole extent in every block.
      const bool strided = input && val.node->view.is_strided();
      a.step = val.node->length == 1 || !spans || strided ? 0 : es * width;
      break;
    }
    case ValueKind::Computed: {
      const intptr_t es = static_cast<intptr_t>(dtype_size(val.dtype));
      if (v == b.result && out != nullptr) {
        a.space = Space::Memory;
        a.buffer = out;
        a.extent = b.length * val.width * es;
        a.step = val.width * es;
      } else {
        a.space = Space::Scratch;
        a.id = v;
        a.step = val.width * es;
      }
      break;
    }
  }
  return a;
}

// Registers are reused after a value's last use within its kernel; values used by
// a later kernel need a full-length temporary.
void assign_storage(Batch* b) {
  const size_t n = b->code.size();
  std::vector<int> kernel_of(n);
  for (size_t k = 0, i = 0; i < n; ++i) {
    if (k + 1 < b->kernel_starts.size() && i == b->kernel_starts[k + 1]) ++k;
    kernel_of[i] = static_cast<int>(k);
  }
  std::vector<int> defined_in(b->values.size(), -1), last_use(b->values.size(), -1);
  std::vector<bool> crosses(b->values.size(), false);
  for (size_t i = 0; i < n; ++i) {
    const Instruction& ins = b->code[i];
    for (int a : ins.args) {
      last_use[a] = static_cast<int>(i);
      if (defined_in[a] >= 0 && defined_in[a] != kernel_of[i]) crosses[a] = true;
    }
    if (ins.out >= 0) defined_in[ins.out] = kernel_of[i];
  }
  std::vector<int> free_registers;
  for (size_t i = 0; i < n; ++i) {
    if (std::find(b->kernel_starts.begin(), b->kernel_starts.end(), i) != b->kernel_starts.end()) {
      free_registers.clear();
      for (int r = 0; r < b->registers; ++r) free_registers.push_back(r);
    }
    const Instruction& ins = b->code[i];
    if (ins.out >= 0) {
      Value& v = b->values[ins.out];
      if (ins.out == b->result) {
        v.storage = Storage::Output;
      } else if (crosses[ins.out]) {
        v.storage = Storage::Temp;
        v.slot = b->temps++;
      } else {
        v.storage = Storage::Register;
        if (free_registers.empty()) free_registers.push_back(b->registers++);
        v.slot = free_registers.back();
        free_registers.pop_back();
      }
    }
    for (int a : ins.args) {
      const Value& v = b->values[a];
      if (v.storage == Storage::Register && last_use[a] == static_cast<int>(i) &&
          std::find(free_registers.begin(), free_registers.end(), v.slot) == free_registers.end()) {
        free_registers.push_back(v.slot);
      }
    }
  }
}

// The instruction whose products the trailing reduction can compute itself: the
// builtin double `*` just before a double sum or mean, in the same kernel, its
// value read by nothing else.
int fusable_product(const Batch& b) {
  const size_t n = b.code.size();
  if (n < 2 || b.code[n - 1].op != Op::Reduce || b.kernel_starts.back() > n - 2) return -1;
  const Instruction& reduce = b.code[n - 1];
  const Instruction& product = b.code[n - 2];
  const Reduction r = reduce.node->reduction;
  if ((r != Reduction::Sum && r != Reduction::Mean) || product.op != Op::Map ||
      product.out != reduce.args[0] || product.width != 1 ||
      b.values[product.out].dtype != GUFUNC_DOUBLE) {
    return -1;
  }
  for (int a : product.args) {
    if (b.values[a].dtype != GUFUNC_DOUBLE) return -1;
  }
  if ((product.node->function->set_flags(product.node->match.index) & kFoldsIntoSum) == 0) {
    return -1;
  }
  for (size_t i = 0; i + 1 < n; ++i) {
    const std::vector<int>& args = b.code[i].args;
    if (std::find(args.begin(), args.end(), product.out) != args.end()) return -1;
  }
  return static_cast<int>(n - 2);
}

}  // namespace

Batch build_batch(const Node& root, const void* out) {
  Batch b;
  Linearizer lin(&b, shared_sources(root));
  if (root.kind == NodeKind::Reduce || root.kind == NodeKind::Scan) {
    b.length = root.children[0]->length;
    lin.emit_fold(root.kind == NodeKind::Reduce ? Op::Reduce : Op::Scan, &root);
  } else if (root.kind == NodeKind::Gufunc) {
    b.length = root.apply->loop_length;
    b.result = lin.emit_gufunc(&root);
  } else {
    b.length = root.length;
    b.result = lin.value_of(&root, 1);
  }
  for (const Instruction& ins : b.code) b.max_width = std::max(b.max_width, ins.width);
  std::vector<InstructionAccess> accesses;
  for (const Instruction& ins : b.code) {
    InstructionAccess ia;
    for (size_t k = 0; k < ins.args.size(); ++k) {
      if (ins.op == Op::Gufunc) {
        const int arg = static_cast<int>(k);
        ia.inputs.push_back(access_of(b, ins.args[k], out, core_length(*ins.node, arg),
                                      spans_loop(*ins.node, arg)));
      } else {
        ia.inputs.push_back(access_of(b, ins.args[k], out, ins.width));
      }
    }
    if (ins.op == Op::Reduce || ins.op == Op::Scan) {
      // The caller folds it: in the blockability rule, a value of its own.
      Access r;
      r.space = Space::Reduced;
      r.id = -1 - static_cast<intptr_t>(accesses.size());
      ia.outputs.push_back(r);
    } else {
      ia.outputs.push_back(access_of(b, ins.out, out, ins.width));
    }
    accesses.push_back(std::move(ia));
  }
  b.kernel_starts = form_kernels(accesses, &b.split_reasons);
  assign_storage(&b);
  b.fused_product = fusable_product(b);
  return b;
}

size_t batch_streams(const Batch& b) {
  size_t inputs = 0;
  for (const Value& v : b.values) {
    inputs += v.kind == ValueKind::Input || v.kind == ValueKind::Staged ? 1 : 0;
  }
  return inputs + static_cast<size_t>(b.registers) + 1;
}

}  // namespace engine
}  // namespace gufunc
