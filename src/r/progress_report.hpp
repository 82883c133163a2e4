// Progress of long evaluations, reported to R (R/progress.R) between rounds.
#pragma once

#include <cstddef>
#include <functional>

namespace gufunc {
namespace r {

// The progress hook of one evaluation: silent for its first half second (option
// gufunc.progress_after; short work costs nothing), then asks R once whether
// progress is wanted (option gufunc.progress) and, if so, passes every report to
// R's progress_update(). A jump out of that R code (an error, an interrupt) is held
// (hold_jump()): the evaluation stops at its next interrupt check and the jump is
// resumed.
std::function<void(size_t done, size_t total)> progress_reporter();

}  // namespace r
}  // namespace gufunc
