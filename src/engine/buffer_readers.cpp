#include "engine/buffer_readers.hpp"

#include <algorithm>

#include "dispatch/apply.hpp"
#include "engine/graph.hpp"

namespace gufunc {
namespace engine {

void BufferReaders::add(const std::shared_ptr<const Node>& node) {
  std::lock_guard<std::mutex> hold(lock_);
  // Dead nodes are dropped when the list has doubled since the last pruning, so
  // it stays within twice the nodes alive.
  if (nodes_.size() >= 2 * std::max<size_t>(pruned_at_, 8)) {
    nodes_.erase(std::remove_if(nodes_.begin(), nodes_.end(),
                                [](const std::weak_ptr<const Node>& n) { return n.expired(); }),
                 nodes_.end());
    pruned_at_ = nodes_.size();
  }
  nodes_.push_back(node);
}

bool view_reads_bytes(const View& view, intptr_t from, intptr_t to) {
  if (view.length == 0 || view.data == nullptr) return false;
  const intptr_t low = (view.data - static_cast<const char*>(view.buffer)) + view.lowest_byte();
  return low < to && from < low + view.span_bytes();
}

double& reader_bytes_copied() {
  static double bytes = 0;
  return bytes;
}

namespace {
bool must_copy(const Node& node, const void* buffer, intptr_t from, intptr_t to, const Node* keep) {
  return &node != keep && node.kind == NodeKind::Input && node.view.buffer == buffer &&
         view_reads_bytes(node.view, from, to);
}

// The elements a copy of `view` holds: each element once (rep(x, each = k) of a
// row copies the row, not k times the row).
intptr_t distinct_elements(const View& view) {
  return view.each > 1 && !view.is_rolled() ? view.length / view.each : view.length;
}
}  // namespace

double BufferReaders::bytes_to_copy(const void* buffer, intptr_t from, intptr_t to,
                                    const Node* keep,
                                    const std::vector<const Node*>& besides) const {
  std::lock_guard<std::mutex> hold(lock_);
  double bytes = 0;
  for (const std::weak_ptr<const Node>& weak : nodes_) {
    const std::shared_ptr<const Node> node = weak.lock();
    if (node && must_copy(*node, buffer, from, to, keep) &&
        std::find(besides.begin(), besides.end(), node.get()) == besides.end()) {
      bytes += static_cast<double>(distinct_elements(node->view)) *
               static_cast<double>(dtype_size(node->dtype));
    }
  }
  return bytes;
}

void BufferReaders::detach(const void* buffer, intptr_t from, intptr_t to, const Node* keep,
                           const Allocate& allocate) {
  std::lock_guard<std::mutex> hold(lock_);
  std::vector<std::weak_ptr<const Node>> still;
  for (const std::weak_ptr<const Node>& weak : nodes_) {
    const std::shared_ptr<const Node> node = weak.lock();
    if (!node) continue;
    if (!must_copy(*node, buffer, from, to, keep)) {
      still.push_back(weak);
      continue;
    }
    const View& old = node->view;
    // Each element once, read `each` times from the copy as from the original.
    View distinct = old;
    distinct.length = distinct_elements(old);
    View copy;
    copy.dtype = old.dtype;
    copy.length = old.length;
    if (distinct.length != old.length) {
      copy.each = old.each;
      distinct.each = 1;
    }
    const size_t bytes = static_cast<size_t>(distinct.length) * dtype_size(old.dtype);
    char* data = nullptr;
    copy.memory = allocate(bytes, &data);
    read_view(distinct, 0, distinct.length, data);
    reader_bytes_copied() += static_cast<double>(bytes);
    copy.data = data;
    copy.buffer = data;
    // The one change a node undergoes (see the header): the same values, elsewhere.
    const_cast<Node&>(*node).view = std::move(copy);
  }
  nodes_ = std::move(still);
  pruned_at_ = nodes_.size();
}

}  // namespace engine
}  // namespace gufunc
