// Batch construction (see batch.hpp).
#include "engine/batch.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>
#include <utility>

#include "dispatch/apply.hpp"

namespace gufunc {
namespace engine {

namespace {

class Linearizer {
 public:
  explicit Linearizer(Batch* b) : b_(*b) {}

  // Value of `top` (not descending into nested Reduce nodes), iteratively.
  int value_of(const Node* top) {
    std::vector<std::pair<const Node*, bool>> stack = {{top, false}};
    while (!stack.empty()) {
      auto [n, expanded] = stack.back();
      stack.pop_back();
      if (ids_.count(n)) continue;
      if (n != top && n->kind == NodeKind::Reduce) {
        ids_[n] = add_value({ValueKind::Reduced, n->dtype, n});
        b_.reductions.push_back(n);
        continue;
      }
      if (n->kind == NodeKind::Input) {
        ids_[n] = add_value({ValueKind::Input, n->dtype, n});
        continue;
      }
      if (n->kind == NodeKind::Scalar) {
        Value v{ValueKind::Constant, n->dtype, n};
        v.c_double = n->scalar_double;
        v.c_int = n->scalar_int;
        ids_[n] = add_value(v);
        continue;
      }
      if (!expanded) {
        stack.push_back({n, true});
        for (auto it = n->children.rbegin(); it != n->children.rend(); ++it) {
          if (!ids_.count(it->get())) stack.push_back({it->get(), false});
        }
        continue;
      }
      if (n->kind == NodeKind::Map) emit_map(n);
    }
    return ids_.at(top);
  }

  void emit_reduce(const Node* r) {
    const Node* child = r->children[0].get();
    int arg = value_of(child);
    Instruction ins{Op::Reduce, r, {arg}, -1};
    b_.code.push_back(ins);
  }

 private:
  int add_value(const Value& v) {
    b_.values.push_back(v);
    return static_cast<int>(b_.values.size()) - 1;
  }

  // The value `v` as dtype `t`: a cast instruction (shared) unless no conversion is
  // needed (logical is stored as integer).
  int as_type(int v, gufunc_dtype t) {
    const gufunc_dtype from = b_.values[v].dtype;
    if (from == t || (from == GUFUNC_LOGICAL && t == GUFUNC_INTEGER)) return v;
    auto key = std::make_pair(v, static_cast<int>(t));
    auto it = casts_.find(key);
    if (it != casts_.end()) return it->second;
    int out = add_value({ValueKind::Computed, t, nullptr});
    b_.code.push_back({Op::Cast, nullptr, {v}, out});
    casts_[key] = out;
    return out;
  }

  void emit_map(const Node* n) {
    std::vector<int> args;
    for (size_t k = 0; k < n->children.size(); ++k) {
      args.push_back(as_type(ids_.at(n->children[k].get()), n->match.types[k]));
    }
    int out = add_value({ValueKind::Computed, n->dtype, n});
    b_.code.push_back({Op::Map, n, std::move(args), out});
    ids_[n] = out;
  }

  Batch& b_;
  std::unordered_map<const Node*, int> ids_;
  std::map<std::pair<int, int>, int> casts_;
};

Access access_of(const Batch& b, int v, const void* out) {
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
    case ValueKind::Input: {
      const View& view = val.node->view;
      const intptr_t es = static_cast<intptr_t>(dtype_size(view.dtype));
      a.space = Space::Memory;
      a.buffer = view.buffer;
      a.offset = view.offset;
      a.extent = view.length * es;
      a.step = view.length == 1 ? 0 : es;
      break;
    }
    case ValueKind::Computed:
      if (v == b.result && out != nullptr) {
        a.space = Space::Memory;
        a.buffer = out;
        a.extent = b.length * static_cast<intptr_t>(dtype_size(val.dtype));
        a.step = static_cast<intptr_t>(dtype_size(val.dtype));
      } else {
        a.space = Space::Scratch;
        a.id = v;
      }
      break;
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

}  // namespace

Batch build_batch(const Node& root, const void* out) {
  Batch b;
  Linearizer lin(&b);
  if (root.kind == NodeKind::Reduce) {
    b.length = root.children[0]->length;
    lin.emit_reduce(&root);
  } else {
    b.length = root.length;
    b.result = lin.value_of(&root);
  }
  std::vector<InstructionAccess> accesses;
  for (const Instruction& ins : b.code) {
    InstructionAccess ia;
    for (int a : ins.args) ia.inputs.push_back(access_of(b, a, out));
    if (ins.op == Op::Reduce) {
      Access r;
      r.space = Space::Reduced;
      r.id = -1 - static_cast<intptr_t>(accesses.size());
      ia.outputs.push_back(r);
    } else {
      ia.outputs.push_back(access_of(b, ins.out, out));
    }
    accesses.push_back(std::move(ia));
  }
  b.kernel_starts = form_kernels(accesses, &b.split_reasons);
  assign_storage(&b);
  return b;
}

size_t batch_streams(const Batch& b) {
  size_t inputs = 0;
  for (const Value& v : b.values) inputs += v.kind == ValueKind::Input ? 1 : 0;
  return inputs + static_cast<size_t>(b.registers) + 1;
}

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
      default:
        return (v == b.result ? std::string("out") : "t" + std::to_string(v));
    }
  };
  std::string args;
  for (size_t k = 0; k < ins.args.size(); ++k) args += (k ? ", " : "") + name(ins.args[k]);
  switch (ins.op) {
    case Op::Cast:
      return name(ins.out) + " = as." + dtype_name(b.values[ins.out].dtype) + "(" + args + ")";
    case Op::Reduce:
      return std::string(reduction_name(ins.node->reduction)) + "(" + args +
             (ins.node->na_rm ? ", na.rm = TRUE" : "") + ")";
    default: {
      const Function& f = *ins.node->function;
      return name(ins.out) + " = `" + f.name() + "`(" + args + ")  [" +
             f.signature(ins.node->match.index).text + "]";
    }
  }
}

}  // namespace engine
}  // namespace gufunc
