// Values that may change in place: the input nodes reading one buffer, so that before
// a write the ones still alive are given a copy of what they read. A lazy vector's
// own values are written in place where R would write a plain vector in place
// (x[i, j] <- v on an x nothing else refers to, src/r/lazy_assign.cpp); the graphs
// made from x before still read x's old values: each input node over the buffer
// (registered by make_input() through View::readers) that is alive and reads the
// positions written gets a copy of its elements first. Nodes do not change but for
// this: what one reads moves to a copy of the same values.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace gufunc {
namespace engine {

struct Node;
struct View;

class BufferReaders {
 public:
  // Called by make_input() for a node whose view names these readers.
  void add(const std::shared_ptr<const Node>& node);
  // Gives each node still alive (but `keep`) that reads bytes [from, to) of the
  // buffer (from `buffer`, the start) a copy of its elements, in memory from
  // `allocate`; it is no longer a reader. Main thread, no evaluation running.
  using Allocate = std::function<std::shared_ptr<void>(size_t bytes, char** data)>;
  void detach(const void* buffer, intptr_t from, intptr_t to, const Node* keep,
              const Allocate& allocate);
  // Bytes detach() would copy now, leaving out the nodes in `besides` too.
  double bytes_to_copy(const void* buffer, intptr_t from, intptr_t to, const Node* keep,
                       const std::vector<const Node*>& besides = {}) const;

 private:
  // Nodes may be made on any thread (views of blocks during an evaluation).
  mutable std::mutex lock_;
  std::vector<std::weak_ptr<const Node>> nodes_;
  size_t pruned_at_ = 0;  // size after the last pruning of dead nodes
};

// Bytes detach() copied so far (a test counter).
double& reader_bytes_copied();

// Whether `view` reads any of bytes [from, to) of its buffer (counted from
// view.buffer; conservatively: its span of bytes overlaps them).
bool view_reads_bytes(const View& view, intptr_t from, intptr_t to);

}  // namespace engine
}  // namespace gufunc
