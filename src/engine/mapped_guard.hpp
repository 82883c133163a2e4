// A file cut short while the engine reads its mapping must give an error, not a
// bus error that ends R. Reading a page of a mapping past the file's new end raises
// SIGBUS; while a mapped file is open, gufunc's handler catches the ones whose
// address lies in a guarded mapping: it maps zero pages over the rest of that
// mapping (the read goes on and sees zeros) and counts the fault. An evaluation that
// read a file compares the count before and after, and throws
// gufunc_file_changed_error when it moved, so the zeros never reach a result. Other
// bus errors go to the handler that was there before (R's).
//
// With the guard, element-wise kernels read a file's consecutive elements straight
// from its mapping (no copy into block scratch); without it (a platform where it
// is not built), they are read with pread() (file_reads.hpp).
#pragma once

#include <cstddef>
#include <cstdint>

namespace gufunc {
namespace engine {

// Installs the handler once (main thread). Whether mappings can be guarded here.
bool install_mapped_guard();
// Guards [begin, begin + bytes) (a whole mapping, page aligned): returns its slot,
// or -1 when it cannot be guarded (no handler, or every slot taken).
int guard_mapping(const char* begin, size_t bytes);
// Stops guarding a slot guard_mapping() returned (before the mapping is unmapped).
void unguard_mapping(int slot);
// How many reads of guarded mappings have met a cut file since the process began.
uint64_t mapped_read_faults();
// Puts back the handler that was there before (the shared library is unloaded).
void remove_mapped_guard();

}  // namespace engine
}  // namespace gufunc
