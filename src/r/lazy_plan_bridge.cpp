// .Call entries behind lazy_plan(): what engine::describe() says about evaluating a
// lazy value now (its kernels, and the same evaluation as values and steps), and
// the identity of the vectors R variables hold, so plans can name their inputs by
// the variables that hold them. Nothing here computes or copies values.
#include <cstdio>
#include <string>

#include "engine/evaluate.hpp"
#include "r/call_registry.hpp"
#include "r/eval_settings.hpp"
#include "r/guard.hpp"
#include "r/lazy_altrep.hpp"
#include "r/lazy_state.hpp"
#include "r/r_arrays.hpp"

namespace gufunc {
namespace r {

namespace {

SEXP numbers(const std::vector<double>& values) {
  SEXP out = alloc_vector(REALSXP, static_cast<R_xlen_t>(values.size()));
  std::copy(values.begin(), values.end(), REAL(out));
  return out;
}

std::string pointer_text(const void* p) {
  char text[32];
  std::snprintf(text, sizeof text, "%p", p);
  return text;
}

// What identifies the elements a view reads: equal keys, the same elements.
std::string view_key_text(const engine::View& v) {
  std::string text = pointer_text(v.data) + "/" + std::to_string(v.dtype) + "/" +
                     std::to_string(v.length) + "/" + std::to_string(v.rows) + "/" +
                     std::to_string(v.column_step) + "/" + std::to_string(v.each) + "/" +
                     std::to_string(v.row_roll) + "/" + std::to_string(v.column_roll) + "/" +
                     std::to_string(v.row_stride) + "/" + std::to_string(v.plane_columns) + "/" +
                     std::to_string(v.plane_step);
  // A generated sequence has no memory: its vector and position tell it apart.
  if (v.generated) text += "/" + pointer_text(v.buffer) + "/" + std::to_string(v.offset);
  return text;
}

// The view a plan's input would have for R value x, if x is a plain vector whose
// data is at hand (no ALTREP expansion) or a lazy value that reads one unchanged.
bool view_of(SEXP x, engine::View* view) {
  if (SEXP lazy = lazy_inside(x)) {
    const LazyState& s = state_of(lazy);
    if (s.node) {
      if (s.node->kind != engine::NodeKind::Input) return false;
      *view = s.node->view;
      return true;
    }
    x = values_of(lazy);
  }
  if (TYPEOF(x) != REALSXP && TYPEOF(x) != INTSXP && TYPEOF(x) != LGLSXP) return false;
  const void* data = DATAPTR_OR_NULL(x);
  if (data == nullptr) return false;
  view->data = static_cast<const char*>(data);
  view->dtype = dtype_of(x, 1);
  view->length = static_cast<intptr_t>(XLENGTH(x));
  view->buffer = data;
  return true;
}

SEXP inputs_data(const std::vector<engine::PlanInput>& inputs) {
  std::vector<std::string> text, key, buffer;
  std::vector<double> offset, length, source;
  for (const engine::PlanInput& in : inputs) {
    source.push_back(in.source >= 0 ? in.source + 1 : NA_REAL);
    text.push_back(in.text);
    key.push_back(view_key_text(in.view));
    buffer.push_back(pointer_text(in.view.buffer));
    offset.push_back(static_cast<double>(in.view.offset) /
                     static_cast<double>(dtype_size(in.view.dtype)));
    length.push_back(static_cast<double>(in.view.length));
  }
  return named_list({"text", "key", "buffer", "offset", "length", "source"},
                    {utf8_strings(text), utf8_strings(key), utf8_strings(buffer), numbers(offset),
                     numbers(length), numbers(source)});
}

SEXP values_data(const std::vector<engine::PlanValue>& values) {
  static const char* kinds[] = {"input", "constant", "computed"};
  std::vector<std::string> kind, dtype;
  std::vector<double> length, input, constant;
  for (const engine::PlanValue& v : values) {
    kind.push_back(kinds[static_cast<int>(v.kind)]);
    dtype.push_back(dtype_name(v.dtype));
    length.push_back(static_cast<double>(v.length));
    input.push_back(v.input >= 0 ? v.input + 1 : NA_REAL);
    const bool int_na = v.dtype != GUFUNC_DOUBLE && v.c_int == NA_INTEGER;
    constant.push_back(v.dtype == GUFUNC_DOUBLE ? v.c_double
                       : int_na                 ? NA_REAL
                                                : static_cast<double>(v.c_int));
  }
  return named_list({"kind", "dtype", "length", "input", "constant"},
                    {utf8_strings(kind), utf8_strings(dtype), numbers(length), numbers(input),
                     numbers(constant)});
}

SEXP steps_data(const std::vector<engine::PlanStep>& steps) {
  static const char* ops[] = {"map", "cast", "reduce", "gufunc", "assign", "scan"};
  std::vector<std::string> op, function, signature, detail;
  std::vector<double> kernel, out, na_rm, width;
  const R_xlen_t n = static_cast<R_xlen_t>(steps.size());
  SEXP args = PROTECT(alloc_vector(VECSXP, n));
  SEXP dims = PROTECT(alloc_vector(VECSXP, n));
  SEXP regions = PROTECT(alloc_vector(VECSXP, n));
  for (R_xlen_t i = 0; i < n; ++i) {
    const engine::PlanStep& s = steps[i];
    op.push_back(ops[static_cast<int>(s.op)]);
    function.push_back(s.function);
    signature.push_back(s.signature);
    detail.push_back(s.detail);
    kernel.push_back(s.kernel + 1);
    out.push_back(s.out + 1);
    na_rm.push_back(s.na_rm);
    width.push_back(static_cast<double>(s.width));
    std::vector<double> a;
    for (int v : s.args) a.push_back(v + 1);
    SET_VECTOR_ELT(args, i, numbers(a));
    SEXP d = PROTECT(alloc_vector(VECSXP, static_cast<R_xlen_t>(s.arg_dims.size())));
    for (size_t k = 0; k < s.arg_dims.size(); ++k) {
      SET_VECTOR_ELT(d, static_cast<R_xlen_t>(k),
                     numbers(std::vector<double>(s.arg_dims[k].begin(), s.arg_dims[k].end())));
    }
    SET_VECTOR_ELT(dims, i, d);
    UNPROTECT(1);
    const engine::Region& r = s.region;
    SET_VECTOR_ELT(regions, i,
                   numbers({static_cast<double>(r.first), static_cast<double>(r.rows),
                            static_cast<double>(r.columns), static_cast<double>(r.step),
                            static_cast<double>(r.planes), static_cast<double>(r.plane_step)}));
  }
  SEXP out_list = named_list(
      {"kernel", "op", "fun", "signature", "detail", "na_rm", "out", "width", "args", "arg_dims",
       "region"},
      {numbers(kernel), utf8_strings(op), utf8_strings(function), utf8_strings(signature),
       utf8_strings(detail), numbers(na_rm), numbers(out), numbers(width), args, dims, regions});
  UNPROTECT(3);
  return out_list;
}

// What engine::describe() says about evaluating x now, as a named list.
SEXP lazy_plan_data_entry(SEXP x) {
  return guarded([&]() -> SEXP {
    EvalSettings settings;
    SEXP lazy = lazy_inside(x);
    engine::NodePtr node = lazy != nullptr ? lazy_node_use(lazy).node : input_node(x, 1);
    const engine::Plan plan = engine::describe(node, settings.options);
    SEXP kernels = PROTECT(alloc_vector(VECSXP, static_cast<R_xlen_t>(plan.kernels.size())));
    for (size_t k = 0; k < plan.kernels.size(); ++k) {
      SEXP kernel = PROTECT(alloc_vector(VECSXP, 3));
      SET_VECTOR_ELT(kernel, 0, utf8_strings(plan.kernels[k].instructions));
      SET_VECTOR_ELT(kernel, 1, utf8_strings({plan.kernels[k].split_reason}));
      SET_VECTOR_ELT(kernel, 2, utf8_strings(plan.kernels[k].notes));
      SET_VECTOR_ELT(kernels, static_cast<R_xlen_t>(k), kernel);
      UNPROTECT(1);
    }
    SEXP graph =
        PROTECT(named_list({"inputs", "values", "steps", "result"},
                           {inputs_data(plan.graph.inputs), values_data(plan.graph.values),
                            steps_data(plan.graph.steps), Rf_ScalarReal(plan.graph.result + 1)}));
    SEXP out = named_list(
        {"kernels", "inputs", "block_size", "threads", "bytes_read", "bytes_written",
         "base_r_bytes", "file_bytes_read", "state", "graph"},
        {kernels, utf8_strings(plan.inputs), Rf_ScalarReal(static_cast<double>(plan.block_size)),
         Rf_ScalarInteger(plan.threads), Rf_ScalarReal(plan.bytes_read),
         Rf_ScalarReal(plan.bytes_written), Rf_ScalarReal(plan.base_r_bytes),
         Rf_ScalarReal(plan.file_bytes_read),
         utf8_strings({lazy != nullptr ? describe_lazy(lazy) : "plain"}), graph});
    UNPROTECT(2);
    return out;
  });
}

// The variables of `env` that hold a vector a plan could read as an input:
// list(name, key, buffer, lazy). Promises not yet forced and active bindings are
// skipped (reading them would run code).
SEXP lazy_plan_holders_entry(SEXP env) {
  return guarded([&]() -> SEXP {
    SEXP symbols = PROTECT(R_lsInternal3(env, TRUE, FALSE));
    std::vector<std::string> name, key, buffer;
    std::vector<double> is_lazy;
    for (R_xlen_t i = 0; i < XLENGTH(symbols); ++i) {
      SEXP sym = Rf_installChar(STRING_ELT(symbols, i));
      if (R_BindingIsActive(sym, env)) continue;
      SEXP value = Rf_findVarInFrame3(env, sym, TRUE);
      if (TYPEOF(value) == PROMSXP) value = PRVALUE(value);
      engine::View view;
      if (value == R_UnboundValue || !view_of(value, &view)) continue;
      name.push_back(CHAR(STRING_ELT(symbols, i)));
      key.push_back(view_key_text(view));
      buffer.push_back(pointer_text(view.buffer));
      is_lazy.push_back(lazy_inside(value) != nullptr);
    }
    SEXP out =
        named_list({"name", "key", "buffer", "lazy"},
                   {utf8_strings(name), utf8_strings(key), utf8_strings(buffer), numbers(is_lazy)});
    UNPROTECT(1);
    return out;
  });
}

}  // namespace

}  // namespace r
}  // namespace gufunc

GUFUNC_CALL_ENTRY(lazy_plan_data, gufunc::r::lazy_plan_data_entry, 1);
GUFUNC_CALL_ENTRY(lazy_plan_holders, gufunc::r::lazy_plan_holders_entry, 1);
