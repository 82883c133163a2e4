// Memory-mapped files (see mapped_file.hpp). POSIX mmap; on Windows opening one
// raises gufunc_file_error (not supported there yet).
#include "engine/mapped_file.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <set>
#include <vector>

#include "abi/error.hpp"
#include "engine/file_caches.hpp"
#include "engine/graph.hpp"
#include "engine/mapped_guard.hpp"

#ifndef _WIN32
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

namespace gufunc {
namespace engine {

namespace {

std::mutex registry_mutex;
std::set<const MappedFile*>& registry() {
  static std::set<const MappedFile*> files;
  return files;
}
std::atomic<int> mapped_count{0};
std::atomic<uint64_t> epoch{1};
std::atomic<uint64_t> bytes_read{0};

[[noreturn]] void file_error(const std::string& path, const std::string& what) {
  throw Error("gufunc_file_error", "file '" + path + "': " + what);
}

std::string system_message() { return std::strerror(errno); }

}  // namespace

uint64_t mapping_epoch() { return epoch.load(std::memory_order_acquire); }

void note_mapped_read(size_t bytes) { bytes_read.fetch_add(bytes, std::memory_order_relaxed); }
uint64_t mapped_bytes_read() { return bytes_read.load(std::memory_order_relaxed); }

void file_cut_short() {
  throw Error("gufunc_file_changed_error",
              "a file read by the evaluation was cut short while it ran");
}

bool any_mapped_file() { return mapped_count.load(std::memory_order_relaxed) > 0; }

void release_mapped_pages() {
  if (!any_mapped_file()) return;
  std::lock_guard<std::mutex> lock(registry_mutex);
  for (const MappedFile* f : registry()) f->release_pages();
}

const MappedFile* mapped_file_holding(const void* p) {
  if (!any_mapped_file()) return nullptr;
  std::lock_guard<std::mutex> lock(registry_mutex);
  for (const MappedFile* f : registry()) {
    if (f->holds(p)) return f;
  }
  return nullptr;
}

void check_mapped_inputs(const Node& root) {
  if (!any_mapped_file()) return;
  std::vector<const MappedFile*> files;
  {
    std::lock_guard<std::mutex> lock(registry_mutex);
    files.assign(registry().begin(), registry().end());
  }
  std::vector<const MappedFile*> read;
  auto visit = [&](const Node& n) {
    if (n.kind != NodeKind::Input || n.view.data == nullptr) return;
    for (const MappedFile* f : files) {
      if (f->holds(n.view.data) && std::find(read.begin(), read.end(), f) == read.end()) {
        read.push_back(f);
      }
    }
  };
  if (root.children.empty()) {
    visit(root);
  } else {
    for (const NodePtr& c : root.children) for_each_node(c, visit);
  }
  for (const MappedFile* f : read) f->check_unchanged();
}

bool MappedFile::holds(const void* p) const {
  const char* c = static_cast<const char*>(p);
  return c >= base_ && c <= base_ + mapped_;  // an empty view may point at the end
}

#ifdef _WIN32

std::shared_ptr<MappedFile> MappedFile::open(const std::string& path, intptr_t, intptr_t) {
  file_error(path, "file-backed arrays are not supported on Windows yet");
}
MappedFile::~MappedFile() {}
void MappedFile::check_unchanged() const {}
void MappedFile::release_pages() const {}
void read_file(int, intptr_t, size_t, char*) {
  throw Error("gufunc_file_error", "file-backed arrays are not supported on Windows yet");
}
size_t read_file_upto(int, intptr_t, size_t, char*) {
  throw Error("gufunc_file_error", "file-backed arrays are not supported on Windows yet");
}

#else

namespace {

int64_t mtime_ns(const struct stat& st) {
  return static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
}

// Maps the whole of open file `fd` (`size` bytes, > 0), read-only.
char* map_fd(int fd, int64_t size, const std::string& path) {
  void* p = mmap(nullptr, static_cast<size_t>(size), PROT_READ, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED) file_error(path, "cannot map it into memory: " + system_message());
  // Blocks read it front to back: let the kernel read ahead far.
  madvise(p, static_cast<size_t>(size), MADV_SEQUENTIAL);
#ifdef MADV_HUGEPAGE
  // Where the page cache holds the file in 2 MiB folios, each is mapped whole at
  // its first read instead of 4 KiB at a time.
  madvise(p, static_cast<size_t>(size), MADV_HUGEPAGE);
#endif
  return static_cast<char*>(p);
}

}  // namespace

std::shared_ptr<MappedFile> MappedFile::open(const std::string& path, intptr_t offset,
                                             intptr_t bytes) {
  std::shared_ptr<MappedFile> f(new MappedFile());
  f->path_ = path;
  // O_NONBLOCK: opening a named pipe returns at once (and is refused below as not
  // a regular file) instead of waiting for a writer; it changes nothing for files.
  f->fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (f->fd_ < 0) file_error(path, "cannot open it: " + system_message());
  struct stat st;
  if (fstat(f->fd_, &st) != 0) file_error(path, "cannot read its size: " + system_message());
  if (!S_ISREG(st.st_mode)) file_error(path, "not a regular file");
  f->size_ = st.st_size;
  f->mtime_ns_ = mtime_ns(st);
  f->inode_ = static_cast<int64_t>(st.st_ino);
  if (offset < 0 || bytes < 0 || offset > f->size_ || bytes > f->size_ - offset) {
    file_error(path, "it has " + std::to_string(f->size_) + " bytes, but its data need " +
                         std::to_string(bytes) + " bytes from byte " + std::to_string(offset) +
                         " (truncated?)");
  }
  f->offset_ = offset;
  f->bytes_ = bytes;
  f->mapped_ = static_cast<intptr_t>(f->size_);
  if (f->mapped_ > 0) {
    f->base_ = map_fd(f->fd_, f->size_, path);
    if (install_mapped_guard()) {
      f->guard_slot_ = guard_mapping(f->base_, static_cast<size_t>(f->mapped_));
    }
  }
  // Threads pread() neighbouring blocks: ask for the long read-ahead of a stream.
  posix_fadvise(f->fd_, 0, 0, POSIX_FADV_SEQUENTIAL);
  std::lock_guard<std::mutex> lock(registry_mutex);
  registry().insert(f.get());
  mapped_count.fetch_add(1);
  epoch.fetch_add(1, std::memory_order_acq_rel);
  return f;
}

MappedFile::~MappedFile() {
  {
    std::lock_guard<std::mutex> lock(registry_mutex);
    if (registry().erase(this) > 0) mapped_count.fetch_sub(1);
  }
  epoch.fetch_add(1, std::memory_order_acq_rel);
  if (!any_mapped_file()) release_file_caches();  // no file left to read
  unguard_mapping(guard_slot_);
  if (base_ != nullptr) munmap(base_, static_cast<size_t>(mapped_));
  if (fd_ >= 0) ::close(fd_);
}

void MappedFile::check_unchanged() const {
  struct stat st;
  if (stat(path_.c_str(), &st) != 0) {
    throw Error("gufunc_file_changed_error",
                "file '" + path_ + "' is gone since lazy_file() mapped it: " + system_message());
  }
  if (st.st_size != size_ || mtime_ns(st) != mtime_ns_ ||
      static_cast<int64_t>(st.st_ino) != inode_) {
    throw Error("gufunc_file_changed_error",
                "file '" + path_ + "' changed since lazy_file() mapped it (" +
                    (st.st_size != size_ ? "its size went from " + std::to_string(size_) + " to " +
                                               std::to_string(st.st_size) + " bytes"
                                         : std::string("it was modified or replaced")) +
                    "): call lazy_file() again to read it as it is now");
  }
}

size_t read_file_upto(int fd, intptr_t offset, size_t bytes, char* out) {
  size_t done = 0;
  while (done < bytes) {
    const ssize_t got = pread(fd, out + done, bytes - done, static_cast<off_t>(offset) + done);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw Error("gufunc_file_error", "cannot read a mapped file: " + system_message());
    if (got == 0) break;
    done += static_cast<size_t>(got);
  }
  return done;
}

void read_file(int fd, intptr_t offset, size_t bytes, char* out) {
  if (read_file_upto(fd, offset, bytes, out) < bytes) file_cut_short();
}

void MappedFile::release_pages() const {
  if (base_ != nullptr) madvise(base_, static_cast<size_t>(mapped_), MADV_DONTNEED);
}

#endif

}  // namespace engine
}  // namespace gufunc
