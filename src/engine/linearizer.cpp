// Linearizing a graph into a batch's values and instructions (see linearizer.hpp).
#include "engine/linearizer.hpp"

#include <map>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "dispatch/apply.hpp"
#include "engine/reused_values.hpp"
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
    NodePtr input = make_input(kept_view(n));
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

}  // namespace

void linearize(const Node& root, Batch* b) {
  Linearizer lin(b, shared_sources(root));
  if (root.kind == NodeKind::Reduce || root.kind == NodeKind::Scan) {
    b->length = root.children[0]->length;
    lin.emit_fold(root.kind == NodeKind::Reduce ? Op::Reduce : Op::Scan, &root);
  } else if (root.kind == NodeKind::Gufunc) {
    b->length = root.apply->loop_length;
    b->result = lin.emit_gufunc(&root);
  } else {
    b->length = root.length;
    b->result = lin.value_of(&root, 1);
  }
}

}  // namespace engine
}  // namespace gufunc
