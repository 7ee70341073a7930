// A plain in-memory breadth-first search, written for the tests independently of the pipeline's:
// a hash map from each seen key to its ply, and a vector a ply.
#pragma once
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "zermelo/game.hpp"

namespace zermelo::testing {

struct PlainBfs {
  // Every seen state and the ply at which it was first reached.
  std::unordered_map<StateKey, std::uint32_t> ply_of;
  std::vector<std::uint64_t> levels;  // new states per ply
  std::uint64_t edges = 0, game_ending_moves = 0, decided = 0;
};

// States the rules decide are counted, and expanded only with `expand_decided`, as in BfsOptions.
inline PlainBfs plain_bfs(const Game& g, bool expand_decided = false) {
  PlainBfs r;
  r.ply_of.emplace(g.start(), 0);
  r.levels.push_back(1);
  std::vector<StateKey> frontier{g.start()};
  std::vector<Child> kids;
  while (!frontier.empty()) {
    std::vector<StateKey> next;
    for (auto s : frontier) {
      const bool decided = g.terminal_value(s).is_known();
      r.decided += decided;
      if (decided && !expand_decided) continue;
      g.successors(s, kids);
      for (auto& c : kids)
        if (c.is_terminal())
          ++r.game_ending_moves;
        else if (++r.edges,
                 r.ply_of.emplace(c.key, static_cast<std::uint32_t>(r.levels.size())).second)
          next.push_back(c.key);
    }
    if (!next.empty()) r.levels.push_back(next.size());
    frontier.swap(next);
  }
  return r;
}

}  // namespace zermelo::testing
