// Values a batch reads that are computed before it runs: the nested reductions (a
// number each), and the STAGED values (a scan, a gufunc that fusion stops at; see
// batch.hpp), computed for the range of iterations the batch runs over. Where the
// staged values of all iterations would take more than kStagedChunkBytes, the batch
// runs a chunk of iterations at a time, each after its staged values: memory stays
// bounded (sum(cumsum(x)) of a file), and a scan carries on from where the last
// chunk ended.
#pragma once

#include <cstdint>

#include "engine/batch.hpp"
#include "engine/evaluate.hpp"

namespace gufunc {
namespace engine {

const size_t kStagedChunkBytes = size_t(64) << 20;

// Computes the nested reductions `b` reads, storing their values in it; returns
// their warning bits and those of the kept values it reads.
unsigned resolve_reductions(Batch* b, const EvalOptions& options);

// Computes the staged values `b` reads over iterations [begin, end): whole (an
// operand a gufunc reads in place), or the elements [begin * w, end * w) its width-w
// instructions read. Returns their warning bits.
unsigned resolve_staged(Batch* b, intptr_t begin, intptr_t end, const EvalOptions& options);

// Iterations per chunk for `b` over `n` iterations (0: in one range).
intptr_t staged_chunk(const Batch& b, intptr_t n);

// Runs `b` over iterations [from, to): its staged values first, for all of them or
// chunk by chunk (staged_chunk); returns their warning bits. run(c0, c1) runs the
// batch on a range after its staged values.
template <class Run>
unsigned run_staged_in_chunks(Batch* b, intptr_t from, intptr_t to, const EvalOptions& options,
                              Run run) {
  const intptr_t chunk = staged_chunk(*b, to - from);
  const intptr_t step = chunk > 0 ? chunk : std::max<intptr_t>(to - from, 1);
  unsigned warnings = 0;
  intptr_t c0 = from;
  do {  // (once for an empty range too: a reduction of no values still runs)
    const intptr_t c1 = std::min(to, c0 + step);
    b->shared_values.clear();  // the last chunk's
    warnings |= resolve_staged(b, c0, c1, options);
    run(c0, c1);
    c0 = c1;
  } while (c0 < to);
  return warnings;
}

}  // namespace engine
}  // namespace gufunc
