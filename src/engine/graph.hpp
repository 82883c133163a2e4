// The deferred graph: immutable nodes shared between lazy values. A node is an input
// (a view of memory the caller keeps alive), a scalar constant, an element-wise map
// of a dispatch-table function over child nodes, a reduction of a child, a gufunc
// with core dimensions (one output) over child nodes, a subassignment (a new
// version of a child with a region written from another child), or a scan (the
// running sums, products, maxima or minima of a child: cumsum() and co.).
// Nodes are created and destroyed on the main thread; destruction is iterative, so
// chains of 1e5 nodes do not overflow the C stack.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "dispatch/apply.hpp"
#include "dispatch/table.hpp"
#include "dispatch/typecheck.hpp"

namespace gufunc {
namespace engine {

struct Node;
using NodePtr = std::shared_ptr<const Node>;
struct ScanCheckpoint;  // scan_ops.hpp
struct ViewSource;      // shared_views.hpp
struct KeptValues;      // reused_values.hpp
class BufferReaders;    // buffer_readers.hpp

enum class NodeKind { Input, Scalar, Map, Reduce, Gufunc, Assign, Scan };

enum class Reduction { Sum, Prod, Min, Max, Range, Mean, Any, All };
const char* reduction_name(Reduction r);

enum class ScanOp { Cumsum, Cumprod, Cummax, Cummin };
const char* scan_name(ScanOp op);

// Memory an input node reads: `length` elements of `dtype` at `data`. `buffer` and
// `offset` (in bytes from the buffer's start) identify what the view shares with
// other views, for the blockability rule. With `rows` > 0 the elements are a block
// of a column-major matrix (x[i:j, k:l]): columns of `rows` elements, each
// `column_step` elements after the previous one (0: the same column again, as
// rep(x, times = k) reads x); otherwise they are contiguous. With `each` > 1 every
// one of those elements is read `each` times in a row (rep(x, each = k)). A block
// may be rolled (a circular shift, x[c(n, 1:(n - 1)), ]): element k of a column
// reads row (k + row_roll) % rows, and column k of the block reads column
// (k + column_roll) % (length / rows). With `row_stride` other than 1 (a block
// only, never rolled or repeated) consecutive elements of a column are that many
// elements apart: t(x) reads x's rows as its columns (row_stride: x's rows), rev(x)
// reads backwards from its last element (-1). With `plane_columns` > 0 (a block
// only, never rolled, strided or repeated: a[i:j, k:l, m:n]) the columns come in
// planes of that many, each plane `plane_step` elements after the previous one.
struct View {
  const char* data = nullptr;
  gufunc_dtype dtype = GUFUNC_DOUBLE;
  intptr_t length = 0;
  const void* buffer = nullptr;
  intptr_t offset = 0;
  intptr_t rows = 0;
  intptr_t column_step = 0;
  intptr_t row_stride = 1;
  intptr_t each = 1;
  intptr_t row_roll = 0, column_roll = 0;
  intptr_t plane_columns = 0, plane_step = 0;
  // A view of a mapped file (mapped_file.hpp): its descriptor, and where the file's
  // first byte is mapped. With `file_in_place` (a guarded mapping, aligned
  // elements) consecutive elements are read in place, like memory; others are read
  // with pread() into block scratch (file_reads.hpp), so scattered reads cost no
  // page faults and no resident memory. The evaluation drops mapped pages as it goes.
  int file_fd = -1;
  const char* file_start = nullptr;
  bool file_in_place = false;
  // Logical values stored one byte each (NumPy's bool and uint8, of a file): read
  // as 0 / 1 through read_view() only, never in place.
  bool bytes = false;
  // An arithmetic sequence of integers (R's compact 1:n), generated as it is read:
  // element k of its buffer (k = offset / 4 + view_offset()) is generated_first +
  // k * generated_step. It has no memory (null data): read through read_view() only.
  bool generated = false;
  int generated_first = 0, generated_step = 0;
  // Values that may be written in place (a lazy vector's own): make_input()
  // registers the node there, to be given a copy before a write (buffer_readers.hpp).
  std::shared_ptr<BufferReaders> readers;
  // Memory the view owns: such a copy.
  std::shared_ptr<void> memory;

  bool is_block() const { return rows > 0; }
  // Whether elements are read only through read_view(), never in place.
  bool copied_only() const { return bytes || generated; }
  bool is_rolled() const { return row_roll != 0 || column_roll != 0; }
  bool is_strided() const { return row_stride != 1; }
  bool has_planes() const { return plane_columns > 0; }
  // Whether elements [pos, pos + count) are consecutive in memory, or one element
  // repeated (*repeated).
  bool in_place(intptr_t pos, intptr_t count, bool* repeated) const;
  // Bytes from the lowest element read to the end of the highest one, and where
  // the lowest is, in bytes from `data` (negative for a view read backwards).
  intptr_t span_bytes() const;
  intptr_t lowest_byte() const;
};

// What identifies the elements a view reads: equal keys, the same elements. (The
// buffer and offset tell apart the views of a source's values, shared_views.hpp,
// whose data is not known until those are computed.)
using ViewKey = std::tuple<const char*, gufunc_dtype, intptr_t, intptr_t, intptr_t, intptr_t,
                           intptr_t, intptr_t, intptr_t, const void*, intptr_t, intptr_t, intptr_t>;
inline ViewKey view_key(const View& v) {
  return ViewKey{v.data,   v.dtype,         v.length,    v.rows,        v.column_step,
                 v.each,   v.row_stride,    v.row_roll,  v.column_roll, v.buffer,
                 v.offset, v.plane_columns, v.plane_step};
}

// Element i of `view`, in elements from view.data.
inline intptr_t view_offset(const View& view, intptr_t i) {
  if (view.each > 1) i /= view.each;
  if (!view.is_block()) return i;
  intptr_t row = i % view.rows, column = i / view.rows;
  if (view.has_planes()) {
    return row * view.row_stride + column % view.plane_columns * view.column_step +
           column / view.plane_columns * view.plane_step;
  }
  if (view.is_rolled()) {
    row += view.row_roll;
    if (row >= view.rows) row -= view.rows;
    column += view.column_roll;
    if (column >= view.length / view.rows) column -= view.length / view.rows;
  }
  return row * view.row_stride + column * view.column_step;
}

// Where element i of `view` is.
inline const char* view_element(const View& view, intptr_t i, size_t size) {
  return view.data + view_offset(view, i) * static_cast<intptr_t>(size);
}

// Copies elements [begin, end) of `view` (a single element: repeated) to `out`.
void read_view(const View& view, intptr_t begin, intptr_t end, char* out);

// The positions a subassignment writes: `columns` runs of `rows` consecutive
// elements, the first run at `first`, each `step` elements after the previous one
// (x[a:b], m[i:j, k:l], m[i, ], a[, , k]), in `planes` planes of such runs, each
// `plane_step` elements after the previous one (a[i:j, k:l, m:n]). Element i of the
// value written goes to position(i).
struct Region {
  intptr_t first = 0, rows = 0, columns = 1, step = 0;
  intptr_t planes = 1, plane_step = 0;
  intptr_t count() const { return rows * columns * planes; }
  intptr_t position(intptr_t i) const {
    const intptr_t in_plane = i % (rows * columns);
    return first + i / (rows * columns) * plane_step + in_plane % rows + in_plane / rows * step;
  }
  // Plane p as a region of its own (the whole region when it has one plane).
  Region plane(intptr_t p) const {
    Region one = *this;
    one.first = first + p * plane_step;
    one.planes = 1;
    one.plane_step = 0;
    return one;
  }
  // The first column (of a region of one plane) whose run ends after position a
  // (columns or more if none does).
  intptr_t column_ending_after(intptr_t a) const {
    const intptr_t before = a - first - rows;
    return before < 0 ? 0 : before / step + 1;
  }
  // visit(i, a, b) for each run [a, b) of the positions written within [begin, end),
  // in position order; i is the value's element that goes to position a.
  template <class Visit>
  void runs_within(intptr_t begin, intptr_t end, Visit visit) const {
    for (intptr_t k = 0; k < planes; ++k) {
      const Region one = plane(k);
      if (one.first >= end) break;
      const intptr_t before = k * rows * columns;  // elements of the value in earlier planes
      for (intptr_t c = one.column_ending_after(begin); c < columns; ++c) {
        const intptr_t p = one.first + c * step;
        if (p >= end) break;
        const intptr_t a = std::max(p, begin), b = std::min(p + rows, end);
        if (a < b) visit(before + c * rows + (a - p), a, b);
      }
    }
  }
};

// "1500 runs of 1 element, 1501 apart, from position 1", as plans say it.
std::string region_text(const Region& r);

struct Node {
  NodeKind kind;
  gufunc_dtype dtype;  // type of the node's values
  intptr_t length;     // number of elements (1 for scalars and reductions)

  View view;                 // Input
  double scalar_double = 0;  // Scalar of dtype double
  int scalar_int = 0;        // Scalar of dtype integer or logical
  // Map, Gufunc: shared, so re-registering or removing the function while a lazy
  // value still needs it does not free its kernels and state.
  std::shared_ptr<const Function> function;
  TypeMatch match;  // Map, Gufunc: kernel set and argument types
  // Gufunc: the resolved call (types, core and loop dims, variant), made once at creation.
  std::shared_ptr<const ApplyPlan> apply;
  Reduction reduction = Reduction::Sum;
  bool na_rm = false;            // Reduce
  ScanOp scan = ScanOp::Cumsum;  // Scan
  // Scan: where its last evaluation ended and the carry there, so evaluations in
  // consecutive pieces (a file written piece by piece, margin sums in chunks)
  // resume instead of starting over. A cache, set on the main thread only.
  mutable std::shared_ptr<ScanCheckpoint> checkpoint;
  // Map or patch: the last request that computed it and, once a later request read
  // it again, its values computed whole (reused_values.hpp). Set on the main thread.
  mutable uint64_t computed_in = 0;
  mutable std::shared_ptr<const KeptValues> kept;
  // Set by the host for a node that may be kept: a container every graph holding
  // the node keeps alive, where its kept values can live (so they go with the last
  // of those graphs, not later). Opaque to the engine: the R bridge's list.
  mutable void* kept_holder = nullptr;
  Region region;  // Assign: children[0] is the value before, children[1] the value written
  // Gufunc nodes on the longest path down from this one: nested gufuncs are
  // evaluated recursively, one level each (execute.cpp).
  int gufunc_depth = 0;
  // Gufunc: the user's call that built it ("l1(P * 2, Q), in g(x)"), named by the
  // message of a kernel failure, which happens later, in another call.
  std::string origin;
  std::vector<NodePtr> children;
  // A view's root (lazy_view.cpp): the deferred expression it views and how, so a
  // batch reading several views of it can compute it once (shared_views.hpp).
  std::shared_ptr<const ViewSource> source;

  Node(NodeKind k, gufunc_dtype t, intptr_t n) : kind(k), dtype(t), length(n) {}
  // Whether the values are at hand (memory or a constant), not computed.
  bool at_hand() const { return kind == NodeKind::Input || kind == NodeKind::Scalar; }
  ~Node();  // iterative: children whose last owner this is are released in a loop
};

NodePtr make_input(const View& view);
NodePtr make_scalar_double(double value);
NodePtr make_scalar_int(int value, gufunc_dtype dtype);  // integer or logical

// An element-wise map of `f` (every kernel set for this arity has scalar cores) over
// `args`. Each argument has the result's length or length 1 (broadcast); anything
// else throws gufunc_shape_error (the caller falls back to eager evaluation).
// Type-checks now, so an unsupported call fails at creation, not at evaluation.
NodePtr make_map(std::shared_ptr<const Function> f, std::vector<NodePtr> args);

// A gufunc with core dims over `args`, whose R dims are `arg_dims` (a plain vector:
// {length}). Type check and shape resolution run now, so mismatched core dims throw
// gufunc_shape_error (and unknown types gufunc_dispatch_error) at creation, with the
// messages of an eager call. The node's values are the first output's, in R layout
// (core dims, then loop dims). Returns nullptr when `f` has several outputs for these
// types (the caller computes those eagerly). Throws for element-wise functions.
NodePtr make_gufunc(std::shared_ptr<const Function> fn, std::vector<NodePtr> args,
                    const std::vector<std::vector<intptr_t>>& arg_dims,
                    const std::string& origin = std::string());

// For a Gufunc node: elements of argument `arg` (inputs, then the output) per loop
// iteration, and whether that argument spans every loop dim (no broadcasting), so
// loop iterations [i0, i1) are its elements [i0 * core, i1 * core).
intptr_t core_length(const Node& g, int arg);
bool spans_loop(const Node& g, int arg);

// A reduction of `arg` to one value (two for Range: min and max in one pass).
NodePtr make_reduce(Reduction r, bool na_rm, NodePtr arg);

// The scan `op` of `arg` (cumsum(arg) and co.), typed as base R types it: integer
// for cumsum, cummax and cummin of integers and logicals, double otherwise (cumprod
// always). Its values depend on all before them: evaluate() computes the prefix.
NodePtr make_scan(ScanOp op, NodePtr arg);

// `base` with the positions of `region` set to the elements of `value` (as many as
// the region has, or one for all): R's x[i] <- value as a new version of x. Both
// have one dtype; a region outside base throws gufunc_internal_error (the caller
// checks subscripts first). Evaluation reads base and value, never the result, so a
// value computed from base gives R's result (assign.hpp).
NodePtr make_assign(NodePtr base, NodePtr value, const Region& region);

// Subassignments waiting in a chain of Assign nodes down from `node` (0 for others).
int pending_assigns(const Node& node);

// Calls visit(node) once for every distinct node reachable from root (iteratively,
// so deep graphs do not overflow the stack).
void for_each_node(const NodePtr& root, const std::function<void(const Node&)>& visit);
// Calls visit(node) once for every distinct node reachable from the nodes `from`
// through nodes for which visit returned true: false leaves a node's children out.
void walk_nodes(std::vector<const Node*> from, const std::function<bool(const Node&)>& visit);

}  // namespace engine
}  // namespace gufunc
