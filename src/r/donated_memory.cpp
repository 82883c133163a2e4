// Results computed into the memory of a temporary operand. In a - outer(u, v) the
// product is a plain matrix that base R made for the subtraction alone, and the
// difference has its length and type: base R's arithmetic writes such a result
// into its operand's memory (an operand nothing refers to), and so does
// materializing a lazy value whose operation took a large one. That saves a
// result's memory and the writing of fresh pages.
//
// Safe because nothing else can read the operand: R counted one reference to it,
// the method's promise, when the operation was recorded (operand_references.cpp),
// and from then on only the graph holds it. Its node is read by the value's own
// operation only, element i for element i, and the value (IEEE double arithmetic,
// engine::writes_without_failing) cannot stop half way, so no evaluation is left
// reading an operand half overwritten.
#include "dispatch/apply.hpp"
#include "engine/assign.hpp"
#include "r/kept_holders.hpp"
#include "r/lazy_altrep.hpp"
#include "r/lazy_state.hpp"
#include "r/r_arrays.hpp"

namespace gufunc {
namespace r {

// Values computed into a donor so far (a test counter, test_hooks_memory.cpp).
double donated_results = 0;

// Donors smaller than this keep their own memory. The C library allocates vectors
// of at least 32 MiB (glibc's largest threshold for mapping) with mmap() and unmaps
// them when freed, whatever else the program does; smaller ones come from its heap,
// where a donor kept until its value is collected changed what the heap could reuse
// and give back: gauss's steps (donors of 2.9 MB) took 430,000 page faults instead
// of 160,000 and 1.11 s instead of 0.43 in a fresh process (heap tuned with
// MALLOC_TRIM_THRESHOLD_, both 30,000). A donor of 128 MB saved 20-25 % of
// a - outer(u, v) (inst/benchmarks/README.md).
double min_donor_bytes = 32.0 * 1024 * 1024;

namespace {

// Whether plain vector v is one whose memory a value of type `dtype` and length
// `length` can take: an ordinary vector (no ALTREP class computes it, no class)
// of at least min_donor_bytes.
bool may_take(SEXP v, gufunc_dtype dtype, R_xlen_t length) {
  return lazy_inside(v) == nullptr && !ALTREP(v) && !OBJECT(v) && TYPEOF(v) == sexptype_of(dtype) &&
         XLENGTH(v) == length && length > 1 &&
         static_cast<double>(length) * static_cast<double>(dtype_size(dtype)) >= min_donor_bytes;
}

bool is_leaf(SEXP x, SEXP v) { return holds_leaf(VECTOR_ELT(R_altrep_data2(x), kLeavesSlot), v); }

// Whether the graph of x (its state s) reads donor's memory through one input node
// of x's own operation, element i for element i, and nothing else holds that node
// or the operation.
bool read_by_own_operation_only(const LazyState& s, SEXP donor) {
  if (!s.node || s.node.use_count() != 1) return false;
  const engine::Node& root = *s.node;
  if (root.kind != engine::NodeKind::Map || root.dtype != s.dtype) return false;
  const char* data = data_of(donor);
  int readers = 0;
  for (const engine::NodePtr& c : root.children) {
    if (c->kind != engine::NodeKind::Input || c->view.data != data) continue;
    const engine::View& v = c->view;
    if (c.use_count() != 1 || v.is_block() || v.each != 1 || v.length != s.length || v.readers ||
        v.file_fd >= 0 || v.copied_only()) {
      return false;
    }
    ++readers;
  }
  return readers == 1;
}

}  // namespace

void offer_memory(SEXP x, SEXP operand) {
  if (lazy_inside(x) != x || lazy_is_materialized(x)) return;
  LazyState& s = state_of(x);
  if (s.donor == nullptr && may_take(operand, s.dtype, s.length)) s.donor = operand;
}

SEXP donated_values(SEXP x, unsigned* warnings) {
  LazyState& s = state_of(x);
  SEXP donor = s.donor;
  s.donor = nullptr;  // offered once: the node is replaced by the values next
  // (offer_memory() checked its type, length and size; being a leaf, it is alive.)
  if (donor == nullptr || s.failed || !is_leaf(x, donor) || !read_by_own_operation_only(s, donor) ||
      !engine::writes_without_failing(*s.node)) {
    return R_NilValue;
  }
  engine::Region whole;  // all of the donor, one column
  whole.rows = s.length;
  *warnings = evaluate_into_region(x, whole, data_of(donor));
  // Its dims and names were the operand's; the caller gives x's.
  SET_ATTRIB(donor, R_NilValue);
  ++donated_results;
  return donor;
}

}  // namespace r
}  // namespace gufunc
