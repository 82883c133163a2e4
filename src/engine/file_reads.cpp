// Reading input views of mapped files with pread() (see file_reads.hpp).
#include "engine/file_reads.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "engine/file_caches.hpp"
#include "engine/mapped_file.hpp"

namespace gufunc {
namespace engine {

namespace {

// Runs of this many elements or more are read with a pread() of their own; shorter
// ones, and scattered elements, through the line cache.
const intptr_t kMinRun = 32;

// One stored element to out (NumPy bool / uint8 widened to R's logical).
inline void put(const View& v, const char* stored, char* out, size_t es) {
  if (v.bytes) {
    const int value = *reinterpret_cast<const unsigned char*>(stored) != 0;
    std::memcpy(out, &value, sizeof value);
  } else if (es == sizeof(double)) {
    std::memcpy(out, stored, sizeof(double));
  } else {
    std::memcpy(out, stored, sizeof(int));
  }
}

// The element at byte `offset` of the view's file to out.
inline void read_element(LineCache& c, const View& v, uint64_t file, intptr_t offset,
                         intptr_t stored, char* out, size_t es) {
  if (offset % kLineBytes + stored <= kLineBytes) {
    put(v, cached_bytes(c, v, file, offset, stored), out, es);
    return;
  }
  char bytes[sizeof(double)];  // an element across two lines (a raw file's odd offset)
  read_file(v.file_fd, offset, static_cast<size_t>(stored), bytes);
  put(v, bytes, out, es);
}

// `count` elements stored from byte `offset` on to out, in file order or from the
// last backwards (rev(x)).
void read_run(const View& v, intptr_t offset, intptr_t count, bool backwards, char* out) {
  const intptr_t stored = v.bytes ? 1 : static_cast<intptr_t>(dtype_size(v.dtype));
  const size_t es = dtype_size(v.dtype);
  const size_t bytes = static_cast<size_t>(count * stored);
  if (!backwards && !v.bytes) {
    read_file(v.file_fd, offset, bytes, out);
    return;
  }
  std::vector<char> run(bytes);
  read_file(v.file_fd, offset, bytes, run.data());
  for (intptr_t k = 0; k < count; ++k) {
    const intptr_t from = backwards ? count - 1 - k : k;
    put(v, run.data() + from * stored, out + static_cast<size_t>(k) * es, es);
  }
}

// Elements [begin, end) of a strided view whose columns are consecutive in the file,
// from tiles, row by row.
void read_across(const View& v, intptr_t begin, intptr_t end, char* out) {
  const intptr_t stored = v.bytes ? 1 : static_cast<intptr_t>(dtype_size(v.dtype));
  const size_t es = dtype_size(v.dtype);
  const intptr_t rows = v.rows;
  const intptr_t first_column = begin / rows, last_column = (end - 1) / rows;
  for (intptr_t c0 = first_column; c0 <= last_column;) {
    const Tile& t = tile_for(v, c0);
    const intptr_t c1 = std::min(last_column, t.first + t.count - 1);
    for (intptr_t r = 0; r < rows; ++r) {
      // (Only the range's first and last columns may start or end mid-column.)
      const intptr_t from = c0 == first_column && c0 * rows + r < begin ? c0 + 1 : c0;
      const intptr_t to = c1 == last_column && c1 * rows + r >= end ? c1 - 1 : c1;
      const char* src = t.values.data() + (r * t.count + from - t.first) * stored;
      for (intptr_t col = from; col <= to; ++col, src += stored) {
        put(v, src, out + (col * rows + r - begin) * static_cast<intptr_t>(es), es);
      }
    }
    c0 = c1 + 1;
  }
}

}  // namespace

void read_file_view(const View& view, intptr_t begin, intptr_t end, char* out) {
  if (end <= begin) return;
  const intptr_t stored = view.bytes ? 1 : static_cast<intptr_t>(dtype_size(view.dtype));
  const size_t es = dtype_size(view.dtype);
  const intptr_t origin = view.data - view.file_start;  // element 0, in bytes
  if (view.length == 1) {                               // one element, repeated
    LineCache& cache = line_cache();
    read_element(cache, view, cache.file_number(view.file_start), origin, stored, out, es);
    for (intptr_t i = begin + 1; i < end; ++i) std::memcpy(out + (i - begin) * es, out, es);
    return;
  }
  if (view.each > 1) {
    // The distinct elements once, then each repeated.
    View distinct = view;
    distinct.each = 1;
    distinct.length = (view.length - 1) / view.each + 1;
    const intptr_t d0 = begin / view.each, d1 = (end - 1) / view.each + 1;
    std::vector<char> values(static_cast<size_t>(d1 - d0) * es);
    read_file_view(distinct, d0, d1, values.data());
    for (intptr_t i = begin; i < end; ++i) {
      std::memcpy(out + (i - begin) * es, values.data() + (i / view.each - d0) * es, es);
    }
    return;
  }
  if (!view.is_block()) {
    read_run(view, origin + begin * stored, end - begin, false, out);
    return;
  }
  // A transposed view, read a column or more at a time: from tiles (a few values:
  // from the line cache, not a tile's pread() per row).
  if (view.is_strided() && view.column_step == 1 && end - begin >= view.rows) {
    read_across(view, begin, end, out);
    return;
  }
  LineCache* cache = nullptr;
  uint64_t file = 0;
  for (intptr_t i = begin; i < end;) {
    const intptr_t row = i % view.rows, wrap = view.rows - view.row_roll;  // rolled rows wrap
    const intptr_t in_column = std::min((row < wrap ? wrap : view.rows) - row, end - i);
    const intptr_t first = origin + view_offset(view, i) * stored;
    char* to = out + (i - begin) * static_cast<intptr_t>(es);
    if (view.row_stride == 1 && in_column >= kMinRun) {
      read_run(view, first, in_column, false, to);
    } else if (view.row_stride == -1 && in_column >= kMinRun) {
      read_run(view, first - (in_column - 1) * stored, in_column, true, to);
    } else {
      if (cache == nullptr) {
        cache = &line_cache();
        file = cache->file_number(view.file_start);
      }
      const intptr_t step = view.row_stride * stored;
      for (intptr_t k = 0; k < in_column; ++k) {
        read_element(*cache, view, file, first + k * step, stored,
                     to + k * static_cast<intptr_t>(es), es);
      }
    }
    i += in_column;
  }
}

}  // namespace engine
}  // namespace gufunc
