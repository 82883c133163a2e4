// Cache-sized blocks: a kernel touches every input, scratch register and output once
// per block, so a block is sized to keep all of them in half the per-core L2 cache.
#pragma once

#include <cstddef>

namespace gufunc {
namespace engine {

// Bytes of per-core L2 cache (from the OS; 256 KiB when it does not say).
size_t l2_cache_bytes();

// Elements per block for a kernel touching `streams` arrays of up to 8-byte elements;
// `requested` > 0 overrides (gufunc.block_size / GUFUNC_BLOCK_SIZE).
size_t block_elements(size_t streams, size_t requested);

}  // namespace engine
}  // namespace gufunc
