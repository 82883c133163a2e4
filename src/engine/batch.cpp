// Batch construction (see batch.hpp).
#include "engine/batch.hpp"

#include <algorithm>
#include <vector>

#include "dispatch/apply.hpp"
#include "dispatch/builtin_traits.hpp"
#include "engine/block_size.hpp"
#include "engine/linearizer.hpp"

namespace gufunc {
namespace engine {

namespace {

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
  linearize(root, &b);
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
  b.fused = find_fused_runs(b);
  return b;
}

size_t batch_streams(const Batch& b) {
  size_t inputs = 0;
  for (const Value& v : b.values) {
    inputs += v.kind == ValueKind::Input || v.kind == ValueKind::Staged ? 1 : 0;
  }
  return inputs + static_cast<size_t>(b.registers) + 1;
}

size_t batch_file_streams(const Batch& b) {
  return static_cast<size_t>(std::count_if(b.values.begin(), b.values.end(), [](const Value& v) {
    return v.kind == ValueKind::Input && v.node->view.file_fd >= 0;
  }));
}

size_t batch_block_elements(const Batch& b, size_t requested) {
  return block_elements(batch_streams(b), requested, batch_file_streams(b) > 0);
}

}  // namespace engine
}  // namespace gufunc
