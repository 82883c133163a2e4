// The caches of file reads (see file_caches.hpp).
#include "engine/file_caches.hpp"

#include <cstdlib>
#include <mutex>
#include <new>
#include <set>

#ifndef _WIN32
#include <sys/mman.h>
#endif

#include "engine/mapped_file.hpp"

namespace gufunc {
namespace engine {

namespace {

// Every thread's caches, so that their memory is freed once no file is mapped
// (release_file_caches()). Never destroyed: threads may end after static destructors.
struct CacheRegistry {
  std::mutex mutex;
  std::set<LineCache*> lines;
  std::set<Tile*> tiles;
};
CacheRegistry& caches() {
  static CacheRegistry* registry = new CacheRegistry();
  return *registry;
}

template <class Cache>
void enlist_in(Cache* cache, std::set<Cache*> CacheRegistry::*set, bool add) {
  std::lock_guard<std::mutex> lock(caches().mutex);
  if (add) {
    (caches().*set).insert(cache);
  } else {
    (caches().*set).erase(cache);
  }
}

}  // namespace

char* PageBuffer::reserve(size_t bytes) {
  if (bytes <= bytes_) return data_;
  release();
#ifdef _WIN32
  data_ = static_cast<char*>(std::malloc(bytes));
  if (data_ == nullptr) throw std::bad_alloc();
#else
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
  madvise(p, bytes, MADV_HUGEPAGE);
#endif
  data_ = static_cast<char*>(p);
#endif
  bytes_ = bytes;
  return data_;
}

void PageBuffer::release() {
  if (data_ == nullptr) return;
#ifdef _WIN32
  std::free(data_);
#else
  munmap(data_, bytes_);
#endif
  data_ = nullptr;
  bytes_ = 0;
}

void enlist(LineCache* cache, bool add) { enlist_in(cache, &CacheRegistry::lines, add); }
void enlist(Tile* tile, bool add) { enlist_in(tile, &CacheRegistry::tiles, add); }

LineCache& line_cache() {
  thread_local LineCache cache;
  const uint64_t now = mapping_epoch();
  if (cache.lines.data() == nullptr) {
    cache.sets.assign(kSets, Set());
    cache.lines.reserve(kSets * kWays * static_cast<size_t>(kLineBytes));
  } else if (cache.epoch != now) {
    cache.clear();
  }
  cache.epoch = now;
  return cache;
}

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
      if (within + stored > static_cast<intptr_t>(s.valid[w])) file_cut_short();
      return c.lines.data() + (set * kWays + static_cast<size_t>(w)) * kLineBytes + within;
    }
    if (s.used[w] < s.used[victim]) victim = w;
  }
  char* to = c.lines.data() + (set * kWays + static_cast<size_t>(victim)) * kLineBytes;
  s.tag[victim] = 0;  // until the read succeeded
  s.used[victim] = 0;
  s.valid[victim] =
      static_cast<uint32_t>(read_file_upto(v.file_fd, line * kLineBytes, kLineBytes, to));
  s.tag[victim] = tag;
  s.used[victim] = ++c.clock;
  if (within + stored > static_cast<intptr_t>(s.valid[victim])) file_cut_short();
  return to + within;
}

const Tile& tile_for(const View& v, intptr_t column) {
  thread_local Tile tiles[kTileViews];
  thread_local uint32_t clock = 0;
  const uint64_t now = mapping_epoch();
  // The view's tile (read again where it does not hold the column), else the one
  // used longest ago.
  Tile* slot = &tiles[0];
  for (Tile& t : tiles) {
    if (t.of(v, now)) {
      slot = &t;
      break;
    }
    if (t.used < slot->used) slot = &t;
  }
  Tile& t = *slot;
  t.used = ++clock;
  if (t.of(v, now) && column >= t.first && column < t.first + t.count) return t;
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
  char* values = t.values.reserve(static_cast<size_t>(v.rows * count * stored));
  const intptr_t origin = v.data - v.file_start;
  for (intptr_t r = 0; r < v.rows; ++r) {
    read_file(v.file_fd, origin + (r * v.row_stride + t.first * v.column_step) * stored,
              static_cast<size_t>(count * stored), values + r * count * stored);
  }
  t.count = count;
  return t;
}

void release_file_caches() {
  std::lock_guard<std::mutex> lock(caches().mutex);
  for (LineCache* c : caches().lines) c->release();
  for (Tile* t : caches().tiles) t->release();
}

}  // namespace engine
}  // namespace gufunc
