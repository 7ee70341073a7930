// Breadth-first search from the start over a game's state graph, out of core.
//
// Level by level as sorted runs: the frontier's successors are sorted and deduplicated, states
// already seen are removed by a merge with the visited run, and what is left is the next
// frontier; visited and frontier are merged into the new visited run. Memory stays under the
// budget whatever the graph's size; each level is a manifest stage, so a killed search resumes.
// It gives the states reachable from the start per ply (the shortest distance of every state),
// the number of edges, and the deepest states.
//
// For a whole large game (Ostle's 12.9 × 10^9 states) the visited run would be rewritten every ply
// at its full size, and almost every successor key sorted only to be found visited. With
// `all_states` the search keeps the opposite run instead, the states not visited yet: it starts
// as every state the game enumerates and shrinks each ply (blocks no successor reaches are copied
// as stored), and a few bits a group of states drop most successors of visited states before they
// are sorted (pipeline/unvisited_filter.hpp). In games whose states of a group share its moves,
// a byte a group records the moves some state of it took already, and later states key only the
// rest (pipeline/group_expansions.hpp). What is left at the end is what the start never
// reaches. The same levels either way; the tests compare the two.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "zermelo/engine/cluster.hpp"
#include "zermelo/game.hpp"
#include "zermelo/io/run_file.hpp"

namespace zermelo {

struct BfsOptions {
  std::string job_dir;
  std::uint64_t memory_bytes = 1ull << 30;
  unsigned threads = 2;
  std::uint32_t max_ply = UINT32_MAX;  // stop after this many plies
  bool all_states = false;             // search the run of unvisited states (needs Game::enumerate)
  std::uint32_t block_bytes =
      1u << 20;              // all_states: blocks of the unvisited run (tests use small ones)
  bool group_filter = true;  // all_states: drop successors of visited groups before sorting
  // all_states: key only moves a group took not yet (Game::groups_share_moves)
  bool group_moves = true;
  // Also expand the states the rules decide (terminal_value known), as a player may decline an
  // immediate win (an Ostle checkmate): reachability by legal moves rather than by the solver's
  // graph, where a decided state has no children.
  bool expand_decided = false;
  // Keep every ply's run of new states (instead of only the deepest), so that the ply of any state
  // (its distance from the start) can be looked up afterwards: BfsPlyLookup.
  bool keep_plies = false;
  // all_states: the key space cut into this many shards, whose plies are expanded, sorted and
  // merged at once (docs/shards.md); the same plies whatever the number. Part of the identity.
  unsigned shards = 1;
  // all_states: the processes the shards are spread over (MPI, docs/distributed.md); none: this
  // one holds them all. Each process has its own job_dir.
  Cluster* cluster = nullptr;
};

struct BfsResult {
  std::vector<std::uint64_t> new_states;  // per ply: states first reached at that ply
  std::uint64_t states = 0;               // all reached states (terminal ones included)
  std::uint64_t edges = 0;                // moves from reached states to states
  std::uint64_t game_ending_moves = 0;    // moves that end the game (lead to no state)
  std::uint64_t terminal_states =
      0;  // reached states decided by the rules (expanded only with expand_decided)
  std::vector<StateKey> deepest;  // a few states of the last ply
  std::string visited_path;       // sorted run of every reached key (not with all_states)
  bool resumed = false;
  // False when max_ply cut the search short (every ply up to it found new states): deeper plies
  // may exist, and the states not found are only not reached by max_ply.
  bool complete = true;
  std::vector<std::string> ply_runs;  // with keep_plies: the sorted run of each ply's new states
  // all_states only:
  std::uint64_t enumerated = 0;  // every state the game enumerates
  std::uint64_t unreached = 0;   // ... that the start never reaches (if complete; else by max_ply)
  std::string unreached_path;    // their sorted run (across MPI ranks rank 0's; empty on others)
  // Work statistics, not results: the filter and the record of the moves a group took live in
  // memory and are rebuilt when a search resumes (from a smaller unvisited run, with no record),
  // so a resumed search drops and skips other numbers of keys on its way to the same levels.
  std::uint64_t filtered = 0;  // successor keys dropped by the filter before sorting
  unsigned filter_bits = 0;    // bits a group of the filter (0: none)
  std::uint64_t keyless = 0;   // edges left unkeyed: their group took the move before
};

BfsResult breadth_first(const Game& game, const BfsOptions& options);

// The ply at which a search first reached a state, from the runs of its plies
// (BfsResult::ply_runs): each run opened once, at most one block of each read a lookup.
class BfsPlyLookup {
 public:
  explicit BfsPlyLookup(const std::vector<std::string>& ply_runs);
  std::optional<std::uint32_t> ply_of(StateKey key);  // nothing if no ply reached it

 private:
  std::vector<std::unique_ptr<RunReader>> runs_;
};

}  // namespace zermelo
