// How a run of state keys splits over a game's tiers, by one streaming pass.
//
// A breadth-first search leaves runs of keys behind (the states never reached, the deepest
// ply); which material classes they fall in is the first question a researcher asks of them.
// The pipeline knows no rules, so the game names each key's tier (`Game::tier_of`), and a few
// keys of each tier are kept to be drawn as examples.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "zermelo/game.hpp"

namespace zermelo {

struct TierTally {
  std::uint64_t states = 0;
  std::vector<StateKey> examples;  // the first keys of the tier in the run (in key order)
};

// Counts the run's keys by tier, keeping up to `examples_per_tier` keys of each. The run must hold
// state keys (record type "bfs.key"); throws a RunFileError naming the file otherwise.
std::map<std::string, TierTally> tally_tiers(const Game& game, const std::string& run_path,
                                             std::size_t examples_per_tier);

}  // namespace zermelo
