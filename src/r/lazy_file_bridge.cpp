// .Call entries for file-backed lazy values (R/lazy_file.R): a mapped file as the
// input of a lazy vector, a value streamed into a new file, and the reference a
// saved file-backed value is written as (its path and layout, not its data).
#include <algorithm>
#include <string>
#include <vector>

#include "engine/evaluate.hpp"
#include "engine/file_read_mode.hpp"
#include "engine/mapped_file.hpp"
#include "engine/output_file.hpp"
#include "r/call_registry.hpp"
#include "r/eval_settings.hpp"
#include "r/guard.hpp"
#include "r/lazy_altrep.hpp"
#include "r/lazy_state.hpp"
#include "r/r_arrays.hpp"
#include "r/warning_texts.hpp"

namespace gufunc {
namespace r {

namespace {

// File types: "double" (8 bytes), "integer", "logical" (4 bytes), "bytes" (logical
// values of one byte each, 0 FALSE, others TRUE).
gufunc_dtype dtype_named(const std::string& type) {
  if (type == "double") return GUFUNC_DOUBLE;
  if (type == "integer") return GUFUNC_INTEGER;
  if (type == "logical" || type == "bytes") return GUFUNC_LOGICAL;
  throw Error("gufunc_internal_error", "unknown file type '" + type + "'");
}

void finalize_file(SEXP ptr) {
  delete static_cast<std::shared_ptr<const engine::MappedFile>*>(R_ExternalPtrAddr(ptr));
  R_ClearExternalPtr(ptr);
}

// An R object owning a reference to f: a leaf of every graph reading the file, so
// the mapping lives as long as some lazy value reads it.
SEXP file_owner(const std::shared_ptr<const engine::MappedFile>& f) {
  auto* held = new std::shared_ptr<const engine::MappedFile>(f);
  SEXP ptr = PROTECT(r_call([&] { return R_MakeExternalPtr(held, R_NilValue, R_NilValue); }));
  r_call([&] {
    R_RegisterCFinalizerEx(ptr, finalize_file, TRUE);
    return R_NilValue;
  });
  UNPROTECT(1);
  return ptr;
}

// A lazy vector over `length` values of `type` at byte `offset` of the file at `path`.
SEXP open_file_value(const std::string& path, const std::string& type, double offset, double length,
                     SEXP attributes, bool by_reference) {
  const gufunc_dtype dtype = dtype_named(type);
  const double width = type == "bytes" ? 1.0 : static_cast<double>(dtype_size(dtype));
  if (!(length >= 0) || length * width > 9.0e18 || !(offset >= 0) || offset > 9.0e18) {
    throw Error("gufunc_file_error", "file '" + path + "': its data do not fit in memory");
  }
  const intptr_t n = static_cast<intptr_t>(length);
  engine::set_file_reads(file_reads_setting());
  std::shared_ptr<const engine::MappedFile> file = engine::MappedFile::open(
      path, static_cast<intptr_t>(offset), n * static_cast<intptr_t>(width));
  engine::measure_file_reads(*file);
  SEXP leaves = PROTECT(alloc_vector(VECSXP, 1));
  SET_VECTOR_ELT(leaves, 0, file_owner(file));
  engine::View view;
  view.data = file->data();
  view.dtype = dtype;
  view.length = n;
  view.buffer = file->data();
  view.file_fd = file->descriptor();
  view.file_start = file->start();
  view.bytes = type == "bytes";
  // Elements at odd offsets (a raw file's) are read with pread(), never in place.
  view.file_in_place = file->guarded() && !view.bytes &&
                       static_cast<intptr_t>(offset) % static_cast<intptr_t>(width) == 0;
  SEXP x = PROTECT(new_lazy_vector(engine::make_input(view), leaves, attributes));
  if (by_reference) {
    state_of(x).file = file;
    state_of(x).file_type = type;
  }
  UNPROTECT(2);
  return x;
}

// lazy_file_open(path, type, offset, length, attributes, by_reference): see
// open_file_value(); by_reference: saved as the file's reference (else as values).
SEXP lazy_file_open_entry(SEXP path, SEXP type, SEXP offset, SEXP length, SEXP attributes,
                          SEXP by_reference) {
  return guarded([&]() -> SEXP {
    return open_file_value(Rf_translateCharUTF8(STRING_ELT(path, 0)), CHAR(STRING_ELT(type, 0)),
                           Rf_asReal(offset), Rf_asReal(length), attributes,
                           Rf_asLogical(by_reference) == TRUE);
  });
}

// Values written per piece: a buffer of 32 MB, reused.
const intptr_t kWritePieceBytes = intptr_t(32) << 20;

// lazy_file_write(x, path, header): the values of x (a lazy or plain double,
// integer or logical vector) written after `header` (a raw vector) into a new file
// that replaces `path` once complete, piece by piece: a deferred x is computed a
// piece at a time into one buffer. Returns the warnings of the evaluation.
SEXP lazy_file_write_entry(SEXP x, SEXP path, SEXP header) {
  return guarded([&]() -> SEXP {
    const std::string to = Rf_translateCharUTF8(STRING_ELT(path, 0));
    const std::string head(reinterpret_cast<const char*>(RAW(header)),
                           static_cast<size_t>(XLENGTH(header)));
    SEXP lazy = lazy_inside(x);
    const gufunc_dtype dtype = lazy ? state_of(lazy).dtype : dtype_of(x, 1);
    const intptr_t width = static_cast<intptr_t>(dtype_size(dtype));
    const intptr_t n = static_cast<intptr_t>(XLENGTH(x));
    engine::OutputFile file(to, head, n * width);
    unsigned warnings = 0;
    const intptr_t piece = std::max<intptr_t>(1, std::min(n, kWritePieceBytes / width));
    if (n == 0) {
      // nothing to write
    } else if (lazy != nullptr && values_of(lazy) == R_NilValue) {
      std::vector<char> buffer(static_cast<size_t>(piece * width));
      warnings = evaluate_in_pieces(lazy, piece, buffer.data(), [&](intptr_t a, intptr_t b) {
        file.write(a * width, buffer.data(), static_cast<size_t>((b - a) * width));
      });
    } else {
      SEXP values = lazy != nullptr ? values_of(lazy) : x;
      const char* data = static_cast<const char*>(DATAPTR_OR_NULL(values));
      std::vector<char> buffer(data ? 0 : static_cast<size_t>(piece * width));
      const engine::NodePtr node = data ? nullptr : input_node(values, 1);
      for (intptr_t a = 0; a < n; a += piece) {
        const intptr_t b = std::min(n, a + piece);
        const char* from = data ? data + a * width : buffer.data();
        if (!data) engine::evaluate(node, a, b, buffer.data(), engine::EvalOptions());
        file.write(a * width, from, static_cast<size_t>((b - a) * width));
      }
    }
    file.commit();
    return warning_texts(warnings);
  });
}

// list(path, type, offset, length) of lazy_file() value x (the reference its
// serialization writes), or NULL for any other value.
SEXP lazy_file_reference_entry(SEXP x) {
  return guarded([&]() -> SEXP {
    SEXP lazy = lazy_inside(x);
    if (lazy == nullptr || !state_of(lazy).file) return R_NilValue;
    return file_reference(lazy);
  });
}

}  // namespace

SEXP file_reference(SEXP x) {
  const LazyState& s = state_of(x);
  SEXP path = PROTECT(Rf_mkString(s.file->path().c_str()));
  SEXP type = PROTECT(Rf_mkString(s.file_type.c_str()));
  SEXP offset = PROTECT(Rf_ScalarReal(static_cast<double>(s.file->offset())));
  SEXP length = PROTECT(Rf_ScalarReal(static_cast<double>(s.length)));
  SEXP out = named_list({"path", "type", "offset", "length"}, {path, type, offset, length});
  UNPROTECT(4);
  return out;
}

SEXP reopen_file_reference(SEXP reference, SEXP attributes) {
  return open_file_value(Rf_translateCharUTF8(STRING_ELT(VECTOR_ELT(reference, 0), 0)),
                         CHAR(STRING_ELT(VECTOR_ELT(reference, 1), 0)),
                         Rf_asReal(VECTOR_ELT(reference, 2)), Rf_asReal(VECTOR_ELT(reference, 3)),
                         attributes, true);
}

}  // namespace r
}  // namespace gufunc

GUFUNC_CALL_ENTRY(lazy_file_open, gufunc::r::lazy_file_open_entry, 6);
GUFUNC_CALL_ENTRY(lazy_file_write, gufunc::r::lazy_file_write_entry, 3);
GUFUNC_CALL_ENTRY(lazy_file_reference, gufunc::r::lazy_file_reference_entry, 1);
