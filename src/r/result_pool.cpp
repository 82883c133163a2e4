// Freed large result buffers kept for reuse (see result_pool.hpp).
#include "r/result_pool.hpp"

#include <cstdlib>

namespace gufunc {
namespace r {

size_t ResultPool::best_block(size_t bytes) const {
  // The smallest kept block that fits (a much larger one would sit mostly unused),
  // the newest of equals: the same block serves a loop that needs one, and the
  // others go stale.
  size_t best = kept_.size();
  for (size_t i = 0; i < kept_.size(); ++i) {
    const size_t c = kept_[i].capacity;
    if (!fits(c, bytes)) continue;
    if (best == kept_.size() || c <= kept_[best].capacity) best = i;
  }
  return best;
}

void* ResultPool::take(size_t bytes, size_t* capacity) {
  const size_t best = best_block(bytes);
  if (best == kept_.size()) return nullptr;
  void* block = kept_[best].block;
  *capacity = kept_[best].capacity;
  bytes_ -= *capacity;
  kept_.erase(kept_.begin() + static_cast<std::ptrdiff_t>(best));
  return block;
}

bool ResultPool::holds_block_for(size_t bytes) const { return best_block(bytes) != kept_.size(); }

void ResultPool::give(void* block, size_t capacity) {
  if (capacity > limit_) {
    std::free(block);
    return;
  }
  shrink_to(limit_ - capacity);
  kept_.push_back({block, capacity, 0, 0});
  bytes_ += capacity;
}

void ResultPool::note_request(size_t bytes) {
  free_if([bytes](Kept& k) {
    if (!fits(k.capacity, bytes)) k.misfits += bytes;
    k.requested += bytes;
    return k.misfits > kStaleFactor * k.capacity || k.requested > kFittingStaleFactor * k.capacity;
  });
}

void ResultPool::set_limit(size_t bytes) {
  limit_ = bytes;
  shrink_to(bytes);
}

void ResultPool::release() { shrink_to(0); }

void ResultPool::shrink_to(size_t bytes) {
  // Oldest first: bytes_ falls as blocks go, so the newer ones stay.
  free_if([this, bytes](Kept&) { return bytes_ > bytes; });
}

template <class Pred>
void ResultPool::free_if(Pred stale) {
  size_t kept = 0;
  for (Kept& k : kept_) {
    if (stale(k)) {
      std::free(k.block);
      bytes_ -= k.capacity;
    } else {
      kept_[kept++] = k;
    }
  }
  kept_.resize(kept);
}

// Never destroyed: R may free vectors as late as its own exit.
ResultPool& result_pool() {
  static ResultPool* pool = new ResultPool();
  return *pool;
}

}  // namespace r
}  // namespace gufunc
