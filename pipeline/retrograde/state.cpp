// The shared state of a solve, and the formats and budgets of its runs and sorters (state.hpp).
#include "pipeline/retrograde/state.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "pipeline/solve_record.hpp"
#include "zermelo/engine/cluster.hpp"
#include "zermelo/pipeline/solved_database.hpp"

namespace zermelo::retro {

SolveState::SolveState(const Game& g, const SolveOptions& o)
    : game(g),
      opt(o),
      manifest(o.job_dir, "retrograde", retrograde_identity(g, o)),
      files(o.job_dir) {
  manifest.describe("game", game_description(g));
  const unsigned n = std::max(1u, o.shards);
  const unsigned rank = o.cluster ? o.cluster->rank() : 0,
                 ranks = o.cluster ? o.cluster->ranks() : 1;
  shard_ids = shards_of_rank(n, rank, ranks);
  for (unsigned shard : shard_ids) shard_files.push_back(files.shard(shard, n));
}

unsigned SolveState::local_index(unsigned shard) const {
  const auto at = std::lower_bound(shard_ids.begin(), shard_ids.end(), shard);
  return at != shard_ids.end() && *at == shard ? static_cast<unsigned>(at - shard_ids.begin())
                                               : local_shards();
}

bool SolveState::clustered() const { return opt.cluster && opt.cluster->ranks() > 1; }

std::uint64_t SolveState::total(std::uint64_t n) const {
  return clustered() ? opt.cluster->sum(n) : n;
}

std::uint64_t SolveState::least(std::uint64_t n) const {
  return clustered() ? opt.cluster->min(n) : n;
}

std::vector<Stage> SolveState::stages() const {
  std::vector<Stage> out;
  for (const std::string& name : manifest.stages())
    if (const auto stage = Stage::parse(name)) out.push_back(*stage);
  return out;
}

RunOptions undecided_run_options(std::uint64_t expected_records, const SolveOptions& opt) {
  RunOptions o = run_options<Undecided>();
  if (expected_records * sizeof(Undecided) <= opt.raw_run_bytes) o.zstd_level = 0;
  o.block_bytes = opt.block_bytes;
  return o;
}

SortOptions shard_sort_options_within(std::uint64_t memory, const SolveState& s, unsigned shard,
                                      Sorter sorter, unsigned share) {
  SortOptions o = sort_options_within(memory, s, sorter, share);
  o.scratch_dir = s.shard_files[shard].scratch(sorter);
  o.threads = s.shard_threads();
  return o;
}

SortOptions sort_options_within(std::uint64_t memory, const SolveState& s, Sorter sorter,
                                unsigned share) {
  if (memory < kPassOverhead + share * kMinSorter)
    throw std::invalid_argument(
        "--memory " + std::to_string(memory >> 20) + "M is too small for the solver (need " +
        std::to_string((kPassOverhead + share * kMinSorter) >> 20) + "M or more)");
  SortOptions o;
  o.scratch_dir = s.files.scratch(sorter);
  o.memory_bytes = (memory - kPassOverhead) / share;
  o.threads = s.opt.threads;
  o.run.shuffle_bytes = true;
  return o;
}

}  // namespace zermelo::retro
