// Row kernels: an element-wise double kernel set's operation on one row of
// kFusedRow elements, declared at registration next to its strided kernel. The
// engine composes the row kernels of a run of such operations into one loop over
// the block (engine/fused_runs.hpp), so the values passed between them stay in the
// first-level cache and reading the operands from memory overlaps the computing.
#pragma once

namespace gufunc {

// Elements per row: 2 KiB of doubles, so that a kernel call is a small part of
// computing a row, while a run's rows stay in the first-level cache.
constexpr int kFusedRow = 256;

// Computes out[0, n) from in[k][0, n) for each operand k (as many as the kernel
// set has), n <= kFusedRow (a whole row but for a block's last), with the same bits
// and warnings as the set's strided kernel; ORs the warnings into *warn. `out` may
// be one of the operands.
using RowKernel = void (*)(const double* const* in, double* out, int n, unsigned* warn);

}  // namespace gufunc
