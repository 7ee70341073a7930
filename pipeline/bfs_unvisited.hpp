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

// Throws std::invalid_argument, naming the budget, the shards and the floor, if --memory is
// below memory_floor(options).
BfsResult search_unvisited(const Game& game, const BfsOptions& options);

// The least --memory a search over all states needs in each process (docs/shards.md, Memory):
// the busiest of step 1 (its sort beside a pass; one process cutting U_0 writes a run a shard at
// once) and a ply (the passes running at once, each with an outbox a shard, beside an inbox for
// each shard the process holds).
struct MemoryFloor {
  std::uint64_t bytes = 0;
  unsigned shards = 1, shards_a_process = 1, at_once = 1;
};
MemoryFloor memory_floor(const BfsOptions& options);
void check_memory(const BfsOptions& options);

}  // namespace zermelo::bfs
