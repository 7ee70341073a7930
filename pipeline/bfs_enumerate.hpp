// Step 1 of the breadth-first search over all states: the states walked of each tier, sorted,
// into one run (U_0 in one process, or a rank's share of it across MPI ranks).
//
// Why a file of its own: the single process and the ranks' step 1 (bfs_rank_shares.hpp) both
// enumerate this way, and the search's top level only names the step.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "pipeline/retrograde/key_walk.hpp"
#include "zermelo/game.hpp"
#include "zermelo/io/run_file.hpp"
#include "zermelo/sort/external_sort.hpp"
#include "zermelo/util/progress.hpp"

namespace zermelo::bfs {

class StatesEnumeration {
 public:
  using WalkOf = std::function<retro::StateWalk(const Tier&)>;  // a tier's walk

  // Tier runs are written in `scratch_dir`, any sort spills as `sort` says.
  StatesEnumeration(const Game& game, std::string scratch_dir, SortOptions sort,
                    std::uint32_t block_bytes)
      : game_(game),
        scratch_dir_(std::move(scratch_dir)),
        sort_(std::move(sort)),
        block_bytes_(block_bytes) {}

  const Game& game() const { return game_; }
  std::uint32_t block_bytes() const { return block_bytes_; }

  // The states that `walk_of` walks of each tier, sorted, into the run `path`. A game that
  // enumerates in key order has each tier written as it comes, then joined; any other goes
  // through one sort.
  RunInfo write(const std::string& path, const WalkOf& walk_of) const;

 private:
  struct TierRun;
  void write_walked(std::vector<TierRun>& tier_runs, const Tier& t, const retro::StateWalk& walk,
                    Progress& bar) const;
  void write_states(std::vector<TierRun>& tier_runs, RunWriter& out) const;

  const Game& game_;
  std::string scratch_dir_;
  SortOptions sort_;
  std::uint32_t block_bytes_;
};

// The sorted keys into `out`; a key met twice is refused (logic_error naming `game`'s state).
void write_sorted(const Game& game, ExternalSorter<StateKey>& sorted, RunWriter& out);

}  // namespace zermelo::bfs
