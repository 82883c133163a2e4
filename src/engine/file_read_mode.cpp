// Reading files in place or with pread() (see file_read_mode.hpp).
#include "engine/file_read_mode.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <vector>

#include "engine/block_size.hpp"
#include "engine/mapped_file.hpp"

namespace gufunc {
namespace engine {

namespace {

std::atomic<int> mode{static_cast<int>(FileReads::Auto)};
// Auto reads in place unless a measurement found pread() faster (none is made on
// small files).
std::atomic<bool> measured{false};
std::atomic<double> in_place_seconds{0}, copied_seconds{0};

// Bytes measured, and the buffer pread() fills: a block's read of one operand.
constexpr size_t kMeasuredBytes = size_t(8) << 20;
constexpr size_t kBufferBytes = kFileBlockElements * sizeof(double);

volatile uint64_t sink;

// Reads every word of [p, p + n) as a kernel would (n a multiple of 8).
uint64_t read_words(const char* p, size_t n) {
  uint64_t acc = 0;
  for (size_t i = 0; i < n; i += 8) {
    uint64_t w;
    std::memcpy(&w, p + i, 8);
    acc ^= w;
  }
  return acc;
}

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Reads [0, bytes) of the file's data with pread() into `buffer`, a piece at a time.
double time_copied(const MappedFile& file, size_t bytes, std::vector<char>* buffer) {
  const auto t0 = std::chrono::steady_clock::now();
  uint64_t acc = 0;
  for (size_t at = 0; at < bytes; at += kBufferBytes) {
    const size_t n = std::min(kBufferBytes, bytes - at);
    const size_t got = read_file_upto(file.descriptor(), file.offset() + static_cast<intptr_t>(at),
                                      n, buffer->data());
    acc ^= read_words(buffer->data(), got / 8 * 8);
  }
  sink = acc;
  return seconds_since(t0);
}

// Reads the same bytes through the file's mapping, its pages released first (as
// between rounds of an evaluation), so that each page is mapped again.
double time_in_place(const MappedFile& file, size_t bytes) {
  file.release_pages();
  const auto t0 = std::chrono::steady_clock::now();
  sink = read_words(file.data(), bytes);
  const double s = seconds_since(t0);
  file.release_pages();
  return s;
}

}  // namespace

void set_file_reads(FileReads m) { mode.store(static_cast<int>(m), std::memory_order_relaxed); }

bool file_reads_in_place() {
  switch (static_cast<FileReads>(mode.load(std::memory_order_relaxed))) {
    case FileReads::Mapped:
      return true;
    case FileReads::Pread:
      return false;
    case FileReads::Auto:
      break;
  }
  return !measured.load(std::memory_order_acquire) ||
         in_place_seconds.load(std::memory_order_relaxed) <=
             copied_seconds.load(std::memory_order_relaxed);
}

void measure_file_reads(const MappedFile& file) {
  if (static_cast<FileReads>(mode.load()) != FileReads::Auto) return;
  if (measured.load() || !file.guarded() || file.bytes() < kFileReadsMeasureMin) {
    return;
  }
  const size_t bytes = std::min(kMeasuredBytes, static_cast<size_t>(file.bytes())) / 8 * 8;
  std::vector<char> buffer(kBufferBytes);
  // Twice each, alternating; the first read also brings a cold file's pages into
  // the page cache, so that both ways are timed on the same cache state.
  double copied = time_copied(file, bytes, &buffer);
  double in_place = time_in_place(file, bytes);
  copied = std::min(copied, time_copied(file, bytes, &buffer));
  in_place = std::min(in_place, time_in_place(file, bytes));
  in_place_seconds.store(in_place);
  copied_seconds.store(copied);
  measured.store(true, std::memory_order_release);
}

FileReadsMeasurement file_reads_measurement() {
  FileReadsMeasurement m;
  if (measured.load()) {
    m.in_place_seconds = in_place_seconds.load();
    m.copied_seconds = copied_seconds.load();
  }
  return m;
}

void forget_file_reads_measurement() { measured.store(false); }

}  // namespace engine
}  // namespace gufunc
