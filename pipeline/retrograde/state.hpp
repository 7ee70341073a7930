// What the steps of one out-of-core solve share: the game, the options, the manifest and the job
// directory's layout, the shards' key ranges and folders, the facts carried from level to level,
// and the formats and budgets of the runs and sorters every step makes. The steps themselves are
// in steps.hpp; shards in docs/shards.md.
#pragma once
#include <algorithm>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <type_traits>
#include <vector>

#include "pipeline/exit_values.hpp"
#include "pipeline/parallel_for.hpp"
#include "pipeline/retrograde/key_ranges.hpp"
#include "pipeline/retrograde/layout.hpp"
#include "pipeline/retrograde/shard_budget.hpp"
#include "pipeline/retrograde_records.hpp"
#include "pipeline/undecided_filter.hpp"
#include "zermelo/engine/retrograde.hpp"
#include "zermelo/io/run_file.hpp"
#include "zermelo/pipeline/manifest.hpp"
#include "zermelo/sort/external_sort.hpp"

namespace zermelo::retro {

// Readers, writers and slack held beside a sorter during a pass.
constexpr std::uint64_t kPassOverhead = 48ull << 20;
// The least memory a sorter is given (what an initial-scan sorter that receives nothing gets).
constexpr std::uint64_t kMinSorter = 24ull << 20;
// The floor the busiest pass needs (the initial scan's three sorters beside its buffers).
constexpr std::uint64_t kMemoryFloor = kPassOverhead + 3 * kMinSorter;
// States expanded per parallel batch (outputs are buffered per thread: this bounds memory).
constexpr std::size_t kBatch = 1u << 15;

struct SolveState {
  SolveState(const Game& game, const SolveOptions& opt);

  const Game& game;
  const SolveOptions opt;
  const ShardBudget budget{opt};  // what the shards hold beside their sorters
  Manifest manifest;
  Layout files;
  // The shards this process holds (every shard without a cluster), by their local index: each
  // one's number among all shards, and its working runs (one shard: `files`).
  std::vector<unsigned> shard_ids;
  std::vector<Layout> shard_files;
  KeyRanges ranges;                   // the shards' keys, from step 3 or its facts on a resume
  std::uint32_t max_scheduled = 0;    // the last level with scheduled work (the initial scan's)
  std::uint64_t copied_total = 0;     // undecided states passed on in untouched blocks, all levels
  std::uint64_t filtered_total = 0;   // messages dropped by the filter of undecided groups
  std::uint64_t spilled_total = 0;    // runs the levels' message sorts spilled, all levels
  std::unique_ptr<ExitValues> exits;  // during the scan, if the game numbers its exits
  std::unique_ptr<UndecidedFilter> filter;  // during the levels, if the game numbers groups

  bool done(Stage stage) const { return manifest.done(stage.name()); }
  nlohmann::json facts(Stage stage) const { return manifest.facts(stage.name()); }
  void record(Stage stage, const std::vector<RunInfo>& outputs, const nlohmann::json& facts = {}) {
    manifest.record(stage.name(), outputs, facts);
  }
  void erase(Stage stage) { manifest.erase(stage.name()); }
  // The recorded stages this solver writes, in the order recorded.
  std::vector<Stage> stages() const;
  // All the shards, and those this process holds.
  unsigned shards() const { return std::max(1u, opt.shards); }
  unsigned local_shards() const { return static_cast<unsigned>(shard_files.size()); }
  // The local index of shard `shard` if this process holds it, else local_shards().
  unsigned local_index(unsigned shard) const;
  bool clustered() const;  // shards spread over more than one process
  // `n` summed over the processes (n itself in one process); every process calls it alike.
  std::uint64_t total(std::uint64_t n) const;
  // The least `n` over the processes; and a wait until every process has come this far.
  std::uint64_t least(std::uint64_t n) const;
  // The greatest `n` over the processes (the least of its complements: no hook of its own).
  std::uint64_t most(std::uint64_t n) const { return ~least(~n); }
  void wait_for_every_process() const { total(0); }
  // The threads each shard's own work may use while the shards run at once.
  unsigned shard_threads() const {
    return local_shards() == 1 ? opt.threads : std::max(1u, opt.threads / local_shards());
  }
  // fn(local index) for every shard this process holds, at most opt.threads at once; one shard
  // runs on this thread, so that its own parallel loops keep every thread.
  template <class Fn>
  void for_each_shard(Fn&& fn) const {
    if (local_shards() == 1) return fn(0u);
    parallel_for<char>(opt.threads, local_shards(), 1,
                       [&](std::size_t, std::size_t i, char&) { fn(static_cast<unsigned>(i)); });
  }
  // Reverse edges are built when un-moves are not used.
  bool reverse_edges() const { return !(opt.use_predecessors && game.has_predecessors()); }
};

// Each working record's type name in its run's header.
template <class R>
constexpr const char* kRecordType = nullptr;
template <>
inline constexpr const char* kRecordType<std::uint64_t> = "retro.key";
template <>
inline constexpr const char* kRecordType<Undecided> = "retro.undecided";
template <>
inline constexpr const char* kRecordType<KeyValue> = "retro.keyvalue";
template <>
inline constexpr const char* kRecordType<LevelMsg> = "retro.levelmsg";
template <>
inline constexpr const char* kRecordType<Edge> = "retro.edge";

// A working run of R records. Byte planes make them several times smaller and faster through
// zstd (the values run keeps the plain layout: values_run_options()).
template <class R>
RunOptions run_options() {
  RunOptions o;
  o.record_type = kRecordType<R>;
  o.record_size = sizeof(R);
  o.sort_key = "key asc";
  o.delta_u64_keys = !std::is_same_v<R, LevelMsg>;  // the others start with their sorted u64 key
  o.shuffle_bytes = true;
  return o;
}

// The undecided states' run, rewritten every level, is stored without compression while it is
// below SolveOptions::raw_run_bytes: raw I/O is cheaper than even zstd on byte planes, and a
// level is bound by that CPU, not by the disk (bench/RESULTS.md). Beyond it it is compressed,
// so that the disk holds the largest tiers.
RunOptions undecided_run_options(std::uint64_t expected_records, const SolveOptions& opt);

// A sorter given `memory`, of which its pass's readers and writers take kPassOverhead and
// `share` sorters alive at the same time split the rest. Throws if that leaves too little.
SortOptions sort_options_within(std::uint64_t memory, const SolveState& s, Sorter sorter,
                                unsigned share = 1);
// The same for a sorter of shard `shard`, which spills into the shard's folder.
SortOptions shard_sort_options_within(std::uint64_t memory, const SolveState& s, unsigned shard,
                                      Sorter sorter, unsigned share);
// The same in the whole budget.
inline SortOptions sort_options(const SolveState& s, Sorter sorter, unsigned share = 1) {
  return sort_options_within(s.opt.memory_bytes, s, sorter, share);
}

}  // namespace zermelo::retro
