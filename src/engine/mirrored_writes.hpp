// A value stored twice as its blocks are computed: once into its own memory, and
// once into the region of another vector that an in-place subassignment writes
// (x[i, j] <- x[i, j] - b, src/r/lazy_assign.cpp). Base R computes the value, then
// copies it into x; storing each block into x right after it is computed, while it
// is still in cache, saves that second pass over the value.
//
// Safe only where the value reads x's region element for element (element k of the
// value reads position k of the region and nothing else there; reads_region_aligned)
// and cannot stop half way (writes_without_failing, assign.hpp): a block then
// overwrites only what it alone has read.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "engine/graph.hpp"

namespace gufunc {
namespace engine {

// Whether every element `value` reads from the memory of `buffer` in positions
// [region.first, last position of region] is read by the value's element of the same
// index in the region: inputs reading it are views of exactly the region, reached
// from `value` through element-wise nodes of value's length only.
bool reads_region_aligned(const Node& value, const void* buffer, size_t element_size,
                          const Region& region);

// While one lives (main thread), evaluating `value` stores each of its blocks a
// second time, into the positions of `region` in `target` (memory of elements of
// `element_size` bytes), from the threads that compute them.
class MirroredWrites {
 public:
  MirroredWrites(const Node* value, const Region& region, char* target, size_t element_size);
  ~MirroredWrites();
  MirroredWrites(const MirroredWrites&) = delete;
  MirroredWrites& operator=(const MirroredWrites&) = delete;

  // Whether every element of the value was stored into the region (an evaluation
  // that did not go block by block, kept values say, stores none).
  bool complete() const { return stored_.load() == region_.count(); }

  // Called by the block runner for the block of elements [begin, end) of the value,
  // whose values are at `values`.
  void store(intptr_t begin, intptr_t end, const char* values);

  const Node* value() const { return value_; }

 private:
  const Node* value_;
  Region region_;
  char* target_;
  size_t element_size_;
  std::atomic<intptr_t> stored_{0};
  MirroredWrites* before_;
};

// The mirror for the batch of `root`, or nullptr.
MirroredWrites* mirror_of(const Node& root);

}  // namespace engine
}  // namespace gufunc
