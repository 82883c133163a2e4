// Freed large result buffers, kept for the next result of about the same size.
//
// A fresh buffer costs a page fault and the zeroing of every page on first touch:
// about 6 ms per 80 MB on huge pages and 40 ms on 4 KiB pages on the machines
// measured, and far more on virtual machines that hand freed memory back to the
// host, where the next touch faults on the host too (80-230 ms per 80 MB measured).
// Loops that compute one large result per step pay that on every step; a kept
// buffer is already mapped. The pool is bounded (option gufunc.buffer_pool) and
// used on R's main thread only, where R allocates and frees vectors. A kept block
// that no result took while results it could not hold, of several times its size,
// were made is freed: the sizes a program computes have moved on (the shrinking
// blocks of an elimination), and it would stay resident for nothing. Results it
// could hold count far less: a loop whose versions R frees together at one
// collection takes the blocks back one a step until the next collection
// (heat_equation's grid: 7 a cycle, which the old rule freed after 4).
#pragma once

#include <cstddef>
#include <vector>

namespace gufunc {
namespace r {

class ResultPool {
 public:
  // A kept block of between `bytes` and bytes + bytes / 4, removed from the pool
  // (nullptr if none); *capacity receives its size.
  void* take(size_t bytes, size_t* capacity);
  // Whether take(bytes) would find a block.
  bool holds_block_for(size_t bytes) const;
  // Keeps a block the caller no longer uses (allocated with std::malloc or
  // posix_memalign), evicting the oldest to stay within the limit; a block larger
  // than the limit is freed at once.
  void give(void* block, size_t capacity);
  // A result of `bytes` is being made (of any size, pooled or not): frees the
  // blocks kept while kStaleFactor times their capacity was asked for since in
  // results they could not hold, or kFittingStaleFactor times in all.
  void note_request(size_t bytes);
  // A new limit in bytes; blocks beyond it are freed, oldest first.
  void set_limit(size_t bytes);
  // Frees every kept block.
  void release();

  size_t buffers() const { return kept_.size(); }
  size_t bytes() const { return bytes_; }
  size_t limit() const { return limit_; }

 private:
  static const size_t kStaleFactor = 4;
  static const size_t kFittingStaleFactor = 32;
  struct Kept {
    void* block;
    size_t capacity;
    size_t misfits;    // bytes asked for since it was given, in results it cannot hold
    size_t requested;  // bytes asked for since it was given, in all
  };
  // Whether a block of `capacity` may hold a result of `bytes`.
  static bool fits(size_t capacity, size_t bytes) {
    return capacity >= bytes && capacity - bytes <= bytes / 4;
  }
  // The index of the block take(bytes) takes, or kept_.size() if none fits.
  size_t best_block(size_t bytes) const;
  void shrink_to(size_t bytes);
  // Frees the kept blocks `stale` picks, asked oldest first, keeping the others'
  // order.
  template <class Pred>
  void free_if(Pred stale);

  std::vector<Kept> kept_;  // oldest first
  size_t bytes_ = 0;
  size_t limit_ = 0;
};

// The pool of large results (output_alloc.cpp).
ResultPool& result_pool();

}  // namespace r
}  // namespace gufunc
