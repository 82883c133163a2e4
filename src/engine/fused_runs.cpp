// Fused runs of element-wise instructions (see fused_runs.hpp).
#include "engine/fused_runs.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include "engine/batch.hpp"

namespace gufunc {
namespace engine {

namespace {

bool fusable(const Batch& b, size_t i) {
  const Instruction& ins = b.code[i];
  if (ins.op != Op::Map || ins.width != 1 || static_cast<int>(i) == b.fused_product) return false;
  const Node& node = *ins.node;
  if (!node.function || node.function->row_kernel(node.match.index) == nullptr) return false;
  if (ins.args.size() > GUFUNC_MAX_ARGS || b.values[ins.out].dtype != GUFUNC_DOUBLE) return false;
  return std::all_of(ins.args.begin(), ins.args.end(),
                     [&](int a) { return b.values[a].dtype == GUFUNC_DOUBLE; });
}

// Instructions a run takes at most: the slots run out long before, and runs are
// built in time linear in the batch's length (a chain of 1e5 operations).
constexpr size_t kMaxRunInstructions = 64;

// A small map from value ids to ints (a run reads and makes a few dozen values).
class ValueMap {
 public:
  int get(int v, int missing = -1) const {
    for (const auto& e : entries_) {
      if (e.first == v) return e.second;
    }
    return missing;
  }
  void set(int v, int x) {
    for (auto& e : entries_) {
      if (e.first == v) {
        e.second = x;
        return;
      }
    }
    entries_.emplace_back(v, x);
  }

 private:
  std::vector<std::pair<int, int>> entries_;
};

// Instructions [first, last) as a run, or a run of no steps if it would need more
// than kMaxFusedSlots slots. `last_reader[v]`: the last instruction reading value v.
FusedRun make_run(const Batch& b, size_t first, size_t last,
                  const std::vector<size_t>& last_reader) {
  FusedRun run;
  run.first = first;
  run.last = last;
  ValueMap produced, last_use, slot_of;
  for (size_t i = first; i < last; ++i) produced.set(b.code[i].out, 1);
  for (size_t i = first; i < last; ++i) {
    for (int a : b.code[i].args) {
      last_use.set(a, static_cast<int>(i));
      if (produced.get(a) < 0 &&
          std::find(run.outside.begin(), run.outside.end(), a) == run.outside.end()) {
        run.outside.push_back(a);
      }
    }
  }
  // (A value made in the run is read after it is made: by the run, or later.)
  auto elsewhere = [&](int v) {
    const Value& val = b.values[v];
    if (v == b.result || val.storage == Storage::Output || val.storage == Storage::Temp) {
      return true;
    }
    return last_reader[v] >= last;
  };
  for (size_t i = first; i < last; ++i) {
    if (elsewhere(b.code[i].out)) run.written.push_back(b.code[i].out);
  }
  const int fixed = static_cast<int>(run.outside.size() + run.written.size());
  if (fixed > kMaxFusedSlots) return run;  // (no steps)
  for (int k = 0; k < fixed; ++k) {
    const int v = k < static_cast<int>(run.outside.size()) ? run.outside[k]
                                                           : run.written[k - run.outside.size()];
    slot_of.set(v, k);
  }
  // Rows of the run's own: one per value only the run reads, free again after its
  // last use.
  std::vector<int> free_rows;
  for (size_t i = first; i < last; ++i) {
    const Instruction& ins = b.code[i];
    FusedRun::Step step;
    step.kernel = ins.node->function->row_kernel(ins.node->match.index);
    step.inputs = static_cast<int>(ins.args.size());
    for (int k = 0; k < step.inputs; ++k) step.in[k] = slot_of.get(ins.args[k]);
    if (slot_of.get(ins.out) < 0) {
      if (free_rows.empty()) {
        free_rows.push_back(fixed + run.rows);
        ++run.rows;
      }
      slot_of.set(ins.out, free_rows.back());
      free_rows.pop_back();
    }
    step.out = slot_of.get(ins.out);
    run.steps.push_back(step);
    // (Freed after the result's row is taken: a row kernel writing a row it reads
    // would go through a copy.)
    for (int a : ins.args) {
      const int s = slot_of.get(a);
      if (s >= fixed && last_use.get(a) == static_cast<int>(i) &&
          std::find(free_rows.begin(), free_rows.end(), s) == free_rows.end()) {
        free_rows.push_back(s);
      }
    }
  }
  if (run.slots() > kMaxFusedSlots) run.steps.clear();
  return run;
}

// Asks for the next row of each input the run reads from memory: the steps read a
// row of one input and then of another, too little at a time for the hardware
// prefetcher to run ahead, and the first step stalled on every row (summing an
// expression of two arrays of 2e8 doubles: 0.17 s, 0.12 s with this).
void prefetch_next_rows(double* const* at, const int* moving, int moves, int outside) {
#if defined(__GNUC__) || defined(__clang__)
  for (int m = 0; m < moves; ++m) {
    if (moving[m] >= outside) continue;  // a written value
    const char* next = reinterpret_cast<const char*>(at[moving[m]] + kFusedRow);
    for (size_t c = 0; c < kFusedRow * sizeof(double); c += 64) {
      __builtin_prefetch(next + c, 0, 3);
      // GCC 12 counts a prefetch as no effect and dropped the whole loop; an
      // (empty) volatile asm using the address keeps it.
      asm volatile("" : : "r"(next + c));
    }
  }
#endif
}

}  // namespace

std::vector<FusedRun> find_fused_runs(const Batch& b) {
  std::vector<FusedRun> runs;
  if (b.max_width > 1) return runs;
  std::vector<size_t> last_reader(b.values.size(), 0);
  for (size_t i = 0; i < b.code.size(); ++i) {
    for (int a : b.code[i].args) last_reader[a] = i;
  }
  for (size_t k = 0; k < b.kernel_starts.size(); ++k) {
    const size_t end = k + 1 < b.kernel_starts.size() ? b.kernel_starts[k + 1] : b.code.size();
    size_t i = b.kernel_starts[k];
    while (i < end) {
      if (!fusable(b, i)) {
        ++i;
        continue;
      }
      size_t j = i + 1;
      while (j < end && j - i < kMaxRunInstructions && fusable(b, j)) ++j;
      // The longest run from i that fits the slots; halved until it does.
      size_t stop = j;
      FusedRun run = make_run(b, i, stop, last_reader);
      while (run.steps.empty() && stop - i > 2) {
        stop = i + (stop - i) / 2;
        run = make_run(b, i, stop, last_reader);
      }
      if (stop - i >= 2 && !run.steps.empty()) {
        runs.push_back(std::move(run));
        i = stop;
      } else {
        ++i;
      }
    }
  }
  return runs;
}

unsigned run_fused(const FusedRun& run, char* const* places, const intptr_t* steps, intptr_t n) {
  const int fixed = static_cast<int>(run.outside.size() + run.written.size());
  const int slots = run.slots();
  // This thread's rows: the run's own, and rows of an outside value of one element.
  thread_local std::vector<double> row_memory;
  row_memory.resize(static_cast<size_t>(slots) * kFusedRow);
  auto row = [&](int s) { return row_memory.data() + static_cast<size_t>(s) * kFusedRow; };
  const int width = static_cast<int>(std::min<intptr_t>(n, kFusedRow));
  double* base[kMaxFusedSlots];
  double* at[kMaxFusedSlots];
  int moving[kMaxFusedSlots];
  int moves = 0;
  const int outside = static_cast<int>(run.outside.size());
  for (int s = 0; s < fixed; ++s) {
    if (s < outside && steps[s] == 0) {
      double v;
      std::memcpy(&v, places[s], sizeof v);
      std::fill(row(s), row(s) + width, v);
      base[s] = row(s);
    } else {
      base[s] = reinterpret_cast<double*>(places[s]);
      moving[moves++] = s;
    }
  }
  for (int s = fixed; s < slots; ++s) base[s] = row(s);
  std::copy(base, base + slots, at);
  unsigned warn = 0;
  const double* in[GUFUNC_MAX_ARGS];
  for (intptr_t i = 0; i < n; i += kFusedRow) {
    const int count = static_cast<int>(std::min<intptr_t>(kFusedRow, n - i));
    for (int m = 0; m < moves; ++m) at[moving[m]] = base[moving[m]] + i;
    if (i + 2 * kFusedRow <= n) prefetch_next_rows(at, moving, moves, outside);
    for (const FusedRun::Step& st : run.steps) {
      for (int k = 0; k < st.inputs; ++k) in[k] = at[st.in[k]];
      st.kernel(in, at[st.out], count, &warn);
    }
  }
  return warn;
}

}  // namespace engine
}  // namespace gufunc
