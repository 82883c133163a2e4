// How many threads a call may use: option gufunc.threads, else RcppParallel's
// setThreadOptions() (RCPP_PARALLEL_NUM_THREADS), else all cores; at most 2 under
// R CMD check (_R_CHECK_LIMIT_CORES_). Read on the main thread for every call.
#pragma once

namespace gufunc {
namespace r {

int thread_count();

}  // namespace r
}  // namespace gufunc
