// Step 3: the chunks' parts joined. S_0 is their undecided parts concatenated (chunks are key
// ranges in order); scheduled.run merges their scheduled parts with the lower tiers' answers;
// edges.run merges their reverse edges. The decided parts stay as they are: step 6 takes them
// with the levels' decided runs. With shards, the key ranges are cut here from keys.run (or
// taken from step 1 under MPI), and each of S_0, scheduled.run and edges.run is written as one run
// a shard (docs/shards.md).
#include <algorithm>
#include <string>
#include <vector>

#include "pipeline/retrograde/shard_writers.hpp"
#include "pipeline/retrograde/steps.hpp"
#include "pipeline/tier_values.hpp"
#include "zermelo/util/progress.hpp"

namespace zermelo::retro {
namespace {

// The chunks' facts summed.
struct ScanTotals {
  std::uint32_t max_level = 0;
  std::uint64_t undecided = 0, exit_moves = 0;
};

ScanTotals scan_totals(const SolveState& s, const ScanChunks& chunks) {
  ScanTotals t;
  for (std::size_t i = 0; i < chunks.count; ++i) {
    const nlohmann::json facts = s.facts(Stage::scan_chunk(i));
    t.max_level = std::max<std::uint32_t>(t.max_level, facts["max_scheduled_level"]);
    t.exit_moves += facts.value("exit_moves_settled", std::uint64_t{0});
    t.undecided += inspect_run(s.files.path(Run::undecided_part, i)).record_count;
  }
  return t;
}

// S_0 of every shard.
std::vector<RunInfo> join_undecided_parts(const SolveState& s, const ScanChunks& chunks,
                                          std::uint64_t n) {
  ShardWriters<Undecided> states(s, Run::states, undecided_run_options(n, s.opt));
  Progress bar("init: join the undecided parts", n);
  const auto key = [](const Undecided& u) { return u.key; };
  for (std::size_t i = 0; i < chunks.count; ++i) {
    RunReader part(s.files.path(Run::undecided_part, i));
    const void* recs;
    while (std::size_t k = part.next_span(&recs, 1u << 16))
      states.append_sorted(static_cast<const Undecided*>(recs), k, key), bar.add(k);
  }
  bar.finish();
  return states.finish();
}

std::vector<std::string> part_paths(const SolveState& s, Run run, const ScanChunks& chunks) {
  std::vector<std::string> paths;
  for (std::size_t i = 0; i < chunks.count; ++i) paths.push_back(s.files.path(run, i));
  return paths;
}

// Children in lower tiers: their values, merge-joined, become scheduled messages too
// (answers.run). Raises max_level to the latest of them.
void answer_lookups(const SolveState& s, const ScanChunks& chunks, std::uint32_t& max_level) {
  ExternalSorter<Edge> lookups(sort_options(s, Sorter::lookups, 2),
                               part_paths(s, Run::lookups_part, chunks));
  ExternalSorter<LevelMsg> answers(sort_options(s, Sorter::answers, 2));
  TierValues lower(s.opt.lower_tier_values);
  Progress bar("init: children in lower tiers", lookups.size());
  Edge e;
  while (lookups.next(e)) {
    bar.add(1);
    const Value v = lower.find(e.child);
    if (!v.is_known())
      throw std::runtime_error(s.game.name() + ": child " + std::to_string(e.child) + " of " +
                               std::to_string(e.parent) + " is in no lower tier's values run");
    if (!v.is_win() && !v.is_loss()) continue;  // draws decide nothing on their own
    answers.push(LevelMsg{v.plies(), kMessage, v.raw(), e.parent});
    max_level = std::max(max_level, v.plies());
  }
  answers.sort();
  answers.write_to(s.files.path(Run::answers), run_options<LevelMsg>());
}

// A sorter whose output is written one run of R a shard: the shards' writers beyond its pass's
// own come out of its budget.
template <class R>
SortOptions sort_beside_shard_writers(const SolveState& s, Sorter sorter) {
  const std::uint64_t writers = s.budget.extra_writers(run_options<R>());
  return sort_options_within(s.opt.memory_bytes - writers, s, sorter);
}

// Each shard's scheduled.run and edges.run (with reverse edges), and the decided parts: stage
// "init"'s outputs.
std::vector<RunInfo> merge_parts(const SolveState& s, const ScanChunks& chunks) {
  std::vector<std::string> scheduled_parts = part_paths(s, Run::scheduled_part, chunks);
  scheduled_parts.push_back(s.files.path(Run::answers));
  ExternalSorter<LevelMsg> scheduled(sort_beside_shard_writers<LevelMsg>(s, Sorter::scheduled),
                                     scheduled_parts);
  std::vector<RunInfo> outs =
      write_to_shards(s, scheduled, Run::scheduled, [](const LevelMsg& m) { return m.key; });
  if (s.reverse_edges()) {
    ExternalSorter<Edge> edges(sort_beside_shard_writers<Edge>(s, Sorter::edges),
                               part_paths(s, Run::edges_part, chunks));
    for (const RunInfo& shard :
         write_to_shards(s, edges, Run::edges, [](const Edge& e) { return e.child; }))
      outs.push_back(shard);
  }
  for (std::size_t i = 0; i < chunks.count; ++i)
    outs.push_back(inspect_run(s.files.path(Run::decided_part, i)));
  return outs;
}

// The facts of stage "init" that a sharded solve adds: its key ranges, routed by on a resume.
void record_key_ranges(const SolveState& s, nlohmann::json& facts) {
  if (s.shards() > 1) facts["shard_first_keys"] = s.ranges.first_keys();
}

// What "init" supersedes: the chunks' stages and parts (not the decided ones), the keys.
void drop_scan_parts(SolveState& s, const ScanChunks& chunks) {
  for (std::size_t i = 0; i < chunks.count; ++i) {
    s.erase(Stage::scan_chunk(i));
    for (Run part : {Run::undecided_part, Run::scheduled_part, Run::lookups_part, Run::edges_part})
      s.files.remove(part, i);
  }
  s.files.remove(Run::answers);
  s.erase(Stage::enumerate());
  s.files.remove(Run::keys);
}

// The shards' key ranges: cut from keys.run, or, where it holds only this rank's keys, as step 1
// found them over every rank's (enumerate_ranks.cpp).
KeyRanges key_ranges(const SolveState& s) {
  const nlohmann::json enumerated = s.facts(Stage::enumerate());
  if (enumerated.contains("shard_first_keys"))
    return KeyRanges(enumerated["shard_first_keys"].get<std::vector<std::uint64_t>>());
  return KeyRanges::balanced(s.files.path(Run::keys), s.shards());
}

// The tier's states, all processes' (keys.run holds only this rank's when step 1 says so).
std::uint64_t tier_states(const SolveState& s, const ScanChunks& chunks) {
  const nlohmann::json enumerated = s.facts(Stage::enumerate());  // null without facts
  return enumerated.is_object() ? enumerated.value("states", chunks.states) : chunks.states;
}

}  // namespace

void join_scan_parts(SolveState& s, const ScanChunks& chunks) {
  s.ranges = key_ranges(s);
  ScanTotals t = scan_totals(s, chunks);
  std::vector<RunInfo> initial = join_undecided_parts(s, chunks, t.undecided);
  answer_lookups(s, chunks, t.max_level);
  nlohmann::json facts = {{"max_scheduled_level", t.max_level},
                          {"states", chunks.states},
                          {"undecided", t.undecided},
                          {"reverse_edges", s.reverse_edges()},
                          {"chunks", chunks.count},
                          {"exit_moves_settled", t.exit_moves}};
  facts["tier_states"] = tier_states(s, chunks);  // "states" is this rank's, under MPI
  record_key_ranges(s, facts);
  s.record(Stage::scan(), merge_parts(s, chunks), facts);
  // Each shard's S_0, then its level 0 frontier, which comes from the seeds alone: an empty run.
  // Superseded by level 0.
  for (const Layout& files : s.shard_files)
    initial.push_back(RunWriter(files.path(Run::frontier, 0), run_options<KeyValue>()).finish());
  s.record(Stage::initial_states(), initial);
  drop_scan_parts(s, chunks);
}

}  // namespace zermelo::retro
