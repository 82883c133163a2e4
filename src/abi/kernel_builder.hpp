// Builds relocatable kernel blocks (inst/include/gufunc/kernel.h) from C++: kernels
// with closure-like state, and composites whose children live in the same block.
//
// A kernel built here is laid out as {function, destructor} followed by its state.
// Kernels are appended one after another to one pointer-aligned buffer; a parent
// reaches a child through a ChildKernel handle in its state, which stores a byte
// distance, never an address, so the finished block can be moved with memcpy.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

#include "abi/error.hpp"
#include "gufunc/kernel.h"

namespace gufunc {

// Kernels and everything inside them are aligned to a pointer, no more (kernel.h).
constexpr size_t kKernelAlign = alignof(void*);

constexpr size_t align_to_kernel(size_t bytes) {
  return (bytes + kKernelAlign - 1) / kKernelAlign * kKernelAlign;
}

// Whether a state type survives being moved with memcpy, as every block may be.
// Trivially copyable types do. A type that holds no pointer into itself can opt in
// with a member `using relocatable = std::true_type;` or a specialization.
template <class T, class = void>
struct is_relocatable : std::is_trivially_copyable<T> {};
template <class T>
struct is_relocatable<T, std::void_t<typename T::relocatable>> : T::relocatable {};
// Owning pointers and vectors point only outside themselves (libstdc++ and libc++);
// std::string does not qualify: its short-string buffer is a pointer into itself.
template <class T>
struct is_relocatable<std::unique_ptr<T>, void> : std::true_type {};
template <class T>
struct is_relocatable<std::vector<T>, void> : std::true_type {};

// Casts any kernel function to the type stored in the prefix; the caller casts it back
// to the prototype it knows from how it obtained the kernel.
template <class Fn>
gufunc_function_t kernel_function(Fn* fn) {
  return reinterpret_cast<gufunc_function_t>(fn);
}

// The state of a kernel built with KernelBuilder::add<State>().
template <class State>
State* kernel_state(gufunc_kernel_prefix* self) {
  return std::launder(
      reinterpret_cast<State*>(reinterpret_cast<char*>(self) + sizeof(gufunc_kernel_prefix)));
}

// The destructor of a kernel built with add<State>(): the state's own destructor.
template <class State>
void destroy_kernel_state(gufunc_kernel_prefix* self) {
  kernel_state<State>(self)->~State();
}

// A handle, inside a kernel's state, to a child kernel in the same block. It stores the
// child's distance in bytes from the handle itself; destroying the handle destroys
// the child (never frees it: the block is freed once, as a whole).
class ChildKernel {
 public:
  using relocatable = std::true_type;

  ChildKernel() = default;
  ChildKernel(const ChildKernel&) = delete;
  ChildKernel& operator=(const ChildKernel&) = delete;
  ~ChildKernel() {
    if (linked() && get()->destructor != nullptr) get()->destructor(get());
  }

  bool linked() const { return distance_ != 0; }
  gufunc_kernel_prefix* get() const {
    char* self = const_cast<char*>(reinterpret_cast<const char*>(this));
    return reinterpret_cast<gufunc_kernel_prefix*>(self + distance_);
  }
  // The child's function as the prototype the parent knows it has.
  template <class Fn>
  Fn function() const {
    return reinterpret_cast<Fn>(get()->function);
  }

 private:
  friend class KernelBuilder;
  std::ptrdiff_t distance_ = 0;  // 0: no child (a child never sits on its handle)
};

// Lays out one kernel block. Add the parent first, then its children, then link
// each child to a ChildKernel handle in its parent's state; release() hands the
// block over as a dynamic kernel. A builder that is not released destroys what it
// built, so a failure halfway leaks nothing.
class KernelBuilder {
 public:
  KernelBuilder() = default;
  KernelBuilder(const KernelBuilder&) = delete;
  KernelBuilder& operator=(const KernelBuilder&) = delete;
  ~KernelBuilder();

  // Appends a kernel calling `fn` whose state is State(args...); returns its offset.
  template <class State, class... Args>
  size_t add(gufunc_function_t fn, Args&&... args);
  // Appends a kernel without state.
  size_t add(gufunc_function_t fn);
  // Moves a dynamic kernel into the block: its bytes are copied, its old memory is
  // freed without destructing it (ownership travels with the bytes), and `k` is
  // cleared. Returns its offset.
  size_t adopt(gufunc_dynamic_kernel* k);

  // Makes `handle`, which must lie in the state of a kernel of this block, own the
  // kernel at offset `child`, which must come after the handle and have no owner yet.
  void link(ChildKernel& handle, size_t child);

  gufunc_kernel_prefix* kernel(size_t offset) const;
  template <class State>
  State& state(size_t offset) const {
    return *kernel_state<State>(kernel(offset));
  }
  size_t size() const { return size_; }

  // Hands the block over (malloc'd, free_func = free). Every kernel but the first
  // must be owned by a parent. The builder is empty afterwards.
  gufunc_dynamic_kernel release();

 private:
  // Grows the block by `bytes` (rounded up to the alignment); returns the old end.
  size_t grow(size_t bytes);

  char* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
  std::vector<size_t> unowned_;  // kernels no parent owns yet, in the order added
};

template <class State, class... Args>
size_t KernelBuilder::add(gufunc_function_t fn, Args&&... args) {
  static_assert(is_relocatable<State>::value,
                "kernel state must be relocatable by memcpy (see is_relocatable)");
  static_assert(alignof(State) <= kKernelAlign,
                "kernel state may not need more than pointer alignment");
  unowned_.reserve(unowned_.size() + 1);
  const size_t offset = grow(sizeof(gufunc_kernel_prefix) + sizeof(State));
  gufunc_kernel_prefix* k = kernel(offset);
  k->function = fn;
  k->destructor = nullptr;  // nothing to destroy until the state exists
  try {
    new (k + 1) State(std::forward<Args>(args)...);
  } catch (...) {
    size_ = offset;
    throw;
  }
  k->destructor =
      std::is_trivially_destructible<State>::value ? nullptr : &destroy_kernel_state<State>;
  unowned_.push_back(offset);
  return offset;
}

// A single stateful kernel as a dynamic kernel: the closure-like case.
template <class State, class... Args>
gufunc_dynamic_kernel make_stateful_kernel(gufunc_function_t fn, Args&&... args) {
  KernelBuilder builder;
  builder.add<State>(fn, std::forward<Args>(args)...);
  return builder.release();
}

// Owns a dynamic kernel: destroys and frees it when it goes out of scope.
class DynamicKernel {
 public:
  DynamicKernel() = default;
  explicit DynamicKernel(gufunc_dynamic_kernel k) : k_(k) {}
  DynamicKernel(DynamicKernel&& other) noexcept : k_(other.take()) {}
  DynamicKernel& operator=(DynamicKernel&& other) noexcept {
    if (this != &other) {
      reset();
      k_ = other.take();
    }
    return *this;
  }
  ~DynamicKernel() { reset(); }

  gufunc_dynamic_kernel* get() { return &k_; }
  gufunc_kernel_prefix* kernel() const { return k_.kernel; }
  // Gives up ownership without destroying.
  gufunc_dynamic_kernel take() {
    gufunc_dynamic_kernel k = k_;
    k_ = gufunc_dynamic_kernel{nullptr, 0, nullptr};
    return k;
  }
  void reset() { gufunc_dynamic_kernel_release(&k_); }

 private:
  gufunc_dynamic_kernel k_ = {nullptr, 0, nullptr};
};

}  // namespace gufunc
