// Step 1's parts on all threads, handed on in part order; see parts_walk.hpp.
#include "pipeline/retrograde/parts_walk.hpp"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <exception>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

namespace zermelo::retro {
namespace {

constexpr std::size_t kChunkKeys = 1u << 14;
constexpr std::size_t kChunksAPart = 8;
constexpr std::uint64_t kPartsAThread = 2;

using Chunk = std::vector<StateKey>;

struct Stopped {};  // a thread's way out once another has failed

// Workers claim parts in order and fill each part's queue of chunks; the caller's thread empties
// the queue of the first part not yet handed on (the head), then moves on to the next part.
// Deadlock-free: the head is always claimed or claimable, and its worker waits only for the
// caller, who waits only for the head.
class OrderedParts {
 public:
  OrderedParts(const Game& game, const std::string& tier, std::uint64_t first, std::uint64_t end,
               unsigned threads)
      : game_(game), tier_(tier), end_(end), head_(first), next_(first), threads_(threads) {}

  void run(const EmitKey& emit) {
    std::vector<std::thread> workers;
    for (unsigned t = 0; t < threads_; ++t) workers.emplace_back([this] { work(); });
    try {
      hand_on(emit);
    } catch (...) {
      stop(std::current_exception());
    }
    for (std::thread& w : workers) w.join();
    if (error_) std::rethrow_exception(error_);
  }

 private:
  struct Part {
    std::deque<Chunk> chunks;
    bool done = false;
  };

  void work() {
    try {
      for (std::uint64_t p; claim(p);) walk(p);
    } catch (const Stopped&) {
    } catch (...) {
      stop(std::current_exception());
    }
  }

  // The next part in order, once it is within the window after the head; false when none is left.
  bool claim(std::uint64_t& p) {
    std::unique_lock<std::mutex> lock(m_);
    changed_.wait(lock, [&] {
      return stopped_ || next_ == end_ || next_ < head_ + kPartsAThread * threads_;
    });
    if (stopped_ || next_ == end_) return false;
    p = next_++;
    parts_[p];
    return true;
  }

  void walk(std::uint64_t p) {
    Chunk chunk = take_spare();
    game_.enumerate_part(tier_, p, [&](StateKey k) {
      chunk.push_back(k);
      if (chunk.size() == kChunkKeys) deliver(p, chunk, false);
    });
    deliver(p, chunk, true);
  }

  // Queues `chunk` on part p, waiting while its queue is full; then `chunk` is a spare one (or,
  // after the part's last, given back).
  void deliver(std::uint64_t p, Chunk& chunk, bool last) {
    {
      std::unique_lock<std::mutex> lock(m_);
      Part& part = parts_.at(p);  // a std::map: stays put while other parts come and go
      changed_.wait(lock, [&] { return stopped_ || part.chunks.size() < kChunksAPart; });
      if (stopped_) throw Stopped{};
      if (!chunk.empty()) part.chunks.push_back(std::move(chunk));
      part.done = last;
      if (!last)
        chunk = spare();
      else if (chunk.capacity() > 0)
        spares_.push_back(std::move(chunk));
    }
    changed_.notify_all();
  }

  Chunk take_spare() {
    const std::lock_guard<std::mutex> hold(m_);
    return spare();
  }

  // A chunk the caller has handed on, or a new one (under the lock). Reused because a new 128 KiB
  // buffer is mapped afresh by malloc, and its page faults cost more than the copy of the keys.
  Chunk spare() {
    Chunk c;
    if (spares_.empty()) {
      c.reserve(kChunkKeys);
    } else {
      c = std::move(spares_.back());
      spares_.pop_back();
    }
    return c;
  }

  void hand_on(const EmitKey& emit) {
    for (; head_ < end_; next_part()) {
      Chunk chunk;
      while (take(chunk))
        for (StateKey k : chunk) emit(k);
    }
  }

  // The head's next chunk; false once the head is walked and handed on whole.
  bool take(Chunk& out) {
    {
      std::unique_lock<std::mutex> lock(m_);
      changed_.wait(lock, [&] {
        const auto it = parts_.find(head_);
        return stopped_ || (it != parts_.end() && (!it->second.chunks.empty() || it->second.done));
      });
      if (stopped_) throw Stopped{};
      Part& part = parts_.at(head_);
      if (out.capacity() > 0) out.clear(), spares_.push_back(std::move(out));
      if (part.chunks.empty()) return false;
      out = std::move(part.chunks.front());
      part.chunks.pop_front();
    }
    changed_.notify_all();
    return true;
  }

  void next_part() {
    {
      const std::lock_guard<std::mutex> hold(m_);
      parts_.erase(head_++);
    }
    changed_.notify_all();
  }

  // The first error wins; every thread waiting wakes up and leaves.
  void stop(std::exception_ptr e) {
    {
      const std::lock_guard<std::mutex> hold(m_);
      if (!error_) error_ = e;
      stopped_ = true;
    }
    changed_.notify_all();
  }

  const Game& game_;
  const std::string& tier_;
  const std::uint64_t end_;
  std::uint64_t head_, next_;
  const unsigned threads_;
  std::mutex m_;
  std::condition_variable changed_;
  std::map<std::uint64_t, Part> parts_;
  std::vector<Chunk> spares_;
  bool stopped_ = false;
  std::exception_ptr error_;
};

}  // namespace

StateWalk parts_walk(const Game& game, const std::string& tier, std::uint64_t first,
                     std::uint64_t end, unsigned threads) {
  const unsigned workers =
      static_cast<unsigned>(std::min<std::uint64_t>(threads, end > first ? end - first : 0));
  return [&game, tier, first, end, workers](const EmitKey& emit) {
    if (workers <= 1) {
      for (std::uint64_t p = first; p < end; ++p) game.enumerate_part(tier, p, emit);
      return;
    }
    OrderedParts(game, tier, first, end, workers).run(emit);
  };
}

}  // namespace zermelo::retro
