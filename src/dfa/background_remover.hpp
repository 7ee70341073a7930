// Removes directories on a worker thread, for the external solver's sets (ext_solve_by_reach.cpp).
//
// A set is a directory of a file a layer, and on a disk shared with other jobs each unlink took
// 1.3 ms (strace of a 4x5 solve: 17,607 of them, a tenth of its wall time). With a second thread
// a directory is renamed out of the way at once (one rename, tens of microseconds: its name is
// free again for the next set) and its files are unlinked in the background. Without one
// (`background` false) it is removed at once, as before.
#pragma once
#include <atomic>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <mutex>
#include <string>
#include <thread>

namespace zermelo::dfa {

class BackgroundRemover {
 public:
  // Renamed directories go into trash_dir (created), which must be on the same file system.
  BackgroundRemover(std::string trash_dir, bool background)
      : trash_(std::move(trash_dir)), background_(background) {}
  ~BackgroundRemover() { drain(); }
  BackgroundRemover(const BackgroundRemover&) = delete;
  BackgroundRemover& operator=(const BackgroundRemover&) = delete;

  // Removes dir (if there is one); safe from several threads.
  void remove(const std::string& dir) {
    std::error_code ec;
    if (!background_) {
      std::filesystem::remove_all(dir, ec);
      return;
    }
    std::filesystem::create_directories(trash_, ec);
    const std::string moved = trash_ + "/" + std::to_string(next_.fetch_add(1));
    std::filesystem::rename(dir, moved, ec);
    if (ec) {  // not there (nothing to do), or not movable: removed here
      std::filesystem::remove_all(dir, ec);
      return;
    }
    std::lock_guard lock(mu_);
    queue_.push_back(moved);
    if (!worker_.joinable()) worker_ = std::thread([this] { work(); });
    cv_.notify_all();
  }

  // Waits until everything handed over is removed, and stops the worker.
  void drain() {
    {
      std::lock_guard lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    if (worker_.joinable()) worker_.join();
    std::lock_guard lock(mu_);
    stop_ = false;
  }

 private:
  void work() {
    std::unique_lock lock(mu_);
    for (;;) {
      cv_.wait(lock, [&] { return stop_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopped, nothing left
      const std::string dir = std::move(queue_.front());
      queue_.pop_front();
      lock.unlock();
      std::error_code ec;
      std::filesystem::remove_all(dir, ec);
      lock.lock();
    }
  }

  const std::string trash_;
  const bool background_;
  std::atomic<std::uint64_t> next_{0};
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::string> queue_;
  bool stop_ = false;
  std::thread worker_;
};

}  // namespace zermelo::dfa
