// Graph nodes (see graph.hpp).
#include "engine/graph.hpp"

#include <algorithm>
#include <cstring>
#include <unordered_set>

#include "dispatch/apply.hpp"
#include "engine/buffer_readers.hpp"
#include "engine/file_read_mode.hpp"
#include "engine/file_reads.hpp"
#include "engine/mapped_file.hpp"
#include "types/checked_size.hpp"

namespace gufunc {
namespace engine {

const char* reduction_name(Reduction r) {
  switch (r) {
    case Reduction::Sum:
      return "sum";
    case Reduction::Prod:
      return "prod";
    case Reduction::Min:
      return "min";
    case Reduction::Max:
      return "max";
    case Reduction::Range:
      return "range";
    case Reduction::Mean:
      return "mean";
    case Reduction::Any:
      return "any";
    default:
      return "all";
  }
}

const char* scan_name(ScanOp op) {
  switch (op) {
    case ScanOp::Cumsum:
      return "cumsum";
    case ScanOp::Cumprod:
      return "cumprod";
    case ScanOp::Cummax:
      return "cummax";
    default:
      return "cummin";
  }
}

Node::~Node() {
  // Release children without recursion: a child whose only owner is this node is
  // emptied into the work list before it dies, so each destructor frees one level.
  std::vector<NodePtr> pending = std::move(children);
  while (!pending.empty()) {
    NodePtr child = std::move(pending.back());
    pending.pop_back();
    if (child && child.use_count() == 1) {
      auto& grandchildren = const_cast<Node&>(*child).children;
      for (NodePtr& g : grandchildren) pending.push_back(std::move(g));
      grandchildren.clear();
    }
  }
}

bool View::in_place(intptr_t pos, intptr_t count, bool* repeated) const {
  *repeated = false;
  if (copied_only()) return false;
  if (file_fd >= 0) return file_in_place && file_reads_in_place() && !is_block() && each == 1;
  if (each > 1) {
    *repeated = pos / each == (pos + count - 1) / each;
    return *repeated;
  }
  if (!is_block()) return true;
  if (is_strided()) return count == 1;
  const intptr_t row = pos % rows, wrap = rows - row_roll;  // rolled: the rows wrap there
  return row + count <= (row < wrap ? wrap : rows);
}

namespace {
// The lowest and highest element (from `data`, in elements) that `view` reads.
void element_bounds(const View& view, intptr_t* low, intptr_t* high) {
  const intptr_t distinct = (view.length - 1) / view.each + 1;  // elements of memory read
  if (!view.is_block()) {
    *low = 0;
    *high = distinct - 1;
    return;
  }
  const intptr_t down = (std::min(distinct, view.rows) - 1) * view.row_stride;
  const intptr_t columns = (distinct - 1) / view.rows + 1;
  intptr_t across = (columns - 1) * view.column_step, deep = 0;
  if (view.has_planes()) {
    across = (std::min(columns, view.plane_columns) - 1) * view.column_step;
    deep = (columns - 1) / view.plane_columns * view.plane_step;
  }
  *low = std::min<intptr_t>(down, 0) + std::min<intptr_t>(across, 0) + std::min<intptr_t>(deep, 0);
  *high = std::max<intptr_t>(down, 0) + std::max<intptr_t>(across, 0) + std::max<intptr_t>(deep, 0);
}
}  // namespace

intptr_t View::span_bytes() const {
  if (length == 0) return 0;
  intptr_t low, high;
  element_bounds(*this, &low, &high);
  return (high - low + 1) * static_cast<intptr_t>(dtype_size(dtype));
}

intptr_t View::lowest_byte() const {
  if (length == 0) return 0;
  intptr_t low, high;
  element_bounds(*this, &low, &high);
  return low * static_cast<intptr_t>(dtype_size(dtype));
}

namespace {
// Copies elements [begin, end) of a strided view (t(x), rev(x)), column by column
// with a running pointer: base R's t() reads its argument the same way.
template <class T>
void read_strided_typed(const View& view, intptr_t begin, intptr_t end, T* out) {
  const T* data = reinterpret_cast<const T*>(view.data);
  for (intptr_t i = begin; i < end;) {
    const intptr_t row = i % view.rows, column = i / view.rows;
    const intptr_t in_column = std::min(view.rows - row, end - i);
    const T* from = data + row * view.row_stride + column * view.column_step;
    for (intptr_t k = 0; k < in_column; ++k, from += view.row_stride) *out++ = *from;
    i += in_column;
  }
}

// Elements [begin, end) of a generated sequence's view. (Its values lie between its
// first and last, which are ints: no overflow.)
void generate(const View& view, intptr_t begin, intptr_t end, int* out) {
  const int64_t first = view.generated_first, step = view.generated_step;
  const intptr_t origin = view.offset / static_cast<intptr_t>(sizeof(int));
  if (!view.is_block() && view.each == 1) {
    int64_t value = first + step * (origin + begin);
    for (intptr_t i = begin; i < end; ++i, value += step) *out++ = static_cast<int>(value);
    return;
  }
  for (intptr_t i = begin; i < end; ++i) {
    *out++ = static_cast<int>(first + step * (origin + view_offset(view, i)));
  }
}

// `count` copies of the element at `from`, as a typed fill: a copy call per element
// cost more than the arithmetic of the expressions reading them (outer()'s column
// operand, rep(x, each = k), a scalar).
template <class T>
void fill_value(const char* from, intptr_t count, char* out) {
  T value;
  std::memcpy(&value, from, sizeof(T));
  std::fill_n(reinterpret_cast<T*>(out), count, value);
}

void fill(const char* from, size_t size, intptr_t count, char* out) {
  if (size == sizeof(double)) {
    fill_value<double>(from, count, out);
  } else if (size == sizeof(int)) {
    fill_value<int>(from, count, out);
  } else {
    for (intptr_t k = 0; k < count; ++k) std::memcpy(out + k * size, from, size);
  }
}

// Elements [begin, end) of a block of one row (m[i, ], one element from each column,
// `column_step` elements apart), with a running pointer: a copy call and a
// division per element cost three times base R's m[i, ] for a 300 x 300 matrix.
template <class T>
void read_row_typed(const View& view, intptr_t begin, intptr_t end, T* out) {
  const T* from = reinterpret_cast<const T*>(view.data) + begin * view.column_step;
  for (intptr_t i = begin; i < end; ++i, from += view.column_step) *out++ = *from;
}

void read_row(const View& view, intptr_t begin, intptr_t end, char* out) {
  if (dtype_size(view.dtype) == sizeof(double)) {
    read_row_typed(view, begin, end, reinterpret_cast<double*>(out));
  } else {
    read_row_typed(view, begin, end, reinterpret_cast<int*>(out));
  }
}

void read_strided(const View& view, intptr_t begin, intptr_t end, char* out) {
  if (dtype_size(view.dtype) == sizeof(double)) {
    read_strided_typed(view, begin, end, reinterpret_cast<double*>(out));
  } else {
    read_strided_typed(view, begin, end, reinterpret_cast<int*>(out));
  }
}
}  // namespace

void read_view(const View& view, intptr_t begin, intptr_t end, char* out) {
  const size_t size = dtype_size(view.dtype);
  if (end <= begin) return;  // an empty input may have no data pointer at all
  if (view.generated) {
    generate(view, begin, end, reinterpret_cast<int*>(out));
    return;
  }
  if (view.file_fd >= 0) {
    read_file_view(view, begin, end, out);
    return;
  }
  if (view.length == 1 && !view.bytes) {
    fill(view.data, size, end - begin, out);
    return;
  }
  if (view.each > 1) {
    // Runs of one repeated element.
    for (intptr_t i = begin; i < end;) {
      const intptr_t run = std::min(view.each - i % view.each, end - i);
      fill(view_element(view, i, size), size, run, out + (i - begin) * size);
      i += run;
    }
    return;
  }
  if (!view.is_block()) {
    std::memcpy(out, view.data + begin * static_cast<intptr_t>(size),
                static_cast<size_t>(end - begin) * size);
    return;
  }
  if (view.is_strided()) {
    read_strided(view, begin, end, out);
    return;
  }
  if (view.rows == 1 && !view.has_planes() && !view.is_rolled()) {
    read_row(view, begin, end, out);
    return;
  }
  // Column by column: each piece is contiguous (a rolled column is two pieces).
  for (intptr_t i = begin; i < end;) {
    const intptr_t row = i % view.rows, wrap = view.rows - view.row_roll;
    const intptr_t in_column = std::min((row < wrap ? wrap : view.rows) - row, end - i);
    std::memcpy(out + (i - begin) * size, view_element(view, i, size),
                static_cast<size_t>(in_column) * size);
    i += in_column;
  }
}

NodePtr make_input(const View& view) {
  auto n = std::make_shared<Node>(NodeKind::Input, view.dtype, view.length);
  n->view = view;
  if (view.readers) view.readers->add(n);
  return n;
}

NodePtr make_scalar_double(double value) {
  auto n = std::make_shared<Node>(NodeKind::Scalar, GUFUNC_DOUBLE, 1);
  n->scalar_double = value;
  return n;
}

NodePtr make_scalar_int(int value, gufunc_dtype dtype) {
  auto n = std::make_shared<Node>(NodeKind::Scalar, dtype, 1);
  n->scalar_int = value;
  return n;
}

namespace {
int deepest_gufunc(const std::vector<NodePtr>& args) {
  int depth = 0;
  for (const NodePtr& a : args) depth = std::max(depth, a->gufunc_depth);
  return depth;
}
}  // namespace

NodePtr make_map(std::shared_ptr<const Function> fn, std::vector<NodePtr> args) {
  const Function& f = *fn;
  if (!is_elementwise(f, static_cast<int>(args.size()))) {
    throw Error("gufunc_shape_error", "`" + f.name() + "` with " + std::to_string(args.size()) +
                                          " argument(s) is not element-wise");
  }
  std::vector<gufunc_dtype> types;
  intptr_t length = 1;
  bool any_empty = false;
  for (const NodePtr& a : args) {
    types.push_back(a->dtype);
    any_empty = any_empty || a->length == 0;
    if (a->length != 1) {
      if (length != 1 && a->length != length) {
        throw Error("gufunc_shape_error",
                    "lazy operands of `" + f.name() + "` have lengths " + std::to_string(length) +
                        " and " + std::to_string(a->length) + ": only equal lengths or length 1");
      }
      length = a->length;
    }
  }
  TypeMatch match = typecheck_with_hook(f, types);
  auto n = std::make_shared<Node>(NodeKind::Map, match.types[args.size()], any_empty ? 0 : length);
  n->function = fn;
  n->match = std::move(match);
  n->gufunc_depth = deepest_gufunc(args);
  n->children = std::move(args);
  return n;
}

NodePtr make_gufunc(std::shared_ptr<const Function> fn, std::vector<NodePtr> args,
                    const std::vector<std::vector<intptr_t>>& arg_dims, const std::string& origin) {
  const Function& f = *fn;
  std::vector<ArgShape> shapes;
  for (size_t k = 0; k < args.size(); ++k) {
    const intptr_t n =
        checked_product(arg_dims[k], [&] { return "argument " + std::to_string(k + 1); });
    if (n != args[k]->length || args[k]->kind == NodeKind::Reduce) {
      throw Error("gufunc_internal_error", "operand dims do not match its node");
    }
    shapes.push_back({args[k]->dtype, arg_dims[k]});
  }
  auto plan = std::make_shared<ApplyPlan>(plan_apply(f, shapes));
  if (plan->elementwise) {
    throw Error("gufunc_internal_error", "`" + f.name() + "` is element-wise: a map node");
  }
  if (plan->nout() != 1) return nullptr;
  const int nin = plan->nin();
  auto n = std::make_shared<Node>(NodeKind::Gufunc, plan->match.types[nin], plan->out_length(0));
  n->origin = origin;
  n->function = fn;
  n->match = plan->match;
  n->apply = std::move(plan);
  n->gufunc_depth = deepest_gufunc(args) + 1;
  n->children = std::move(args);
  return n;
}

intptr_t core_length(const Node& g, int arg) { return g.apply->shape.arg_core_lengths[arg]; }

bool spans_loop(const Node& g, int arg) {
  return g.apply->shape.arg_loop_dims[arg] == g.apply->shape.loop_shape;
}

NodePtr make_reduce(Reduction r, bool na_rm, NodePtr arg) {
  gufunc_dtype t = arg->dtype;
  switch (r) {
    case Reduction::Sum:
      t = arg->dtype == GUFUNC_DOUBLE ? GUFUNC_DOUBLE : GUFUNC_INTEGER;
      break;
    case Reduction::Prod:
    case Reduction::Mean:
      t = GUFUNC_DOUBLE;
      break;
    case Reduction::Min:
    case Reduction::Max:
    case Reduction::Range:
      t = arg->dtype == GUFUNC_DOUBLE ? GUFUNC_DOUBLE : GUFUNC_INTEGER;
      break;
    case Reduction::Any:
    case Reduction::All:
      if (arg->dtype != GUFUNC_LOGICAL) {
        throw Error("gufunc_type_error",
                    std::string(reduction_name(r)) + "() of a lazy value needs a logical argument");
      }
      t = GUFUNC_LOGICAL;
      break;
  }
  auto n = std::make_shared<Node>(NodeKind::Reduce, t, r == Reduction::Range ? 2 : 1);
  n->reduction = r;
  n->na_rm = na_rm;
  n->gufunc_depth = arg->gufunc_depth;
  n->children.push_back(std::move(arg));
  return n;
}

NodePtr make_scan(ScanOp op, NodePtr arg) {
  if (arg->kind == NodeKind::Reduce) {
    throw Error("gufunc_internal_error", std::string(scan_name(op)) + "() of a reduction");
  }
  const bool integers = arg->dtype == GUFUNC_INTEGER || arg->dtype == GUFUNC_LOGICAL;
  const gufunc_dtype t = integers && op != ScanOp::Cumprod ? GUFUNC_INTEGER : GUFUNC_DOUBLE;
  auto n = std::make_shared<Node>(NodeKind::Scan, t, arg->length);
  n->scan = op;
  n->gufunc_depth = arg->gufunc_depth;
  n->children.push_back(std::move(arg));
  return n;
}

NodePtr make_assign(NodePtr base, NodePtr value, const Region& region) {
  auto what = [] { return std::string("the assigned region"); };
  const intptr_t count =
      checked_mul(checked_mul(region.rows, region.columns, what), region.planes, what);
  const bool shaped = region.first >= 0 && region.rows >= 1 && region.columns >= 1 &&
                      (region.columns == 1 || region.step >= region.rows) && region.planes >= 1;
  // One plane's span; planes follow each other without overlapping.
  const intptr_t span =
      shaped ? checked_mul(region.columns - 1, region.step, what) + region.rows : 0;
  const bool planes_apart = region.planes == 1 || region.plane_step >= span;
  const bool inside =
      shaped && planes_apart &&
      region.first + checked_mul(region.planes - 1, region.plane_step, what) + span <= base->length;
  if (!inside || base->kind == NodeKind::Reduce || value->kind == NodeKind::Reduce) {
    throw Error("gufunc_internal_error", "a subassignment outside its vector");
  }
  if (value->length != count && value->length != 1) {
    throw Error("gufunc_internal_error", "a subassignment's value does not fill its region");
  }
  if (value->dtype != base->dtype) {
    throw Error("gufunc_internal_error", "a subassignment's value is not of its vector's type");
  }
  auto n = std::make_shared<Node>(NodeKind::Assign, base->dtype, base->length);
  n->region = region;
  if (n->region.columns == 1) n->region.step = region.rows;
  if (n->region.planes == 1) n->region.plane_step = 0;
  // A chain of writes is evaluated in one loop; a value holding writes, one level down.
  n->gufunc_depth = std::max(base->gufunc_depth, value->gufunc_depth + 1);
  n->children.push_back(std::move(base));
  n->children.push_back(std::move(value));
  return n;
}

int pending_assigns(const Node& node) {
  int count = 0;
  for (const Node* n = &node; n->kind == NodeKind::Assign; n = n->children[0].get()) ++count;
  return count;
}

void for_each_node(const NodePtr& root, const std::function<void(const Node&)>& visit) {
  walk_nodes({root.get()}, [&](const Node& n) {
    visit(n);
    return true;
  });
}

void walk_nodes(std::vector<const Node*> from, const std::function<bool(const Node&)>& visit) {
  std::unordered_set<const Node*> seen;
  std::vector<const Node*>& stack = from;
  while (!stack.empty()) {
    const Node* n = stack.back();
    stack.pop_back();
    if (!seen.insert(n).second || !visit(*n)) continue;
    for (const NodePtr& c : n->children) stack.push_back(c.get());
  }
}

}  // namespace engine
}  // namespace gufunc
