// The state behind one lazy vector, shared by the ALTREP methods (lazy_altrep.cpp)
// and the operations on lazy vectors (lazy_vector.cpp). Layout of a lazy vector:
// data1 is an external pointer to a LazyState; data2 is a list of three slots, the R
// vectors the graph reads (kept alive), once materialized the plain values, and
// with them the weight R's collector counts for them (output_alloc.hpp).
#pragma once

#define R_NO_REMAP
#include <R.h>
#include <R_ext/Altrep.h>
#include <Rinternals.h>

#include <memory>
#include <string>
#include <utility>

#include "engine/buffer_readers.hpp"
#include "engine/graph.hpp"
#include "engine/mapped_file.hpp"
#include "r/guard.hpp"

namespace gufunc {
namespace r {

struct LazyState {
  // The graph node; once the values are cached, an input node reading them. Null
  // for lazy(x) until a graph reads x: viewing another package's ALTREP vector
  // (R's compact 1:n) expands it, which lazy(x) itself must not do.
  engine::NodePtr node;
  engine::NodeKind kind = engine::NodeKind::Input;
  gufunc_dtype dtype = GUFUNC_DOUBLE;
  R_xlen_t length = 0;
  bool failed = false;  // an evaluation failed: raise the same error on every access
  std::string failure_class, failure_message;
  // The values slot holds the user's own vector (lazy(x)): materialize() must not
  // set attributes on it.
  bool values_borrowed = false;
  // A duplicate (R's duplicate() of a materialized lazy value) shares the values of
  // the original; C code that duplicates a vector to write into it gets a private
  // copy of them when it asks for a writable data pointer.
  bool copy_on_write = false;
  // The data of the values once they are at hand (null for values another package's
  // ALTREP class computes on request): R's loops that read a vector through Elt,
  // one call per element, take it without further lookups.
  const char* values_data = nullptr;
  // Partial evaluations (single elements, subsets) so far: code that reads a value
  // piece by piece reads all of it, so after a few the value is computed whole.
  size_t partial_reads = 0;
  // GUFUNC_WARN_* bits already raised for this value: base R warns once, when it
  // computes a value, however its elements are read afterwards. Shared by the
  // views of a deferred value (lazy_view.cpp) and by its duplicates: computing
  // elements through any of them counts for all.
  std::shared_ptr<unsigned> warned = std::make_shared<unsigned>(0);
  // The subassignments that were waiting on x when its values were computed (0
  // for values of another kind of node): how many writes a new version made of x
  // is likely to serve.
  int writes_per_version = 0;
  // Where the values are x's own (computed by x, not handed out as R vectors nor
  // shared with a duplicate): the input nodes reading them, given a copy of what
  // they read before x's values change in place (engine/buffer_readers.hpp); null
  // otherwise.
  std::shared_ptr<engine::BufferReaders> readers;
  // lazy_file() of a whole file: the file its values are (serialized as its path).
  std::shared_ptr<const engine::MappedFile> file;
  std::string file_type;  // its values as stored: "double", "integer" or "bytes"
  // A plain operand that was made for the operation of this node alone (R counted
  // no reference to it but the method's: outer(u, v) in a[i, j] - outer(u, v)),
  // one of the leaves: its memory may take the values (donated_memory.cpp).
  SEXP donor = nullptr;
};

// The bits of `bits` not yet raised for s, now counted as raised.
inline unsigned unraised_warnings(LazyState& s, unsigned bits) {
  bits &= ~*s.warned;
  *s.warned |= bits;
  return bits;
}

enum LazySlot { kLeavesSlot = 0, kValuesSlot = 1, kWeightSlot = 2 };

inline LazyState& state_of(SEXP x) {
  return *static_cast<LazyState*>(R_ExternalPtrAddr(R_altrep_data1(x)));
}

// The cached plain values of lazy vector x, or R_NilValue.
inline SEXP values_of(SEXP x) { return VECTOR_ELT(R_altrep_data2(x), kValuesSlot); }

// The data of the last lazy vector whose values R read through Elt, and that vector
// (lazy_altrep.cpp): R's loops over a value (its subassignment reads the value one
// element at a time) then take each element without a call into R. Forgotten when
// values change, when a state is finalized and when a lazy vector is made
// (wrap_lazy_state): a vector at the address of a dead one is a new lazy vector
// (R calls Elt only on vectors of gufunc's classes, which only gufunc makes).
struct EltCache {
  SEXP vector = nullptr;
  const char* data = nullptr;
};
extern EltCache elt_cache;

// Makes `values` the cached values of lazy vector x.
inline void set_values(SEXP x, SEXP values) {
  elt_cache = EltCache();
  SET_VECTOR_ELT(R_altrep_data2(x), kValuesSlot, values);
  state_of(x).values_data = static_cast<const char*>(DATAPTR_OR_NULL(values));
}

// The ALTREP class for values of type t (lazy_altrep.cpp).
R_altrep_class_t lazy_class_for(gufunc_dtype t);

// Runs R API code that allocates (and so may longjmp) from C++: a longjmp becomes a
// C++ exception, so destructors run, and guarded() resumes it.
template <class F>
SEXP r_call(F f) {
  return unwind_protect([](void* data) -> SEXP { return (*static_cast<F*>(data))(); }, &f);
}

// A new lazy vector owning `state`, without attributes, marked not mutable.
SEXP wrap_lazy_state(LazyState state, SEXP leaves);

}  // namespace r
}  // namespace gufunc
