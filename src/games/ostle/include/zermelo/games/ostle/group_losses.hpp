// Which states of a solved game are lost for the side to move, held in memory for the puzzle
// finder, which asks it of most children of every won state. Looked up in the values runs one
// by one (a block decoded a lookup) that took a millisecond a state: the whole game would have
// taken months. Two bits a group of states (Game::group_slots; in Ostle a group is a position's
// states, which differ only by the forbidden move): "some state of it is lost" and "every state
// of it is". A group with lost and other states ("mixed": forbidding the one saving move loses)
// keeps its lost keys in a sorted list. One pass over the values runs.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "zermelo/game.hpp"

namespace zermelo::ostle {

class GroupLosses {
 public:
  // The two bits' bytes, for every group of the game's tiers (the list of a mixed group's lost
  // keys comes on top: 8 bytes a key).
  static std::uint64_t bits_bytes(const Game& game);
  // Reads the values runs (each in key order, of tiers of `game`) once. Throws if the bits and
  // the list would take more than `memory_bytes`.
  GroupLosses(const Game& game, const std::vector<std::string>& values_runs,
              std::uint64_t memory_bytes);

  // Whether state s (of a solved tier) is lost for the side to move. False for a key of no
  // group, or of a group none of whose states the runs hold.
  bool lost(StateKey s) const;
  std::uint64_t mixed_groups() const { return mixed_groups_; }
  std::uint64_t bytes() const;

 private:
  void keep_mixed(const std::vector<StateKey>& keys);
  // Calls close(group, some lost, every lost, lost keys) for every group of the runs.
  template <class Close>
  void for_each_group(const std::vector<std::string>& values_runs, const std::string& label,
                      Close&& close) const;
  bool bit(const std::vector<std::uint64_t>& bits, std::uint64_t g) const {
    return bits[g >> 6] >> (g & 63) & 1;
  }

  const Game& game_;
  Game::SlotRange range_;
  std::vector<std::uint64_t> some_, every_;
  std::vector<StateKey> mixed_lost_;  // sorted: the lost keys of the mixed groups
  std::uint64_t mixed_groups_ = 0;
  std::uint64_t memory_bytes_;
};

}  // namespace zermelo::ostle
