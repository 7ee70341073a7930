// A few bits a group of states (Game::group_slots) for the breadth-first search over all states:
// bit (g, h) says "some state of group g whose key hashes to h is not visited yet".
//
// Why: a breadth-first level of a large game sends most of its successor keys to states visited
// levels ago (Ostle: 18 moves a state, each state reached once), and without a filter every one
// of them would be sorted, spilled and merged only to be dropped. A group's states split over
// several bits (by a hash of the key, so any game's keys will do) make the filter sharper than
// the retrograde engine's one bit a group (pipeline/undecided_filter.hpp): an Ostle position has
// about five states, its forbidden moves, reached at different plies.
//
// The bits start from the unvisited run; each level's merge then shows it every key it decodes,
// in key order, kept (still unvisited) or visited, and blocks it copies without decoding. Only a
// group with a visited state can lose bits, so only those groups are followed: from a visited key,
// back through the span to the group's first key, and on to its last. When such a group closes,
// its bits become those of its kept states. A group that touches a copied block or the start of a
// span keeps its bits (some of its states were not seen): bits are only ever a superset of the
// truth, so the filter never drops a message to an unvisited state. (Following every key cost a
// large share of a merge whose successors reach few groups.)
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "zermelo/game.hpp"
#include "zermelo/util/huge_pages.hpp"

namespace zermelo::bfs {

class UnvisitedFilter {
 public:
  // The slots of every tier's groups (one numbering for all tiers, Game::group_slots); none if
  // some tier has no groups.
  static std::optional<Game::SlotRange> all_groups(const Game& game);
  // The slots of the groups of the keys of `run` (a shard's: the least and the greatest), within
  // `all`; none if the run is empty. One pass over the run.
  static std::optional<Game::SlotRange> groups_of_run(const Game& game, Game::SlotRange all,
                                                      const std::string& run);
  // The most bits a group (1, 2, 4 or 8) that fit in `budget` bytes; 0 if not even one does.
  static unsigned bits_that_fit(std::uint64_t groups, std::uint64_t budget);

  // Bits set for the states of `unvisited_run` (a sorted run of keys).
  UnvisitedFilter(const Game& game, Game::SlotRange groups, unsigned bits_per_group,
                  const std::string& unvisited_run);

  // False if no unvisited state of s's group has s's hash: s was visited, the message can go.
  bool may_be_unvisited(StateKey s) const {
    const std::uint64_t g = game_.group_slot(s) - range_.first;
    if (g >= groups_) return true;  // outside every tier's groups: let the merge decide
    const std::uint64_t bit = g * bits_ + bucket(s);
    return words_[bit >> 6] >> (bit & 63) & 1;
  }

  // The merge's report, in key order: key i of a span of decoded keys, found (visited now) or
  // not; a block copied untouched; the end.
  void decoded(const StateKey* span, std::size_t i, bool found) {
    if (open_ != kNone) {
      if (game_.group_slot(span[i]) - range_.first == open_) return state(span[i], !found);
      open_ = kNone;
    }
    if (found) open_group_at(span, i);
  }
  void copied_block(StateKey first_key);
  void end_of_run();

  std::uint64_t bytes() const { return huge_page_bytes(words_.size() * sizeof(std::uint64_t)); }
  unsigned bits_per_group() const { return bits_; }
  std::uint64_t bits_cleared() const { return cleared_; }

 private:
  unsigned bucket(StateKey s) const {
    return static_cast<unsigned>((s * 0x9E3779B97F4A7C15ull) >> 56) & (bits_ - 1);
  }
  std::uint64_t slot_of(StateKey s) const;  // checked: in range
  void state(StateKey s, bool kept);
  void open_group_at(const StateKey* span, std::size_t i);
  void close_group();

  const Game& game_;
  Game::SlotRange range_;
  std::uint64_t groups_;
  unsigned bits_;
  HugeVector<std::uint64_t> words_;  // huge pages: the look-ups are random
  // The group being reported: the buckets of its kept states, whether one of its states was
  // visited, whether it touches a copied block (then it keeps its bits).
  static constexpr std::uint64_t kNone = ~std::uint64_t{0};
  std::uint64_t group_ = kNone;
  std::uint64_t open_ =
      kNone;  // the group being followed through decoded keys (has a visited state)
  std::uint8_t kept_buckets_ = 0;
  bool visited_ = false, unseen_states_ = false, after_copy_ = false;
  std::uint64_t cleared_ = 0;
};

}  // namespace zermelo::bfs
