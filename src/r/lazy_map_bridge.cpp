// .Call entries that build element-wise map nodes over lazy and plain operands:
// the fast path of the Ops and Math methods, outer()'s product and the general map.
#include <algorithm>
#include <climits>
#include <cstring>
#include <string>
#include <vector>

#include "r/call_registry.hpp"
#include "r/guard.hpp"
#include "r/lazy_altrep.hpp"
#include "r/lazy_operands.hpp"
#include "r/lazy_state.hpp"
#include "r/option_text.hpp"
#include "r/r_arrays.hpp"
#include "r/view_pushdown.hpp"

namespace gufunc {
namespace r {

namespace {

// Operand `node` read again and again up to `n` elements, as R recycles a shorter
// operand whose length divides the longer one's (a length-n vector against an
// n x k matrix): a view that repeats its elements, as rep(x, times = n / length)
// reads them. Null where the operand is not plain memory (a deferred value, a view).
engine::NodePtr recycled(const engine::NodePtr& node, intptr_t n) {
  if (node->kind != engine::NodeKind::Input) return nullptr;
  const engine::View& v = node->view;
  if (v.is_block() || v.each > 1 || v.is_strided() || v.file_fd >= 0 || v.bytes) return nullptr;
  engine::View r = v;
  r.length = n;
  r.rows = v.length;
  r.column_step = 0;
  return engine::make_input(r);
}

// Whether R recycles an operand of `len` elements to `n` without a warning.
bool recycles_evenly(R_xlen_t len, R_xlen_t n) {
  return len == n || len == 1 || (len > 1 && n % len == 0);
}

// A lazy vector of the element-wise function `name` of namespace `ns` over the list
// `args`, with `attributes` (see new_lazy_vector) and class "gufunc_lazy"; NULL
// when the engine cannot map it (no kernel for the types, lengths that R recycles
// with a warning, a deferred operand to recycle), so the caller computes it with
// base R.
SEXP build_map(const char* ns, const char* name, SEXP args, SEXP attributes) {
  std::shared_ptr<const Function> f = lookup_shared(ns, name);
  GraphOperands operands;
  std::vector<engine::NodePtr> nodes;
  R_xlen_t n = 0;
  for (R_xlen_t i = 0; i < XLENGTH(args); ++i) n = std::max(n, XLENGTH(VECTOR_ELT(args, i)));
  for (R_xlen_t i = 0; i < XLENGTH(args); ++i) {
    const R_xlen_t len = XLENGTH(VECTOR_ELT(args, i));
    if (!recycles_evenly(len, n)) return R_NilValue;
    engine::NodePtr node = operands.add(VECTOR_ELT(args, i), static_cast<int>(i + 1));
    if (len > 1 && len < n && !(node = recycled(node, static_cast<intptr_t>(n)))) {
      return R_NilValue;
    }
    nodes.push_back(std::move(node));
  }
  engine::NodePtr node;
  try {
    node = engine::make_map(f, std::move(nodes));
  } catch (const Error& e) {
    const std::string& cls = e.condition_class();
    if (cls == "gufunc_dispatch_error" || cls == "gufunc_shape_error") return R_NilValue;
    throw;
  }
  return new_lazy_vector(std::move(node), operands.leaves(), attributes);
}

SEXP lazy_map_entry(SEXP name, SEXP args, SEXP ns, SEXP attributes) {
  return guarded([&]() -> SEXP {
    return build_map(CHAR(STRING_ELT(ns, 0)), CHAR(STRING_ELT(name, 0)), args, attributes);
  });
}

// Whether x is an operand the engine maps: a double, integer or logical vector
// without a class other than "gufunc_lazy". *bare: no other attribute either.
bool mappable_operand(SEXP x, bool* bare) {
  const int type = TYPEOF(x);
  if (type != REALSXP && type != INTSXP && type != LGLSXP) return false;
  int others = 0;
  for (SEXP a = ATTRIB(x); a != R_NilValue; a = CDR(a)) {
    if (TAG(a) != R_ClassSymbol) {
      ++others;
      continue;
    }
    if (!is_lazy_class_alone(CAR(a))) return false;
  }
  if (others > 0) *bare = false;
  return true;
}

// The attributes of a result base R gives only a dim: every operand of the result's
// `n` elements has no attribute but the class and the same dim (some may have none),
// and the shorter ones none (m * 2, m[a, ] - m[b, ] with m a matrix). Then an operand
// with the dim has the result's attributes (a class among them is ignored by
// new_lazy_vector); otherwise R_NilValue, and the R code works them out.
SEXP dim_only_attributes(SEXP args, R_xlen_t n) {
  SEXP with_dim = R_NilValue, dim = R_NilValue;
  for (R_xlen_t i = 0; i < XLENGTH(args); ++i) {
    SEXP x = VECTOR_ELT(args, i);
    for (SEXP a = ATTRIB(x); a != R_NilValue; a = CDR(a)) {
      if (TAG(a) == R_ClassSymbol) continue;
      if (TAG(a) != R_DimSymbol || XLENGTH(x) != n || TYPEOF(CAR(a)) != INTSXP) {
        return R_NilValue;
      }
      if (dim == R_NilValue) {
        dim = CAR(a);
        with_dim = x;
      } else if (XLENGTH(CAR(a)) != XLENGTH(dim) ||
                 std::memcmp(INTEGER(CAR(a)), INTEGER(dim), XLENGTH(dim) * sizeof(int)) != 0) {
        return R_NilValue;  // non-conformable: base R's error
      }
    }
  }
  return with_dim == R_NilValue ? R_NilValue : ATTRIB(with_dim);
}

// The fast path of the Ops and Math methods: the lazy map of builtin `name` over
// `args` when every operand is mappable, R recycles the lengths evenly, the result
// has at least lazy_min_length() elements and no operand has attributes besides
// the class, or only a dim that base R gives the result (dim_only_attributes).
// Otherwise NULL (base R computes it), NA (mappable, but too short to
// defer: computed now, see small_result() in R) or FALSE (mappable, but base R's
// attribute rules apply: the R code takes over).
SEXP lazy_ops_entry(SEXP name, SEXP args) {
  return guarded([&]() -> SEXP {
    bool bare = true;
    R_xlen_t n = 0;
    for (R_xlen_t i = 0; i < XLENGTH(args); ++i) {
      SEXP x = VECTOR_ELT(args, i);
      if (!mappable_operand(x, &bare)) return R_NilValue;
      n = std::max(n, XLENGTH(x));
    }
    for (R_xlen_t i = 0; i < XLENGTH(args); ++i) {
      if (!recycles_evenly(XLENGTH(VECTOR_ELT(args, i)), n)) return R_NilValue;
    }
    const char* fn = CHAR(STRING_ELT(name, 0));
    Table* base = find_table("base");
    const auto* set = base == nullptr ? nullptr : base->find(fn);
    if (set == nullptr) return R_NilValue;  // not a builtin
    if (static_cast<double>(n) < lazy_min_length()) return Rf_ScalarLogical(NA_LOGICAL);
    if (bare) return build_map("base", fn, args, R_NilValue);
    // round(), atan2(), log(x, base): a first operand as long as the result gives
    // all the attributes, the second none (R's math2); the R code has that rule.
    if (set->traits().family == Family::Math2) return Rf_ScalarLogical(FALSE);
    SEXP attributes = dim_only_attributes(args, n);
    if (attributes == R_NilValue) return Rf_ScalarLogical(FALSE);
    return build_map("base", fn, args, attributes);
  });
}

// Whether R's matrix products compute outer(x, y) as 0 + x[i] * y[j] (option
// matprod unset, "default" or "internal"; R/outer_mask.R checks the BLAS): the one
// place that reads the option, for C_outer_product and, through C_default_matprod,
// for the R path.
bool default_matprod() {
  static SEXP option = Rf_install("matprod");
  SEXP opt = Rf_GetOption1(option);
  if (opt == R_NilValue) return true;
  if (TYPEOF(opt) != STRSXP || XLENGTH(opt) != 1) return false;
  const char* v = CHAR(STRING_ELT(opt, 0));
  return std::strcmp(v, "default") == 0 || std::strcmp(v, "internal") == 0;
}

// Whether x is a double vector without attributes: a plain one, or a lazy one (not
// R's wrapper around one: *lazy) with its class alone.
bool bare_double_vector(SEXP x, bool* lazy) {
  if (TYPEOF(x) != REALSXP) return false;
  *lazy = lazy_inside(x) == x;
  if (!*lazy) return ATTRIB(x) == R_NilValue && !OBJECT(x);
  bool bare = true;
  return mappable_operand(x, &bare) && bare;
}

// .Call(C_outer_product, X, Y, probe_agrees): outer(X, Y) with FUN = "*" of two double
// vectors without attributes, one of them lazy, of at least gufunc.lazy_min_length
// elements, where R's products are 0 + X[i] * Y[j] (`probe_agrees`: the BLAS was
// checked): the deferred broadcast over rep() views of X and Y with dim
// c(length(X), length(Y)), as R/outer_mask.R builds it, in one call (an elimination
// step takes one). The symbol `plain` where base R's outer() of the values is the
// answer: neither is a lazy value, or the product is shorter than
// gufunc.lazy_min_length (an elimination step's last ones). NULL for anything else,
// which the R mask decides.
SEXP outer_product_entry(SEXP X, SEXP Y, SEXP probe_agrees) {
  return guarded([&]() -> SEXP {
    const bool has_lazy_x = lazy_inside(X) != nullptr, has_lazy_y = lazy_inside(Y) != nullptr;
    if (!has_lazy_x && !has_lazy_y) return Rf_install("plain");
    // Lengths R's length() would not dispatch for: no class, or a lazy value's alone.
    auto plain_length = [](SEXP v, bool lazy) {
      const bool own = lazy ? only_the_lazy_class(v) : !OBJECT(v);
      return own && Rf_isVector(v) ? static_cast<double>(XLENGTH(v)) : -1.0;
    };
    const double lx = plain_length(X, has_lazy_x), ly = plain_length(Y, has_lazy_y);
    const double min_length = lazy_min_length();
    if (lx >= 0 && ly >= 0 && lx * ly < min_length) return Rf_install("plain");
    bool lazy_x = false, lazy_y = false;
    if (Rf_asLogical(probe_agrees) != TRUE || !default_matprod() ||
        !bare_double_vector(X, &lazy_x) || !bare_double_vector(Y, &lazy_y) || !(lazy_x || lazy_y)) {
      return R_NilValue;
    }
    const R_xlen_t nx = XLENGTH(X), ny = XLENGTH(Y);
    if (nx < 2 || ny < 2 || nx > INT_MAX || ny > INT_MAX ||
        static_cast<double>(nx) * static_cast<double>(ny) < min_length) {
      return R_NilValue;
    }
    SEXP factors = PROTECT(alloc_vector(VECSXP, 2));
    SET_VECTOR_ELT(factors, 0, rep_view(X, static_cast<double>(ny), 1));
    SET_VECTOR_ELT(factors, 1, rep_view(Y, 1, static_cast<double>(nx)));
    if (VECTOR_ELT(factors, 0) == R_NilValue || VECTOR_ELT(factors, 1) == R_NilValue) {
      UNPROTECT(1);
      return R_NilValue;
    }
    SEXP terms = PROTECT(alloc_vector(VECSXP, 2));
    SET_VECTOR_ELT(terms, 0, build_map("base", "*", factors, R_NilValue));
    if (VECTOR_ELT(terms, 0) == R_NilValue) {
      UNPROTECT(2);
      return R_NilValue;
    }
    SET_VECTOR_ELT(terms, 1, alloc_vector(REALSXP, 1));
    REAL(VECTOR_ELT(terms, 1))[0] = 0;
    SEXP dim = PROTECT(alloc_vector(INTSXP, 2));
    INTEGER(dim)[0] = static_cast<int>(nx);
    INTEGER(dim)[1] = static_cast<int>(ny);
    SEXP attributes = PROTECT(named_list({"dim"}, {dim}));
    SEXP out = build_map("base", "+", terms, attributes);
    UNPROTECT(4);
    return out;
  });
}

SEXP default_matprod_entry() {
  return guarded([&]() -> SEXP { return Rf_ScalarLogical(default_matprod()); });
}

SEXP lazy_min_length_entry() {
  return guarded([&]() -> SEXP { return Rf_ScalarReal(lazy_min_length()); });
}

}  // namespace

// Below this many elements an operation is computed by base R at once (option
// gufunc.lazy_min_length). The default is measured: see R/lazy_methods.R.
static const double kDefaultLazyMinLength = 65536;

double lazy_min_length() {
  static SEXP option = Rf_install("gufunc.lazy_min_length");
  SEXP opt = Rf_GetOption1(option);
  if (Rf_isNull(opt)) return kDefaultLazyMinLength;
  const double n = ((TYPEOF(opt) == REALSXP || TYPEOF(opt) == INTSXP) && XLENGTH(opt) == 1)
                       ? Rf_asReal(opt)
                       : NA_REAL;
  if (ISNAN(n) || n < 0) {
    throw Error("gufunc_argument_error",
                "option `gufunc.lazy_min_length` must be a single number >= 0, not " +
                    option_value_text(opt));
  }
  return n;
}

}  // namespace r
}  // namespace gufunc

GUFUNC_CALL_ENTRY(lazy_map, gufunc::r::lazy_map_entry, 4);
GUFUNC_CALL_ENTRY(lazy_ops, gufunc::r::lazy_ops_entry, 2);
GUFUNC_CALL_ENTRY(lazy_min_length, gufunc::r::lazy_min_length_entry, 0);
GUFUNC_CALL_ENTRY(outer_product, gufunc::r::outer_product_entry, 3);
GUFUNC_CALL_ENTRY(default_matprod, gufunc::r::default_matprod_entry, 0);
