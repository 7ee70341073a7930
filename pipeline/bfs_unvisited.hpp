// The breadth-first search over all states (BfsOptions::all_states): the run of states not yet
// visited shrinks ply by ply. See include/zermelo/engine/bfs.hpp.
#pragma once
#include "zermelo/engine/bfs.hpp"

namespace zermelo::bfs {

BfsResult search_unvisited(const Game& game, const BfsOptions& options);

}  // namespace zermelo::bfs
