// Lazy R vectors: ALTREP vectors (one class per R type on one shared base) whose
// values are a deferred graph node. Base R sees an ordinary double, integer or
// logical vector: Dataptr materializes once and caches the result (a failure is
// stored and raised again on every access), Elt and Get_region compute only what is
// asked, and serialization writes plain data (a lazy_file() value: its file's path).
#pragma once

#define R_NO_REMAP
#include <R.h>
#include <R_ext/Rdynload.h>
#include <Rinternals.h>

#include <functional>
#include <string>
#include <vector>

#include "engine/evaluate.hpp"
#include "engine/graph.hpp"

namespace gufunc {
namespace r {

// Creates the three ALTREP classes; called once from R_init_gufunc.
void register_lazy_altrep(DllInfo* dll);

// A new lazy vector of `node` (its R type follows node->dtype) with the
// `attributes` (a pairlist as ATTRIB() gives, a named list as
// attributes() gives, or R_NilValue; a class among them is ignored) and then class
// "gufunc_lazy". `leaves` is a list of the R vectors the node's inputs view (kept
// alive with the result), or R_NilValue.
SEXP new_lazy_vector(engine::NodePtr node, SEXP leaves, SEXP attributes);

// lazy(x) of a plain vector x: a lazy vector whose values are x itself (no copy, no
// evaluation: R reads x's data directly), with `attributes` (ATTRIB(x) for lazy(x))
// and class "gufunc_lazy".
SEXP new_lazy_input(SEXP x, SEXP attributes);

// A short result of lazy operands (computed at once: fewer than
// gufunc.lazy_min_length elements), plain vector x with its attributes: kept a lazy
// value over x (new_lazy_input) from kKeepLazyLength elements on, so that short
// vectors feeding large arrays (n-body's outer(x, x, "-"), an elimination step's
// outer(u, v) of a column and a row) keep those arrays deferred; x itself when
// shorter or of a class, so that loops over scalars and tiny vectors run at base
// R's speed.
const R_xlen_t kKeepLazyLength = 256;
SEXP short_result(SEXP x);
// Option gufunc.lazy_min_length (an error for a bad value; default 65536).
double lazy_min_length();

// Sets `attributes` (as for new_lazy_vector) and then class "gufunc_lazy" on x.
void set_lazy_attributes(SEXP x, SEXP attributes);
// The same attributes but the class, in the given order, on a plain vector.
void set_plain_attributes(SEXP x, SEXP attributes);

// Whether x is one of the lazy ALTREP classes (with or without the S3 class).
bool is_lazy_vector(SEXP x);

// The lazy vector whose values x has: x itself, or the one inside R's own ALTREP
// wrapper, which R puts around a shared vector when it changes its attributes
// (`attr<-`, `class<-`, most replacement calls); nullptr for anything else.
SEXP lazy_inside(SEXP x);

// Whether class attribute value `cls` is "gufunc_lazy" alone.
bool is_lazy_class_alone(SEXP cls);
// Whether x has no class but "gufunc_lazy".
bool only_the_lazy_class(SEXP x);

bool lazy_is_materialized(SEXP x);

// Lazy vectors are mutable as R vectors are: R may change one that nothing else
// refers to in place (x[i] <- v writes into the cache; attr<- and dim<- keep it a
// lazy vector, where a shared one would get R's wrapper). Before R writes x's
// values (lazy_dataptr), the graphs still reading them get a copy; values handed
// out as plain values (materialize()) or shared with a duplicate are copied
// instead, and mark_values_shared() marks x not mutable, so R copies x first.
void mark_values_shared(SEXP x);

// Whether x's cached values are its own (computed by gufunc, never handed out as
// an R vector nor shared with a duplicate): they may change in place once
// before_values_change() has given the graphs that read them copies.
bool values_private(SEXP x);

// Before elements [first, last] of x's private values change in place: the input
// nodes still reading them (graphs made from x) get a copy of what they read.
void before_values_change(SEXP x, intptr_t first, intptr_t last);
// The elements before_values_change() would copy now.
double values_to_copy(SEXP x, intptr_t first, intptr_t last);
// The same, once lazy vector `value` has been computed into memory of its own: the
// input nodes that only its graph holds are gone then.
double values_to_copy_after(SEXP x, intptr_t first, intptr_t last, SEXP value);
// As values_to_copy_after(), once value's evaluation has kept the values of the
// nodes an earlier evaluation computed (engine::reused_nodes, which no longer read
// x then); -1 where it would keep none.
double values_to_copy_once_kept(SEXP x, intptr_t first, intptr_t last, SEXP value);

// Lazy vector x, deferred, was an operation's temporary (operand_references.cpp):
// its graph goes with the operation's result alone, and reading x again raises a
// classed internal error. A computed or file-backed x is left as it is.
void consume_lazy(SEXP x);

// Plain vector `operand` (an operand of the operation that made lazy vector x) was
// made for that operation alone: where x's values are computed whole, they may be
// computed into its memory (donated_memory.cpp).
void offer_memory(SEXP x, SEXP operand);

// x's values computed into the memory of the operand offer_memory() gave it, where
// that is safe; else R_NilValue. For materialize_lazy(), which caches them.
SEXP donated_values(SEXP x, unsigned* warnings);

// The node a new graph uses for lazy vector x, and the list of R vectors that node
// reads. Once x is materialized this is an input over its values (registered
// with x's readers: see before_values_change).
struct NodeUse {
  engine::NodePtr node;
  SEXP leaves;  // a list, or R_NilValue
};
NodeUse lazy_node_use(SEXP x);

// An input node viewing plain vector x (double, integer or logical, any ALTREP but
// a lazy one) without copying; x must be kept alive as a leaf of every user.
engine::NodePtr input_node(SEXP x, int position,
                           std::shared_ptr<engine::BufferReaders> readers = nullptr);

// The values of x as a plain vector, computed once and cached in x; returns the
// GUFUNC_WARN_* bits of this evaluation not yet raised for x in *warnings (0 when
// it was cached).
// Throws a stored failure, or gufunc_interrupt (nothing cached) on Ctrl-C.
SEXP materialize_lazy(SEXP x, unsigned* warnings);

// The values of deferred lazy vector x computed into a new plain vector of their
// own (x stays deferred: nothing is cached), for code about to change them.
// Warnings as for materialize_lazy().
SEXP computed_copy(SEXP x, unsigned* warnings);

// Evaluates deferred lazy vector x into `out` (its length in values of its R type),
// caching nothing; returns warning bits as materialize_lazy().
unsigned evaluate_into(SEXP x, char* out);

// Evaluates deferred lazy vector x into the positions of `region` in `out` (the
// values of the vector the region is of) without checking for interrupts or
// reporting progress: for a value that cannot stop half way
// (engine::writes_without_failing). Warnings as for materialize_lazy().
unsigned evaluate_into_region(SEXP x, const engine::Region& region, char* out);

// Evaluates deferred lazy vector x a piece of at most `piece` elements at a time
// into `buffer` (room for `piece` values), calling write(begin, end) after each:
// a value larger than memory streamed to a file. One progress report for all
// pieces; warnings and failures as evaluate_into().
unsigned evaluate_in_pieces(SEXP x, intptr_t piece, char* buffer,
                            const std::function<void(intptr_t, intptr_t)>& write);

// Writes elements [begin, end) of x into out (values of x's R type) without
// materializing x. Returns the warning bits not yet raised for x, for the caller
// to raise (now counted as raised).
unsigned read_lazy_region(SEXP x, R_xlen_t begin, R_xlen_t end, void* out);

// Writes the elements of x in each of `runs` one after another into out, without
// materializing x; returns warning bits as read_lazy_region.
unsigned read_lazy_runs(SEXP x, const std::vector<engine::Run>& runs, void* out);

// The reference a lazy_file() value x is saved as: list(path, type, offset, length)
// (lazy_file_bridge.cpp); reopen_file_reference() maps the file again.
SEXP file_reference(SEXP x);
SEXP reopen_file_reference(SEXP reference, SEXP attributes);

// A short description of x for Inspect and print: "map double[1e7], deferred".
std::string describe_lazy(SEXP x);

}  // namespace r
}  // namespace gufunc
