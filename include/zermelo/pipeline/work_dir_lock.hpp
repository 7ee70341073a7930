// One writer at a time in a work dir. Two solves into one directory would each take the other's
// half-written runs for their own; so a writer holds an exclusive flock on the directory for as
// long as it runs (the kernel drops it when the process ends, however it ends), and a reader a
// shared one. A second writer, or a reader while a writer runs, gets a clear error naming the
// holder's pid and command instead of waiting or interfering.
#pragma once
#include <string>

namespace zermelo {

class WorkDirLock {
 public:
  enum class Mode { kRead, kWrite };
  // kWrite creates the directory if needed; kRead of a missing directory locks nothing (the
  // reader's own error says what is missing). `command` is shown to whoever is refused.
  WorkDirLock(const std::string& dir, Mode mode, const std::string& command);
  ~WorkDirLock();
  WorkDirLock(const WorkDirLock&) = delete;
  WorkDirLock& operator=(const WorkDirLock&) = delete;

 private:
  std::string holder_file_;  // written by a writer: its pid and command
  int fd_ = -1;
};

}  // namespace zermelo
