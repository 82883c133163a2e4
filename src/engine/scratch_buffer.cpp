// Scratch buffers and their cache (see scratch_buffer.hpp).
#include "engine/scratch_buffer.hpp"

#include <cstdlib>
#include <mutex>
#include <new>
#include <utility>
#include <vector>

namespace gufunc {
namespace engine {

namespace {

// At most this much memory is kept for reuse; more would only raise the
// session's resident memory.
const size_t kCachedBytes = size_t(64) << 20;
const size_t kCachedBuffers = 8;

struct Cached {
  char* data;
  size_t capacity;
};

struct Cache {
  std::mutex lock;
  std::vector<Cached> buffers;
  size_t bytes = 0;
};

Cache& cache() {
  static Cache* c = new Cache;  // never destroyed: buffers may be freed at exit
  return *c;
}

// A cached buffer of at least `bytes` and not much more (the smallest such), or
// a new one.
Cached take(size_t bytes) {
  Cache& c = cache();
  {
    std::lock_guard<std::mutex> g(c.lock);
    size_t best = c.buffers.size();
    for (size_t i = 0; i < c.buffers.size(); ++i) {
      const size_t cap = c.buffers[i].capacity;
      if (cap >= bytes && cap <= 2 * bytes + 65536 &&
          (best == c.buffers.size() || cap < c.buffers[best].capacity)) {
        best = i;
      }
    }
    if (best < c.buffers.size()) {
      const Cached found = c.buffers[best];
      c.buffers.erase(c.buffers.begin() + static_cast<std::ptrdiff_t>(best));
      c.bytes -= found.capacity;
      return found;
    }
  }
  char* data = static_cast<char*>(std::malloc(bytes));
  if (data == nullptr) throw std::bad_alloc();
  return {data, bytes};
}

// Keeps a buffer for reuse, making room by freeing the oldest ones.
void give_back(Cached b) {
  if (b.capacity > kCachedBytes) {
    std::free(b.data);
    return;
  }
  Cache& c = cache();
  std::vector<char*> freed;
  {
    std::lock_guard<std::mutex> g(c.lock);
    while (!c.buffers.empty() &&
           (c.bytes + b.capacity > kCachedBytes || c.buffers.size() >= kCachedBuffers)) {
      freed.push_back(c.buffers.front().data);
      c.bytes -= c.buffers.front().capacity;
      c.buffers.erase(c.buffers.begin());
    }
    c.buffers.push_back(b);
    c.bytes += b.capacity;
  }
  for (char* p : freed) std::free(p);
}

}  // namespace

ScratchBuffer::~ScratchBuffer() { release(); }

ScratchBuffer::ScratchBuffer(ScratchBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      capacity_(std::exchange(other.capacity_, 0)) {}

ScratchBuffer& ScratchBuffer::operator=(ScratchBuffer&& other) noexcept {
  if (this != &other) {
    release();
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    capacity_ = std::exchange(other.capacity_, 0);
  }
  return *this;
}

void ScratchBuffer::resize(size_t bytes) {
  if (bytes > capacity_ || data_ == nullptr) {
    release();
    const Cached b = take(bytes > 0 ? bytes : 1);
    data_ = b.data;
    capacity_ = b.capacity;
  }
  size_ = bytes;
}

void ScratchBuffer::release() {
  if (data_ != nullptr) give_back({data_, capacity_});
  data_ = nullptr;
  size_ = capacity_ = 0;
}

}  // namespace engine
}  // namespace gufunc
