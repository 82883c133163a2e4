// Values a batch reads that are computed before it runs (see staged_values.hpp).
#include "engine/staged_values.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "engine/gufunc_step.hpp"
#include "engine/shared_views.hpp"
#include "kernels/r_summary.hpp"

namespace gufunc {
namespace engine {

namespace {
// Staged values are evaluated recursively (one level per nested gufunc): deeper
// graphs stop with an error instead of overflowing the C stack.
const int kMaxStageDepth = 1000;
}  // namespace

// Computes the nested reductions a batch reads, storing their values in it; returns
// their warning bits and those of the kept values it reads.
unsigned resolve_reductions(Batch* b, const EvalOptions& options) {
  unsigned warnings = b->kept_warnings;
  for (Value& v : b->values) {
    if (v.kind != ValueKind::Reduced) continue;
    NodePtr shared(std::shared_ptr<const Node>(), v.node);  // non-owning: the graph owns it
    const ReduceResult r = reduce(shared, options);
    warnings |= r.warnings;
    if (r.dtype != v.dtype) {
      throw Error("gufunc_kernel_error", std::string(reduction_name(v.node->reduction)) +
                                             "() of no values cannot be used in an expression");
    }
    v.c_double = r.value[0];
    v.c_int = r.int_value[0];
  }
  return warnings;
}

// (Integer values staged as double are converted as R does.)
unsigned resolve_staged(Batch* b, intptr_t begin, intptr_t end, const EvalOptions& options) {
  if (b->staged.empty()) return 0;
  thread_local int depth = 0;
  if (depth >= kMaxStageDepth) {
    throw Error("gufunc_depth_error", "the lazy value nests more than " +
                                          std::to_string(kMaxStageDepth) +
                                          " gufunc calls: materialize() an intermediate value");
  }
  struct Level {
    Level() { ++depth; }
    ~Level() { --depth; }
  } level;
  unsigned warnings = 0;
  b->staged_buffers.resize(b->staged.size());
  for (size_t k = 0; k < b->staged.size(); ++k) {
    const auto source = std::find_if(b->shared.begin(), b->shared.end(),
                                     [&](const auto& s) { return s.staged == b->staged[k]; });
    if (source != b->shared.end()) {
      warnings |=
          resolve_shared(b, static_cast<size_t>(source - b->shared.begin()), begin, end, options);
      continue;
    }
    Value& v = b->values[b->staged[k]];
    const Node& node = *v.node;
    intptr_t from = 0, to = node.length;
    if (v.width > 0 && node.length != 1) {
      from = begin * v.width;
      to = end * v.width;
    }
    const size_t count = static_cast<size_t>(to - from);
    ScratchBuffer& buffer = b->staged_buffers[k];
    buffer.resize(std::max<size_t>(count, 1) * dtype_size(v.dtype));
    note_buffer(count * dtype_size(v.dtype));
    NodePtr shared(std::shared_ptr<const Node>(), v.node);  // non-owning: the graph owns it
    if (count > 0 && dtype_size(node.dtype) == dtype_size(v.dtype)) {
      warnings |= evaluate(shared, from, to, buffer.data(), options);
    } else if (count > 0) {
      std::vector<int> ints(count);
      warnings |= evaluate(shared, from, to, reinterpret_cast<char*>(ints.data()), options);
      rsem::ints_to_doubles(reinterpret_cast<const char*>(ints.data()), sizeof(int),
                            static_cast<intptr_t>(count), reinterpret_cast<double*>(buffer.data()));
    }
    v.staged = buffer.data();
    v.stage_begin = from;
  }
  return warnings;
}

// Iterations per chunk for a batch over `n` iterations (0: in one range).
intptr_t staged_chunk(const Batch& b, intptr_t n) {
  size_t per_iteration = 0;
  for (int id : b.staged) {
    const Value& v = b.values[static_cast<size_t>(id)];
    const bool shared = std::any_of(b.shared.begin(), b.shared.end(),
                                    [&](const Batch::SharedSource& s) { return s.staged == id; });
    if (!shared && (v.width <= 0 || v.node->length == 1)) return 0;  // read whole
    per_iteration += static_cast<size_t>(std::max<intptr_t>(v.width, 1)) * dtype_size(v.dtype);
  }
  if (per_iteration == 0 || static_cast<size_t>(n) * per_iteration <= kStagedChunkBytes) return 0;
  return static_cast<intptr_t>(std::max<size_t>(kStagedChunkBytes / per_iteration, 1));
}

}  // namespace engine
}  // namespace gufunc
