// A work dir that lasts as long as one command: for the aliases (`onitama query`, `ostle bfs`)
// that run a generic command on a job of their own, which they never kept on disk.
#pragma once
#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace zermelo::cli {

struct ScratchWorkDir {
  explicit ScratchWorkDir(const std::string& what)
      : path((std::filesystem::temp_directory_path() /
              ("zermelo-" + what + "-" + std::to_string(::getpid())))
                 .string()) {}
  ~ScratchWorkDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  ScratchWorkDir(const ScratchWorkDir&) = delete;
  ScratchWorkDir& operator=(const ScratchWorkDir&) = delete;
  std::string path;
};

}  // namespace zermelo::cli
