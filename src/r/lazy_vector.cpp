// Operations on lazy vectors: creation, materialization once with a stored failure,
// region reads, and handing a lazy vector's node to a new graph (see lazy_altrep.hpp).
#include <algorithm>
#include <cstring>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

#include "dispatch/apply.hpp"
#include "engine/assign.hpp"
#include "engine/evaluate.hpp"
#include "engine/mapped_file.hpp"
#include "engine/reused_values.hpp"
#include "r/eval_settings.hpp"
#include "r/kept_holders.hpp"
#include "r/lazy_altrep.hpp"
#include "r/lazy_state.hpp"
#include "r/output_alloc.hpp"
#include "r/r_arrays.hpp"

namespace gufunc {
namespace r {

namespace {

SEXP lazy_class_string() {
  static SEXP cls = nullptr;
  if (cls == nullptr) {
    cls = Rf_mkString("gufunc_lazy");
    R_PreserveObject(cls);
  }
  return cls;
}

void finalize_state(SEXP ptr) {
  elt_cache = EltCache();
  delete static_cast<LazyState*>(R_ExternalPtrAddr(ptr));
  R_ClearExternalPtr(ptr);
}

size_t width_of(gufunc_dtype t) { return t == GUFUNC_DOUBLE ? sizeof(double) : sizeof(int); }

// What evaluation failures become: kept in the state so every later access raises
// the same condition. Interrupts are not failures: nothing is kept.
void remember_failure(LazyState& s, const std::string& cls, const std::string& message) {
  s.failed = true;
  s.failure_class = cls;
  s.failure_message = message;
}

// Runs `evaluate` (which calls the engine) with the failure rules above.
template <class F>
unsigned evaluate_guarded(LazyState& s, F evaluate) {
  if (s.failed) throw Error(s.failure_class, s.failure_message);
  if (s.node) engine::check_mapped_inputs(*s.node);  // not stored: a new lazy_file() helps
  EvalSettings settings;  // a bad option is the user's to fix, not a stored failure
  try {
    return evaluate(settings.options);
  } catch (const engine::Interrupted&) {
    stop_interrupted();
  } catch (const Error& e) {
    remember_failure(s, e.condition_class(), e.what());
    throw;
  } catch (const std::bad_alloc&) {
    remember_failure(s, "gufunc_memory_error", "cannot allocate memory");
    throw;
  }
}

// Copies the elements of plain vector `values` in `runs` to `to`, from its data
// `from` (LazyState::values_data). Another package's ALTREP vector without a data
// pointer (R's compact 1:n, borrowed by lazy(x)) is read region by region, which
// does not expand it.
void copy_runs(SEXP values, const char* from, const std::vector<engine::Run>& runs, size_t width,
               char* to) {
  for (const engine::Run& r : runs) {
    if (r.end <= r.begin) continue;
    const R_xlen_t n = r.end - r.begin;
    if (from != nullptr) {
      std::memcpy(to, from + r.begin * width, static_cast<size_t>(n) * width);
    } else {
      r_call([&] {
        if (TYPEOF(values) == REALSXP) {
          REAL_GET_REGION(values, r.begin, n, reinterpret_cast<double*>(to));
        } else if (TYPEOF(values) == INTSXP) {
          INTEGER_GET_REGION(values, r.begin, n, reinterpret_cast<int*>(to));
        } else {
          LOGICAL_GET_REGION(values, r.begin, n, reinterpret_cast<int*>(to));
        }
        return R_NilValue;
      });
    }
    to += static_cast<size_t>(n) * width;
  }
}

}  // namespace

SEXP wrap_lazy_state(LazyState state, SEXP leaves) {
  auto owned = std::make_unique<LazyState>(std::move(state));
  const R_altrep_class_t cls = lazy_class_for(owned->dtype);
  // One guarded R call (each costs a context): a short result makes a lazy vector
  // per operation.
  SEXP x = r_call([&] {
    SEXP slots = PROTECT(Rf_allocVector(VECSXP, 3));
    SET_VECTOR_ELT(slots, kLeavesSlot, leaves);
    SEXP ptr = PROTECT(R_MakeExternalPtr(owned.get(), R_NilValue, R_NilValue));
    R_RegisterCFinalizerEx(ptr, finalize_state, FALSE);
    owned.release();  // the external pointer's finalizer owns it now
    SEXP out = R_new_altrep(cls, ptr, slots);
    UNPROTECT(2);
    return out;
  });
  elt_cache = EltCache();  // x may have the address of a vector R collected
  return x;
}

SEXP new_lazy_vector(engine::NodePtr node, SEXP leaves, SEXP attributes) {
  LazyState state;
  state.kind = node->kind;
  state.dtype = node->dtype;
  state.length = static_cast<R_xlen_t>(node->length);
  SEXP held = PROTECT(leaves_with_holder(node, leaves));
  state.node = std::move(node);
  SEXP x = PROTECT(wrap_lazy_state(std::move(state), held));
  set_lazy_attributes(x, attributes);
  UNPROTECT(2);
  return x;
}

namespace {

// set_plain_attributes() inside a guarded R call.
void set_attributes_but_class(SEXP x, SEXP attributes) {
  // In the given order: R itself made it (dim before dimnames).
  if (TYPEOF(attributes) == VECSXP) {
    SEXP names = Rf_getAttrib(attributes, R_NamesSymbol);
    for (R_xlen_t i = 0; i < XLENGTH(attributes); ++i) {
      SEXP tag = Rf_installChar(STRING_ELT(names, i));
      if (tag != R_ClassSymbol) Rf_setAttrib(x, tag, VECTOR_ELT(attributes, i));
    }
  } else {
    for (SEXP a = attributes; a != R_NilValue; a = CDR(a)) {
      if (TAG(a) != R_ClassSymbol) Rf_setAttrib(x, TAG(a), CAR(a));
    }
  }
}

}  // namespace

void set_lazy_attributes(SEXP x, SEXP attributes) {
  r_call([&] {
    set_attributes_but_class(x, attributes);
    Rf_classgets(x, lazy_class_string());
    return R_NilValue;
  });
}

void set_plain_attributes(SEXP x, SEXP attributes) {
  if (attributes == R_NilValue) return;
  r_call([&] {
    set_attributes_but_class(x, attributes);
    return R_NilValue;
  });
}

bool lazy_is_materialized(SEXP x) { return values_of(x) != R_NilValue; }

void mark_values_shared(SEXP x) {
  state_of(x).readers.reset();  // never written in place from now on
  MARK_NOT_MUTABLE(x);
}

bool values_private(SEXP x) {
  // Values x computed itself have readers (the user's vector of lazy(x), and
  // those of a duplicate, never do) until they are handed out; a file's values
  // stand for the file.
  const LazyState& s = state_of(x);
  return values_of(x) != R_NilValue && s.readers && !s.file;
}

namespace {
// x's node where x alone holds it (it reads x's values as they are from now on).
const engine::Node* own_node(const LazyState& s) {
  return s.node && s.node.use_count() == 1 ? s.node.get() : nullptr;
}
}  // namespace

namespace {
// The elements of [first, last] that x's readers but `besides` would copy now.
double elements_to_copy(SEXP x, intptr_t first, intptr_t last,
                        const std::vector<const engine::Node*>& besides) {
  engine::drop_kept_subgraphs();
  const LazyState& s = state_of(x);
  const intptr_t width = static_cast<intptr_t>(dtype_size(s.dtype));
  return s.readers->bytes_to_copy(s.values_data, first * width, (last + 1) * width, own_node(s),
                                  besides) /
         static_cast<double>(width);
}
}  // namespace

double values_to_copy(SEXP x, intptr_t first, intptr_t last) {
  return elements_to_copy(x, first, last, {});
}

namespace {
// Graphs larger than this are not searched for nodes they alone hold.
const size_t kMaxSearchedNodes = 4096;

// The input nodes of the graph of `root` (held by one lazy vector alone) that go
// with it once that vector holds its values instead: those whose every owner is
// a link from a node that goes too, or from a node in `cut` (kept values replace
// its links: engine/reused_values.hpp). Empty where the graph has more than
// kMaxSearchedNodes nodes.
std::vector<const engine::Node*> going_with(const engine::NodePtr& root,
                                            const std::vector<const engine::Node*>& cut = {}) {
  if (root.use_count() != 1) return {};
  // Nodes after every node that links to them (reversed depth-first post-order).
  std::vector<const engine::Node*> order;
  std::unordered_map<const engine::Node*, long> owners;
  std::vector<std::pair<const engine::Node*, size_t>> stack{{root.get(), 0}};
  owners[root.get()] = 1;
  while (!stack.empty()) {
    auto& top = stack.back();
    if (top.second < top.first->children.size()) {
      const engine::NodePtr& c = top.first->children[top.second++];
      if (owners.emplace(c.get(), c.use_count()).second) {
        if (owners.size() > kMaxSearchedNodes) return {};
        stack.push_back({c.get(), 0});
      }
    } else {
      order.push_back(top.first);
      stack.pop_back();
    }
  }
  std::reverse(order.begin(), order.end());
  std::unordered_map<const engine::Node*, long> links_going{{root.get(), 1}};
  std::vector<const engine::Node*> out;
  for (const engine::Node* n : order) {
    const bool goes = links_going[n] == owners[n];  // nothing else holds it
    if (goes && n->kind == engine::NodeKind::Input) out.push_back(n);
    if (goes || std::find(cut.begin(), cut.end(), n) != cut.end()) {
      for (const engine::NodePtr& c : n->children) ++links_going[c.get()];
    }
  }
  return out;
}
}  // namespace

double values_to_copy_after(SEXP x, intptr_t first, intptr_t last, SEXP value) {
  const LazyState& v = state_of(value);
  return elements_to_copy(x, first, last,
                          v.node ? going_with(v.node) : std::vector<const engine::Node*>());
}

double values_to_copy_once_kept(SEXP x, intptr_t first, intptr_t last, SEXP value) {
  const LazyState& v = state_of(value);
  if (!v.node) return -1;
  const std::vector<const engine::Node*> kept = engine::reused_nodes(*v.node);
  if (kept.empty()) return -1;
  return elements_to_copy(x, first, last, going_with(v.node, kept));
}

void consume_lazy(SEXP x) {
  LazyState& s = state_of(x);
  if (values_of(x) != R_NilValue || s.file) return;
  s.node.reset();
  remember_failure(s, "gufunc_internal_error",
                   "a lazy value that an operation took as a temporary was read again "
                   "(please report this)");
}

void before_values_change(SEXP x, intptr_t first, intptr_t last) {
  engine::drop_kept_subgraphs();
  LazyState& s = state_of(x);
  const intptr_t width = static_cast<intptr_t>(dtype_size(s.dtype));
  const engine::Node* keep = own_node(s);
  // Graphs made from x hold its node: it goes with them (a copy where it reads
  // what changes), and graphs made from now on get a new one.
  if (keep == nullptr) s.node.reset();
  s.readers->detach(s.values_data, first * width, (last + 1) * width, keep, preserved_memory);
  elt_cache = EltCache();
}

engine::NodePtr input_node(SEXP x, int position, std::shared_ptr<engine::BufferReaders> readers) {
  engine::View view;
  view.readers = std::move(readers);
  view.dtype = dtype_of(x, position);
  view.length = static_cast<intptr_t>(XLENGTH(x));
  int first = 0, step = 0;
  if (view.dtype == GUFUNC_INTEGER && compact_sequence(x, &first, &step)) {
    // Generated as blocks read it: expanding it would take 4 bytes per element.
    view.generated = true;
    view.generated_first = first;
    view.generated_step = step;
    view.buffer = x;  // kept alive by the graph's leaves, as any input's memory
    return engine::make_input(view);
  }
  if (ALTREP(x)) {
    // DATAPTR of another package's ALTREP vector (1:n, a wrapper) may allocate.
    const void* data = nullptr;
    r_call([&] {
      data = DATAPTR_RO(x);
      return R_NilValue;
    });
    view.data = static_cast<const char*>(data);
  } else {
    view.data = data_of(x);
  }
  view.buffer = view.data;
  view.offset = 0;
  return engine::make_input(view);
}

NodeUse lazy_node_use(SEXP x) {
  LazyState& s = state_of(x);
  // x stays mutable: the input nodes of the new graph that read x's values are
  // registered with x's readers, which get a copy before those values change in
  // place (before_values_change). x's node is made on the first read by a graph
  // (lazy(x)), or again after such a change.
  if (!s.node) {
    // Consumed (consume_lazy()): its failure says so.
    if (values_of(x) == R_NilValue) throw Error(s.failure_class, s.failure_message);
    s.node = input_node(values_of(x), 1, s.readers);
  }
  return {s.node, VECTOR_ELT(R_altrep_data2(x), kLeavesSlot)};
}

SEXP new_lazy_input(SEXP x, SEXP attributes) {
  LazyState state;
  state.kind = engine::NodeKind::Input;
  state.dtype = dtype_of(x, 1);
  state.length = XLENGTH(x);
  state.values_borrowed = true;
  SEXP out = PROTECT(wrap_lazy_state(std::move(state), R_NilValue));
  set_values(out, x);
  // Its values are the user's vector: R must copy before any change.
  MARK_NOT_MUTABLE(out);
  // Its leaves (the values) and attributes in one guarded call: short results and
  // subsets make one lazy input each.
  r_call([&] {
    SEXP leaves = Rf_allocVector(VECSXP, 1);
    SET_VECTOR_ELT(R_altrep_data2(out), kLeavesSlot, leaves);
    SET_VECTOR_ELT(leaves, 0, x);
    set_attributes_but_class(out, attributes);
    Rf_classgets(out, lazy_class_string());
    return R_NilValue;
  });
  UNPROTECT(1);
  return out;
}

SEXP short_result(SEXP x) {
  const int type = TYPEOF(x);
  if ((type != REALSXP && type != INTSXP && type != LGLSXP) || XLENGTH(x) < kKeepLazyLength ||
      OBJECT(x) || lazy_inside(x) != nullptr) {
    return x;
  }
  return new_lazy_input(x, ATTRIB(x));
}

SEXP materialize_lazy(SEXP x, unsigned* warnings) {
  *warnings = 0;
  SEXP values = values_of(x);
  if (values != R_NilValue) return values;
  LazyState& s = state_of(x);
  SEXP out = donated_values(x, warnings);
  if (out == R_NilValue) out = computed_copy(x, warnings);
  PROTECT(out);
  MARK_NOT_MUTABLE(out);
  // The values are all that is needed now: the graph and its inputs can go, and
  // graphs made from x from now on read the values (one input node for all).
  SEXP leaves = PROTECT(alloc_vector(VECSXP, 1));
  SET_VECTOR_ELT(leaves, 0, out);
  s.writes_per_version = s.node ? engine::pending_assigns(*s.node) : 0;
  s.readers = std::make_shared<engine::BufferReaders>();
  s.node = input_node(out, 1, s.readers);
  SEXP slots = R_altrep_data2(x);
  set_values(x, out);
  SET_VECTOR_ELT(slots, kLeavesSlot, leaves);
  SET_VECTOR_ELT(slots, kWeightSlot, collector_weight(out));
  UNPROTECT(2);
  return out;
}

SEXP computed_copy(SEXP x, unsigned* warnings) {
  LazyState& s = state_of(x);
  if (s.failed) throw Error(s.failure_class, s.failure_message);
  SEXP out = PROTECT(alloc_output(sexptype_of(s.dtype), s.length));
  *warnings = evaluate_into(x, s.length > 0 ? data_of(out) : nullptr);
  UNPROTECT(1);
  return out;
}

unsigned evaluate_in_pieces(SEXP x, intptr_t piece, char* buffer,
                            const std::function<void(intptr_t, intptr_t)>& write) {
  LazyState& s = state_of(x);
  const engine::NodePtr node = s.node;
  return unraised_warnings(s, evaluate_guarded(s, [&](const engine::EvalOptions& options) {
                             // One progress report over all pieces: piece k's counts are
                             // scaled into the whole.
                             engine::EvalOptions each = options;
                             unsigned warnings = 0;
                             for (intptr_t a = 0; a < s.length; a += piece) {
                               const intptr_t b = std::min<intptr_t>(s.length, a + piece);
                               if (options.hooks.progress) {
                                 each.hooks.progress = [&](size_t done, size_t total) {
                                   const double part = total ? double(done) / double(total) : 1;
                                   options.hooks.progress(
                                       static_cast<size_t>(a + part * double(b - a)),
                                       static_cast<size_t>(s.length));
                                 };
                               }
                               warnings |= engine::evaluate(node, a, b, buffer, each);
                               write(a, b);
                               // Also after the last piece: R code of a progress report
                               // that jumped in the last round stops the write before
                               // the file takes its name.
                               if (options.hooks.interrupted && options.hooks.interrupted()) {
                                 throw engine::Interrupted();
                               }
                             }
                             return warnings;
                           }));
}

unsigned evaluate_into(SEXP x, char* out) {
  LazyState& s = state_of(x);
  const engine::NodePtr node = s.node;
  return unraised_warnings(s, evaluate_guarded(s, [&](const engine::EvalOptions& options) {
                             return engine::evaluate(node, 0, s.length, out, options);
                           }));
}

unsigned evaluate_into_region(SEXP x, const engine::Region& region, char* out) {
  LazyState& s = state_of(x);
  const engine::NodePtr node = s.node;
  return unraised_warnings(s, evaluate_guarded(s, [&](const engine::EvalOptions& options) {
                             engine::EvalOptions uninterrupted = options;
                             uninterrupted.hooks = RoundHooks();
                             return engine::evaluate_into_region(node, region, out, uninterrupted);
                           }));
}

unsigned read_lazy_region(SEXP x, R_xlen_t begin, R_xlen_t end, void* out) {
  return read_lazy_runs(x, {{begin, end}}, out);
}

namespace {

// Whether the pending subassignments `node` holds (if any) compute nothing: their
// base and values are memory or constants, so picking elements from them is cheap
// (a scan never is).
// Otherwise a piece of the new version is read from the whole, computed once (a
// loop reads the rest next: its border from one step, its interior from the next).
bool picks_cheaply(const engine::Node& node) {
  // A piece of a scan needs every value before it: computed whole, once.
  if (node.kind == engine::NodeKind::Scan) return false;
  if (node.kind != engine::NodeKind::Assign) return true;
  const engine::Node* n = &node;
  for (; n->kind == engine::NodeKind::Assign; n = n->children[0].get()) {
    if (!n->children[1]->at_hand()) return false;
  }
  return n->at_hand();
}

}  // namespace

unsigned read_lazy_runs(SEXP x, const std::vector<engine::Run>& runs, void* out) {
  LazyState& s = state_of(x);
  unsigned warnings = 0;
  if (values_of(x) == R_NilValue && s.node && !picks_cheaply(*s.node)) {
    materialize_lazy(x, &warnings);
  }
  SEXP values = values_of(x);
  if (values != R_NilValue) {
    copy_runs(values, s.values_data, runs, width_of(s.dtype), static_cast<char*>(out));
    return warnings;
  }
  const engine::NodePtr node = s.node;
  return unraised_warnings(s, evaluate_guarded(s, [&](const engine::EvalOptions& options) {
                             return engine::evaluate_runs(node, runs, static_cast<char*>(out),
                                                          options);
                           }));
}

std::string describe_lazy(SEXP x) {
  const LazyState& s = state_of(x);
  static const char* kinds[] = {"input", "scalar", "map", "reduce", "gufunc", "assign", "scan"};
  std::string text = std::string(kinds[static_cast<int>(s.kind)]) + " " + dtype_name(s.dtype) +
                     "[" + std::to_string(static_cast<long long>(s.length)) + "], ";
  if (values_of(x) != R_NilValue) return text + "materialized";
  if (s.failed) return text + "failed: " + s.failure_message;
  return text + "deferred";
}

}  // namespace r
}  // namespace gufunc
