// A heartbeat for one long solve: calls back at a fixed interval while a solve is running.
//
// Why: the prover reports its progress between solves, and near the root of a proof from early in
// the game one null-window solve can take an hour (Takizawa's line from move 28: the first solve,
// 36 empties, 3,895 s). Without a beat the run looks hung for that hour.
#pragma once
#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace zermelo::othello {

class SolveHeartbeat {
 public:
  // `beat(empties, seconds)` is called on the heartbeat's own thread every `every` while a solve
  // marked by begin() and end() has run for at least `every`.
  SolveHeartbeat(std::chrono::milliseconds every, std::function<void(int, double)> beat)
      : every_(every), beat_(std::move(beat)), thread_([this] { run(); }) {}
  ~SolveHeartbeat() {
    {
      std::lock_guard lock(mutex_);
      quit_ = true;
    }
    wake_.notify_one();
    thread_.join();
  }
  SolveHeartbeat(const SolveHeartbeat&) = delete;
  SolveHeartbeat& operator=(const SolveHeartbeat&) = delete;

  void begin(int empties) {
    std::lock_guard lock(mutex_);
    empties_ = empties;
    since_ = std::chrono::steady_clock::now();
  }
  void end() {
    std::lock_guard lock(mutex_);
    empties_ = -1;
  }

 private:
  void run() {
    std::unique_lock lock(mutex_);
    while (!wake_.wait_for(lock, every_, [this] { return quit_; })) {
      if (empties_ < 0) continue;
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - since_).count();
      if (seconds * 1000 >= static_cast<double>(every_.count())) beat_(empties_, seconds);
    }
  }

  const std::chrono::milliseconds every_;
  const std::function<void(int, double)> beat_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool quit_ = false;
  int empties_ = -1;  // the running solve's, or -1 for none
  std::chrono::steady_clock::time_point since_;
  std::thread thread_;  // last: started once the members above exist
};

}  // namespace zermelo::othello
