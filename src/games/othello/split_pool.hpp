// The endgame solver's threads: young-brothers-wait splitting of null-window nodes.
//
// Why a file of its own: splitting only at principal-variation nodes shared little of the work,
// which is nearly all in null-window subtrees, and cost 23 % more nodes on FFO #40-#49 (proofs
// against a stale alpha). Here any null-window node with enough empties whose first move has
// failed to refute offers its other moves to idle threads; each thread takes the next move, and
// the first one that refutes marks the split point cut, which aborts the others' searches below
// it (solver.cpp throws out of their subtrees). A thread waiting at its own split point for the
// others helps at split points below it (the "helpful master"), so it is busy while anyone works
// for it. This file holds the shared state only: the split points open to joiners, who waits, and
// the results; the searching is solver.cpp's.
#pragma once
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <vector>

#include "zermelo/games/othello/bitboard.hpp"

namespace zermelo::othello {

// A null-window node whose remaining moves are shared. It lives on its owner's stack; the owner
// does not return before every other thread has left it.
template <class Move>
struct SplitPoint {
  Bits p = 0, o = 0;
  int alpha = 0, n = 0;
  const Move* moves = nullptr;  // the moves to share, in their search order
  int count = 0;
  const SplitPoint* parent = nullptr;  // the split point the owner works for, or null
  std::atomic<int> next{0};            // the next move to take
  std::atomic<bool> cut{false};        // a move refuted: the other moves' values are not needed
  int workers = 0;                     // threads inside, the owner included (pool's lock)
  int best = -127, best_move = -1;     // the best value found (pool's lock)

  bool has_work() const {
    return !cut.load(std::memory_order_relaxed) && next.load(std::memory_order_relaxed) < count;
  }
  bool below(const SplitPoint* ancestor) const {
    for (const SplitPoint* s = this; s; s = s->parent)
      if (s == ancestor) return true;
    return false;
  }
  // True when this split point or one above it was cut: a search for it is wasted work.
  bool cut_here_or_above() const {
    for (const SplitPoint* s = this; s; s = s->parent)
      if (s->cut.load(std::memory_order_relaxed)) return true;
    return false;
  }
};

template <class Move>
class SplitPool {
 public:
  using Point = SplitPoint<Move>;

  // A split costs a lock and the loss of the sequential order's table hits: worth it only when a
  // thread is waiting.
  bool someone_idle() const { return idle_.load(std::memory_order_relaxed) > 0; }

  // The owner offers sp's moves (and works at sp itself).
  void open(Point& sp) {
    std::lock_guard<std::mutex> lock(mu_);
    sp.workers = 1;
    open_.push_back(&sp);
    cv_.notify_all();
  }

  // The owner has stopped taking sp's moves: no one joins any more.
  void close(Point& sp) {
    std::lock_guard<std::mutex> lock(mu_);
    open_.erase(std::remove(open_.begin(), open_.end(), &sp), open_.end());
  }

  // Waits for a split point to work at. A helper thread (mine == null) takes any until quit();
  // an owner waiting at `mine` takes only those below it, and gets null once it is alone there.
  Point* wait_for_work(const Point* mine) {
    std::unique_lock<std::mutex> lock(mu_);
    idle_.fetch_add(1, std::memory_order_relaxed);
    for (;;) {
      if (mine ? mine->workers == 1 : quit_) break;
      if (Point* sp = best_open(mine)) {
        ++sp->workers;
        idle_.fetch_sub(1, std::memory_order_relaxed);
        return sp;
      }
      cv_.wait(lock);
    }
    idle_.fetch_sub(1, std::memory_order_relaxed);
    return nullptr;
  }

  // A move's value at sp; a refutation cuts sp.
  void report(Point& sp, int value, int move) {
    std::lock_guard<std::mutex> lock(mu_);
    if (value > sp.best) {
      sp.best = value;
      sp.best_move = move;
    }
    if (value > sp.alpha) sp.cut.store(true, std::memory_order_relaxed);
  }

  // A thread other than the owner is done at sp.
  void leave(Point& sp) {
    std::lock_guard<std::mutex> lock(mu_);
    --sp.workers;
    cv_.notify_all();
  }

  // The helpers' wait_for_work returns null from now on.
  void quit() {
    std::lock_guard<std::mutex> lock(mu_);
    quit_ = true;
    cv_.notify_all();
  }

 private:
  // The open split point with the most empties (the largest subtrees) that `mine` may join.
  Point* best_open(const Point* mine) const {
    Point* best = nullptr;
    for (Point* sp : open_)
      if (sp != mine && sp->has_work() && (!mine || sp->below(mine)) && (!best || sp->n > best->n))
        best = sp;
    return best;
  }

  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<Point*> open_;
  std::atomic<int> idle_{0};
  bool quit_ = false;
};

}  // namespace zermelo::othello
