// The caches through which threads read scattered values of mapped files
// (file_reads.hpp): a cache of lines of the files, and a tile of a transposed view.
// One of each per thread, allocated at first use; their memory is freed when the
// last file is unmapped (release_file_caches()).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/graph.hpp"

namespace gufunc {
namespace engine {

struct LineCache;
struct Tile;

// Memory of its own from the system (not the allocator's heap, which would keep it
// in the process once freed), on huge pages where the system gives them: reading a
// row of t(m) touches a line in another page at every element, and 4 KB pages
// would miss the TLB every time.
class PageBuffer {
 public:
  PageBuffer() = default;
  PageBuffer(const PageBuffer&) = delete;
  PageBuffer& operator=(const PageBuffer&) = delete;
  ~PageBuffer() { release(); }
  // At least `bytes` bytes (their values lost when it grows).
  char* reserve(size_t bytes);
  void release();
  char* data() const { return data_; }

 private:
  char* data_ = nullptr;
  size_t bytes_ = 0;
};
// Registers a thread's cache (add) or forgets it, for release_file_caches().
void enlist(LineCache* cache, bool add);
void enlist(Tile* tile, bool add);

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
  PageBuffer lines;                // kSets * kWays lines, allocated at first use
  std::vector<const char*> files;  // the file_start of each file number
  uint32_t clock = 0;              // (wrapping around only makes a replacement less apt)

  LineCache() { enlist(this, true); }
  ~LineCache() { enlist(this, false); }
  LineCache(const LineCache&) = delete;
  LineCache& operator=(const LineCache&) = delete;

  void release() {
    lines.release();
    std::vector<Set>().swap(sets);
    files.clear();
  }
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
  PageBuffer values;              // as stored
  uint32_t used = 0;              // when a read last took it, for replacement

  // Whether this is a tile of the view `v` (read in epoch `now`).
  bool of(const View& v, uint64_t now) const {
    return count > 0 && epoch == now && data == v.data && row_stride == v.row_stride &&
           rows == v.rows;
  }

  Tile() { enlist(this, true); }
  ~Tile() { enlist(this, false); }
  Tile(const Tile&) = delete;
  Tile& operator=(const Tile&) = delete;

  void release() {
    count = 0;
    values.release();
  }
};

// This thread's line cache, emptied when files were mapped or unmapped since its
// last use: a new mapping may reuse an old one's address.
LineCache& line_cache();

// The `stored` bytes at byte `offset` of the view's file (within one line); `file`
// is the file's number in the cache.
const char* cached_bytes(LineCache& c, const View& v, uint64_t file, intptr_t offset,
                         intptr_t stored);

// This thread's tile of `v` (a strided view whose columns are consecutive in the
// file) holding column `column`. A thread keeps a tile for each of up to kTileViews
// views, so an expression of several transposed files (t(x) * t(y)) does not read
// one view's tile again for every block of the other.
const int kTileViews = 4;
const Tile& tile_for(const View& v, intptr_t column);

// Frees the memory of every thread's tile and line cache (they are made again when
// needed): called when the last mapped file is unmapped, so no evaluation is reading
// a file.
void release_file_caches();

}  // namespace engine
}  // namespace gufunc
