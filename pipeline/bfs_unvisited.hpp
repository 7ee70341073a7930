// The breadth-first search over all states (BfsOptions::all_states): the run of states not yet
// visited shrinks ply by ply. See include/zermelo/engine/bfs.hpp.
#pragma once
#include <nlohmann/json.hpp>

#include "zermelo/engine/bfs.hpp"

namespace zermelo {

// The manifest identity of a search, either kind: a work dir resumes only the same search.
nlohmann::json bfs_identity(const Game& game, const BfsOptions& options);
// The first three states of the deepest ply's run (BfsResult::deepest), either kind.
std::vector<StateKey> deepest_states(const std::string& deepest_run);

}  // namespace zermelo

namespace zermelo::bfs {

BfsResult search_unvisited(const Game& game, const BfsOptions& options);

}  // namespace zermelo::bfs
