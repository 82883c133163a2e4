// Shape resolution for a gufunc call in R layout: each argument's core dims are its
// LEADING dims, loop dims trail and broadcast (a missing trailing loop dim counts as 1).
#pragma once

#include <cstdint>
#include <vector>

#include "types/signature.hpp"

namespace gufunc {

struct ResolvedShape {
  std::vector<intptr_t> dim_sizes;   // size of each Signature::dims entry (1 if missing)
  std::vector<bool> dim_missing;     // flexible dims absent from the call
  std::vector<intptr_t> loop_shape;  // broadcast loop dims
  intptr_t loop_length = 1;          // product of loop_shape
  // For every argument (inputs then outputs): its loop dims padded with 1s to
  // loop_shape's rank (outputs: loop_shape itself).
  std::vector<std::vector<intptr_t>> arg_loop_dims;
  // For every argument: its core dims as sizes, with missing flexible dims dropped.
  std::vector<std::vector<intptr_t>> arg_core_sizes;
  // For every argument: the product of its core sizes (checked; 0 if any is 0).
  std::vector<intptr_t> arg_core_lengths;
  // R dims of each output: its core sizes, then loop_shape; and its length.
  std::vector<std::vector<intptr_t>> out_dims;
  std::vector<intptr_t> out_lengths;
};

// Element strides of one argument in R's column-major layout.
struct ArgStrides {
  std::vector<intptr_t> core;  // one per present core dim
  std::vector<intptr_t> loop;  // one per loop dim; 0 where the argument broadcasts (size 1)
};

// `in_dims` are the R dims of each input (a vector without dim is {length}).
// Throws gufunc_shape_error naming the argument (1-based) and the dimension, or
// naming the arguments when the loop or an output would be longer than
// kMaxArrayLength (checked_size.hpp) or an output dim would not fit R's int dims.
ResolvedShape resolve_shape(const Signature& sig,
                            const std::vector<std::vector<intptr_t>>& in_dims);

// The strides of argument `arg` (inputs, then outputs). All 0 for an empty
// argument: it is never read, and its prefix products may not fit any integer.
ArgStrides arg_strides(const ResolvedShape& r, int arg);

}  // namespace gufunc
