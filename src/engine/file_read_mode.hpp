// How blocks read consecutive elements of a file: in place through its mapping, or
// with pread() into block scratch (file_reads.hpp). Neither is faster everywhere:
// a read in place costs a page mapping per page per pass (the pages are released
// between rounds to bound memory), pread() a copy. On the VM of issue 15's
// November 30 run mapping a page of the page cache cost so much that summing two
// files in place ran at 5.4 GB/s against 13-15 with pread(); on the VM before, in
// place was the faster. So by default gufunc measures both once per process, on
// the first large file lazy_file() opens, and reads the way that was faster.
#pragma once

#include <cstdint>

namespace gufunc {
namespace engine {

class MappedFile;

enum class FileReads { Auto, Mapped, Pread };

// The setting (option gufunc.file_reads, read on the main thread before each
// evaluation): Mapped and Pread force a way, Auto uses the measurement.
void set_file_reads(FileReads mode);

// Whether blocks read consecutive elements of guarded files in place now.
bool file_reads_in_place();

// Files smaller than this are not measured (their reads cost little either way).
constexpr intptr_t kFileReadsMeasureMin = intptr_t(64) << 20;

// Auto: measures the two ways on `file` (its data's first 8 MiB, a few ms) unless
// a measurement was made already or the file is smaller than kFileReadsMeasureMin.
// Main thread.
void measure_file_reads(const MappedFile& file);

// The measurement, for reports: seconds per 8 MiB in place (mapping each page)
// and with pread() (copying into a cache-sized buffer); both 0 when none was made.
struct FileReadsMeasurement {
  double in_place_seconds = 0;
  double copied_seconds = 0;  // with pread()
};
FileReadsMeasurement file_reads_measurement();

// Tests: forgets the measurement, so the next large file is measured again.
void forget_file_reads_measurement();

}  // namespace engine
}  // namespace gufunc
