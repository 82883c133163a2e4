// Which variant of a kernel set runs a call. Eager calls, lazy evaluation and
// kernels requested from C all choose here, in the ABI's order (kernel_set.h): C
// when the core dimensions are C-contiguous, Fortran when they are
// Fortran-contiguous, then Xnd, then Strided (which takes any strides).
#pragma once

#include "gufunc/kernel_set.h"

namespace gufunc {

enum class Variant { C, Fortran, Xnd, Strided, None };

inline const char* variant_name(Variant v) {
  switch (v) {
    case Variant::C:
      return "C";
    case Variant::Fortran:
      return "Fortran";
    case Variant::Xnd:
      return "Xnd";
    case Variant::Strided:
      return "Strided";
    default:
      return "none";
  }
}

// Element-wise calls have no core dimensions: both layouts hold.
inline Variant choose_variant(const gufunc_kernel_set& set, bool c_contiguous,
                              bool fortran_contiguous) {
  if (set.C != nullptr && c_contiguous) return Variant::C;
  if (set.Fortran != nullptr && fortran_contiguous) return Variant::Fortran;
  if (set.Xnd != nullptr) return Variant::Xnd;
  if (set.Strided != nullptr) return Variant::Strided;
  return Variant::None;
}

// The nd kernel of an nd variant (C, Fortran or Xnd).
inline gufunc_nd_kernel_t nd_kernel(const gufunc_kernel_set& set, Variant v) {
  return v == Variant::C ? set.C : v == Variant::Fortran ? set.Fortran : set.Xnd;
}

}  // namespace gufunc
