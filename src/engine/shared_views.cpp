// Views sharing one computation of their source (see shared_views.hpp).
#include "engine/shared_views.hpp"

#include <algorithm>
#include <list>
#include <mutex>
#include <unordered_map>

#include "engine/batch.hpp"
#include "engine/evaluate.hpp"

namespace gufunc {
namespace engine {

namespace {

// Element k of a source's view, as an index into the source's elements.
intptr_t source_index(const View& view, intptr_t k) {
  return view.offset / static_cast<intptr_t>(dtype_size(view.dtype)) + view_offset(view, k);
}

// Whether `base` takes two or more element-wise operations: one (x[-1] - x[-n], read
// again by diff(x, differences = 2)) costs about what writing and reading its
// values back would, so its views are pushed down instead.
bool worth_sharing(const Node& base) {
  int maps = 0;
  walk_nodes({&base}, [&maps](const Node& n) {
    if (maps >= 2 || n.kind != NodeKind::Map) return false;
    ++maps;
    return true;
  });
  return maps >= 2;
}

// Values of sources kept for later batches, the most recently used first, at most
// kKeptBytes in all. Kept here rather than on the source node: the node lives as
// long as the lazy values that hold it, until R's garbage collector, which does not
// see this memory, drops them, and a stencil makes new sources every step. (24 MB
// holds a shallow-water step of 600 x 600 and keeps its peak memory below base
// R's; a larger step computes some of its sources again in a later batch.)
const size_t kKeptBytes = size_t(24) << 20;

struct Kept {
  std::weak_ptr<const Node> source;
  std::shared_ptr<const SharedValues> values;
  size_t bytes;
};

std::mutex kept_lock;
std::list<Kept>& kept() {
  static auto* list = new std::list<Kept>;  // never destroyed: values may outlive exit
  return *list;
}

bool same_owner(const std::weak_ptr<const Node>& a, const NodePtr& b) {
  return !a.owner_before(b) && !b.owner_before(a);
}

// The kept values of `source` (an owning handle), or null.
std::shared_ptr<const SharedValues> kept_values(const NodePtr& source) {
  if (source.use_count() == 0) return nullptr;  // a non-owning handle: never kept
  std::lock_guard<std::mutex> hold(kept_lock);
  std::list<Kept>& list = kept();
  for (auto it = list.begin(); it != list.end();) {
    if (it->source.expired()) {
      it = list.erase(it);
    } else if (same_owner(it->source, source)) {
      list.splice(list.begin(), list, it);
      return list.front().values;
    } else {
      ++it;
    }
  }
  return nullptr;
}

void keep_values(const NodePtr& source, const std::shared_ptr<const SharedValues>& values,
                 size_t bytes) {
  if (source.use_count() == 0) return;
  std::lock_guard<std::mutex> hold(kept_lock);
  std::list<Kept>& list = kept();
  list.remove_if([&](const Kept& k) { return k.source.expired() || same_owner(k.source, source); });
  if (bytes > kKeptBytes) return;
  list.push_front({source, values, bytes});
  size_t total = 0;
  for (const Kept& k : list) total += k.bytes;
  while (total > kKeptBytes) {
    total -= list.back().bytes;
    list.pop_back();
  }
}

}  // namespace

bool dense_view(const View& view) {
  const intptr_t es = static_cast<intptr_t>(dtype_size(view.dtype));
  // A sparse pick (every 100th element) would compute far more than it reads.
  return view.each == 1 && view.length > 1 && view.length * es * 2 >= view.span_bytes();
}

void source_range(const View& view, intptr_t pos, intptr_t count, intptr_t* from, intptr_t* to) {
  const intptr_t es = static_cast<intptr_t>(dtype_size(view.dtype));
  if (view.is_rolled() || view.is_strided() || (view.is_block() && view.column_step < 0) ||
      (view.has_planes() && view.plane_step < 0) || count <= 0) {
    // Not increasing (x[n:1, ] reads its columns last to first): all it spans.
    *from = (view.offset + view.lowest_byte()) / es;
    *to = *from + view.span_bytes() / es;
    return;
  }
  *from = source_index(view, pos);
  *to = source_index(view, pos + count - 1) + 1;
}

View rebased(const View& view, const char* values, intptr_t first) {
  View v = view;
  const intptr_t es = static_cast<intptr_t>(dtype_size(view.dtype));
  v.data = values + (view.offset - first * es);
  return v;
}

std::unordered_set<const Node*> shared_sources(const Node& root) {
  // Views read by this batch's element-wise code, per source.
  std::unordered_map<const Node*, std::pair<int, const NodePtr*>> views;
  walk_nodes({&root}, [&](const Node& n) {
    if (n.source) {
      // Its own graph holds no views of sources (pushed down, they are plain maps).
      if (dense_view(n.source->view)) {
        auto& v = views[n.source->base.get()];
        ++v.first;
        v.second = &n.source->base;
      }
      return false;
    }
    return &n == &root || n.kind == NodeKind::Map || n.kind == NodeKind::Assign;
  });
  std::unordered_set<const Node*> shared;
  for (const auto& [base, v] : views) {
    if ((v.first >= 2 && worth_sharing(*base)) || kept_values(*v.second)) shared.insert(base);
  }
  return shared;
}

unsigned resolve_shared(Batch* b, size_t which, intptr_t begin, intptr_t end,
                        const EvalOptions& options) {
  Batch::SharedSource& s = b->shared[which];
  Value& staged = b->values[static_cast<size_t>(s.staged)];
  const Node& base = *staged.node;
  // Most of the batch's iterations (a value computed in two chunks): the elements
  // all of them read, so the next chunk and the next batch find them kept.
  if ((end - begin) * 2 >= b->length) {
    begin = 0;
    end = b->length;
  }
  intptr_t from = base.length, to = 0;
  for (const auto& view : s.views) {
    intptr_t a, z;
    source_range(view->view, begin, end - begin, &a, &z);
    from = std::min(from, a);
    to = std::max(to, z);
  }
  std::shared_ptr<const SharedValues> values = kept_values(s.source);
  if (from < to && (!values || values->from > from || values->to < to)) {
    auto computed = std::make_shared<SharedValues>();
    computed->from = from;
    computed->to = to;
    computed->data.resize(static_cast<size_t>(to - from) * dtype_size(base.dtype));
    // Non-owning: the graph owns the source while the batch runs.
    const NodePtr handle(std::shared_ptr<const Node>(), &base);
    computed->warnings = evaluate(handle, from, to, computed->data.data(), options);
    values = computed;
    keep_values(s.source, values, computed->data.size());
  }
  if (!values) return 0;  // nothing read
  b->shared_values.push_back(values);
  staged.staged = values->data.data();
  staged.stage_begin = values->from;
  for (const auto& view : s.views) {
    const View source_view = view->view;
    view->view = rebased(source_view, values->data.data(), values->from);
  }
  return values->warnings;
}

}  // namespace engine
}  // namespace gufunc
