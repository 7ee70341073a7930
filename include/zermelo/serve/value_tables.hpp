// The tables a finished solve and a breadth-first search leave in their manifests, read back for
// charts (the web explorer's, `--plot`), so that a picture of a database never scans its values.
//
// Every tier's solve records, with its final stage, how many states it valued in each number of
// plies (wins and losses alike) and its wins, losses and draws; a breadth-first search records
// the new states of every ply with each ply it finishes. Both manifests are read with their
// checksums checked.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "zermelo/pipeline/solved_database.hpp"

namespace zermelo {

struct TierTable {
  std::string tier;
  std::uint64_t states = 0, wins = 0, losses = 0, draws = 0;
  std::map<std::uint32_t, std::uint64_t> by_plies;  // plies -> states decided in that many
};

// One table a solved tier, bottom-up; a tier whose manifest lacks the facts is left out.
std::vector<TierTable> tier_tables(const SolvedDatabase& db);

// The new states per ply of the breadth-first search of `game` in `bfs_dir` (its last finished
// ply's record); throws naming the directory if it holds no such search, or one of another game.
std::vector<std::uint64_t> bfs_levels(const std::string& bfs_dir, const Game& game);

}  // namespace zermelo
