// Out-of-core retrograde analysis; see include/zermelo/engine/retrograde.hpp for the algorithm.
#include "zermelo/engine/retrograde.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <omp.h>
#include <stdexcept>

#include "pipeline/exit_values.hpp"
#include "pipeline/retrograde_records.hpp"
#include "pipeline/solve_record.hpp"
#include "pipeline/tier_values.hpp"
#include "pipeline/undecided_filter.hpp"
#include "zermelo/io/run_file.hpp"
#include "zermelo/pipeline/manifest.hpp"
#include "zermelo/pipeline/solved_database.hpp"
#include "zermelo/sort/external_sort.hpp"
#include "zermelo/util/progress.hpp"

namespace zermelo {
namespace fs = std::filesystem;
using namespace retro;

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

// Readers, writers and slack held beside a sorter during a pass.
constexpr std::uint64_t kPassOverhead = 48ull << 20;
// The least memory a sorter is given (what an initial-scan sorter that receives nothing gets).
constexpr std::uint64_t kMinSorter = 24ull << 20;
// States expanded per parallel batch (their outputs are buffered per thread, so this bounds memory).
constexpr std::size_t kBatch = 1u << 15;

RunOptions run_options(const std::string& type, std::uint32_t size) {
  RunOptions o;
  o.record_type = type;
  o.record_size = size;
  o.sort_key = "key asc";
  o.delta_u64_keys = type != "retro.levelmsg";  // every other record starts with its sorted u64 key
  // Working runs store byte planes (several times smaller and faster through zstd); the values
  // run keeps the plain layout, so its digest stays what earlier versions and the in-RAM solver write.
  o.shuffle_bytes = type != "values";
  return o;
}

// Runs that are rewritten every level (undecided states, spilled messages) are stored without
// compression while they are below SolveOptions::raw_run_bytes: raw I/O is cheaper than even zstd
// on byte planes, and a level is bound by that CPU, not by the disk (bench/RESULTS.md). Beyond
// it they are compressed, so that the disk holds the largest tiers.
RunOptions working_run_options(const std::string& type, std::uint32_t size, std::uint64_t expected_records, const SolveOptions& opt) {
  RunOptions o = run_options(type, size);
  if (expected_records * size <= opt.raw_run_bytes) o.zstd_level = 0;
  o.block_bytes = opt.block_bytes;
  return o;
}

// `share` of the budget left after the pass's readers and writers: sorters alive at the same
// time split the budget between them.
SortOptions sort_options(const SolveOptions& opt, const std::string& name, unsigned share = 1) {
  SortOptions s;
  s.scratch_dir = opt.job_dir + "/" + name + ".sort";
  if (opt.memory_bytes < kPassOverhead + share * kMinSorter)
    throw std::invalid_argument("--memory " + std::to_string(opt.memory_bytes >> 20) + "M is too small for the solver (need " +
                                std::to_string((kPassOverhead + share * kMinSorter) >> 20) + "M or more)");
  s.memory_bytes = (opt.memory_bytes - kPassOverhead) / share;
  s.threads = opt.threads;
  s.run.shuffle_bytes = true;
  return s;
}

// Positions a run sorted by level at the block where level d may begin, found by binary search over
// the blocks' first records: the scheduled run of a large tier holds billions of messages, and
// reading past the earlier levels' every level would decompress all of them a hundred times over.
void skip_to_level(RunReader& run, std::uint32_t d) {
  const auto& blocks = run.info().blocks;
  auto first_level = [&](std::size_t b) {
    LevelMsg m;
    std::memcpy(&m, run.read_block(b).data(), sizeof m);
    return m.level;
  };
  std::size_t lo = 0, hi = blocks.size();  // the answer: the last block whose first level is below d
  while (hi - lo > 1) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (first_level(mid) < d) lo = mid;
    else hi = mid;
  }
  if (!blocks.empty()) run.skip_to(blocks[lo].first_record);
}

template <class T>
auto reader_fn(RunReader& r) {
  return [&r](T& x) { return r.next(x); };
}

void remove_quietly(const std::string& p) {
  std::error_code ec;
  fs::remove(p, ec);
}

// --max-states for a game that cannot count its states up front (Game::count_states): the
// enumeration stops at the first state over the limit, before any level is solved.
void refuse_states_over_the_limit(const Game& game, const SolveOptions& opt, std::uint64_t n) {
  if (opt.max_states == 0 || n <= opt.max_states) return;
  throw std::invalid_argument(game.name() + " tier " + opt.tier + ": more than --max-states " +
                              std::to_string(opt.max_states) + " states (the enumeration stopped there)");
}

// The states of a tier, sorted and unique, as a run: enumerate -> sort -> dedupe.
RunInfo sorted_states(const Game& game, const SolveOptions& opt, const std::string& out_path) {
  if (game.enumerates_in_key_order()) {  // straight to the run, checking the order
    RunWriter out(out_path, run_options("retro.key", sizeof(std::uint64_t)));
    Progress bar("enumerate " + game.name() + " " + opt.tier);
    std::uint64_t prev = 0, n = 0;
    game.enumerate(opt.tier, [&](StateKey k) {
      if (n > 0 && k <= prev)
        throw std::logic_error(game.name() + ": enumerate promised increasing keys but emitted " + std::to_string(k) + " after " +
                               std::to_string(prev));
      out.push(k);
      prev = k;
      refuse_states_over_the_limit(game, opt, ++n);
      if ((n & 0xFFFF) == 0) bar.add(0x10000);
    });
    return out.finish();
  }
  ExternalSorter<std::uint64_t> keys(sort_options(opt, "enumerate"));
  {
    Progress bar("enumerate " + game.name() + " " + opt.tier);
    std::uint64_t n = 0;
    game.enumerate(opt.tier, [&](StateKey k) {
      keys.push(k);
      refuse_states_over_the_limit(game, opt, ++n);
      if ((n & 0xFFFF) == 0) bar.add(0x10000);
    });
  }
  keys.sort();
  RunWriter out(out_path, run_options("retro.key", sizeof(std::uint64_t)));
  std::uint64_t k, prev = 0;
  bool first = true;
  while (keys.next(k)) {
    if (!first && k == prev) throw std::logic_error(game.name() + ": enumerate emitted state " + std::to_string(k) + " twice");
    out.push(k);
    prev = k, first = false;
  }
  return out.finish();
}

class OutOfCoreSolver {
 public:
  OutOfCoreSolver(const Game& g, const SolveOptions& o)
      : game_(g), opt_(o),
        manifest_(o.job_dir, "retrograde", retrograde_identity(g, o)) {
    manifest_.describe("game", game_description(g));
  }

  SolveResult run() {
    SolveResult res;
    const std::string values = path("values-" + opt_.tier + ".run");
    if (manifest_.done("final")) {
      drop_working_runs();  // a kill right after "final" may have left some

      return result_from(manifest_.facts("final"), values, true);
    }
    forget_damaged_stages(manifest_);  // a damaged level: the levels start again from the scan
    if (!manifest_.done("init") || !(manifest_.done("initial-states") || any_level_done())) init();
    else res.resumed = true;
    max_scheduled_ = manifest_.facts("init")["max_scheduled_level"];
    std::uint32_t d = 0;
    for (auto& s : manifest_.stages())  // resume after the last finished level
      if (s.rfind("level-", 0) == 0 && manifest_.done(s)) d = std::max(d, static_cast<std::uint32_t>(std::stoul(s.substr(6))) + 1), res.resumed = true;
    if (d > 0) {
      const nlohmann::json& last = manifest_.facts("level-" + std::to_string(d - 1));
      copied_total_ = last.value("copied_total", std::uint64_t{0});
      filtered_total_ = last.value("filtered_total", std::uint64_t{0});
    }
    // A kill between recording a level and its decided run: list the decided run now.
    if (d > 0 && !manifest_.done("decided-" + std::to_string(d)) && fs::exists(frontier_path(d))) {
      RunInfo f = inspect_run(frontier_path(d));
      if (f.record_count > 0) manifest_.record("decided-" + std::to_string(d), {f});
    }
    for (;; ++d) {
      std::uint64_t decided = level(d);
      if (decided == 0 && d >= max_scheduled_) break;
    }
    finish(d + 1, values);
    return result_from(manifest_.facts("final"), values, res.resumed);
  }

 private:
  std::string path(const std::string& name) const { return manifest_.path(name); }
  bool any_level_done() const {
    for (auto& s : manifest_.stages())
      if (s.rfind("level-", 0) == 0 && manifest_.done(s)) return true;
    return false;
  }
  std::string states_path(std::uint32_t d) const { return path("states-" + std::to_string(d) + ".run"); }
  std::string frontier_path(std::uint32_t d) const { return path("frontier-" + std::to_string(d) + ".run"); }

  std::string part_path(const std::string& what, std::size_t chunk) const {
    return path(what + "-" + std::to_string(chunk) + ".run");
  }
  static std::string chunk_stage(std::size_t chunk) { return "init-chunk-" + std::to_string(chunk); }

  // Scan every state once: values fixed by the rules, children counted, terminal moves and
  // children in lower tiers scheduled as messages, reverse edges built if the game has no un-moves.
  // The scan runs in chunks of the sorted keys, each a manifest stage of its own (a tier of
  // billions of states takes hours to scan: a kill costs one chunk), then the parts are joined.
  void init() {
    const bool reverse_edges = !(opt_.use_predecessors && game_.has_predecessors());
    if (!manifest_.done("enumerate")) manifest_.record("enumerate", {sorted_states(game_, opt_, path("keys.run"))});
    const std::uint64_t total = inspect_run(path("keys.run")).record_count;
    const std::uint64_t chunk = std::max<std::uint64_t>(1, opt_.init_chunk_states);
    const std::size_t chunks = static_cast<std::size_t>(std::max<std::uint64_t>(1, (total + chunk - 1) / chunk));
    bool chunks_left = false;
    for (std::size_t i = 0; i < chunks; ++i) chunks_left = chunks_left || !manifest_.done(chunk_stage(i));
    if (chunks_left) load_exit_values();
    Progress bar("init " + game_.name() + " " + opt_.tier, total);
    for (std::size_t i = 0; i < chunks; ++i) {
      const std::uint64_t lo = i * chunk, hi = std::min(total, lo + chunk);
      if (!manifest_.done(chunk_stage(i))) init_chunk(i, lo, hi, reverse_edges, bar);
      else bar.add(hi - lo);
    }
    bar.finish();
    exits_.reset();
    join_init_parts(chunks, total, reverse_edges);
  }

  // The lower tiers' values in an array by exit slot, when the game numbers its exits and the
  // array leaves the scan's sorters room (ExitValues). Chunks are self-contained either way (a
  // state's pending count and its messages come from the same chunk), so a resumed scan may
  // take the other way under another budget and still give the same values.
  void load_exit_values() {
    const std::uint64_t bytes = ExitValues::bytes_for(game_, opt_.tier);
    if (!opt_.exit_values || opt_.lower_tier_values.empty() || bytes == 0) return;
    // At most half of what the scan's three sorters could have, so that the busy ones keep room.
    const std::uint64_t floor = kPassOverhead + 3 * kMinSorter;
    if (opt_.memory_bytes < floor || bytes > (opt_.memory_bytes - floor) / 2) {
      Progress::note("init: the exit values need " + std::to_string(bytes >> 20) + " MiB, more than --memory leaves; looking them up instead");
      return;
    }
    exits_ = std::make_unique<ExitValues>(game_, opt_.tier, opt_.lower_tier_values);
    Progress::note("init: exit values in memory: " + std::to_string(bytes >> 20) + " MiB");
  }

  // Keys [lo, hi): undecided states, decided states, scheduled messages (sorted by level, key),
  // lookups of children in lower tiers and reverse edges (sorted by child), each a part run.
  void init_chunk(std::size_t part, std::uint64_t lo, std::uint64_t hi, bool reverse_edges, Progress& bar) {
    RunWriter states(part_path("undecided", part), run_options("retro.undecided", sizeof(Undecided)));
    RunWriter decided(part_path("decided-init", part), run_options("retro.keyvalue", sizeof(KeyValue)));
    // The sorters that receive records split what the exit values leave; an idle one gets a token.
    const ExitValues* exits = exits_.get();
    const bool look_up = !opt_.lower_tier_values.empty() && !exits;
    const unsigned busy = 1 + unsigned{look_up} + unsigned{reverse_edges};
    SolveOptions busy_opt = opt_, idle_opt = opt_;
    busy_opt.memory_bytes -= (exits ? exits->bytes() : 0) + (3 - busy) * kMinSorter;
    idle_opt.memory_bytes = kPassOverhead + kMinSorter;
    ExternalSorter<LevelMsg> scheduled(sort_options(busy_opt, "scheduled", busy));
    ExternalSorter<Edge> edges(reverse_edges ? sort_options(busy_opt, "edges", busy) : sort_options(idle_opt, "edges")),
        lookups(look_up ? sort_options(busy_opt, "lookups", busy) : sort_options(idle_opt, "lookups"));
    std::uint64_t exit_moves = 0;
    std::uint32_t max_level = 0;
    const std::string tier = opt_.tier;
    RunReader keys(path("keys.run"));
    keys.skip_to(lo);
    std::uint64_t left = hi - lo;
    StateKey s;
    // Batches of states, expanded on all threads; results are pushed in key order by this thread.
    const int T = static_cast<int>(std::max(1u, opt_.threads));
    std::vector<StateKey> batch;
    struct InitRec {
      std::uint64_t key;
      std::uint32_t pending;
      std::uint16_t value;
    };
    std::vector<InitRec> recs;
    std::vector<std::vector<LevelMsg>> t_sched(static_cast<std::size_t>(T));
    std::vector<std::vector<Edge>> t_look(static_cast<std::size_t>(T)), t_edge(static_cast<std::size_t>(T));
    std::vector<std::string> t_error(static_cast<std::size_t>(T));
    std::vector<std::uint64_t> t_exits(static_cast<std::size_t>(T), 0);
    bool more = true;
    while (more) {
      batch.clear();
      while (batch.size() < kBatch && (more = left > 0 && keys.next(s))) batch.push_back(s), --left;
      recs.assign(batch.size(), InitRec{0, 0, 0});
#pragma omp parallel num_threads(T)
      {
        const auto t = static_cast<std::size_t>(omp_get_thread_num());
        std::vector<Child> kids;
#pragma omp for schedule(dynamic, 1024)
        for (std::size_t i = 0; i < batch.size(); ++i) {
          if (!t_error[t].empty()) continue;
          try {
            const StateKey k = batch[i];
            InitRec& rec = recs[i];
            rec.key = k;
            Value tv = game_.terminal_value(k);
            if (tv.is_known()) {
              rec.value = tv.raw();
              // A value in 0 plies needs no messages: every parent applies it while scanned here.
              if ((tv.is_win() || tv.is_loss()) && tv.plies() > 0) t_sched[t].push_back(LevelMsg{tv.plies(), kSeed, tv.raw(), k});
              continue;
            }
            if (reverse_edges) game_.successors(k, kids);
            else game_.successor_outcomes(k, kids);  // un-moves find parents: child keys are not needed
            if (kids.empty()) throw std::logic_error(game_.name() + ": state " + std::to_string(k) + " has no moves and no terminal value");
            rec.pending = static_cast<std::uint32_t>(kids.size());
            bool lost_child_now = false;
            ExitSummary exit;
            for (auto& c : kids) {
              // Children whose value the rules fix in 0 plies (game-ending moves, checkmates) are
              // applied at once, instead of as level-0 messages: that is most of level 0's work.
              Value cv = c.is_terminal() ? c.terminal : c.rule_known ? c.rule : game_.terminal_value(c.key);
              if (cv.is_known() && cv.plies() == 0 && !cv.is_draw()) {
                if (cv.is_loss()) lost_child_now = true;
                else --rec.pending;
              } else if (c.is_terminal()) {
                if (cv.is_win() || cv.is_loss()) t_sched[t].push_back(LevelMsg{cv.plies(), kMessage, cv.raw(), k});
              } else if (!c.is_unkeyed_in_tier() && !opt_.lower_tier_values.empty() && game_.tier_of(c.key) != tier) {
                if (exits) exit.add(exits->find(c.key, k));
                else t_look[t].push_back(Edge{c.key, k});
              } else if (reverse_edges) {
                t_edge[t].push_back(Edge{c.key, k});
              }
            }
            if (exit.count() > 0) rec.pending -= exit.count() - 1, t_exits[t] += exit.count();
            Value now = lost_child_now ? Value::win(1) : rec.pending == 0 ? Value::loss(1) : Value::unknown();
            if (now.is_known()) {
              rec.value = now.raw();
              t_sched[t].push_back(LevelMsg{1, kSeed, now.raw(), k});
            } else if (const Value m = exit.message(); m.is_known()) {
              t_sched[t].push_back(LevelMsg{m.plies(), kMessage, m.raw(), k});
            }
          } catch (const std::exception& e) {
            t_error[t] = e.what();
          }
        }
      }
      for (std::size_t t = 0; t < t_sched.size(); ++t) {
        if (!t_error[t].empty()) throw std::runtime_error(t_error[t]);
        for (auto& m : t_sched[t]) {
          scheduled.push(m);
          max_level = std::max(max_level, m.level);
        }
        for (auto& e : t_look[t]) lookups.push(e);
        for (auto& e : t_edge[t]) edges.push(e);
        t_sched[t].clear(), t_look[t].clear(), t_edge[t].clear();
        exit_moves += t_exits[t], t_exits[t] = 0;
      }
      for (const InitRec& r : recs) {
        if (r.value) decided.push(KeyValue{r.key, r.value});
        else states.push(Undecided{r.key, r.pending, 0});
      }
      bar.add(batch.size());
    }
    std::vector<RunInfo> outs{states.finish(), decided.finish()};
    scheduled.sort();
    outs.push_back(scheduled.write_to(part_path("scheduled", part), run_options("retro.levelmsg", sizeof(LevelMsg))));
    lookups.sort();
    outs.push_back(lookups.write_to(part_path("lookups", part), run_options("retro.edge", sizeof(Edge))));
    edges.sort();
    outs.push_back(edges.write_to(part_path("edges", part), run_options("retro.edge", sizeof(Edge))));
    manifest_.record(chunk_stage(part), outs, {{"max_scheduled_level", max_level}, {"exit_moves_settled", exit_moves}});
  }

  // The chunks' parts joined: S_0 (concatenated: chunks are key ranges in order), the scheduled
  // run (the chunks' runs and the lower tiers' answers merged), the reverse edges (merged).
  // The decided parts stay as they are: the final merge takes them with the levels' decided runs.
  void join_init_parts(std::size_t chunks, std::uint64_t total, bool reverse_edges) {
    std::uint32_t max_level = 0;
    std::uint64_t undecided = 0, exit_moves = 0;
    for (std::size_t i = 0; i < chunks; ++i) {
      max_level = std::max<std::uint32_t>(max_level, manifest_.facts(chunk_stage(i))["max_scheduled_level"]);
      exit_moves += manifest_.facts(chunk_stage(i)).value("exit_moves_settled", std::uint64_t{0});
      undecided += inspect_run(part_path("undecided", i)).record_count;
    }
    RunWriter states(states_path(0), working_run_options("retro.undecided", sizeof(Undecided), undecided, opt_));
    Progress join_bar("init: join the undecided parts", undecided);
    for (std::size_t i = 0; i < chunks; ++i) {
      RunReader part(part_path("undecided", i));
      const void* recs;
      while (std::size_t k = part.next_span(&recs, 1u << 16)) states.append_many(recs, k), join_bar.add(k);
    }
    join_bar.finish();
    RunInfo s0 = states.finish();
    std::vector<std::string> sched_parts, lookup_parts, edge_parts;
    for (std::size_t i = 0; i < chunks; ++i)
      sched_parts.push_back(part_path("scheduled", i)), lookup_parts.push_back(part_path("lookups", i)),
          edge_parts.push_back(part_path("edges", i));
    {  // children in lower tiers: their values, merge-joined, become scheduled messages too
      ExternalSorter<Edge> lookups(sort_options(opt_, "lookups", 2), lookup_parts);
      ExternalSorter<LevelMsg> answers(sort_options(opt_, "answers", 2));
      TierValues lower(opt_.lower_tier_values);
      Progress look_bar("init: children in lower tiers", lookups.size());
      Edge e;
      while (lookups.next(e)) {
        look_bar.add(1);
        Value v = lower.find(e.child);
        if (!v.is_known())
          throw std::runtime_error(game_.name() + ": child " + std::to_string(e.child) + " of " + std::to_string(e.parent) +
                                   " is in no lower tier's values run");
        if (!v.is_win() && !v.is_loss()) continue;  // draws decide nothing on their own
        answers.push(LevelMsg{v.plies(), kMessage, v.raw(), e.parent});
        max_level = std::max(max_level, v.plies());
      }
      answers.sort();
      answers.write_to(path("answers.run"), run_options("retro.levelmsg", sizeof(LevelMsg)));
    }
    sched_parts.push_back(path("answers.run"));
    std::vector<RunInfo> outs{
        ExternalSorter<LevelMsg>(sort_options(opt_, "scheduled"), sched_parts)
            .write_to(path("scheduled.run"), run_options("retro.levelmsg", sizeof(LevelMsg)))};
    if (reverse_edges)
      outs.push_back(ExternalSorter<Edge>(sort_options(opt_, "edges"), edge_parts).write_to(path("edges.run"), run_options("retro.edge", sizeof(Edge))));
    for (std::size_t i = 0; i < chunks; ++i) outs.push_back(inspect_run(part_path("decided-init", i)));
    manifest_.record("init", outs, {{"max_scheduled_level", max_level}, {"states", total}, {"undecided", s0.record_count},
                                    {"reverse_edges", reverse_edges}, {"chunks", chunks}, {"exit_moves_settled", exit_moves}});
    // S_0, and level 0's frontier, which comes from the seeds alone: an empty run. Superseded by level 0.
    RunInfo f0 = RunWriter(frontier_path(0), run_options("retro.keyvalue", sizeof(KeyValue))).finish();
    manifest_.record("initial-states", {s0, f0});
    for (std::size_t i = 0; i < chunks; ++i) {
      manifest_.erase(chunk_stage(i));
      for (const char* what : {"undecided", "scheduled", "lookups", "edges"}) remove_quietly(part_path(what, i));
    }
    remove_quietly(path("answers.run"));
    manifest_.erase("enumerate");
    remove_quietly(path("keys.run"));
  }

  // The messages of level d: the frontier F_d and the seeds scheduled for d (merged by key), each
  // sent to its predecessors, and the messages scheduled for d. Returns the frontier's size.
  std::uint64_t send_messages(std::uint32_t d, ExternalSorter<Msg>& msgs, std::uint64_t& filtered) {
    std::uint64_t frontier_size = 0;
    const UndecidedFilter* filter = filter_.get();
    auto send = [&](StateKey parent, bool child_lost) {
      if (filter && !filter->may_be_undecided(parent)) ++filtered;
      else msgs.push(Msg::to(parent, child_lost));
    };
    RunReader frontier(frontier_path(d));
    RunReader scheduled(path("scheduled.run"));
    LevelMsg lm;
    // Past the last scheduled level the run has nothing left for us: do not read it again.
    if (d <= max_scheduled_) skip_to_level(scheduled, d);
    bool has_lm = d <= max_scheduled_ && scheduled.next(lm);
    while (has_lm && lm.level < d) has_lm = scheduled.next(lm);
    // The frontier is F_d plus the seeds of level d, merged by key (edge joins need key order).
    KeyValue f;
    bool has_f = frontier.next(f);
    auto next_frontier = [&](KeyValue& out) {
      while (has_lm && lm.level == d && lm.kind == kMessage) {
        const Value v = Value::from_raw(lm.value);
        if (v.is_win() || v.is_loss()) send(lm.key, v.is_loss());
        has_lm = scheduled.next(lm);
      }
      bool seed = has_lm && lm.level == d;
      if (!has_f && !seed) return false;
      ++frontier_size;
      if (has_f && (!seed || f.key < lm.key)) {
        out = f;
        has_f = frontier.next(f);
      } else {
        out = KeyValue{lm.key, lm.value};
        has_lm = scheduled.next(lm);
      }
      return true;
    };
    Progress bar("level " + std::to_string(d) + " messages");
    if (game_.has_predecessors() && opt_.use_predecessors) {
      // Un-moves of batches of the frontier on all threads.
      const int T = static_cast<int>(std::max(1u, opt_.threads));
      std::vector<KeyValue> batch;
      std::vector<std::vector<Msg>> out(static_cast<std::size_t>(T));
      std::vector<std::uint64_t> t_filtered(static_cast<std::size_t>(T), 0);
      KeyValue s;
      bool more = true;
      while (more) {
        batch.clear();
        while (batch.size() < kBatch && (more = next_frontier(s))) batch.push_back(s);
#pragma omp parallel num_threads(T)
        {
          const auto t = static_cast<std::size_t>(omp_get_thread_num());
          std::vector<StateKey> preds;
#pragma omp for schedule(dynamic, 1024)
          for (std::size_t i = 0; i < batch.size(); ++i) {
            game_.predecessors(batch[i].key, preds);
            const bool lost = Value::from_raw(batch[i].value).is_loss();
            for (StateKey p : preds) {
              if (filter && !filter->may_be_undecided(p)) ++t_filtered[t];
              else out[t].push_back(Msg::to(p, lost));
            }
          }
        }
        for (auto& o : out) {
          for (auto& m : o) msgs.push(m);
          o.clear();
        }
        for (auto& n : t_filtered) filtered += n, n = 0;
        bar.add(batch.size());
      }
    } else {
      RunReader edges(path("edges.run"));  // sorted by child: many parents per child
      KeyValue s;
      bool has_s = next_frontier(s);
      Edge e;
      while (has_s && edges.next(e)) {
        while (has_s && s.key < e.child) has_s = next_frontier(s);
        if (has_s && s.key == e.child) send(e.parent, Value::from_raw(s.value).is_loss()), bar.add(1);
      }
      while (next_frontier(s)) {  // drain: scheduled messages still to be pushed
      }
    }
    return frontier_size;
  }

  struct MergeCounts {
    std::uint64_t decided = 0;
    std::uint64_t copied = 0;     // undecided states passed on in blocks no message reached
    std::uint64_t delivered = 0;  // messages that reached an undecided state
  };

  // Merge-joins the sorted messages into S_d, writing S_{d+1} (still undecided) and F_{d+1}.
  MergeCounts merge_messages(std::uint32_t d, ExternalSorter<Msg>& msgs, RunReader& in, RunWriter& out, RunWriter& next_f) {
    MergeCounts c;
    Msg m;
    bool has_m = msgs.next(m);
    Progress bar("level " + std::to_string(d) + " merge", in.size());
    // A block of states that no message reaches is copied as stored, neither decompressed nor
    // compressed again: late levels reach few blocks, and the undecided run is mostly draws.
    const bool copy_blocks = out.can_take_blocks_of(in.info());
    const auto& blocks = in.info().blocks;
    std::vector<std::byte> stored;
    UndecidedFilter* filter = filter_.get();  // told of every state's fate, to clear decided groups
    auto copy_untouched_blocks = [&] {
      while (copy_blocks && in.at_block_end() && in.next_block_index() < blocks.size()) {
        const std::size_t b = in.next_block_index();
        const std::uint64_t end = b + 1 < blocks.size() ? blocks[b + 1].first_key : ~std::uint64_t{0};
        while (has_m && m.key() < blocks[b].first_key) has_m = msgs.next(m);  // to decided states
        in.will_copy_blocks_below(has_m ? std::optional<std::uint64_t>(m.key()) : std::nullopt);  // not decoded ahead
        if (has_m && m.key() < end) return;
        // Copying ends the block being filled; under half full, decode instead (blocks stay large).
        if (out.pending_records() != 0 && out.pending_records() < out.block_records() / 2) return;
        in.read_stored_block(stored);
        out.append_stored_block(blocks[b], stored);
        if (filter) filter->copied_block(blocks[b].first_key);
        const std::uint64_t records = blocks[b].raw_bytes / sizeof(Undecided);
        c.copied += records;
        bar.add(records);
      }
    };
    const void* span;
    for (;;) {
      copy_untouched_blocks();
      const std::size_t n = in.next_span(&span, 1u << 16);
      if (n == 0) break;
      const auto* states = static_cast<const Undecided*>(span);
      std::size_t unchanged_from = 0;  // states[unchanged_from, i) got no message: copied as a block
      for (std::size_t i = 0; i < n; ++i) {
        Undecided s = states[i];
        // Skipped: messages to decided states and to states outside this tier.
        while (has_m && m.key() < s.key) has_m = msgs.next(m);
        bool lost_child = false;
        std::uint32_t won_children = 0;
        for (; has_m && m.key() == s.key; has_m = msgs.next(m)) {
          if (m.child_lost()) lost_child = true;
          else ++won_children;
          ++c.delivered;
        }
        if (!lost_child && !won_children) {
          if (filter) filter->state(s.key, true);
          continue;
        }
        out.append_many(states + unchanged_from, i - unchanged_from);
        unchanged_from = i + 1;
        if (won_children > s.pending) throw std::logic_error(game_.name() + ": more won children than moves at state " + std::to_string(s.key));
        s.pending -= won_children;
        Value v = lost_child ? Value::win(d + 1) : s.pending == 0 ? Value::loss(d + 1) : Value::unknown();
        if (v.is_known()) {
          next_f.push(KeyValue{s.key, v.raw()});
          ++c.decided;
        } else {
          out.push(s);
        }
        if (filter) filter->state(s.key, !v.is_known());
      }
      out.append_many(states + unchanged_from, n - unchanged_from);
      bar.add(n);
    }
    if (filter) filter->end_of_run();
    bar.finish();
    return c;
  }

  // One level: messages from F_d (and scheduled work for d), sorted, merged into S_d -> S_{d+1}, F_{d+1}.
  std::uint64_t level(std::uint32_t d) {
    Stopwatch clock;
    SolveOptions level_opt = opt_;  // the budget the filter of undecided groups leaves
    if (!filter_ && opt_.message_filter) {
      const std::uint64_t bytes = UndecidedFilter::bytes_for(game_, opt_.tier);
      if (bytes > 0 && opt_.memory_bytes >= kPassOverhead + kMinSorter && bytes <= (opt_.memory_bytes - kPassOverhead - kMinSorter) / 4)
        filter_ = std::make_unique<UndecidedFilter>(game_, opt_.tier, states_path(d));
    }
    if (filter_) level_opt.memory_bytes -= filter_->bytes();
    SortOptions msg_sort = sort_options(level_opt, "messages");
    msg_sort.raw_spill_bytes = opt_.raw_run_bytes;  // read once, soon: raw I/O beats zstd while the disk has room
    msg_sort.run.delta_u64_keys = true;             // messages are sorted words
    ExternalSorter<Msg> msgs(msg_sort);
    std::uint64_t filtered = 0;
    const std::uint64_t frontier_size = send_messages(d, msgs, filtered);
    const double t_messages = clock.lap();
    msgs.sort();
    const double t_sort = clock.lap();
    if (msgs.size() == 0) return quiet_level(d);
    RunReader in(states_path(d), IoOptions{}, /*decode_ahead=*/true);  // the merge's own work waits for no zstd
    RunWriter out(states_path(d + 1), working_run_options("retro.undecided", sizeof(Undecided), in.size(), opt_));
    RunWriter next_f(frontier_path(d + 1), run_options("retro.keyvalue", sizeof(KeyValue)));
    const MergeCounts c = merge_messages(d, msgs, in, out, next_f);
    std::vector<RunInfo> outs{out.finish(), next_f.finish()};
    const double t_merge = clock.lap();
    record_level(d, outs, {{"frontier", frontier_size}, {"messages", msgs.size()}, {"filtered", filtered}, {"decided", c.decided},
                           {"undecided", outs[0].record_count}, {"copied", c.copied}, {"copied_total", copied_total_ += c.copied},
                           {"filtered_total", filtered_total_ += filtered},
                           {"delivered", c.delivered}});
    Progress::note("level " + std::to_string(d) + ": " + std::to_string(frontier_size) + " frontier states, " +
                   std::to_string(msgs.size()) + " messages sorted (" + std::to_string(c.delivered) + " to undecided states, " +
                   std::to_string(filtered) + " more dropped by the filter), " +
                   std::to_string(c.decided) + " decided, " + std::to_string(outs[0].record_count) + " undecided (" +
                   std::to_string(c.copied) + " in blocks copied untouched); un-moves " + fmt_secs(t_messages) + ", sort " +
                   fmt_secs(t_sort) + ", merge " + fmt_secs(t_merge));
    return c.decided;
  }

  // Level d is done: its outputs replace level d-1's. The frontier it wrote is also a decided run
  // (values in d+1 plies), kept for the final values run under a stage of its own.
  void record_level(std::uint32_t d, const std::vector<RunInfo>& outs, const nlohmann::json& facts) {
    manifest_.record("level-" + std::to_string(d), outs, facts);
    if (outs[1].record_count > 0) manifest_.record("decided-" + std::to_string(d + 1), {outs[1]});
    manifest_.erase(d > 0 ? "level-" + std::to_string(d - 1) : "initial-states");
    if (outs[0].path != states_path(d)) remove_quietly(states_path(d));
    if (!manifest_.done("decided-" + std::to_string(d))) remove_quietly(frontier_path(d));
  }

  // A level with no messages changes nothing: S_{d+1} is S_d, renamed rather than rewritten.
  std::uint64_t quiet_level(std::uint32_t d) {
    fs::rename(states_path(d), states_path(d + 1));
    RunInfo s = inspect_run(states_path(d + 1));
    RunInfo f = RunWriter(frontier_path(d + 1), run_options("retro.keyvalue", sizeof(KeyValue))).finish();
    record_level(d, {s, f}, {{"frontier", 0}, {"messages", 0}, {"decided", 0}, {"undecided", s.record_count}, {"copied_total", copied_total_},
                                      {"filtered_total", filtered_total_}});
    return 0;
  }

  // The values run: the states decided at init and at every level (sorted runs, merged k ways)
  // and, between them, the states still undecided at the fixpoint, which are draws.
  void finish(std::uint32_t last, const std::string& values) {
    std::vector<std::string> decided_runs;
    const std::size_t chunks = manifest_.facts("init")["chunks"];
    for (std::size_t i = 0; i < chunks; ++i) decided_runs.push_back(part_path("decided-init", i));
    for (auto& st : manifest_.stages())
      if (st.rfind("decided-", 0) == 0) decided_runs.push_back(frontier_path(static_cast<std::uint32_t>(std::stoul(st.substr(8)))));
    ExternalSorter<KeyValue, KeyValueOrder> decided(sort_options(opt_, "final"), decided_runs);
    RunReader draws(states_path(last));
    RunWriter out(values, run_options("values", sizeof(KeyValue)));
    std::map<std::uint32_t, std::uint64_t> by_plies;
    std::uint64_t wins = 0, losses = 0, n_draws = 0, longest_key = 0;
    std::uint32_t longest = 0;
    Progress bar("values " + opt_.tier);
    auto next_draw = [&](KeyValue& kv) {
      Undecided u;
      if (!draws.next(u)) return false;
      kv = KeyValue{u.key, Value::draw().raw()};
      return true;
    };
    auto next_decided = [&](KeyValue& kv) { return decided.next(kv); };
    merge_join<KeyValue, KeyValue>(next_decided, next_draw, [](const KeyValue& kv) { return kv.key; },
                                   [](const KeyValue& kv) { return kv.key; }, [&](const KeyValue* a, const KeyValue* b) {
      if (a && b) throw std::logic_error(game_.name() + ": state " + std::to_string(a->key) + " is both decided and undecided");
      const KeyValue kv = a ? *a : *b;
      out.push(kv);
      bar.add(1);
      Value v = Value::from_raw(kv.value);
      if (v.is_draw()) return void(++n_draws);
      (v.is_win() ? wins : losses)++;
      by_plies[v.plies()]++;
      if (v.plies() > longest || (v.plies() == longest && longest_key == 0)) longest = v.plies(), longest_key = kv.key;
    });
    bar.finish();
    SolveResult r;
    r.states = wins + losses + n_draws, r.wins = wins, r.losses = losses, r.draws = n_draws;
    r.by_plies = by_plies, r.levels = last, r.longest = longest, r.longest_key = longest_key;
    r.copied_records = copied_total_, r.filtered_messages = filtered_total_;
    r.exit_moves_settled = manifest_.facts("init").value("exit_moves_settled", std::uint64_t{0});
    manifest_.record("final", {out.finish()}, final_facts(r));
    drop_working_runs();
  }

  // Once "final" is recorded only the values run and the manifest are kept.
  void drop_working_runs() {
    for (auto& st : manifest_.stages())
      if (st != "final") manifest_.erase(st);
    std::vector<std::string> working;
    for (const auto& e : fs::directory_iterator(opt_.job_dir)) {
      const std::string name = e.path().filename().string();
      bool is_working = name == "keys.run" || name == "answers.run";
      for (const char* prefix : {"states-", "frontier-", "scheduled", "edges", "decided-init-", "undecided-", "lookups-"})
        is_working = is_working || name.rfind(prefix, 0) == 0;
      if (is_working)
        working.push_back(e.path().string());
    }
    for (auto& w : working) remove_quietly(w);
  }

  SolveResult result_from(const nlohmann::json& f, const std::string& values, bool resumed) {
    return result_from_final(f, values, resumed);
  }

  const Game& game_;
  SolveOptions opt_;
  Manifest manifest_;
  std::uint32_t max_scheduled_ = 0;  // the last level with scheduled work (from the initial scan)
  std::uint64_t copied_total_ = 0;   // undecided states passed through in untouched blocks, all levels
  std::uint64_t filtered_total_ = 0;  // messages the filter of undecided groups dropped, all levels
  std::unique_ptr<ExitValues> exits_;  // during the initial scan, if the game numbers its exits
  std::unique_ptr<UndecidedFilter> filter_;  // during the levels, if the game numbers groups of states
};

}  // namespace

SolveResult solve_retrograde_in_ram(const Game& game, const SolveOptions& opt);  // retrograde_ram.cpp

// The in-RAM solver's result, recorded in a manifest like the out-of-core one's, so that readers
// of the work dir are bound to it the same way (and a finished solve is not redone).
SolveResult solve_in_ram_recorded(const Game& game, const SolveOptions& opt) {
  Manifest manifest(opt.job_dir, "retrograde", retrograde_identity(game, opt));
  manifest.describe("game", game_description(game));
  const std::string values = manifest.path("values-" + opt.tier + ".run");
  if (manifest.done("final")) return result_from_final(manifest.facts("final"), values, true);
  SolveResult r = solve_retrograde_in_ram(game, opt);
  manifest.record("final", {inspect_run(r.values_path)}, final_facts(r));
  return r;
}

SolveResult solve_retrograde(const Game& game, const SolveOptions& opt) {
  // The floor the busiest pass needs (the initial scan's three sorters beside its buffers).
  constexpr std::uint64_t kFloor = kPassOverhead + 3 * kMinSorter;
  if (!opt.in_ram && opt.memory_bytes < kFloor)
    throw std::invalid_argument("--memory " + std::to_string(opt.memory_bytes >> 20) +
                                "M is below the out-of-core solver's floor (" +
                                std::to_string(kFloor >> 20) + "M)");
  SolveResult r = opt.in_ram ? solve_in_ram_recorded(game, opt) : OutOfCoreSolver(game, opt).run();
  r.tier = opt.tier;
  r.in_ram = opt.in_ram;
  return r;
}

std::vector<KeyValue> load_values(const std::string& path) {
  RunReader r(path);
  std::vector<KeyValue> v(r.size());
  for (auto& kv : v) r.next(kv);
  return v;
}

}  // namespace zermelo
