// Gufunc instructions on blocks of loop iterations (see gufunc_step.hpp).
#include "engine/gufunc_step.hpp"

#include <algorithm>

#include "types/checked_size.hpp"

namespace gufunc {
namespace engine {

EngineCounters& engine_counters() {
  static EngineCounters counters;
  return counters;
}

void note_buffer(size_t bytes) {
  std::atomic<long long>& largest = engine_counters().largest_buffer;
  long long seen = largest.load();
  const long long b = static_cast<long long>(bytes);
  while (b > seen && !largest.compare_exchange_weak(seen, b)) {
  }
}

GufuncStep::GufuncStep(const Node& g) : g_(g), call_(*g.apply) {
  const ApplyPlan& plan = *g.apply;
  const int nargs = plan.nin() + plan.nout();
  for (int a = 0; a < nargs; ++a) {
    const intptr_t width = static_cast<intptr_t>(dtype_size(plan.match.types[a]));
    core_bytes_.push_back(checked_mul(core_length(g, a), width,
                                      [&] { return "a core of `" + g.function->name() + "`"; }));
    all_span_ = all_span_ && spans_loop(g, a);
  }
}

int GufuncStep::run(char* const* base, const bool* contiguous, intptr_t pos, intptr_t n,
                    gufunc_context* ctx) const {
  engine_counters().gufunc_iterations.fetch_add(n, std::memory_order_relaxed);
  const int nargs = static_cast<int>(core_bytes_.size());
  char* ptrs[GUFUNC_MAX_ARGS + 1];
  if (all_span_) {
    // Every argument holds iterations [pos, pos + n) one core after the other: one run.
    for (int a = 0; a < nargs; ++a)
      ptrs[a] = contiguous[a] ? base[a] : base[a] + pos * core_bytes_[a];
    const int status = call_.run(ptrs, n, core_bytes_.data(), ctx);
    if (status != 0 && ctx->failed_at >= 0) ctx->failed_at += pos;
    return status;
  }
  // Broadcasting: runs along the first loop dim, offsets from the loop strides.
  const std::vector<intptr_t>& loop = g_.apply->shape.loop_shape;
  const size_t rank = loop.size();
  std::vector<intptr_t> idx(rank);
  const intptr_t stop = pos + n;
  for (intptr_t p = pos; p < stop;) {
    intptr_t rest = p;
    for (size_t j = 0; j < rank; ++j) {
      idx[j] = rest % loop[j];
      rest /= loop[j];
    }
    const intptr_t run = std::min(rank ? loop[0] - idx[0] : 1, stop - p);
    for (int a = 0; a < nargs; ++a) {
      if (contiguous[a]) {
        ptrs[a] = base[a] + (p - pos) * core_bytes_[a];
        continue;
      }
      intptr_t off = 0;
      for (size_t j = 0; j < rank; ++j) off += idx[j] * call_.loop_strides()[a][j];
      ptrs[a] = base[a] + off;
    }
    if (call_.run(ptrs, run, call_.inner_steps(), ctx) != 0) {
      if (ctx->failed_at >= 0) ctx->failed_at += p;
      return -1;
    }
    p += run;
  }
  return 0;
}

std::string GufuncStep::failure(const gufunc_context& ctx) const {
  const ApplyPlan& plan = *g_.apply;
  std::string where;
  const std::vector<intptr_t>& loop = plan.shape.loop_shape;
  if (ctx.failed_at >= 0 && !loop.empty()) {
    where = " for slice [";
    for (size_t j = 0; j < plan.shape.arg_core_sizes[0].size(); ++j) where += ", ";
    intptr_t at = ctx.failed_at;
    for (size_t j = 0; j < loop.size(); ++j) {
      where += std::to_string(at % loop[j] + 1) + (j + 1 < loop.size() ? ", " : "");
      at /= loop[j];
    }
    where += "]";
  }
  const std::string origin = g_.origin.empty() ? "" : " (deferred call " + g_.origin + ")";
  return "kernel of `" + g_.function->name() + "` failed" + where + ": " + ctx.msg + origin;
}

}  // namespace engine
}  // namespace gufunc
