// Where the engine's kept values live (engine/reused_values.hpp): in R vectors, so
// that R's collector counts them, held by the graphs that read them.
//
// Held by R's precious list until their node dies, kept values outlived the lazy
// values that read them by a collection: the node dies in the finalizer of the
// last such value, which R runs after the collection that found it dead, and the
// vector released there waits for the next one, by then often aged into an older
// generation that only R's larger collections free. So lattice Boltzmann's ux, uy
// and usq (10 MB a step at scale 2) piled up: 216 MB at its peak against base R's
// 200 (inst/benchmarks/README.md, December 1). Instead, each lazy value of a node
// that may be kept gets a holder, a list of one slot, among its leaves; every
// graph made from the value takes its leaves, so every R vector that can still
// read the node holds the holder, and the kept values put into it die in the
// collection that finds the last of those vectors dead, as base R's values do.
#include "r/kept_holders.hpp"

#include "engine/reused_values.hpp"
#include "r/output_alloc.hpp"
#include "r/r_arrays.hpp"

namespace gufunc {
namespace r {

namespace {

// The slot of a holder: the kept values once the engine keeps them (held_values():
// the values with their collector weight).
const R_xlen_t kHeldValues = 0;

// Memory for the kept values of `node` (KeptMemory): in its holder where it has
// one, else preserved until the node releases it. The holder is alive: the node
// is being evaluated for a graph whose lazy value (alive) took its leaves.
std::shared_ptr<void> kept_values_memory(const engine::Node& node, size_t bytes, char** data) {
  SEXP holder = static_cast<SEXP>(node.kept_holder);
  if (holder == nullptr || VECTOR_ELT(holder, kHeldValues) != R_NilValue) {
    return preserved_memory(bytes, data);
  }
  SET_VECTOR_ELT(holder, kHeldValues, held_values(bytes, data));
  return std::shared_ptr<void>(*data, [](void*) {});  // the holder owns them
}

}  // namespace

SEXP leaves_with_holder(const engine::NodePtr& node, SEXP leaves) {
  // Only a node no graph holds yet (the caller's pointer is its only one): a graph
  // that holds it already did not take the holder.
  if (node.use_count() != 1 || node->kept || !engine::may_be_kept(*node)) return leaves;
  // Nested, not appended: a chain x <- x * 0.5 + 1 of k steps would copy lists of
  // 1 ... k leaves. Code that looks for a leaf looks one level down (is_leaf()).
  SEXP out = PROTECT(alloc_vector(VECSXP, leaves == R_NilValue ? 1 : 2));
  SEXP holder = alloc_vector(VECSXP, 1);
  SET_VECTOR_ELT(out, 0, holder);
  if (leaves != R_NilValue) SET_VECTOR_ELT(out, 1, leaves);
  node->kept_holder = holder;
  UNPROTECT(1);
  return out;
}

bool holds_leaf(SEXP leaves, SEXP v) {
  if (TYPEOF(leaves) != VECSXP) return false;
  for (R_xlen_t i = 0; i < XLENGTH(leaves); ++i) {
    SEXP leaf = VECTOR_ELT(leaves, i);
    if (leaf == v) return true;
    if (TYPEOF(leaf) != VECSXP) continue;
    for (R_xlen_t j = 0; j < XLENGTH(leaf); ++j) {
      if (VECTOR_ELT(leaf, j) == v) return true;
    }
  }
  return false;
}

void install_kept_memory() { engine::set_kept_memory(kept_values_memory); }

}  // namespace r
}  // namespace gufunc
