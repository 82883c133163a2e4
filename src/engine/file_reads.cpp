// Reading input views of mapped files with pread() (see file_reads.hpp).
#include "engine/file_reads.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>
#include <vector>

#ifndef _WIN32
#include <sys/mman.h>
#endif

#include "abi/error.hpp"
#include "engine/mapped_file.hpp"

namespace gufunc {
namespace engine {

namespace {

// Runs of this many elements or more are read with a pread() of their own; shorter
// ones, and scattered elements, through the line cache.
const intptr_t kMinRun = 32;

// The line cache of a thread: lines of kLineBytes of a file, kWays per set, the set
// chosen by a hash of the line (strided rows hit every set alike); a set's tags are
// one cache line of the processor. 16 MB per thread: t(m) reads one line per column
// of m per kLineBytes / 8 rows, so a matrix of up to about 30,000 columns is read
// once.
const intptr_t kLineBytes = 512;
const int kSetBits = 13;
const int kWays = 4;
const size_t kSets = size_t(1) << kSetBits;
const size_t kMaxFiles = 255;  // files a cache tells apart before it starts again

struct alignas(64) Set {
  uint64_t tag[kWays];    // (line number << 8) | file number + 1; 0: empty
  uint32_t used[kWays];   // when it was last read, for replacement (0: never)
  uint32_t valid[kWays];  // its bytes read (fewer at the end of the file)
};

struct LineCache {
  uint64_t epoch = 0;
  std::vector<Set> sets;
  char* data = nullptr;            // kSets * kWays lines, allocated at first use
  std::vector<const char*> files;  // the file_start of each file number
  uint32_t clock = 0;              // (wrapping around only makes a replacement less apt)

  ~LineCache() { std::free(data); }

  void clear() {
    std::fill(sets.begin(), sets.end(), Set());
    files.clear();
  }
  // The number of the file mapped at `start` (a new one when there is room).
  uint64_t file_number(const char* start) {
    for (size_t k = 0; k < files.size(); ++k) {
      if (files[k] == start) return k + 1;
    }
    if (files.size() == kMaxFiles) clear();
    files.push_back(start);
    return files.size();
  }
};

// Memory for the lines, on huge pages where the system gives them: reading a row of
// t(m) touches a line in another page at every element, and 4 KB pages would miss
// the TLB every time.
char* allocate_lines() {
  const size_t bytes = kSets * kWays * static_cast<size_t>(kLineBytes);
  void* p = nullptr;
  if (posix_memalign(&p, size_t(2) << 20, bytes) != 0) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
  madvise(p, bytes, MADV_HUGEPAGE);
#endif
  return static_cast<char*>(p);
}

// This thread's cache, emptied when files were mapped or unmapped since its last
// use: a new mapping may reuse an old one's address.
LineCache& line_cache() {
  thread_local LineCache cache;
  const uint64_t now = mapping_epoch();
  if (cache.data == nullptr) {
    cache.sets.assign(kSets, Set());
    cache.data = allocate_lines();
  } else if (cache.epoch != now) {
    cache.clear();
  }
  cache.epoch = now;
  return cache;
}

[[noreturn]] void cut_short() {
  throw Error("gufunc_file_changed_error",
              "a file read by the evaluation was cut short while it ran");
}

// The `stored` bytes at byte `offset` of the view's file (within one line); `file`
// is the file's number in the cache.
const char* cached_bytes(LineCache& c, const View& v, uint64_t file, intptr_t offset,
                         intptr_t stored) {
  const intptr_t line = offset / kLineBytes, within = offset % kLineBytes;
  const uint64_t tag = (static_cast<uint64_t>(line) << 8) | file;
  const size_t set = static_cast<size_t>((tag * 0x9E3779B97F4A7C15ull) >> (64 - kSetBits));
  Set& s = c.sets[set];
  int victim = 0;
  for (int w = 0; w < kWays; ++w) {
    if (s.tag[w] == tag) {
      s.used[w] = ++c.clock;
      if (within + stored > static_cast<intptr_t>(s.valid[w])) cut_short();
      return &c.data[(set * kWays + static_cast<size_t>(w)) * kLineBytes + within];
    }
    if (s.used[w] < s.used[victim]) victim = w;
  }
  char* to = &c.data[(set * kWays + static_cast<size_t>(victim)) * kLineBytes];
  s.tag[victim] = 0;  // until the read succeeded
  s.used[victim] = 0;
  s.valid[victim] =
      static_cast<uint32_t>(read_file_upto(v.file_fd, line * kLineBytes, kLineBytes, to));
  s.tag[victim] = tag;
  s.used[victim] = ++c.clock;
  if (within + stored > static_cast<intptr_t>(s.valid[victim])) cut_short();
  return to + within;
}

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

// A tile of a strided view whose columns are consecutive in the file (t(m), whose
// columns are m's rows): columns [first, first + count) of each of its rows, row r's
// at r * count, read with one pread() per row. A block of t(m) is a few of its
// columns wide, a tile up to kTileColumns (and kTileBytes): each pread() serves the
// blocks that follow, and the block's values are copied from the tile row by row.
const size_t kTileBytes = size_t(16) << 20;
const intptr_t kTileColumns = 256;

struct Tile {
  uint64_t epoch = 0;
  const char* data = nullptr;  // the view's element 0, with its strides: the view
  intptr_t row_stride = 0, rows = 0;
  intptr_t first = 0, count = 0;  // count 0: nothing read
  std::vector<char> values;       // as stored
};

// This thread's tile of `v` holding column `column`.
const Tile& tile_for(const View& v, intptr_t column) {
  thread_local Tile t;
  const uint64_t now = mapping_epoch();
  if (t.count > 0 && t.epoch == now && t.data == v.data && t.row_stride == v.row_stride &&
      t.rows == v.rows && column >= t.first && column < t.first + t.count) {
    return t;
  }
  const intptr_t stored = v.bytes ? 1 : static_cast<intptr_t>(dtype_size(v.dtype));
  const intptr_t columns = v.length / v.rows;
  const intptr_t per = std::max<intptr_t>(
      1, std::min<intptr_t>(kTileColumns, static_cast<intptr_t>(kTileBytes) / (v.rows * stored)));
  t.count = 0;  // until read
  t.epoch = now;
  t.data = v.data;
  t.row_stride = v.row_stride;
  t.rows = v.rows;
  t.first = column - column % per;  // the same tiles for every thread
  const intptr_t count = std::min(per, columns - t.first);
  t.values.resize(static_cast<size_t>(v.rows * count * stored));
  const intptr_t origin = v.data - v.file_start;
  for (intptr_t r = 0; r < v.rows; ++r) {
    read_file(v.file_fd, origin + (r * v.row_stride + t.first * v.column_step) * stored,
              static_cast<size_t>(count * stored),
              &t.values[static_cast<size_t>(r * count * stored)]);
  }
  t.count = count;
  return t;
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
      const char* src = &t.values[static_cast<size_t>((r * t.count + from - t.first) * stored)];
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
