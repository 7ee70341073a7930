#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <stdexcept>

#include "zermelo/sort/stxxl_sorter.hpp"

namespace zermelo {

void configure_stxxl(const std::string& work_dir, std::uint64_t bytes) {
  static std::mutex m;
  static std::string configured;
  std::lock_guard<std::mutex> lock(m);
  std::string dir = std::filesystem::absolute(work_dir).string();
  if (!configured.empty()) {
    if (configured != dir)
      throw std::logic_error("STXXL is already configured for " + configured + ", not " + dir);
    return;
  }
  std::filesystem::create_directories(dir);
  // The logger reads these when the config singleton is first made: keep stdout clean for --json.
  setenv("STXXLLOGFILE", (dir + "/stxxl.log").c_str(), 1);
  setenv("STXXLERRLOGFILE", (dir + "/stxxl.errlog").c_str(), 1);
  stxxl::disk_config disk(dir + "/stxxl.disk", bytes, "syscall unlink");
  disk.autogrow = true;
  disk.delete_on_exit = true;
  disk.direct = stxxl::disk_config::DIRECT_TRY;
  stxxl::config::get_instance()->add_disk(disk);
  configured = dir;
}

}  // namespace zermelo
