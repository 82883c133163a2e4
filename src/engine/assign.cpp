// Subassignment chains computed straight into their output (see assign.hpp).
#include "engine/assign.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "dispatch/table.hpp"
#include "engine/scratch_buffer.hpp"

namespace gufunc {
namespace engine {

namespace {

// Short pieces are computed together into scratch of at most kChunk elements (one
// evaluation, parallel over its blocks, for neighbouring pieces: the columns of an
// interior m[2:(n-1), 2:(n-1)] are consecutive elements of the value); pieces of at
// least kDirect elements are computed in place. (Chunks of 2^18 elements ran no
// faster, and the 2 MB buffer the scratch cache then keeps put sor's peak 1.4 MB
// higher: inst/benchmarks/README.md, December 2, fourth session.)
const intptr_t kChunk = intptr_t(1) << 16;
const intptr_t kDirect = intptr_t(1) << 15;

// Elements [from, from + count) of a node's values, to be stored at `to`.
struct Piece {
  intptr_t from, count;
  char* to;
};

unsigned evaluate_pieces(const NodePtr& node, const std::vector<Piece>& pieces,
                         const EvalOptions& options) {
  const size_t es = dtype_size(node->dtype);
  unsigned warnings = 0;
  ScratchBuffer scratch;
  std::vector<Run> runs;
  std::vector<const Piece*> held;
  intptr_t held_count = 0;
  auto flush = [&] {
    if (held.empty()) return;
    scratch.resize(static_cast<size_t>(held_count) * es);
    warnings |= evaluate_runs(node, runs, scratch.data(), options);
    const char* from = scratch.data();
    for (const Piece* p : held) {
      const size_t bytes = static_cast<size_t>(p->count) * es;
      std::memcpy(p->to, from, bytes);
      from += bytes;
    }
    runs.clear();
    held.clear();
    held_count = 0;
  };
  for (const Piece& p : pieces) {
    if (p.count <= 0) continue;
    if (p.count >= kDirect) {
      warnings |= evaluate(node, p.from, p.from + p.count, p.to, options);
      continue;
    }
    if (held_count + p.count > kChunk) flush();
    if (!runs.empty() && runs.back().end == p.from) {
      runs.back().end += p.count;
    } else {
      runs.push_back({p.from, p.from + p.count});
    }
    held.push_back(&p);
    held_count += p.count;
  }
  flush();
  return warnings;
}

// Regions of runs this short (x[seq(1, n, 2)] <- v: runs of one element) are
// written without a piece per run: a piece each cost more than the write itself
// (x[seq(1, n - 1, 2)] <- x[seq(2, n, 2)] * 0.5 of 4e6 doubles took 0.53 s against
// base R's 0.11), and the base is copied whole under them.
const intptr_t kShortRun = 64;

bool short_runs(const Region& r) { return r.rows < kShortRun && r.count() > r.rows; }

// Calls f(i, to, count) for each run of `region`'s positions within `runs`
// (positions, their values one run after another in `out`): element i of the value
// and on goes to `to` and on, `count` of them.
template <class F>
void region_within_runs(const Region& region, const std::vector<Run>& runs, char* out, size_t es,
                        F f) {
  for (const Run& run : runs) {
    region.runs_within(run.begin, run.end, [&](intptr_t i, intptr_t a, intptr_t b) {
      f(i, out + (a - run.begin) * es, b - a);
    });
    out += static_cast<size_t>(run.end - run.begin) * es;
  }
}

// Evaluates the elements of `region` within each of `runs` (as region_within_runs())
// of `value` and stores them at their positions: consecutive elements of the value a
// chunk at a time into scratch (one evaluation for the runs it reaches), then copied
// run by run.
unsigned scatter_region(const NodePtr& value, const Region& region, const std::vector<Run>& runs,
                        char* out, const EvalOptions& options) {
  const size_t es = dtype_size(value->dtype);
  intptr_t last = -1;  // past the last element of the value the positions take
  region_within_runs(region, runs, out, es,
                     [&](intptr_t i, char*, intptr_t count) { last = std::max(last, i + count); });
  if (last < 0) return 0;
  unsigned warnings = 0;
  ScratchBuffer scratch;
  intptr_t held_begin = 0, held_end = 0;  // elements of the value in scratch
  region_within_runs(region, runs, out, es, [&](intptr_t i, char* to, intptr_t count) {
    while (count > 0) {
      if (i < held_begin || i >= held_end) {
        held_begin = i;
        held_end = std::min(i + kChunk, last);
        scratch.resize(static_cast<size_t>(held_end - held_begin) * es);
        // (A short chunk on this thread, as evaluate_pieces() computes short pieces.)
        warnings |= held_end - held_begin >= kDirect
                        ? evaluate(value, held_begin, held_end, scratch.data(), options)
                        : evaluate_runs(value, {{held_begin, held_end}}, scratch.data(), options);
      }
      const intptr_t n = std::min(count, held_end - i);
      std::memcpy(to, scratch.data() + (i - held_begin) * es, static_cast<size_t>(n) * es);
      to += static_cast<size_t>(n) * es;
      i += n;
      count -= n;
    }
  });
  return warnings;
}

// The pieces of `region` within positions [begin, end): elements of the value and
// where in `out` (which holds positions from `begin`) they go, in position order.
std::vector<Piece> region_pieces(const Region& r, intptr_t begin, intptr_t end, char* out,
                                 size_t es) {
  std::vector<Piece> pieces;
  r.runs_within(begin, end, [&](intptr_t i, intptr_t a, intptr_t b) {
    pieces.push_back({i, b - a, out + (a - begin) * es});
  });
  return pieces;
}

// The positions in [begin, end) that none of `written` (pieces of any writes into
// `out`, which holds positions from `begin`) reaches, as pieces of the base.
std::vector<Piece> outside(std::vector<Piece> written, intptr_t begin, intptr_t end, char* out,
                           size_t es) {
  std::sort(written.begin(), written.end(),
            [](const Piece& a, const Piece& b) { return a.to < b.to; });
  std::vector<Piece> pieces;
  intptr_t pos = begin;
  for (const Piece& w : written) {
    const intptr_t a = begin + (w.to - out) / static_cast<intptr_t>(es);
    if (a > pos) pieces.push_back({pos, a - pos, out + (pos - begin) * es});
    pos = std::max(pos, a + w.count);
  }
  if (pos < end) pieces.push_back({pos, end - pos, out + (pos - begin) * es});
  return pieces;
}

}  // namespace

unsigned evaluate_assign(const NodePtr& root, const std::vector<Run>& runs, char* out,
                         const EvalOptions& options) {
  const size_t es = dtype_size(root->dtype);
  // The writes, newest first, down to the first version that is not a write.
  std::vector<const Node*> writes;
  const Node* n = root.get();
  for (; n->kind == NodeKind::Assign; n = n->children[0].get()) writes.push_back(n);

  // What each run needs, gathered over all runs, so each value is computed in one
  // evaluation. A base at hand (an input) is copied only where no write reaches; a
  // computed one is computed over the whole run, writes or not, as base R computes
  // it whole before x[i] <- v: its warnings are base R's, and it is one evaluation,
  // not one per gap between writes (the gaps of diag(x) <- v are a column long).
  std::vector<Piece> base_pieces;
  std::vector<std::vector<Piece>> write_pieces(writes.size());
  bool any_short = false;
  for (const Node* w : writes) any_short = any_short || short_runs(w->region);
  char* to = out;
  for (const Run& run : runs) {
    std::vector<Piece> written;
    for (size_t k = 0; k < writes.size(); ++k) {
      if (short_runs(writes[k]->region)) continue;  // (scattered below)
      for (const Piece& p : region_pieces(writes[k]->region, run.begin, run.end, to, es)) {
        write_pieces[k].push_back(p);
        written.push_back(p);
      }
    }
    if (!n->at_hand() || any_short) {
      base_pieces.push_back({run.begin, run.end - run.begin, to});
    } else {
      for (const Piece& p : outside(std::move(written), run.begin, run.end, to, es)) {
        base_pieces.push_back(p);
      }
    }
    to += static_cast<size_t>(run.end - run.begin) * es;
  }

  // Non-owning handles: the chain owns its nodes while root lives.
  auto handle = [](const Node* node) { return NodePtr(std::shared_ptr<const Node>(), node); };
  unsigned warnings = evaluate_pieces(handle(n), base_pieces, options);
  for (size_t k = writes.size(); k-- > 0;) {
    const Node& w = *writes[k];
    const NodePtr value = handle(w.children[1].get());
    const bool short_write = short_runs(w.region);
    if (short_write && value->length != 1) {
      warnings |= scatter_region(value, w.region, runs, out, options);
      continue;
    }
    const std::vector<Piece>& pieces = write_pieces[k];  // (none for a short write)
    if (!short_write && pieces.empty()) continue;
    if (value->length != 1 || w.region.count() == 1) {
      warnings |= evaluate_pieces(value, pieces, options);
      continue;
    }
    // One value, into each position.
    char one[sizeof(double)];
    warnings |= evaluate(value, 0, 1, one, options);
    auto fill = [&](char* to, intptr_t count) {
      for (intptr_t i = 0; i < count; ++i) std::memcpy(to + i * es, one, es);
    };
    if (!short_write) {
      for (const Piece& p : pieces) fill(p.to, p.count);
      continue;
    }
    region_within_runs(w.region, runs, out, es,
                       [&](intptr_t, char* to, intptr_t count) { fill(to, count); });
  }
  return warnings;
}

bool writes_without_failing(const Node& value) {
  bool never_fails = true;
  walk_nodes({&value}, [&](const Node& n) {
    if (!never_fails || n.kind == NodeKind::Scalar) return false;
    if (n.kind == NodeKind::Input) {
      never_fails = n.view.file_fd < 0;
      return false;
    }
    never_fails =
        n.kind == NodeKind::Map && (n.function->set_flags(n.match.index) & kNeverFails) != 0;
    return never_fails;
  });
  return never_fails;
}

unsigned evaluate_into_region(const NodePtr& value, const Region& region, char* out,
                              const EvalOptions& options) {
  if (region.count() == 0) return 0;
  const size_t es = dtype_size(value->dtype);
  const intptr_t begin = region.first;
  const intptr_t end = region.position(region.count() - 1) + 1;
  if (short_runs(region))
    return scatter_region(value, region, {{begin, end}}, out + begin * es, options);
  return evaluate_pieces(value, region_pieces(region, begin, end, out + begin * es, es), options);
}

}  // namespace engine
}  // namespace gufunc
