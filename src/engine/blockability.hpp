// The blockability rule of cphVB: an instruction N joins the kernel A being formed
// only if
//   1. the inputs of N and the outputs of A share no data, or are precisely the same data;
//   2. the output of N and the inputs and outputs of A share no data, or are precisely
//      the same data.
// Data is described by access descriptors over buffers; block scratch and reduction
// results live in their own spaces, so only real memory can conflict. A reduction's
// result is final only after all blocks, so reading it also ends the kernel.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gufunc {
namespace engine {

enum class Space { Memory, Scratch, Reduced, Constant };

// Which bytes an instruction touches over the whole evaluation: in `space`, of
// `buffer` (memory) or slot `id` (scratch, reduced), `extent` bytes from `offset`,
// `step` bytes apart (0 for a broadcast element).
struct Access {
  Space space = Space::Memory;
  const void* buffer = nullptr;
  intptr_t id = 0;
  intptr_t offset = 0;
  intptr_t extent = 0;
  intptr_t step = 0;
};

struct InstructionAccess {
  std::vector<Access> inputs;
  std::vector<Access> outputs;
};

bool same_data(const Access& a, const Access& b);
bool shares_data(const Access& a, const Access& b);

// Cuts a batch into kernels: returns the index of the first instruction of each, and
// in `reasons` why each kernel after the first starts (shown by lazy_plan()).
std::vector<size_t> form_kernels(const std::vector<InstructionAccess>& batch,
                                 std::vector<std::string>* reasons);

}  // namespace engine
}  // namespace gufunc
