// Long double sums in index order by integer additions (see ordered_sum.hpp).
// clang-format off
#include "kernels/loop_options.hpp"  // first: block_terms is a kernel loop
// clang-format on
#include "engine/ordered_sum.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>

#include "engine/reduce_sums.hpp"

namespace gufunc {
namespace engine {

long double add_in_order_x87(long double t, const double* v, intptr_t n) {
  for (intptr_t i = 0; i < n; ++i) t += loaded(v[i]);
  return t;
}

#if defined(__GNUC__) && defined(__x86_64__) && LDBL_MANT_DIG == 64 && LDBL_MAX_EXP == 16384

namespace {

const uint64_t kTop = uint64_t(1) << 63;
// Values per block: each adds at most 2^52 + 1 to a bound, so 2^10 of them cannot
// overflow 64 bits.
const int kBlock = kPreparedChunk;

// A nonzero finite long double t = (-1)^negative * M * 2^E, M in [2^63, 2^64).
struct Binade {
  uint64_t M;
  int64_t E;
  uint64_t negative;
};

// x87 extended layout: 64-bit significand (explicit integer bit), then sign and
// 15-bit exponent. False for 0, subnormals, Inf and NaN.
bool to_binade(long double t, Binade* b) {
  unsigned char bytes[sizeof(long double)];
  std::memcpy(bytes, &t, sizeof t);
  uint64_t significand;
  uint16_t sign_exponent;
  std::memcpy(&significand, bytes, 8);
  std::memcpy(&sign_exponent, bytes + 8, 2);
  const int exponent = sign_exponent & 0x7fff;
  if (exponent == 0 || exponent == 0x7fff || (significand & kTop) == 0) return false;
  b->M = significand;
  b->E = int64_t(exponent) - 16383 - 63;
  b->negative = sign_exponent >> 15;
  return true;
}

long double from_binade(const Binade& b) {
  unsigned char bytes[sizeof(long double)] = {0};
  const uint16_t sign_exponent = uint16_t((b.E + 16383 + 63) | int64_t(b.negative << 15));
  std::memcpy(bytes, &b.M, 8);
  std::memcpy(bytes + 8, &sign_exponent, 2);
  long double t;
  std::memcpy(&t, bytes, sizeof t);
  return t;
}

// The emulation assumes what R's loops get by default: 64-bit significands,
// round to nearest. Under any other x87 control word the x87 loop runs.
bool x87_extended_nearest() {
  uint16_t control;
  __asm__ volatile("fnstcw %0" : "=m"(control));
  return ((control >> 8) & 3) == 3 && ((control >> 10) & 3) == 0;
}

// What a block's values do to M, for a binade (M, E, negative) fixed over it.
struct BlockTerms {
  uint64_t toward = 0, away = 0;  // rounded magnitudes of x with t's sign, and against it
  uint64_t toward_count = 0;      // values with t's sign
  uint64_t unusable = 0;          // Inf, NaN, or |x| / 2^E of 2^52 or more
  uint64_t ties = 0;              // x exactly halfway between two multiples of 2^E
};

const double kTwo52 = 4503599627370496.0;
const uint64_t kTwo52Bits = 0x4330000000000000;  // the bits of kTwo52

// The sums of a block's terms, gathered in vector registers (inlined into the loops).
struct TermSums {
  uint64_t toward = 0, away = 0, toward_count = 0, unusable = 0, ties = 0;
  // Adds x's rounded magnitude with t's sign or against it; the mask of with t.
  __attribute__((always_inline)) uint64_t add(uint64_t magnitude, double x, uint64_t negative) {
    const uint64_t with_t = 1 - ((__builtin_bit_cast(uint64_t, x) >> 63) ^ negative);
    const uint64_t mask = uint64_t(0) - with_t;
    toward += magnitude & mask;
    away += magnitude & ~mask;
    toward_count += with_t;
    return mask;
  }
  void store(BlockTerms* out) const {
    out->toward = toward;
    out->away = away;
    out->toward_count = toward_count;
    out->unusable = unusable;
    out->ties = ties;
  }
};

// For each x: y = x / 2^E (exact: `scale` is 2^-E), |y| = q + f (q an integer, f in
// [0, 1)) rounded to q + (f > 1/2). step[i] is that, negated for x against t's sign
// (two's complement), and tie[i] is 0, or +1 (-1 against t's sign) where f == 1/2:
// a tie is added rounded toward zero and then goes to the even neighbour
// (add_block). Below 2^52 each step is exact in double arithmetic.
GUFUNC_SIMD_CLONES void block_terms(const double* v, int n, double scale, uint64_t negative,
                                    uint64_t* step, uint64_t* tie, BlockTerms* out) {
  TermSums sums;
  for (int i = 0; i < n; ++i) {
    const double a = std::fabs(v[i] * scale);
    sums.unusable |= uint64_t(!(a < kTwo52));  // NaN too
    const double whole = std::trunc(a);
    const double f = a - whole;
    const uint64_t is_tie = uint64_t(f == 0.5);
    // The integer q + (f > 1/2) from the bits of 2^52 + it.
    const uint64_t magnitude =
        __builtin_bit_cast(uint64_t, whole + double(f > 0.5) + kTwo52) - kTwo52Bits;
    const uint64_t negate = ~sums.add(magnitude, v[i], negative);
    sums.ties |= is_tie;
    step[i] = (magnitude ^ negate) + (negate & 1);
    tie[i] = ((is_tie ^ negate) + (negate & 1)) & (uint64_t(0) - is_tie);
  }
  sums.store(out);
}

// block_terms()'s sums without its steps, in fewer instructions: 2^52 + |y| rounds
// |y| to the nearest integer (to even at a tie), which is q + (f > 1/2) wherever f
// is not 1/2, and that rounding leaves |y| exactly half away at a tie. Where `ties`
// is 0 the sums are block_terms()'s; where it is not, only block_terms() serves.
// Needs SSE arithmetic rounding to nearest (sse_nearest()).
GUFUNC_SIMD_CLONES void block_sums(const double* v, int n, double scale, uint64_t negative,
                                   BlockTerms* out) {
  TermSums sums;
  for (int i = 0; i < n; ++i) {
    const double a = std::fabs(v[i] * scale);
    sums.unusable |= uint64_t(!(a < kTwo52));  // NaN too
    const double shifted = a + kTwo52;
    sums.ties |= uint64_t(std::fabs((shifted - kTwo52) - a) == 0.5);  // both exact
    sums.add(__builtin_bit_cast(uint64_t, shifted) - kTwo52Bits, v[i], negative);
  }
  sums.store(out);
}

// Whether this thread's SSE arithmetic rounds to nearest (MXCSR's rounding bits 0),
// as R's does; block_sums() relies on it, block_terms() does not.
bool sse_nearest() {
  uint32_t csr;
  __asm__ volatile("stmxcsr %0" : "=m"(csr));
  return ((csr >> 13) & 3) == 0;
}

// A binade (E, negative) as one nonzero integer, and E back from it (E lies far
// inside +-20000).
const int64_t kKeyBias = 20000;
uint64_t key_of(int64_t E, uint64_t negative) { return uint64_t(E + kKeyBias) << 1 | negative; }
int64_t exponent_of(uint64_t key) { return int64_t(key >> 1) - kKeyBias; }

// Prepares c for values v[0..n) and binade (E, negative): false (c unprepared) when
// integer additions cannot take them. `step` and `tie` hold n values each.
bool prepare_chunk(int64_t E, uint64_t negative, const double* v, int n, uint64_t* step,
                   uint64_t* tie, PreparedChunk* c) {
  c->key = 0;
  // 2^-E a normal double, and far enough from the subnormals that a subnormal x
  // rounds to 0 (x / 2^E < 2^-22) and no step depends on them: the same under a
  // processor set to flush subnormals to zero, which the x87 unit does not do.
  if (E < -1000 || E > 1000) return false;
  const double scale = std::ldexp(1.0, static_cast<int>(-E));
  BlockTerms terms;
  const bool sums_first = sse_nearest();
  if (sums_first) block_sums(v, n, scale, negative, &terms);
  // (The steps only where a tie needs them.)
  if (!sums_first || (terms.unusable == 0 && terms.ties != 0)) {
    block_terms(v, n, scale, negative, step, tie, &terms);
  }
  if (terms.unusable != 0) return false;
  // Each x moves M by less than its rounded magnitude + 1, so every partial total
  // lies in [M - away_bound, M + toward_bound].
  c->toward_bound = terms.toward + terms.toward_count;
  c->away_bound = terms.away + (uint64_t(n) - terms.toward_count);
  if (terms.ties == 0) {
    c->delta[0] = c->delta[1] = terms.toward - terms.away;
  } else {
    // A tie's rounding depends on M's parity where it is added, which depends only
    // on M's parity at the start (additions mod 2^64 keep it): the chunk from an
    // even and from an odd start, side by side. Runs of steps with no tie are summed
    // at once.
    const int kRun = 32;
    uint64_t even = 0, odd = 1;
    for (int start = 0; start < n; start += kRun) {
      const int end = std::min(start + kRun, n);
      uint64_t sum = 0, any = 0;
      for (int i = start; i < end; ++i) {
        sum += step[i];
        any |= tie[i];
      }
      if (any == 0) {
        even += sum;
        odd += sum;
        continue;
      }
      for (int i = start; i < end; ++i) {
        even += step[i];
        odd += step[i];
        if (tie[i] != 0) {  // to the even neighbour
          even += tie[i] & (uint64_t(0) - (even & 1));
          odd += tie[i] & (uint64_t(0) - (odd & 1));
        }
      }
    }
    c->delta[0] = even;
    c->delta[1] = odd - 1;
  }
  c->key = key_of(E, negative);
  return true;
}

// Adds a prepared chunk to b when it was prepared for b's binade and every partial
// total stays inside it (2^63 itself excluded), so that every addition rounds to a
// multiple of 2^E: true, or false with b unchanged.
bool apply_chunk(const PreparedChunk& c, Binade* b) {
  if (c.key == 0 || c.key != key_of(b->E, b->negative) || c.toward_bound > ~uint64_t(0) - b->M ||
      c.away_bound >= b->M - kTop) {
    return false;
  }
  b->M += c.delta[b->M & 1];
  return true;
}

// Adds v[0..n) to t by chunks, each prepared here (`chunks` nullptr) or given, the
// x87 loop taking those integer additions cannot.
long double add_chunks(long double t, const double* v, intptr_t n, const PreparedChunk* chunks,
                       InOrderHint* hint, X87Loop x87) {
  if (!x87_extended_nearest()) return x87(t, v, n);
  uint64_t step[kBlock], tie[kBlock];
  Binade b{};
  bool in_binade = to_binade(t, &b);
  int& skip = hint->skip;  // blocks left to the x87 loop after a refused one
  int& backoff = hint->backoff;
  for (intptr_t i = 0; i < n; i += kBlock) {
    const int len = static_cast<int>(std::min<intptr_t>(kBlock, n - i));
    if (in_binade && chunks != nullptr && apply_chunk(chunks[i / kBlock], &b)) continue;
    if (in_binade && skip == 0) {
      PreparedChunk c;
      if (prepare_chunk(b.E, b.negative, v + i, len, step, tie, &c) && apply_chunk(c, &b)) {
        backoff = 1;
        continue;
      }
      skip = backoff;
      backoff = std::min(backoff * 2, 64);
    }
    if (skip > 0) --skip;
    if (in_binade) t = from_binade(b);
    t = x87(t, v + i, len);
    in_binade = to_binade(t, &b);
  }
  return in_binade ? from_binade(b) : t;
}

}  // namespace

uint64_t binade_key(long double t) {
  Binade b;
  return to_binade(t, &b) ? key_of(b.E, b.negative) : 0;
}

void prepare_in_order(uint64_t key, const double* v, intptr_t n, PreparedChunk* chunks) {
  uint64_t step[kBlock], tie[kBlock];
  const int64_t E = exponent_of(key);
  for (intptr_t i = 0; i < n; i += kBlock) {
    PreparedChunk* c = &chunks[i / kBlock];
    c->key = 0;
    if (key == 0) continue;
    const int len = static_cast<int>(std::min<intptr_t>(kBlock, n - i));
    prepare_chunk(E, key & 1, v + i, len, step, tie, c);
  }
}

long double add_prepared(long double t, const double* v, intptr_t n, const PreparedChunk* chunks,
                         InOrderHint* hint) {
  return add_chunks(t, v, n, chunks, hint, add_in_order_x87);
}

long double add_in_order(long double t, const double* v, intptr_t n, InOrderHint* hint,
                         X87Loop x87) {
  return add_chunks(t, v, n, nullptr, hint, x87);
}

#else

uint64_t binade_key(long double) { return 0; }

void prepare_in_order(uint64_t, const double*, intptr_t n, PreparedChunk* chunks) {
  for (intptr_t i = 0; i < n; i += kPreparedChunk) chunks[i / kPreparedChunk].key = 0;
}

long double add_prepared(long double t, const double* v, intptr_t n, const PreparedChunk*,
                         InOrderHint*) {
  return add_in_order_x87(t, v, n);
}

long double add_in_order(long double t, const double* v, intptr_t n, InOrderHint*, X87Loop x87) {
  return x87(t, v, n);
}

#endif

}  // namespace engine
}  // namespace gufunc
