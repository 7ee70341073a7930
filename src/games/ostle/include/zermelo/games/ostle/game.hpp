// Ostle behind the one Game interface (registered as "ostle"). States are the 64-bit keys of
// index.hpp; tiers are the material classes 4v4, then 5v4+4v5, then 5v5. Also exposes the
// helpers the CLI and tests share: tier membership and the breadth-first levels from the start.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "zermelo/game.hpp"
#include "zermelo/games/ostle/board.hpp"
#include "zermelo/games/ostle/options.hpp"

namespace zermelo::ostle {

std::unique_ptr<Game> make_ostle_game(const GameOptions& options = {});

// The forbidden codes of a canonical position's states under a reading, increasing.
ForbidList state_codes(const Position& canonical, unsigned stab, Reading reading);

// Every state key of the positions of class `cls` with rank in [lo, hi), in increasing key order:
// the per-range producer that Game::enumerate runs class by class and that run-file writers can
// run chunk by chunk.
void enumerate_states(int cls, std::uint64_t lo, std::uint64_t hi,
                      const std::function<void(StateKey)>& emit, Reading reading = Reading::kExact);

// The tier names in solve order and the materials each holds.
const std::vector<std::string>& tier_names();
std::vector<int> tier_materials(const std::string& tier);  // throws on an unknown tier

// Breadth-first search from the start over states (checkmate positions included as states,
// moves that end the game leading to no state, symmetric states identified): the number of new
// states at each ply 0..max_ply. In memory: for the first few plies only.
// With play_restricted, the forbidden move is played too (the published search).
std::vector<std::uint64_t> bfs_levels(int max_ply, const GameOptions& options = {});

}  // namespace zermelo::ostle
