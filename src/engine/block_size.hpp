// Cache-sized blocks: a kernel touches every input, scratch register and output once
// per block, so a block is sized to keep all of them in half the per-core L2 cache.
#pragma once

#include <cstddef>

namespace gufunc {
namespace engine {

// Bytes of per-core L2 cache (from the OS; 256 KiB when it does not say).
size_t l2_cache_bytes();

// Elements per block for a kernel touching `streams` arrays of up to 8-byte elements;
// `requested` > 0 overrides (gufunc.block_size / GUFUNC_BLOCK_SIZE). A kernel that
// reads a file (`reads_files`) reads each block of it with one pread(), whose cost
// is mostly per call: its blocks are kFileBlockElements long.
size_t block_elements(size_t streams, size_t requested, bool reads_files = false);

// 512 KiB of doubles per read. Summing two files of 2 GB (2 threads), against blocks
// of 13,056 elements: with a cold page cache 1.46-1.57 s instead of 1.55-2.54 (the
// kernel's time in the reads 0.22-0.80 s instead of 0.57-3.7), from the page cache
// 0.34-0.50 s instead of 0.40-0.46; 2^17 did as well, 2^18 and 2^19 worse
// (inst/benchmarks/README.md).
const size_t kFileBlockElements = size_t(1) << 16;

}  // namespace engine
}  // namespace gufunc
