// Base R's sum of doubles, `for (i) t += (long double) v[i]` in x87 extended
// precision (a 64-bit significand, rounded to nearest even at every addition), with
// the same bits but without waiting on the x87 unit: each addition waits for the
// one before (about 6 cycles here), which bounds sum() and mean() at base R's own
// speed however fast the values come.
//
// While the running total t keeps its sign and binade (t = +-M * 2^E with M in
// [2^63, 2^64)), every representable value is an integer multiple of 2^E, so
// rounding t + x is rounding x to a multiple of 2^E: t's next M is M +- round(x /
// 2^E), an integer addition. A block of values is checked first (vector code): if
// every partial total stays inside the binade, whatever the order, its additions
// are integer ones whose rounding does not depend on t, except exact ties, which
// round to an even M: the block's change to M depends only on M's parity at its
// start, and both are worked out. Blocks that would leave the binade or change
// sign, NaN, Inf and values too large for t's binade are added by the x87 loop
// itself, so every result is the x87 loop's.
#pragma once

#include <cstdint>

namespace gufunc {
namespace engine {

// After a block the integer additions could not take (totals near zero or changing
// sign, values as large as the total), the next blocks go straight to the x87 loop,
// more of them after each refusal (up to 64), so such sums cost little more than
// the x87 loop. Kept with the total across calls.
struct InOrderHint {
  int skip = 0;
  int backoff = 1;
};

// The x87 loop itself: each v[i] loaded into the x87 unit first, as R's sum() and
// mean() load it.
long double add_in_order_x87(long double t, const double* v, intptr_t n);

// An x87 loop for the values integer additions cannot take. R's colSums() adds each
// value straight from memory instead, which differs where a signalling NA meets a
// NaN; its caller passes that loop.
using X87Loop = long double (*)(long double t, const double* v, intptr_t n);

// t + v[0] + ... + v[n - 1], added in index order in long double: the bits of the
// `x87` loop.
long double add_in_order(long double t, const double* v, intptr_t n, InOrderHint* hint,
                         X87Loop x87 = add_in_order_x87);

// Threads that compute values ahead of the one adding them (ordered_blocks.hpp)
// can also work out what each chunk of kPreparedChunk values will do to the total,
// for the binade the total is expected to have then; the adding thread then takes a
// prepared chunk in a few instructions when the total is in that binade.
const int kPreparedChunk = 1024;

// A key for the binade of total t, published by the adding thread for the others;
// 0 when t is 0, subnormal, Inf or NaN (nothing is prepared for it).
uint64_t binade_key(long double t);

// What one chunk does to M for one binade: M's change for an even and for an odd M
// (a tie rounds to an even M), and how far any partial total may stray from M.
struct PreparedChunk {
  uint64_t key = 0;  // the binade it was prepared for; 0: not prepared
  uint64_t toward_bound = 0, away_bound = 0;
  uint64_t delta[2] = {0, 0};
};

// Prepares the chunks of v[0..n) (ceil(n / kPreparedChunk) of them) for binade `key`.
void prepare_in_order(uint64_t key, const double* v, intptr_t n, PreparedChunk* chunks);

// add_in_order() of values prepared by prepare_in_order(): the same bits.
long double add_prepared(long double t, const double* v, intptr_t n, const PreparedChunk* chunks,
                         InOrderHint* hint);

}  // namespace engine
}  // namespace gufunc
