// The breadth-first search over all states (BfsOptions::all_states): the run of states not yet
// visited shrinks ply by ply. See include/zermelo/engine/bfs.hpp.
#pragma once
#include <nlohmann/json.hpp>

#include "zermelo/engine/bfs.hpp"

namespace zermelo {

// The manifest identity of a search, either kind: a work dir resumes only the same search.
nlohmann::json bfs_identity(const Game& game, const BfsOptions& options);

}  // namespace zermelo

namespace zermelo::bfs {

BfsResult search_unvisited(const Game& game, const BfsOptions& options);

}  // namespace zermelo::bfs
