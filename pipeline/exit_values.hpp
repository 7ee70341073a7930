// The values of the lower-tier states that a tier's moves reach, held in one array indexed by the
// game's exit slots (Game::exit_slots), and what the initial scan makes of them.
//
// Without it, every move of a tier into a lower tier is a lookup record: sorted by child,
// merge-joined with the lower tiers' values runs, re-sorted by parent as a scheduled message. 5v5
// Ostle makes 3.5 such moves a state, 2.6 × 10^10 in all, more than the disk holds twice. With the
// array (2 bytes a slot: 2.1 GB for 5v5 Ostle's exits) the scan settles each of them on the spot,
// and ExitSummary folds a state's exits into at most one scheduled message.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "zermelo/game.hpp"
#include "zermelo/util/huge_pages.hpp"

namespace zermelo::retro {

class ExitValues {
 public:
  // The array's size for `tier`: 0 if the game numbers no exits of it.
  static std::uint64_t bytes_for(const Game& game, const std::string& tier);
  // One pass over the lower tiers' values runs; throws if two states share a slot.
  ExitValues(const Game& game, const std::string& tier,
             const std::vector<std::string>& lower_values);
  // The value of a child in a lower tier; throws if it has no slot or no run holds it.
  Value find(StateKey child, StateKey parent) const;
  std::uint64_t bytes() const { return huge_page_bytes(values_.size() * sizeof(values_[0])); }

 private:
  const Game& game_;
  Game::SlotRange range_;
  HugeVector<std::uint16_t>
      values_;  // raw values; 0 (unknown) = no state in this slot; huge pages: fewer TLB misses
};

// A state's children in lower tiers, folded into one pending child: their values never change,
// so all the state can learn from them is "a lost child: win one ply after the shortest such
// loss" or, when every one of them is won, "this group is done at the longest such win". The
// state counts the group as one child and receives at most one scheduled message for it (none
// when a draw among them keeps it from ever being lost).
class ExitSummary {
 public:
  void add(Value v) {
    ++count_;
    if (v.is_loss())
      lost_ = true, min_lost_ = std::min(min_lost_, v.plies());
    else if (v.is_win())
      max_won_ = std::max(max_won_, v.plies());
    else
      draw_ = true;
  }
  std::uint32_t count() const { return count_; }
  // The child value the group's message carries, unknown for none.
  Value message() const {
    if (lost_) return Value::loss(min_lost_);
    if (count_ > 0 && !draw_) return Value::win(max_won_);
    return Value::unknown();
  }

 private:
  std::uint32_t count_ = 0, min_lost_ = ~0u, max_won_ = 0;
  bool lost_ = false, draw_ = false;
};

}  // namespace zermelo::retro
