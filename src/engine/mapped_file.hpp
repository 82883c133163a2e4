// Files as bases of input views (cphVB's "a base may be a file"): a file is mapped
// into the address space read-only, and input views point into it like into any
// other memory, so every part of the engine can read it. Consecutive elements are
// read through the mapping where a cut file is caught (mapped_guard.hpp) and
// mapping pages costs less than copying them (file_read_mode.hpp); other views, and
// those where it costs more, with read_file() (pread) into block scratch
// (file_reads.hpp).
//
// Resident memory stays bounded by what the current blocks touch: the evaluation
// calls release_mapped_pages() between pieces of rounds of blocks, which drops
// every mapped page from the process (the data stay in the kernel's page cache).
// Address space is reserved for the whole file. Written files: output_file.hpp.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace gufunc {
namespace engine {

struct Node;

class MappedFile {
 public:
  // Maps `path` read-only. Its data are the `bytes` bytes from byte `offset`, which
  // the file must hold (else gufunc_file_error naming the sizes).
  static std::shared_ptr<MappedFile> open(const std::string& path, intptr_t offset, intptr_t bytes);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const char* data() const { return base_ + offset_; }
  const char* start() const { return base_; }  // the file's first byte, mapped
  int descriptor() const { return fd_; }
  intptr_t bytes() const { return bytes_; }
  intptr_t offset() const { return offset_; }  // of the data, in bytes from the file's start
  const std::string& path() const { return path_; }
  // Whether [p, p + n) lies in this file's data.
  bool holds(const void* p) const;

  // Throws gufunc_file_changed_error when the file at path() is no longer the one
  // mapped (another size, modification time or inode): its values may have changed.
  void check_unchanged() const;
  // Drops the pages the process has mapped (they stay in the page cache).
  void release_pages() const;
  // Whether kernels may read its mapping directly: a read past a cut end is caught
  // (mapped_guard.hpp).
  bool guarded() const { return guard_slot_ >= 0; }

 private:
  MappedFile() = default;
  std::string path_;
  char* base_ = nullptr;  // the mapping, from the file's first byte
  intptr_t mapped_ = 0, offset_ = 0, bytes_ = 0;
  int fd_ = -1;
  int guard_slot_ = -1;
  int64_t size_ = 0, mtime_ns_ = 0, inode_ = 0;  // the file as mapped
};

// Reads `bytes` bytes from byte `offset` of open file `fd` into `out` (pread, from
// the page cache when the file is there). A read cut short (the file shrank under
// the evaluation) throws gufunc_file_changed_error; any thread.
void read_file(int fd, intptr_t offset, size_t bytes, char* out);
// Throws the gufunc_file_changed_error of a read cut short.
[[noreturn]] void file_cut_short();
// Bytes of files element-wise kernels have read in place, through the mapping (any
// thread). With the bytes read with pread() (the process's read count, /proc's
// rchar) they tell benchmarks what an evaluation read.
void note_mapped_read(size_t bytes);
uint64_t mapped_bytes_read();
// As read_file(), but a read that meets the end of the file stops there: returns the
// bytes read.
size_t read_file_upto(int fd, intptr_t offset, size_t bytes, char* out);
// Changes whenever a file is mapped or unmapped: what was read from a file under a
// mapping's address is stale once this changes (file_reads.cpp).
uint64_t mapping_epoch();

// Every mapped file alive now: release_pages() on each (cheap when there is none).
void release_mapped_pages();
// Whether some file is mapped now.
bool any_mapped_file();
// The mapped file whose data hold `p`, or nullptr.
const MappedFile* mapped_file_holding(const void* p);
// check_unchanged() of every mapped file the graph of `root` reads (main thread,
// before an evaluation: a file changed underneath would give other values).
void check_mapped_inputs(const Node& root);

}  // namespace engine
}  // namespace gufunc
