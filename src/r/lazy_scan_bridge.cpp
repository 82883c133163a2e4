// .Call entry that builds a scan node (cumsum, cumprod, cummax, cummin) over a lazy
// value: the lazy path of those Math group members. Nothing is computed here; the
// scan runs, fused with its input's producers, when the value is needed.
#include <string>

#include "r/call_registry.hpp"
#include "r/guard.hpp"
#include "r/lazy_altrep.hpp"
#include "r/lazy_operands.hpp"

namespace gufunc {
namespace r {

namespace {

engine::ScanOp scan_named(const std::string& name) {
  static const struct {
    const char* name;
    engine::ScanOp op;
  } known[] = {{"cumsum", engine::ScanOp::Cumsum},
               {"cumprod", engine::ScanOp::Cumprod},
               {"cummax", engine::ScanOp::Cummax},
               {"cummin", engine::ScanOp::Cummin}};
  for (const auto& k : known) {
    if (name == k.name) return k.op;
  }
  throw Error("gufunc_argument_error", "unknown scan `" + name + "`");
}

// A lazy vector of scan `op` of x with `attributes` (base R keeps the names only).
SEXP lazy_scan_entry(SEXP x, SEXP op, SEXP attributes) {
  return guarded([&]() -> SEXP {
    const engine::ScanOp scan = scan_named(CHAR(STRING_ELT(op, 0)));
    GraphOperands operands;
    engine::NodePtr node = engine::make_scan(scan, operands.add(x, 1));
    return new_lazy_vector(std::move(node), operands.leaves(), attributes);
  });
}

}  // namespace

}  // namespace r
}  // namespace gufunc

GUFUNC_CALL_ENTRY(lazy_scan, gufunc::r::lazy_scan_entry, 3);
