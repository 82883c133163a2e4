// A file written by streaming (materialize(x, file =)): created under a temporary
// name beside its destination, its space allocated at once (a full disk fails
// before any work), filled with pwrite() piece by piece from memory the caller
// reuses, and given the destination's name only when complete, in one rename.
// Written pages live in the kernel's page cache, not in the process.
#pragma once

#include <cstdint>
#include <string>

namespace gufunc {
namespace engine {

class OutputFile {
 public:
  // A new file for `path`: `header`, then room for `bytes` bytes of data. Throws
  // gufunc_file_error naming `path` (directory not writable, no space left).
  OutputFile(const std::string& path, const std::string& header, intptr_t bytes);
  ~OutputFile();  // a file not committed is removed
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  // Writes `bytes` bytes at byte `at` of the data (after the header).
  void write(intptr_t at, const char* data, size_t bytes);
  // Flushes the file to disk and gives it the destination's name (an existing file
  // there is replaced only now).
  void commit();

 private:
  std::string path_, temp_path_;  // temp_path_ empty once committed
  intptr_t header_bytes_ = 0;
  int fd_ = -1;
};

}  // namespace engine
}  // namespace gufunc
