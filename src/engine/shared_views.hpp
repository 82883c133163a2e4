// Views of one deferred expression that share its values. A subset of a deferred
// element-wise expression (lazy_view.cpp) is that expression pushed down over the
// picked elements of its operands, so it fuses; but a stencil reads several views
// of one expression at different offsets (ux[a, ] - ux[b, ], in three updates),
// and each view would compute the whole expression again where base R computes it
// once. The root of such a view remembers what it views (ViewSource). A batch that
// reads at least two dense views of one source computes the source once, as a
// staged value, over the elements the views read, and reads the views as block
// views of it (so the blockability rule sees them as inputs); a batch reading one
// view of it pushes it down as before. The values computed are kept for a while
// (SharedValues: the most recently used, up to 24 MB in all), so later batches
// reading views of the same source (the next update of the same step) read them
// instead of computing them again.
#pragma once

#include <cstdint>
#include <memory>
#include <unordered_set>
#include <vector>

#include "engine/graph.hpp"
#include "engine/scratch_buffer.hpp"

namespace gufunc {
namespace engine {

// What a view's root views: `base`, a deferred element-wise expression, through
// `view`, the view the subset makes of base's elements laid out contiguously from
// byte 0: `offset` is the byte of base's values where it starts; `data` and
// `buffer` are unused (null).
struct ViewSource {
  NodePtr base;
  View view;
};

// Elements [from, to) of a source's values, computed once, with the warning bits
// their computation raised (given again to every batch that reads them, as the
// evaluations they replace would have).
struct SharedValues {
  intptr_t from = 0, to = 0;
  ScratchBuffer data;
  unsigned warnings = 0;
};

// The sources whose views `root`'s batch reads from one computation of the source:
// those of two or more element-wise operations read through at least two dense
// views (each reading at least half of the elements it spans), or whose values an
// earlier batch kept. Only the nodes the
// batch computes element-wise are looked at (not the insides of reductions, scans,
// gufuncs or subassignments, which are batches of their own).
std::unordered_set<const Node*> shared_sources(const Node& root);

// Whether `view` (a ViewSource's) reads densely enough to share its source.
bool dense_view(const View& view);

// The elements [*from, *to) of the source that elements [pos, pos + count) of a
// view of it read.
void source_range(const View& view, intptr_t pos, intptr_t count, intptr_t* from, intptr_t* to);

// `view` (a ViewSource's) reading `values`, which hold the source's elements from
// `first`.
View rebased(const View& view, const char* values, intptr_t first);

struct Batch;        // batch.hpp
struct EvalOptions;  // evaluate.hpp

// Computes (or takes from the values kept for its source) the values of shared
// source `which` of `b` that its views read over iterations [begin, end), and
// points the views at them; returns the warning bits of that computation.
unsigned resolve_shared(Batch* b, size_t which, intptr_t begin, intptr_t end,
                        const EvalOptions& options);

}  // namespace engine
}  // namespace gufunc
