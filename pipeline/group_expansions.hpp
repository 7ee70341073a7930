// One byte a group of states (Game::group_slots) for the breadth-first search over all states:
// which of the group's moves some state of it has been expanded by already.
//
// Why: in games whose states of a group share the group's moves, each state lacking at most one
// (Game::groups_share_moves; Ostle's forbidden move), the first state of a group reached
// takes all moves but one, a second one takes the last, and every later one reaches only states
// found before. Ostle has about five states a position, reached at different plies, so without
// this record four of five expansions recompute children's canonical keys (most of the search's
// time) only for the filter to drop them. Within a shard the states of a group are expanded in
// order, by one thread; a group that a shard boundary cuts is expanded by two shards at once, so
// the byte is read and written atomically (relaxed): a write lost to the other shard's leaves the
// group marked less than it took, never more.
//
// The record is an optimisation only: a group marked less than it has taken is expanded again,
// which is what a resumed search does (the record is not saved), and gives the same plies.
#pragma once
#include <atomic>
#include <cstdint>

#include "zermelo/game.hpp"
#include "zermelo/util/huge_pages.hpp"

namespace zermelo::bfs {

class GroupExpansions {
 public:
  explicit GroupExpansions(Game::SlotRange groups) : range_(groups), taken_(groups.size(), kNone) {}

  static std::uint64_t bytes_for(Game::SlotRange groups) { return huge_page_bytes(groups.size()); }
  std::uint64_t bytes() const { return huge_page_bytes(taken_.size()); }

  // The moves of group slot g whose children were keyed before (bit i: move i).
  std::uint64_t taken(std::uint64_t g) const {
    const std::uint8_t t = at(g).load(std::memory_order_relaxed);
    if (t == kNone) return 0;
    if (t == kAll) return ~std::uint64_t{0};
    return ~(std::uint64_t{1} << (t - 1));  // all but move t - 1
  }
  // A state of group g lacking move `lacked` (-1: none) was expanded, its moves' children keyed.
  void expanded(std::uint64_t g, int lacked) {
    std::atomic_ref<std::uint8_t> byte = at(g);
    const std::uint8_t t = byte.load(std::memory_order_relaxed);
    if (lacked < 0 || (t != kNone && t != lacked + 1))
      byte.store(kAll, std::memory_order_relaxed);  // two states lacking different moves: all
    else if (t == kNone)
      byte.store(static_cast<std::uint8_t>(lacked + 1), std::memory_order_relaxed);
  }
  bool covers(std::uint64_t g) const { return g >= range_.first && g < range_.end; }

 private:
  static constexpr std::uint8_t kNone = 0, kAll = 0xFF;  // else 1 + the one move not taken (< 64)
  std::atomic_ref<std::uint8_t> at(std::uint64_t g) const {
    return std::atomic_ref<std::uint8_t>(taken_[g - range_.first]);
  }

  Game::SlotRange range_;
  mutable HugeVector<std::uint8_t> taken_;  // through atomic_ref, also in const look-ups
};

}  // namespace zermelo::bfs
