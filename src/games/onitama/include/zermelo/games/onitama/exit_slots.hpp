// A dense numbering of Onitama states by student counts, for the engine's exit values
// (Game::exit_slots): the moves of a tier that capture a student reach states of the tiers
// below, and the solver holds those states' values in one array indexed by this number.
//
// The state key cannot serve: its student sets of every size interleave (Rules' key is
// Blue's set rank × all sets + Red's), so the states of one tier are spread over the whole key
// space. Here the states with r Red and b Blue students get a block of their own:
//   Red's set (rank among the C(cells, r) sets) × Blue's set (among the C(cells - r, b) sets of
//   the cells Red leaves free) × each master (a free cell, or captured) × cards × player,
// about 1.2 slots a legal state. With the player-swap symmetry only folded states are numbered:
// the key ranks Blue's sets by size first, so a folded state (the smaller key of the twins) never
// has more Blue students than Red, and the blocks of (r, b) with r < b are not needed.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

#include "zermelo/games/onitama/rules.hpp"

namespace zermelo::onitama {

class ExitSlots {
 public:
  ExitSlots(const Rules& rules, bool symmetry);

  // ~0 for a state the numbering leaves out (with the symmetry: one that is not folded).
  std::uint64_t slot(const Position& p) const;
  // [first, end) of the slots of the states a move of a tier with (red, blue) students (and,
  // with the symmetry, of its twin tier) can capture its way into; empty for no students.
  std::pair<std::uint64_t, std::uint64_t> exits_of(int red, int blue) const;

 private:
  std::size_t block(int red, int blue) const {
    return static_cast<std::size_t>(red * (most_ + 1) + blue);
  }
  std::uint64_t block_size(int red, int blue) const;

  const Rules& rules_;
  bool symmetry_;
  int most_;  // students a side at most
  std::uint64_t binom_[65][65] = {};
  std::vector<std::uint64_t> offset_;  // first slot of each (red, blue) block; ~0 when unused
};

}  // namespace zermelo::onitama
