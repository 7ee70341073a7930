// flock on the work dir (work_dir_lock.hpp).
#include "zermelo/pipeline/work_dir_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace zermelo {
namespace fs = std::filesystem;

namespace {

constexpr const char* kHolderFile = "/.zermelo-writer";

std::string holder_of(const std::string& dir) {
  std::ifstream in(dir + kHolderFile);
  std::stringstream s;
  s << in.rdbuf();
  std::string text = s.str();
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text.empty() ? "another zermelo process (a reader)" : text;
}

}  // namespace

WorkDirLock::WorkDirLock(const std::string& dir, Mode mode, const std::string& command) {
  if (mode == Mode::kRead && !fs::is_directory(dir)) return;
  fs::create_directories(dir);
  fd_ = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd_ < 0)
    throw std::runtime_error(dir + ": cannot open the work dir: " + std::strerror(errno));
  const int how = mode == Mode::kWrite ? LOCK_EX : LOCK_SH;
  if (::flock(fd_, how | LOCK_NB) != 0) {
    const int err = errno;
    ::close(fd_);
    fd_ = -1;
    if (err != EWOULDBLOCK) throw std::runtime_error(dir + ": cannot lock: " + std::strerror(err));
    throw std::runtime_error(dir + " is in use by " + holder_of(dir) +
                             (mode == Mode::kWrite
                                  ? "; wait for it to end or use another --work-dir"
                                  : ", which is writing it; wait for it to end"));
  }
  if (mode == Mode::kRead) return;
  holder_file_ = dir + kHolderFile;
  std::ofstream(holder_file_, std::ios::trunc) << "pid " << ::getpid() << " (" << command << ")\n";
}

WorkDirLock::~WorkDirLock() {
  if (!holder_file_.empty()) ::unlink(holder_file_.c_str());
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace zermelo
