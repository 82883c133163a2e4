// Output memory faulted in a block at a time. A result's memory is usually fresh
// (R's vector for it was just allocated), so each of its pages faults when first
// written. Asking the kernel for a block's pages at once (Linux's
// MADV_POPULATE_WRITE) costs a fraction of taking the faults one at a time in the
// middle of the computing, where they also stall the reads of the operands.
#pragma once

#include <cstddef>

namespace gufunc {
namespace engine {

// Makes the whole pages inside [p, p + bytes) present and writable, without
// changing their contents; does nothing where the system cannot (older kernels,
// other systems) or for fewer bytes than are worth a system call.
void prefault_for_writing(char* p, size_t bytes);

}  // namespace engine
}  // namespace gufunc
