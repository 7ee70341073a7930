// The puzzle finder of a solved Ostle game (issue 19, after the paper's puzzles): states the
// side to move wins in which every winning move is a sacrifice, a move that loses one of the
// mover's own pieces. A winning move is any move to a state lost for the opponent, however
// long; checkmate positions (won at once by removing an opponent piece) are not puzzles.
// Ranked by length, each with its line: the winner's shortest win, the loser's longest defence,
// then the move that ends the game. Works on `ostle` and `ostle-mini` work directories.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "zermelo/engine/optimal_line.hpp"
#include "zermelo/game.hpp"

namespace zermelo::ostle {

struct Puzzle {
  StateKey key = 0;
  Value value;                    // a win in `value.plies()` plies to a checkmate position
  std::vector<std::string> line;  // the moves, the final capture included
};

struct PuzzleScan {
  std::uint64_t scanned = 0;       // states read from the values runs
  std::uint64_t won = 0;           // of them won and not checkmate
  std::uint64_t puzzles = 0;       // of them puzzles
  std::uint64_t mixed_groups = 0;  // positions with lost and other states (looked up one by one)
  // The puzzles counted other ways, for comparing with counts of other definitions: by
  // position (a position's states differ only by the forbidden move), with one winning move
  // only, by tier and by length.
  std::uint64_t positions = 0;
  std::uint64_t one_winning_move = 0;
  std::map<std::string, std::uint64_t> by_tier;
  std::map<int, std::uint64_t> by_plies;
  std::vector<Puzzle> longest;  // the `keep` longest, longest first (ties by key)
};

// Bit i set when move i of game.successors(s) removes one of the mover's own pieces.
using SacrificeMask = std::function<std::uint32_t(StateKey)>;
// The mask for an Ostle game made by make_game("ostle" or "ostle-mini", ...); throws otherwise.
SacrificeMask ostle_sacrifices(const Game& game);

// Reads every tier's values run (`values_runs`, one per tier) twice, in key order: once for the
// lost states in memory (GroupLosses), then for the won states in batches, on `threads`
// threads; all within `memory_bytes` (throws if the lost states and a batch do not fit). With
// `shortest_only` only the shortest winning moves count (every one of them a sacrifice, however the
// longer wins are played): the paper's exact definition is not in the published code, so both
// readings of "every winning move" are offered. That reading looks the lost children up in the runs
// one by one (slow: for small boards).
PuzzleScan find_puzzles(const Game& game, const std::vector<std::string>& values_runs,
                        const SacrificeMask& sacrifices, std::size_t keep, bool shortest_only,
                        int threads, std::uint64_t memory_bytes);

}  // namespace zermelo::ostle
