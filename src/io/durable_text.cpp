// Reading and durably replacing a small text file (include/zermelo/io/durable_text.hpp).
#include "zermelo/io/durable_text.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "zermelo/io/uring_file.hpp"

namespace zermelo {
namespace {

// Written and fsync'd before the rename, so that a crash never leaves an empty file behind.
void write_and_sync(const std::string& path, const std::string& text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error(path + ": cannot write: " + std::strerror(errno));
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = n < 0 ? errno : ENOSPC;
      ::close(fd);
      ::unlink(path.c_str());
      throw std::runtime_error(path + ": cannot write: " + std::strerror(err));
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0)
    throw std::runtime_error(path + ": cannot write: " + std::strerror(errno));
}

}  // namespace

void replace_text_durably(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  write_and_sync(tmp, text);
  std::filesystem::rename(tmp, path);
  sync_directory_of(path);
}

std::string read_text_file(const std::string& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot read " + what);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace zermelo
