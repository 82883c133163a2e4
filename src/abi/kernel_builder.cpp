// Kernel block layout (see kernel_builder.hpp).
#include "abi/kernel_builder.hpp"

#include <algorithm>
#include <cstring>
#include <string>

namespace gufunc {

namespace {

[[noreturn]] void builder_error(const std::string& msg) {
  throw Error("gufunc_kernel_error", "kernel builder: " + msg);
}

const size_t kInitialCapacity = 256;

}  // namespace

KernelBuilder::~KernelBuilder() {
  // Parents come before their children, so destroying the unowned kernels last to
  // first never touches a child twice.
  for (auto it = unowned_.rbegin(); it != unowned_.rend(); ++it) {
    gufunc_kernel_prefix* k = kernel(*it);
    if (k->destructor != nullptr) k->destructor(k);
  }
  std::free(data_);
}

size_t KernelBuilder::grow(size_t bytes) {
  const size_t offset = size_;
  const size_t needed = offset + align_to_kernel(bytes);
  if (needed > capacity_) {
    size_t capacity = std::max(needed, std::max(kInitialCapacity, 2 * capacity_));
    // realloc moves the kernels built so far with a memcpy: the ABI allows exactly that.
    void* grown = std::realloc(data_, capacity);
    if (grown == nullptr) throw std::bad_alloc();
    data_ = static_cast<char*>(grown);
    capacity_ = capacity;
  }
  // Padding is zeroed so blocks compare and copy deterministically.
  std::memset(data_ + offset, 0, needed - offset);
  size_ = needed;
  return offset;
}

gufunc_kernel_prefix* KernelBuilder::kernel(size_t offset) const {
  return reinterpret_cast<gufunc_kernel_prefix*>(data_ + offset);
}

size_t KernelBuilder::add(gufunc_function_t fn) {
  unowned_.reserve(unowned_.size() + 1);
  const size_t offset = grow(sizeof(gufunc_kernel_prefix));
  *kernel(offset) = gufunc_kernel_prefix{fn, nullptr};
  unowned_.push_back(offset);
  return offset;
}

size_t KernelBuilder::adopt(gufunc_dynamic_kernel* k) {
  if (k == nullptr || k->kernel == nullptr) builder_error("cannot adopt an empty kernel");
  if (k->kernel_size < sizeof(gufunc_kernel_prefix) || k->kernel_size % kKernelAlign != 0) {
    builder_error("an adopted kernel's size (" + std::to_string(k->kernel_size) +
                  ") must be a multiple of " + std::to_string(kKernelAlign));
  }
  unowned_.reserve(unowned_.size() + 1);
  const size_t offset = grow(k->kernel_size);
  std::memcpy(data_ + offset, k->kernel, k->kernel_size);
  k->free_func(k->kernel);
  *k = gufunc_dynamic_kernel{nullptr, 0, nullptr};
  unowned_.push_back(offset);
  return offset;
}

void KernelBuilder::link(ChildKernel& handle, size_t child) {
  char* at = reinterpret_cast<char*>(&handle);
  if (data_ == nullptr || at < data_ || at >= data_ + size_) {
    builder_error("the child handle does not lie in this block");
  }
  if (handle.linked()) builder_error("the child handle already owns a kernel");
  auto it = std::find(unowned_.begin(), unowned_.end(), child);
  if (it == unowned_.end()) {
    builder_error("the kernel at offset " + std::to_string(child) +
                  " does not exist or already has a parent");
  }
  // Children after parents: this keeps the tree free of cycles and the layout simple.
  if (data_ + child <= at) builder_error("a child kernel must be added after its parent");
  handle.distance_ = (data_ + child) - at;
  unowned_.erase(it);
}

gufunc_dynamic_kernel KernelBuilder::release() {
  if (unowned_.empty()) builder_error("there is no kernel to release");
  if (unowned_.size() > 1 || unowned_[0] != 0) {
    builder_error(std::to_string(unowned_.size() - 1) + " kernel(s) in the block have no parent");
  }
  // Give back the spare capacity; realloc may move the block, which the ABI allows.
  char* block = static_cast<char*>(std::realloc(data_, size_));
  if (block == nullptr) block = data_;
  gufunc_dynamic_kernel out = {reinterpret_cast<gufunc_kernel_prefix*>(block), size_, &std::free};
  data_ = nullptr;
  size_ = capacity_ = 0;
  unowned_.clear();
  return out;
}

}  // namespace gufunc
