// The blockability rule (see blockability.hpp).
#include "engine/blockability.hpp"

namespace gufunc {
namespace engine {

bool same_data(const Access& a, const Access& b) {
  return a.space == b.space && a.buffer == b.buffer && a.id == b.id && a.offset == b.offset &&
         a.extent == b.extent && a.step == b.step;
}

bool shares_data(const Access& a, const Access& b) {
  if (a.space != b.space) return false;
  switch (a.space) {
    case Space::Constant:
      return false;  // read-only values copied into instructions
    case Space::Scratch:
    case Space::Reduced:
      return a.id == b.id;
    case Space::Memory:
      break;
  }
  if (a.buffer != b.buffer || a.extent == 0 || b.extent == 0) return false;
  return a.offset < b.offset + b.extent && b.offset < a.offset + a.extent;
}

namespace {
bool conflicts(const Access& a, const Access& b) { return shares_data(a, b) && !same_data(a, b); }

const char* space_name(Space s) {
  switch (s) {
    case Space::Memory:
      return "memory";
    case Space::Scratch:
      return "scratch";
    case Space::Reduced:
      return "a reduction result";
    default:
      return "a constant";
  }
}
}  // namespace

std::string blockability_conflict(const std::vector<InstructionAccess>& kernel,
                                  const InstructionAccess& n) {
  for (const InstructionAccess& a : kernel) {
    for (const Access& out : a.outputs) {
      for (const Access& in : n.inputs) {
        if (in.space == Space::Reduced && shares_data(in, out)) {
          return "reads the result of a reduction over all blocks of the previous kernel";
        }
        if (conflicts(in, out)) {
          return std::string("an input overlaps, but is not the same as, an output in ") +
                 space_name(in.space) + " of the previous kernel (property 1)";
        }
      }
    }
    for (const Access& o : n.outputs) {
      for (const Access& w : a.inputs) {
        if (conflicts(o, w)) {
          return "its output overlaps, but is not the same as, an input of the previous kernel "
                 "(property 2)";
        }
      }
      for (const Access& w : a.outputs) {
        if (conflicts(o, w)) {
          return "its output overlaps, but is not the same as, an output of the previous kernel "
                 "(property 2)";
        }
      }
    }
  }
  return "";
}

std::vector<size_t> form_kernels(const std::vector<InstructionAccess>& batch,
                                 std::vector<std::string>* reasons) {
  std::vector<size_t> starts;
  std::vector<InstructionAccess> current;
  reasons->clear();
  for (size_t i = 0; i < batch.size(); ++i) {
    std::string why = current.empty() ? "" : blockability_conflict(current, batch[i]);
    if (current.empty() || !why.empty()) {
      if (!current.empty()) reasons->push_back("instruction " + std::to_string(i + 1) + " " + why);
      starts.push_back(i);
      current.clear();
    }
    current.push_back(batch[i]);
  }
  return starts;
}

}  // namespace engine
}  // namespace gufunc
