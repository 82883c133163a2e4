// The blockability rule (see blockability.hpp).
#include "engine/blockability.hpp"

#include <unordered_map>
#include <utility>

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

// The accesses of the kernel being formed, indexed by what they touch, so checking
// an instruction costs only the accesses that can share data with it (a kernel of
// 2e5 instructions forms in linear time).
class KernelIndex {
 public:
  void clear() {
    inputs_.clear();
    outputs_.clear();
  }
  void add(const InstructionAccess& ia) {
    for (const Access& a : ia.inputs) inputs_[key(a)].push_back(a);
    for (const Access& a : ia.outputs) outputs_[key(a)].push_back(a);
  }
  // Empty when N may join the kernel, else why not: the two properties, checked
  // against every instruction of the kernel through the index.
  std::string conflict(const InstructionAccess& n) const {
    for (const Access& in : n.inputs) {
      for (const Access& out : find(outputs_, in)) {
        if (in.space == Space::Reduced && shares_data(in, out)) {
          return "reads the result of a reduction over all blocks of the previous kernel";
        }
        if (shares_data(in, out) && !same_data(in, out)) {
          return "an input overlaps, but is not the same as, an output of the previous kernel "
                 "(property 1)";
        }
      }
    }
    for (const Access& o : n.outputs) {
      for (const Access& w : find(inputs_, o)) {
        if (shares_data(o, w) && !same_data(o, w)) {
          return "its output overlaps, but is not the same as, an input of the previous kernel "
                 "(property 2)";
        }
      }
      for (const Access& w : find(outputs_, o)) {
        if (shares_data(o, w) && !same_data(o, w)) {
          return "its output overlaps, but is not the same as, an output of the previous kernel "
                 "(property 2)";
        }
      }
    }
    return "";
  }

 private:
  using Key = std::pair<int, uintptr_t>;
  struct KeyHash {
    size_t operator()(const Key& k) const { return std::hash<uintptr_t>()(k.second) ^ k.first; }
  };
  using Map = std::unordered_map<Key, std::vector<Access>, KeyHash>;

  // Memory is keyed by buffer, scratch and reduction results by slot id.
  static Key key(const Access& a) {
    const uintptr_t what = a.space == Space::Memory ? reinterpret_cast<uintptr_t>(a.buffer)
                                                    : static_cast<uintptr_t>(a.id);
    return {static_cast<int>(a.space), what};
  }
  static const std::vector<Access>& find(const Map& m, const Access& a) {
    static const std::vector<Access> none;
    if (a.space == Space::Constant) return none;
    auto it = m.find(key(a));
    return it == m.end() ? none : it->second;
  }

  Map inputs_, outputs_;
};

}  // namespace

std::vector<size_t> form_kernels(const std::vector<InstructionAccess>& batch,
                                 std::vector<std::string>* reasons) {
  std::vector<size_t> starts;
  KernelIndex current;
  reasons->clear();
  for (size_t i = 0; i < batch.size(); ++i) {
    std::string why = starts.empty() ? "" : current.conflict(batch[i]);
    if (starts.empty() || !why.empty()) {
      if (!starts.empty()) reasons->push_back("instruction " + std::to_string(i + 1) + " " + why);
      starts.push_back(i);
      current.clear();
    }
    current.add(batch[i]);
  }
  return starts;
}

}  // namespace engine
}  // namespace gufunc
