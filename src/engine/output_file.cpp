// Files written by streaming (see output_file.hpp). POSIX; on Windows creating one
// raises gufunc_file_error (not supported there yet).
#include "engine/output_file.hpp"

#include <atomic>
#include <cerrno>
#include <cstring>

#include "abi/error.hpp"

#ifndef _WIN32
#include <fcntl.h>
#include <unistd.h>
#endif

namespace gufunc {
namespace engine {

namespace {

[[noreturn]] void file_error(const std::string& path, const std::string& what) {
  throw Error("gufunc_file_error", "file '" + path + "': " + what);
}

}  // namespace

#ifdef _WIN32

OutputFile::OutputFile(const std::string& path, const std::string&, intptr_t) {
  file_error(path, "writing arrays to files is not supported on Windows yet");
}
OutputFile::~OutputFile() {}
void OutputFile::write(intptr_t, const char*, size_t) {}
void OutputFile::commit() {}

#else

OutputFile::OutputFile(const std::string& path, const std::string& header, intptr_t bytes)
    : path_(path), header_bytes_(static_cast<intptr_t>(header.size())) {
  static std::atomic<unsigned> serial{0};
  const size_t slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  const std::string temp = dir + "." + name + ".part-" + std::to_string(getpid()) + "-" +
                           std::to_string(serial.fetch_add(1));
  fd_ = ::open(temp.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd_ < 0)
    file_error(path, std::string("cannot create a file in its directory: ") + std::strerror(errno));
  temp_path_ = temp;  // from now on the destructor removes it
  const off_t total = static_cast<off_t>(header_bytes_ + bytes);
  const int err = total > 0 ? posix_fallocate(fd_, 0, total) : 0;
  if (err == ENOSPC) {
    file_error(path, "no space left on the device for its " + std::to_string(total) + " bytes");
  } else if (err != 0 && err != EOPNOTSUPP && err != EINVAL) {
    file_error(path,
               "cannot allocate its " + std::to_string(total) + " bytes: " + std::strerror(err));
  } else if (err != 0 && ftruncate(fd_, total) != 0) {  // no fallocate on this file system
    file_error(path, std::string("cannot size it: ") + std::strerror(errno));
  }
  write(-header_bytes_, header.data(), header.size());
}

OutputFile::~OutputFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!temp_path_.empty()) unlink(temp_path_.c_str());
}

void OutputFile::write(intptr_t at, const char* data, size_t bytes) {
  off_t offset = static_cast<off_t>(header_bytes_ + at);
  while (bytes > 0) {
    const ssize_t put = pwrite(fd_, data, bytes, offset);
    if (put < 0 && errno == EINTR) continue;
    if (put < 0 && errno == ENOSPC) file_error(path_, "no space left on the device");
    if (put <= 0) file_error(path_, std::string("cannot write it: ") + std::strerror(errno));
    bytes -= static_cast<size_t>(put);
    data += put;
    offset += put;
  }
}

void OutputFile::commit() {
  if (temp_path_.empty()) return;
  if (fsync(fd_) != 0) file_error(path_, std::string("cannot write it: ") + std::strerror(errno));
  if (rename(temp_path_.c_str(), path_.c_str()) != 0) {
    file_error(path_, std::string("cannot give it its name: ") + std::strerror(errno));
  }
  temp_path_.clear();
}

#endif

}  // namespace engine
}  // namespace gufunc
