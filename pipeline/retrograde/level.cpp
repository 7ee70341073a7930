// Step 5: one level. Messages from F_d (and the work scheduled for d) are sent (5a), sorted, and
// merged into S_d (5b), giving S_{d+1} and F_{d+1}; the level is then recorded, superseding the
// one before.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

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

// The filter of undecided groups, once a process, when the game numbers groups and the bitmap
// takes at most a quarter of what the level's sorter could have.
void make_filter(SolveState& s, std::uint32_t d) {
  if (s.filter || !s.opt.message_filter) return;
  const std::uint64_t bytes = UndecidedFilter::bytes_for(s.game, s.opt.tier);
  const std::uint64_t floor = kPassOverhead + kMinSorter;
  if (bytes > 0 && s.opt.memory_bytes >= floor && bytes <= (s.opt.memory_bytes - floor) / 4)
    s.filter = std::make_unique<UndecidedFilter>(s.game, s.opt.tier, s.files.path(Run::states, d));
}

// The messages' sorter, in the budget the filter leaves.
SortOptions message_sort(const SolveState& s) {
  const std::uint64_t memory = s.opt.memory_bytes - (s.filter ? s.filter->bytes() : 0);
  SortOptions o = sort_options_within(memory, s, Sorter::messages);
  o.raw_spill_bytes = s.opt.raw_run_bytes;  // read once, soon: raw I/O beats zstd while it fits
  o.run.delta_u64_keys = true;              // messages are sorted words
  return o;
}

// Level d is done: its outputs (S_{d+1}, F_{d+1}) replace level d-1's. The frontier it wrote is
// also a decided run (values in d+1 plies), kept for the values run under a stage of its own.
void record_level(SolveState& s, std::uint32_t d, const std::vector<RunInfo>& outs,
                  const nlohmann::json& facts) {
  s.record(Stage::level(d), outs, facts);
  if (outs[1].record_count > 0) s.record(Stage::decided(d + 1), {outs[1]});
  s.erase(d > 0 ? Stage::level(d - 1) : Stage::initial_states());
  if (outs[0].path != s.files.path(Run::states, d)) s.files.remove(Run::states, d);
  if (!s.done(Stage::decided(d))) s.files.remove(Run::frontier, d);
}

// A level with no messages changes nothing: S_{d+1} is S_d, renamed rather than rewritten.
std::uint64_t quiet_level(SolveState& s, std::uint32_t d) {
  std::filesystem::rename(s.files.path(Run::states, d), s.files.path(Run::states, d + 1));
  const RunInfo states = inspect_run(s.files.path(Run::states, d + 1));
  const RunInfo f = RunWriter(s.files.path(Run::frontier, d + 1), run_options<KeyValue>()).finish();
  record_level(s, d, {states, f},
               {{"frontier", 0},
                {"messages", 0},
                {"decided", 0},
                {"undecided", states.record_count},
                {"copied_total", s.copied_total},
                {"filtered_total", s.filtered_total}});
  return 0;
}

// What a level did, for its stage's facts and its line on stderr.
struct LevelCounts {
  std::uint64_t frontier = 0, messages = 0, filtered = 0, undecided = 0;
  MergeCounts merged;
  double t_messages = 0, t_sort = 0, t_merge = 0;
};

nlohmann::json level_facts(SolveState& s, const LevelCounts& c) {
  return {{"frontier", c.frontier},
          {"messages", c.messages},
          {"filtered", c.filtered},
          {"decided", c.merged.decided},
          {"undecided", c.undecided},
          {"copied", c.merged.copied},
          {"copied_total", s.copied_total += c.merged.copied},
          {"filtered_total", s.filtered_total += c.filtered},
          {"delivered", c.merged.delivered}};
}

void report_level(std::uint32_t d, const LevelCounts& c) {
  Progress::note(
      "level " + std::to_string(d) + ": " + std::to_string(c.frontier) + " frontier states, " +
      std::to_string(c.messages) + " messages sorted (" + std::to_string(c.merged.delivered) +
      " to undecided states, " + std::to_string(c.filtered) + " more dropped by the filter), " +
      std::to_string(c.merged.decided) + " decided, " + std::to_string(c.undecided) +
      " undecided (" + std::to_string(c.merged.copied) + " in blocks copied untouched); un-moves " +
      fmt_secs(c.t_messages) + ", sort " + fmt_secs(c.t_sort) + ", merge " + fmt_secs(c.t_merge));
}

}  // namespace

std::uint64_t solve_level(SolveState& s, std::uint32_t d) {
  Stopwatch clock;
  LevelCounts c;
  make_filter(s, d);
  ExternalSorter<Msg> msgs(message_sort(s));
  c.frontier = send_messages(s, d, msgs, c.filtered);
  c.t_messages = clock.lap();
  msgs.sort();
  c.t_sort = clock.lap();
  if ((c.messages = msgs.size()) == 0) return quiet_level(s, d);
  // Decoded ahead: the merge's own work waits for no zstd.
  RunReader in(s.files.path(Run::states, d), IoOptions{}, /*decode_ahead=*/true);
  RunWriter out(s.files.path(Run::states, d + 1), undecided_run_options(in.size(), s.opt));
  RunWriter next_f(s.files.path(Run::frontier, d + 1), run_options<KeyValue>());
  c.merged = merge_messages(s, d, msgs, in, out, next_f);
  const std::vector<RunInfo> outs{out.finish(), next_f.finish()};
  c.undecided = outs[0].record_count;
  c.t_merge = clock.lap();
  record_level(s, d, outs, level_facts(s, c));
  report_level(d, c);
  return c.merged.decided;
}

}  // namespace zermelo::retro
