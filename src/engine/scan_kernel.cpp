// A scan's last kernel, carried in order (see scan_kernel.hpp).
#include "engine/scan_kernel.hpp"

#include <algorithm>
#include <cstring>

#include "engine/ordered_blocks.hpp"

namespace gufunc {
namespace engine {

ScanKernel::ScanKernel(const Batch& b, const BlockRunner& runner, size_t first, intptr_t begin,
                       intptr_t end, int threads, ScanTarget* target)
    : runner_(runner),
      first_(first),
      last_(b.code.size() - 1),
      scan_(b.code.back()),
      begin_(begin),
      end_(end),
      threads_(threads),
      target_(*target),
      value_bytes_(target->scanner.input_bytes()) {
  // With nothing to compute, helpers would only copy values.
  if (first_ == last_) threads_ = 1;
  if (threads_ > 1) {
    slots_.resize(2 * static_cast<size_t>(threads_));
    for (auto& s : slots_) s.resize(runner.block() * value_bytes_);
  }
}

intptr_t ScanKernel::position(size_t k) const {
  return begin_ + static_cast<intptr_t>(k * runner_.block());
}

intptr_t ScanKernel::length(size_t k) const {
  return std::min<intptr_t>(static_cast<intptr_t>(runner_.block()), end_ - position(k));
}

void ScanKernel::scan(const char* in, intptr_t step, intptr_t pos, intptr_t n) {
  const intptr_t skip = std::min(n, std::max<intptr_t>(target_.out_begin - pos, 0));
  if (skip > 0) target_.scanner.scan(in, step, skip, nullptr, &target_.state);
  if (skip == n) return;
  const size_t out_bytes = scan_.node->dtype == GUFUNC_DOUBLE ? sizeof(double) : sizeof(int);
  char* out = target_.out + static_cast<size_t>(pos + skip - target_.out_begin) * out_bytes;
  target_.scanner.scan(in + skip * step, step, n - skip, out, &target_.state);
}

void ScanKernel::run_blocks(Runner* runner, size_t from, size_t to, WorkerOutcome* outcome) {
  const int input = scan_.args[0];
  OrderedHooks hooks;
  hooks.compute_and_fold = [&](size_t k) {
    const intptr_t pos = position(k), n = length(k);
    char* regs = run_block(runner_, first_, last_, pos, n, outcome);
    if (regs == nullptr) return false;
    intptr_t step;
    const char* in = runner_.pointer(input, pos, n, regs, &step);
    scan(in, step, pos, n);
    return true;
  };
  hooks.compute_into = [&](size_t k, size_t slot) {
    const intptr_t pos = position(k), n = length(k);
    char* regs = run_block(runner_, first_, last_, pos, n, outcome);
    if (regs == nullptr) return false;
    intptr_t step;
    const char* in = runner_.pointer(input, pos, n, regs, &step);
    char* to_slot = slots_[slot].data();
    if (step == static_cast<intptr_t>(value_bytes_)) {
      std::memcpy(to_slot, in, static_cast<size_t>(n) * value_bytes_);
    } else {
      for (intptr_t i = 0; i < n; ++i) {
        std::memcpy(to_slot + i * value_bytes_, in + i * step, value_bytes_);
      }
    }
    return true;
  };
  hooks.fold_slot = [&](size_t k, size_t slot) {
    scan(slots_[slot].data(), static_cast<intptr_t>(value_bytes_), position(k), length(k));
  };
  run_ordered(runner, threads_, from, to, slots_.size(), hooks, outcome->failed);
}

}  // namespace engine
}  // namespace gufunc
