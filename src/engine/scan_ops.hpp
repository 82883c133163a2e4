// The rules of the fused scans (cumsum, cumprod, cummax, cummin), following base
// R's cum.c (R 4.2) line for line, so the values have base R's bits:
// - doubles: cumsum and cumprod carry ONE long double in index order and store it
//   rounded; NA and NaN propagate through the arithmetic (an NA meeting a NaN keeps
//   what the long double operation keeps). cummax and cummin compare, and once a
//   NaN is met compute `carry + x` as R does (the first NaN wins from then on).
// - integers and logicals: cumsum sums in a double; an NA, or a sum outside the int
//   range (with R's warning), makes every later value NA. cummax and cummin give NA
//   from the first NA on. cumprod reads them as doubles (NA as NA_real_).
// The carry goes from block to block in index order (scan_kernel.hpp).
#pragma once

#include <cstdint>

#include "engine/graph.hpp"

namespace gufunc {
namespace engine {

// What one scan carries from the values before to the next.
struct ScanState {
  long double total = 0;  // cumsum, cumprod of doubles
  double extreme = 0;     // cummax, cummin of doubles
  double int_total = 0;   // cumsum of integers, in a double as R's icumsum
  int int_extreme = 0;    // cummax, cummin of integers
  bool started = false;   // integer cummax, cummin: the first value is met
  bool stopped = false;   // integers: NA from here on
  unsigned warnings = 0;  // GUFUNC_WARN_CUMSUM_OVERFLOW
};

// The carry of a scan after its first `end` values.
struct ScanCheckpoint {
  intptr_t end = 0;
  ScanState state;
};

class Scanner {
 public:
  // Scan `op` over values of dtype `input` (logical: read as integer).
  Scanner(ScanOp op, gufunc_dtype input);

  ScanState start() const;
  // Bytes of one input value.
  size_t input_bytes() const;

  // Scans n input values (`step` bytes apart) into out (n values of the scan's
  // type; nullptr: only the carry advances, for values before the range wanted).
  void scan(const char* in, intptr_t step, intptr_t n, char* out, ScanState* s) const;

 private:
  ScanOp op_;
  bool integers_;  // integer or logical input
};

}  // namespace engine
}  // namespace gufunc
