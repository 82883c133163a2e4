// Values stored twice as their blocks are computed (see mirrored_writes.hpp).
#include "engine/mirrored_writes.hpp"

#include <cstring>

namespace gufunc {
namespace engine {

namespace {

MirroredWrites* current = nullptr;  // main thread only

// Whether `view` reads exactly the positions of `region`, element k at position k.
bool reads_region(const View& v, size_t es, const Region& region) {
  if (v.length != region.count() || v.each != 1 || v.is_rolled() || v.is_strided() ||
      v.copied_only() || v.file_fd >= 0 || v.offset != region.first * static_cast<intptr_t>(es)) {
    return false;
  }
  if (!v.is_block()) {  // consecutive elements: so must the region's positions be
    return (region.columns == 1 || region.step == region.rows) &&
           (region.planes == 1 || region.plane_step == region.rows * region.columns);
  }
  if (v.rows != region.rows) return false;
  if (region.columns > 1 && v.column_step != region.step) return false;
  if (region.planes == 1) return !v.has_planes();
  return v.plane_columns == region.columns && v.plane_step == region.plane_step;
}

}  // namespace

bool reads_region_aligned(const Node& value, const void* buffer, size_t element_size,
                          const Region& region) {
  const intptr_t es = static_cast<intptr_t>(element_size);
  const intptr_t low = region.first * es;
  const intptr_t high = (region.position(region.count() - 1) + 1) * es;
  bool aligned = true;
  walk_nodes({&value}, [&](const Node& n) {
    if (!aligned || n.kind == NodeKind::Scalar) return false;
    if (n.kind == NodeKind::Input) {
      const View& v = n.view;
      // Other memory, or bytes outside the region, are never written.
      const intptr_t from = v.offset + v.lowest_byte();
      if (v.buffer == buffer && from + v.span_bytes() > low && from < high) {
        aligned = dtype_size(v.dtype) == element_size && reads_region(v, element_size, region);
      }
      return false;
    }
    // Element k of a map of the value's length reads element k of its operands.
    aligned = n.kind == NodeKind::Map && n.length == region.count();
    return aligned;
  });
  return aligned;
}

MirroredWrites::MirroredWrites(const Node* value, const Region& region, char* target,
                               size_t element_size)
    : value_(value),
      region_(region),
      target_(target),
      element_size_(element_size),
      before_(current) {
  current = this;
}

MirroredWrites::~MirroredWrites() { current = before_; }

void MirroredWrites::store(intptr_t begin, intptr_t end, const char* values) {
  const intptr_t es = static_cast<intptr_t>(element_size_);
  region_.runs_within(region_.position(begin), region_.position(end - 1) + 1,
                      [&](intptr_t i, intptr_t a, intptr_t b) {
                        std::memcpy(target_ + a * es, values + (i - begin) * es,
                                    static_cast<size_t>((b - a) * es));
                      });
  stored_.fetch_add(end - begin);
}

MirroredWrites* mirror_of(const Node& root) {
  return current != nullptr && current->value() == &root ? current : nullptr;
}

}  // namespace engine
}  // namespace gufunc
