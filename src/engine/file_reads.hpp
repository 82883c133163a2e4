// Reading input views of mapped files (mapped_file.hpp) without touching the
// mapping. A fault on a mapped file maps the whole folio around it (tens of KB on
// recent kernels), so reading a row of a column-major matrix through the mapping
// (t(m), m[i, ]) makes every page of the file resident at once. Instead:
// - runs of consecutive elements (a view's columns, rev(x) backwards) are read with
//   one pread() each;
// - a transposed view (t(m)) read a column or more at a time comes from a tile of
//   up to 16 MB (one per view, up to four, per thread): many of its columns, one
//   pread() per row;
// - other scattered elements come through a per-thread cache of 512-byte lines of
//   the file (16 MB), each read with one pread(), so neighbouring reads share them.
// Resident memory stays bounded by the block scratch, the tiles and the line caches
// (file_caches.hpp), which are freed when the last file is unmapped.
#pragma once

#include <cstdint>

#include "engine/graph.hpp"

namespace gufunc {
namespace engine {

// Elements [begin, end) of `view` (view.file_fd >= 0) into `out`, as read_view().
// Any thread; throws gufunc_file_changed_error when the file was cut short.
void read_file_view(const View& view, intptr_t begin, intptr_t end, char* out);

}  // namespace engine
}  // namespace gufunc
