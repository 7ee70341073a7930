// The retrograde engine: strong solving of any Game by backward induction, level by level.
//
// Level d takes the frontier F_d (states whose value has plies == d, sorted by key), sends each
// value to the frontier's predecessors as messages, sorts the messages by key and merge-joins them
// with the state run S_d = (key, undecided children) of the states still undecided (a message
// is one 64-bit word, the parent's key and whether the child is lost: keys are below 2^63). A state
// wins as soon as one child is lost (win in d+1: the earliest level, so the winner's shortest), and
// loses when its last undecided child turns out won (loss in d+1: the latest level, so the loser's
// longest). States decided so leave S and form F_{d+1}, which is kept as that level's decided run:
// a decided state never changes, so no later level reads or writes it, and a level costs what is
// still undecided plus its messages, not the whole state space. At the fixpoint the decided runs
// (and those of the initial scan) are merged k ways with what is left, the draws, into the values
// run.
//
// The initial scan counts each state's moves (Game::successor_outcomes: with un-moves the
// children's keys are not needed) and applies the moves whose value the rules fix in 0 plies at
// once.
//
// Out-of-core mode keeps everything in sorted run files under the memory budget; each level is a
// manifest stage, so a killed solve resumes at the last finished level (its steps, one a file:
// pipeline/retrograde/steps.hpp). In-RAM mode is a separate,
// simpler implementation of the same definition (vectors and binary search); both write the same
// values run, byte for byte, which is one of the main tests. Predecessors come from the game's
// un-move hook, or (for games without one) from a reverse-edge run built once from successors.
// Children in other tiers are looked up in those tiers' value runs by one sort and merge-join,
// or, when the game numbers them (Game::exit_slots) and the array fits half the budget, read
// from an in-memory array of their values while the scan runs; a state's children in lower tiers
// then count as one pending child with at most one scheduled message (pipeline/exit_values.hpp).
// When the game numbers groups of states (Game::group_slots), a bitmap of the groups with an
// undecided state drops the messages to decided groups before they are sorted
// (pipeline/undecided_filter.hpp). Neither changes a value: both are checked against the plain way.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "zermelo/engine/value.hpp"
#include "zermelo/game.hpp"

namespace zermelo {

class Cluster;  // zermelo/engine/cluster.hpp

#pragma pack(push, 1)
// One solved state, as stored in a values run (sorted by key).
struct KeyValue {
  std::uint64_t key;
  std::uint16_t value;  // Value::raw()
};
#pragma pack(pop)
static_assert(sizeof(KeyValue) == 10);

struct SolveOptions {
  std::string job_dir;  // run files and the manifest go here
  std::uint64_t memory_bytes = 1ull << 30;
  unsigned threads = 2;
  bool in_ram = false;  // the simple in-memory solver instead of the out-of-core one
  std::string tier = "all";
  std::vector<std::string> lower_tier_values;  // values runs of the tiers this one depends on
  bool use_predecessors = true;  // false: build the reverse-edge run even if the game has un-moves
  std::uint64_t init_chunk_states =
      1ull << 28;  // the initial scan is checkpointed every this many states
  std::uint64_t raw_run_bytes =
      8ull << 30;  // runs rewritten every level stay uncompressed below this size
  std::uint32_t block_bytes =
      2u << 20;  // uncompressed bytes per block of the working runs (tests use small ones)
  // The most memory a level's message sort may take of its share (0: all of it); tests use a
  // small one, so that the sorts spill runs to disk and merge them.
  std::uint64_t message_sort_bytes = 0;
  bool exit_values =
      true;  // moves into lower tiers settled from an in-memory array when the game numbers them
  // Refuse a solve of more states: up front where the game counts them, else while enumerating.
  std::uint64_t max_states = 0;  // 0: no limit
  bool message_filter = true;    // messages to groups of decided states dropped before sorting when
                                 // the game numbers groups
  // Key ranges each level is cut into, run at once (docs/shards.md); 1: the unsharded solve.
  unsigned shards = 1;
  // The processes the shards are spread over (MPI ranks; docs/distributed.md); none: this one.
  Cluster* cluster = nullptr;
};

struct SolveResult {
  std::string tier;
  bool in_ram = false;
  std::string values_path;  // job_dir/values-<tier>.run
  std::uint64_t states = 0;
  std::uint64_t wins = 0, losses = 0, draws = 0;
  std::map<std::uint32_t, std::uint64_t>
      by_plies;               // plies -> states (wins at even, losses at odd in most games)
  std::uint32_t levels = 0;   // retrograde iterations run
  std::uint32_t longest = 0;  // most plies of a decided state
  std::uint64_t longest_key = 0;
  std::string digest;
  bool resumed = false;              // some stages were skipped on resume
  std::uint64_t copied_records = 0;  // out of core: states the levels passed on in untouched blocks
  std::uint64_t exit_moves_settled =
      0;  // out of core: moves into lower tiers settled from the exit values array
  std::uint64_t filtered_messages =
      0;  // out of core: messages to groups of decided states dropped before sorting
  std::uint64_t spilled_runs = 0;  // out of core: runs the levels' message sorts wrote to disk
};

SolveResult solve_retrograde(const Game& game, const SolveOptions& options);

// Tier by tier: solves `tier` (after the tiers it reads, where they are missing; only its own
// result is returned), or every tier bottom-up when tier is "all" and the game has tiers.
// Tier T is solved in <job_dir>/<T>/ and reads the values of the tiers it depends on there
// (a tier already finished is skipped: its manifest says so). A game without tiers is solved
// in <job_dir> itself.
std::vector<SolveResult> solve_tiers(const Game& game, const SolveOptions& base,
                                     const std::string& tier);
// Where solve_tiers puts a tier's job, and so its values run.
std::string tier_job_dir(const Game& game, const std::string& job_dir, const std::string& tier);
// The values run solve_tiers writes for `tier`: <tier_job_dir>/values-<tier>.run.
std::string tier_values_path(const Game& game, const std::string& job_dir, const std::string& tier);
std::vector<std::string> tier_dependencies_values(const Game& game, const std::string& job_dir,
                                                  const std::string& tier);

// Reads a values run fully into a (key-sorted) vector: for small games and tests.
std::vector<KeyValue> load_values(const std::string& path);
// Looks up one key in a values run, reading only the block that may hold it.
Value lookup_value(const std::string& values_path, StateKey key);

// Independent local check of a solved tier: recomputes every state's value from its children's
// stored values (one step of the definition) by streaming sort + merge-join passes.
struct CheckResult {
  std::uint64_t states = 0;
  std::uint64_t mismatches = 0;
  std::vector<std::string> examples;  // the first few mismatches, described
};
CheckResult check_solution(const Game& game, const std::string& values_path,
                           const std::vector<std::string>& other_tier_values,
                           const SolveOptions& options);
// The same check on `samples` uniformly drawn states, each with random-access lookups of its
// children: minutes instead of hours on a database of billions.
CheckResult check_solution_sample(const Game& game, const std::string& values_path,
                                  const std::vector<std::string>& other_tier_values,
                                  std::size_t samples, std::uint64_t seed);

}  // namespace zermelo
