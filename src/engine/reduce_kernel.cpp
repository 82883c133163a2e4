// A reduction's last kernel, folded in order (see reduce_kernel.hpp).
#include "engine/reduce_kernel.hpp"

#include <algorithm>
#include <cstring>

#include "dispatch/apply.hpp"
#include "dispatch/builtin_traits.hpp"
#include "engine/gufunc_step.hpp"
#include "engine/ordered_blocks.hpp"
#include "engine/reduce_sums.hpp"
#include "kernels/r_semantics.hpp"

namespace gufunc {
namespace engine {

namespace {

// Whether instructions [first, last) of b compute values that cost less to compute
// again than to keep: only cheap kernel sets (kCheapToRecompute), casts and
// patches, and no operand read from a file. Kept values go to fresh memory, whose
// page faults and zeroing cost more than computing such values twice (a mean of 2e7
// values of (x - 273.15) * 1.8 + 32 - y / 10: 0.47-0.50 s kept, 0.063-0.072 s computed
// again, on a VM where a fault costs 13 us).
bool cheap_to_recompute(const Batch& b, size_t first, size_t last) {
  for (size_t i = first; i < last; ++i) {
    const Instruction& in = b.code[i];
    if (in.op == Op::Map) {
      if ((in.node->function->set_flags(in.node->match.index) & kCheapToRecompute) == 0) {
        return false;
      }
    } else if (in.op != Op::Cast && in.op != Op::Patch) {
      return false;
    }
    for (const int a : in.args) {
      const Value& v = b.values[a];
      if (v.kind == ValueKind::Input && v.node->view.file_fd >= 0) return false;
    }
  }
  return true;
}

}  // namespace

ReduceKernel::ReduceKernel(const Batch& b, const BlockRunner& runner, size_t first, intptr_t begin,
                           intptr_t end, int threads, Fold* fold, bool may_keep)
    : b_(b),
      runner_(runner),
      first_(first),
      run_last_(b.code.size()),
      reduce_(b.code.back()),
      product_(nullptr),
      begin_(begin),
      end_(end),
      threads_(threads),
      fold_(*fold) {
  // A product the fold computes itself is not run as an instruction.
  if (b.fused_product >= 0) {
    run_last_ = static_cast<size_t>(b.fused_product);
    product_ = &b.code[run_last_];
  }
  // Whether a block computes anything before the fold: instructions ahead of the
  // Reduce (the last one) or a product the fold forms. (A bare input's values are
  // at hand.)
  const bool computes = first_ < b.code.size() - 1;
  // With nothing to compute but a product the fold forms as fast itself, helpers of
  // an in-order fold would only copy values, unless they also prepare an exact
  // sum's additions (ordered_sum.hpp), which is most of the fold's work, or sum a
  // fast-order sum's whole chunks (reduce_sums.hpp), which is nearly all of it.
  const bool product_only = product_ != nullptr && first_ == run_last_;
  value_bytes_ = product_ ? sizeof(double) : dtype_size(b.values[reduce_.args[0]].dtype);
  const bool fast = fold_.reducer.prepares_fast() && value_bytes_ == sizeof(double);
  if ((!computes || product_only) && fold_.reducer.in_order() &&
      !fold_.reducer.prepares(fold_.state) && !fast) {
    threads_ = 1;
  }
  // Keeping values pays when they are dear to compute.
  const size_t all_bytes = static_cast<size_t>(std::max<intptr_t>(end_ - begin_, 0)) * value_bytes_;
  keep_ = may_keep && fold_.reducer.may_pass_twice() && computes && all_bytes <= kMaxKeptBytes &&
          !cheap_to_recompute(b, first_, b.code.size() - 1);
  if (keep_) {
    kept_.resize(all_bytes);
    note_buffer(all_bytes);
  }
  if (threads_ > 1) {
    slots_.resize(2 * static_cast<size_t>(threads_));
    if (fold_.reducer.in_order() && !keep_) {
      for (Slot& s : slots_) s.values.resize(runner.block() * value_bytes_);
      const int v = reduce_.args[0];
      redirect_ = product_ == nullptr && runner.in_registers(v) && b.values[v].width == 1;
      for (size_t i = first_; i < run_last_; ++i) {
        if (b.code[i].op == Op::Gufunc) redirect_ = false;
      }
    }
    // Each helper also does most of the fold's work for its block (an integer sum
    // per chunk), so the fold itself is a few instructions per chunk.
    prepare_ = fold_.reducer.prepares(fold_.state) && value_bytes_ == sizeof(double);
    if (prepare_) {
      const size_t chunks = (runner.block() + kPreparedChunk - 1) / kPreparedChunk;
      for (Slot& s : slots_) s.chunks.resize(chunks);
    }
    prepare_fast_ = fast;  // (a fast order is in order and keeps no values)
    if (prepare_fast_) {
      for (Slot& s : slots_) s.fast_chunks.resize(runner.block() / kFastChunk + 1);
    }
  }
}

intptr_t ReduceKernel::position(size_t k) const {
  return begin_ + static_cast<intptr_t>(k * runner_.block());
}

intptr_t ReduceKernel::length(size_t k) const {
  return std::min<intptr_t>(static_cast<intptr_t>(runner_.block()), end_ - position(k));
}

void ReduceKernel::fold_block(const char* registers, intptr_t pos, intptr_t n,
                              ReduceState* s) const {
  char* regs = const_cast<char*>(registers);
  intptr_t step, step2;
  if (product_ != nullptr) {
    const char* x = runner_.pointer(product_->args[0], pos, n, regs, &step);
    const char* y = runner_.pointer(product_->args[1], pos, n, regs, &step2);
    fold_.reducer.fold_products(x, step, y, step2, n, pos, s);
  } else {
    const char* data = runner_.pointer(reduce_.args[0], pos, n, regs, &step);
    fold_.reducer.fold(data, n, step, pos, s);
  }
}

char* ReduceKernel::stored_values(size_t k, size_t slot) {
  if (keep_) return kept_.data() + static_cast<size_t>(position(k) - begin_) * value_bytes_;
  return slots_[slot].values.data();
}

void ReduceKernel::store_values(const char* registers, size_t k, size_t slot) {
  char* regs = const_cast<char*>(registers);
  const intptr_t pos = position(k), n = length(k);
  if (redirect_) return;  // computed there (run_block())
  char* to = stored_values(k, slot);
  intptr_t step, step2;
  if (product_ != nullptr) {  // rounded to double, as the fused fold rounds them
    const char* x = runner_.pointer(product_->args[0], pos, n, regs, &step);
    const char* y = runner_.pointer(product_->args[1], pos, n, regs, &step2);
    double* out = reinterpret_cast<double*>(to);
    if (step == sizeof(double) && step2 == sizeof(double)) {
      store_products(reinterpret_cast<const double*>(x), reinterpret_cast<const double*>(y), n,
                     out);
      return;
    }
    for (intptr_t i = 0; i < n; ++i) {
      double a, b;
      std::memcpy(&a, x + i * step, sizeof a);
      std::memcpy(&b, y + i * step2, sizeof b);
      out[i] = rsem::times_r(a, b);
    }
    return;
  }
  const char* from = runner_.pointer(reduce_.args[0], pos, n, regs, &step);
  const size_t bytes = value_bytes_;
  if (step == static_cast<intptr_t>(bytes)) {
    std::memcpy(to, from, static_cast<size_t>(n) * bytes);
  } else {
    for (intptr_t i = 0; i < n; ++i) std::memcpy(to + i * bytes, from + i * step, bytes);
  }
}

void ReduceKernel::run_blocks(Runner* runner, size_t from, size_t to, WorkerOutcome* outcome) {
  const intptr_t step = static_cast<intptr_t>(value_bytes_);
  if (keep_ && fold_.state.pass != ReduceState::Pass::Sum) {
    for (size_t k = from; k < to; ++k) {
      fold_.reducer.fold(stored_values(k, 0), length(k), step, position(k), &fold_.state);
    }
    return;
  }
  // (Not in a mean's later passes: they fold deviations from the mean.)
  const bool prepare = prepare_ && fold_.reducer.prepares(fold_.state);
  // After each fold: the total's binade, which helpers prepare their chunks for.
  auto publish_binade = [&] {
    if (prepare) expected_binade_.store(binade_key(fold_.state.total), std::memory_order_relaxed);
  };
  OrderedHooks hooks;
  hooks.compute_and_fold = [&](size_t k) {
    const char* regs = run_block(runner_, first_, run_last_, position(k), length(k), outcome);
    if (regs == nullptr) return false;
    if (keep_) {
      store_values(regs, k, 0);
      fold_.reducer.fold(stored_values(k, 0), length(k), step, position(k), &fold_.state);
    } else {
      fold_block(regs, position(k), length(k), &fold_.state);
    }
    publish_binade();
    return true;
  };
  hooks.compute_into = [&](size_t k, size_t slot) {
    const char* regs = run_block(runner_, first_, run_last_, position(k), length(k), outcome,
                                 redirect_ ? reduce_.args[0] : -1,
                                 redirect_ ? slots_[slot].values.data() : nullptr);
    if (regs == nullptr) return false;
    if (fold_.reducer.in_order()) {
      store_values(regs, k, slot);
      if (prepare) {
        prepare_in_order(expected_binade_.load(std::memory_order_relaxed),
                         reinterpret_cast<const double*>(stored_values(k, slot)), length(k),
                         slots_[slot].chunks.data());
      } else if (prepare_fast_) {
        fold_.reducer.prepare_fast(reinterpret_cast<const double*>(stored_values(k, slot)),
                                   length(k), position(k), slots_[slot].fast_chunks.data());
      }
    } else {
      slots_[slot].state = fold_.reducer.start();
      fold_block(regs, position(k), length(k), &slots_[slot].state);
    }
    return true;
  };
  hooks.fold_slot = [&](size_t k, size_t slot) {
    if (!fold_.reducer.in_order()) {
      fold_.reducer.merge(slots_[slot].state, &fold_.state);
    } else if (prepare) {
      fold_.reducer.fold_prepared(reinterpret_cast<const double*>(stored_values(k, slot)),
                                  length(k), slots_[slot].chunks.data(), &fold_.state);
    } else if (prepare_fast_) {
      fold_.reducer.fold_fast_prepared(reinterpret_cast<const double*>(stored_values(k, slot)),
                                       length(k), position(k), slots_[slot].fast_chunks.data(),
                                       &fold_.state);
    } else {
      fold_.reducer.fold(stored_values(k, slot), length(k), step, position(k), &fold_.state);
    }
    publish_binade();
  };
  run_ordered(runner, threads_, from, to, slots_.size(), hooks, outcome->failed);
}

}  // namespace engine
}  // namespace gufunc
