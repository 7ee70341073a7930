// Breadth-first search from the start over a game's state graph, out of core.
//
// Level by level as sorted runs: the frontier's successors are sorted and deduplicated, states
// already seen are removed by a merge with the visited run, and what is left is the next
// frontier; visited and frontier are merged into the new visited run. Memory stays under the
// budget whatever the graph's size; each level is a manifest stage, so a killed search resumes.
// It gives the states reachable from the start per ply (the shortest distance of every state),
// the number of edges, and the deepest states.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "zermelo/game.hpp"

namespace zermelo {

struct BfsOptions {
  std::string job_dir;
  std::uint64_t memory_bytes = 1ull << 30;
  unsigned threads = 2;
  std::uint32_t max_ply = UINT32_MAX;  // stop after this many plies
};

struct BfsResult {
  std::vector<std::uint64_t> new_states;   // per ply: states first reached at that ply
  std::uint64_t states = 0;                // all reached states (terminal ones included)
  std::uint64_t edges = 0;                 // moves from reached states to states
  std::uint64_t game_ending_moves = 0;     // moves that end the game (lead to no state)
  std::uint64_t terminal_states = 0;       // reached states decided by the rules
  std::vector<StateKey> deepest;           // a few states of the last ply
  std::string visited_path;                // sorted run of every reached key
  bool resumed = false;
};

BfsResult breadth_first(const Game& game, const BfsOptions& options);

}  // namespace zermelo
