// Step 5: one level. Messages from F_d (and the work scheduled for d) are sent (5a), sorted, and
// merged into S_d (5b), giving S_{d+1} and F_{d+1}; the level is then recorded, superseding the
// one before. Each step runs on every shard at once, and the level is recorded when all shards
// have finished it (docs/shards.md).
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include "pipeline/retrograde/cluster_transport.hpp"
#include "pipeline/retrograde/inboxes.hpp"
#include "pipeline/retrograde/steps.hpp"
#include "zermelo/util/progress.hpp"

namespace zermelo::retro {
namespace {

// Seconds since the last lap, for the per-level timing line.
class Stopwatch {
 public:
  double lap() {
    auto now = std::chrono::steady_clock::now();
    double s = std::chrono::duration<double>(now - last_).count();
    last_ = now;
    return s;
  }

 private:
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};

std::string fmt_secs(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f s", s);
  return buf;
}

// Whether this process can hold the filter of undecided groups: the game numbers groups and the
// bitmap takes at most a quarter of what the level's sorters could have. Across processes, only
// if every one can (they combine their bitmaps).
bool filter_fits(SolveState& s) {
  const std::uint64_t bytes = UndecidedFilter::bytes_for(s.game, s.opt.tier);
  const std::uint64_t floor = s.budget.level_passes() + s.shards() * kMinSorter;
  const bool fits =
      bytes > 0 && s.opt.memory_bytes >= floor && bytes <= (s.opt.memory_bytes - floor) / 4;
  return s.clustered() ? s.opt.cluster->min(fits ? 1 : 0) == 1 : fits;
}

// The filter, once a process, from its shards' S_d. Across processes each sets the bits of its
// own shards' groups, and the bitmaps are or-ed: every process filters the messages to any shard.
void make_filter(SolveState& s, std::uint32_t d) {
  if (s.filter || !s.opt.message_filter || !filter_fits(s)) return;
  std::vector<std::string> states;
  for (const Layout& files : s.shard_files) states.push_back(files.path(Run::states, d));
  s.filter = std::make_unique<UndecidedFilter>(s.game, s.opt.tier, states);
  if (s.clustered())
    s.opt.cluster->combine(s.filter->words(), s.filter->word_count(), Cluster::Bits::kOr);
}

// After a level's merges each process has cleared the groups its shards decided; the others
// and in the words it changed, or, when many words changed, the whole bitmaps are and-ed. (A
// process that missed a clear would only send more messages.)
void share_filter_clears(SolveState& s) {
  if (!s.filter || !s.clustered()) return;
  Cluster& cluster = *s.opt.cluster;
  constexpr std::uint64_t kMostPairs = (std::uint64_t{8} << 20) / 16;  // 8 MiB gathered at most
  if (cluster.sum(s.filter->changed_words()) <= kMostPairs) {
    s.filter->and_changes(cluster.gather_all(s.filter->take_changes()));
  } else {
    s.filter->forget_changes();
    cluster.combine(s.filter->words(), s.filter->word_count(), Cluster::Bits::kAnd);
  }
}

// A level's outputs, shard by shard: S_{d+1} and F_{d+1}.
struct LevelRuns {
  explicit LevelRuns(unsigned shards) : states(shards), frontiers(shards) {}
  std::vector<RunInfo> states, frontiers;

  // The level stage's outputs: the states, then the frontiers (one shard: S_{d+1}, F_{d+1}).
  std::vector<RunInfo> all() const {
    std::vector<RunInfo> outs = states;
    outs.insert(outs.end(), frontiers.begin(), frontiers.end());
    return outs;
  }
  static std::uint64_t records(const std::vector<RunInfo>& runs) {
    std::uint64_t n = 0;
    for (const RunInfo& r : runs) n += r.record_count;
    return n;
  }
};

// Level d is done: its outputs (S_{d+1}, F_{d+1}) replace level d-1's. The frontiers it wrote
// are also a decided run (values in d+1 plies), kept for the values run under a stage of its own.
// Under MPI, level d-1's runs are dropped only once every rank has recorded level d, so that a
// job killed in between can go back to level d on every rank (resume.cpp).
void record_level(SolveState& s, std::uint32_t d, const LevelRuns& outs,
                  const nlohmann::json& facts) {
  s.record(Stage::level(d), outs.all(), facts);
  if (LevelRuns::records(outs.frontiers) > 0) s.record(Stage::decided(d + 1), outs.frontiers);
  s.wait_for_every_process();
  s.erase(d > 0 ? Stage::level(d - 1) : Stage::initial_states());
  const bool decided = s.done(Stage::decided(d));
  for (unsigned shard = 0; shard < s.local_shards(); ++shard) {
    const Layout& files = s.shard_files[shard];
    if (outs.states[shard].path != files.path(Run::states, d)) files.remove(Run::states, d);
    if (!decided) files.remove(Run::frontier, d);
  }
}

// S_{d+1} as a second name of S_d's file (a copy where the file system has no hard links), so
// that S_d stays until record_level drops it: a kill before that leaves level d-1's runs whole.
void link_states(const Layout& files, std::uint32_t d) {
  const std::string from = files.path(Run::states, d), to = files.path(Run::states, d + 1);
  files.remove(Run::states, d + 1);  // left by an attempt that was killed
  std::error_code no_link;
  std::filesystem::create_hard_link(from, to, no_link);
  if (no_link) std::filesystem::copy_file(from, to);
}

// A level with no messages changes nothing: S_{d+1} is S_d, linked rather than rewritten.
std::uint64_t quiet_level(SolveState& s, std::uint32_t d) {
  LevelRuns outs(s.local_shards());
  for (unsigned shard = 0; shard < s.local_shards(); ++shard) {
    const Layout& files = s.shard_files[shard];
    link_states(files, d);
    outs.states[shard] = inspect_run(files.path(Run::states, d + 1));
    outs.frontiers[shard] =
        RunWriter(files.path(Run::frontier, d + 1), run_options<KeyValue>()).finish();
  }
  record_level(s, d, outs,
               {{"frontier", 0},
                {"messages", 0},
                {"decided", 0},
                {"undecided", LevelRuns::records(outs.states)},
                {"copied_total", s.copied_total},
                {"filtered_total", s.filtered_total},
                {"spilled_total", s.spilled_total}});
  return 0;
}

// What a level did, for its stage's facts and its line on stderr.
struct LevelCounts {
  std::uint64_t frontier = 0, messages = 0, filtered = 0, undecided = 0;
  std::uint64_t spilled = 0;     // runs this process's message sorts wrote to disk
  std::uint64_t wire_bytes = 0;  // under MPI: the messages' bytes sent between ranks, all ranks
  MergeCounts merged;
  double t_messages = 0, t_sort = 0, t_merge = 0;
};

nlohmann::json level_facts(SolveState& s, const LevelCounts& c) {
  nlohmann::json facts = {{"frontier", c.frontier},
                          {"messages", c.messages},
                          {"filtered", c.filtered},
                          {"decided", c.merged.decided},
                          {"undecided", c.undecided},
                          {"copied", c.merged.copied},
                          {"copied_total", s.copied_total += c.merged.copied},
                          {"filtered_total", s.filtered_total += c.filtered},
                          {"spilled", c.spilled},
                          {"spilled_total", s.spilled_total += c.spilled},
                          {"delivered", c.merged.delivered}};
  if (s.clustered()) facts["wire_bytes"] = c.wire_bytes;
  return facts;
}

void report_level(std::uint32_t d, const LevelCounts& c) {
  Progress::note(
      "level " + std::to_string(d) + ": " + std::to_string(c.frontier) + " frontier states, " +
      std::to_string(c.messages) + " messages sorted (" + std::to_string(c.merged.delivered) +
      " to undecided states, " + std::to_string(c.filtered) + " more dropped by the filter), " +
      std::to_string(c.merged.decided) + " decided, " + std::to_string(c.undecided) +
      " undecided (" + std::to_string(c.merged.copied) + " in blocks copied untouched); un-moves " +
      fmt_secs(c.t_messages) + ", sort " + fmt_secs(c.t_sort) + ", merge " + fmt_secs(c.t_merge) +
      (c.wire_bytes ? "; " + std::to_string(c.wire_bytes) + " bytes between ranks" : ""));
}

// 5b on every shard at once: its sorted messages merged into its S_d.
LevelRuns merge_shards(SolveState& s, std::uint32_t d, Inboxes& inboxes, MergeCounts& merged) {
  LevelRuns outs(s.local_shards());
  std::vector<MergeCounts> counts(s.local_shards());
  s.for_each_shard([&](unsigned shard) {
    const Layout& files = s.shard_files[shard];
    // Decoded ahead: the merge's own work waits for no zstd.
    RunReader in(files.path(Run::states, d), IoOptions{}, /*decode_ahead=*/true);
    RunWriter out(files.path(Run::states, d + 1), undecided_run_options(in.size(), s.opt));
    RunWriter next_f(files.path(Run::frontier, d + 1), run_options<KeyValue>());
    counts[shard] = merge_messages(s, shard, d, inboxes.of(shard), in, out, next_f);
    outs.states[shard] = out.finish();
    outs.frontiers[shard] = next_f.finish();
  });
  for (const MergeCounts& shard : counts) merged += shard;
  return outs;
}

// 5a into this process's inboxes, the messages to other processes' shards sent to them and
// theirs received (docs/distributed.md). Returns the frontier's size.
std::uint64_t send_and_receive(SolveState& s, std::uint32_t d, Inboxes& inboxes, LevelCounts& c) {
  if (!s.clustered()) return send_messages(s, d, inboxes, c.filtered);
  ClusterTransport transport(*s.opt.cluster, s.shards(), inboxes);
  const std::uint64_t frontier = send_messages(s, d, transport, c.filtered);
  transport.finish();
  c.wire_bytes = s.opt.cluster->sum(transport.bytes_sent());
  c.filtered = s.opt.cluster->sum(c.filtered);
  return frontier;
}

}  // namespace

std::uint64_t solve_level(SolveState& s, std::uint32_t d) {
  Stopwatch clock;
  LevelCounts c;
  make_filter(s, d);
  Inboxes inboxes(s);
  c.frontier = send_and_receive(s, d, inboxes, c);
  c.t_messages = clock.lap();
  inboxes.sort();
  c.spilled = inboxes.spilled_runs();
  c.t_sort = clock.lap();
  if ((c.messages = s.total(inboxes.size())) == 0) return quiet_level(s, d);
  const LevelRuns outs = merge_shards(s, d, inboxes, c.merged);
  share_filter_clears(s);
  c.undecided = LevelRuns::records(outs.states);
  c.t_merge = clock.lap();
  record_level(s, d, outs, level_facts(s, c));
  report_level(d, c);
  return s.total(c.merged.decided);
}

}  // namespace zermelo::retro
