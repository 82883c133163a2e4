// Memory an evaluation writes before it reads (temporaries, staged operands,
// chunks of a value): uninitialised, since zero-filling it as std::vector<char>
// does is a wasted pass over it, and taken from a small cache of buffers earlier
// evaluations gave back, so a loop of evaluations does not map fresh pages (one
// page fault per 4 KB) every time.
#pragma once

#include <cstddef>

namespace gufunc {
namespace engine {

class ScratchBuffer {
 public:
  ScratchBuffer() = default;
  ~ScratchBuffer();
  ScratchBuffer(ScratchBuffer&& other) noexcept;
  ScratchBuffer& operator=(ScratchBuffer&& other) noexcept;
  ScratchBuffer(const ScratchBuffer&) = delete;
  ScratchBuffer& operator=(const ScratchBuffer&) = delete;

  // Makes room for `bytes`; what the buffer held before is not kept.
  void resize(size_t bytes);
  char* data() const { return data_; }
  size_t size() const { return size_; }

 private:
  void release();
  char* data_ = nullptr;
  size_t size_ = 0, capacity_ = 0;
};

}  // namespace engine
}  // namespace gufunc
