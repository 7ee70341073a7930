// Out-of-core retrograde analysis; see include/zermelo/engine/retrograde.hpp for the algorithm.
#include "zermelo/engine/retrograde.hpp"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <omp.h>
#include <stdexcept>

#include "pipeline/retrograde_records.hpp"
#include "pipeline/tier_values.hpp"
#include "zermelo/io/run_file.hpp"
#include "zermelo/pipeline/manifest.hpp"
#include "zermelo/sort/external_sort.hpp"
#include "zermelo/util/progress.hpp"

namespace zermelo {
namespace fs = std::filesystem;
using namespace retro;

namespace {

// Readers, writers and slack held beside a sorter during a pass.
constexpr std::uint64_t kPassOverhead = 48ull << 20;
// States expanded per parallel batch (their outputs are buffered per thread, so this bounds memory).
constexpr std::size_t kBatch = 1u << 15;

RunOptions run_options(const std::string& type, std::uint32_t size) {
  RunOptions o;
  o.record_type = type;
  o.record_size = size;
  o.sort_key = "key asc";
  o.delta_u64_keys = type != "retro.levelmsg";  // every other record starts with its sorted u64 key
  return o;
}

// `share` of the budget left after the pass's readers and writers: sorters alive at the same
// time split the budget between them.
SortOptions sort_options(const SolveOptions& opt, const std::string& name, unsigned share = 1) {
  SortOptions s;
  s.scratch_dir = opt.job_dir + "/" + name + ".sort";
  if (opt.memory_bytes < kPassOverhead + share * (24ull << 20))
    throw std::invalid_argument("--memory " + std::to_string(opt.memory_bytes >> 20) + "M is too small for the solver (need " +
                                std::to_string((kPassOverhead + share * (24ull << 20)) >> 20) + "M or more)");
  s.memory_bytes = (opt.memory_bytes - kPassOverhead) / share;
  s.threads = opt.threads;
  return s;
}

template <class T>
auto reader_fn(RunReader& r) {
  return [&r](T& x) { return r.next(x); };
}

void remove_quietly(const std::string& p) {
  std::error_code ec;
  fs::remove(p, ec);
}

// The states of a tier, sorted and unique, as a run: enumerate -> sort -> dedupe.
RunInfo sorted_states(const Game& game, const SolveOptions& opt, const std::string& out_path) {
  ExternalSorter<std::uint64_t> keys(sort_options(opt, "enumerate"));
  {
    Progress bar("enumerate " + game.name() + " " + opt.tier);
    std::uint64_t n = 0;
    game.enumerate(opt.tier, [&](StateKey k) {
      keys.push(k);
      if ((++n & 0xFFFF) == 0) bar.add(0x10000);
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
        manifest_(o.job_dir, "retrograde",
                  nlohmann::json{{"game", g.name()}, {"variant", g.variant()}, {"tier", o.tier}, {"lower", o.lower_tier_values},
                                 {"predecessors", o.use_predecessors && g.has_predecessors()}}) {}

  SolveResult run() {
    SolveResult res;
    const std::string values = path("values-" + opt_.tier + ".run");
    if (manifest_.done("final")) {
      for (auto& s : manifest_.stages())  // a kill right after "final" may leave a superseded level listed
        if (s != "init" && s != "final") manifest_.erase(s);
      return result_from(manifest_.facts("final"), values, true);
    }
    if (!manifest_.done("init") || !(manifest_.done("initial-states") || any_level_done())) init();
    else res.resumed = true;
    std::uint32_t max_level = manifest_.facts("init")["max_scheduled_level"];
    std::uint32_t d = 0;
    for (auto& s : manifest_.stages())  // resume after the last finished level
      if (s.rfind("level-", 0) == 0 && manifest_.done(s)) d = std::max(d, static_cast<std::uint32_t>(std::stoul(s.substr(6))) + 1), res.resumed = true;
    for (;; ++d) {
      std::uint64_t decided = level(d);
      if (decided == 0 && d >= max_level) break;
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

  // Scan every state once: values fixed by the rules, children counted, terminal moves and
  // children in lower tiers scheduled as messages, reverse edges built if the game has no un-moves.
  void init() {
    const bool reverse_edges = !(opt_.use_predecessors && game_.has_predecessors());
    sorted_states(game_, opt_, path("keys.run"));
    RunWriter states(states_path(0), run_options("retro.state", sizeof(StateRec)));
    ExternalSorter<LevelMsg> scheduled(sort_options(opt_, "scheduled", 3));
    ExternalSorter<Edge> edges(sort_options(opt_, "edges", 3)), lookups(sort_options(opt_, "lookups", 3));
    std::uint32_t max_level = 0;
    auto schedule = [&](std::uint16_t kind, std::uint64_t key, Value v) {
      if (!v.is_win() && !v.is_loss()) return;  // draws decide nothing on their own
      scheduled.push(LevelMsg{v.plies(), kind, v.raw(), key});
      max_level = std::max(max_level, v.plies());
    };
    const std::string tier = opt_.tier;
    std::uint64_t n = 0;
    Progress bar("init " + game_.name() + " " + tier);
    RunReader keys(path("keys.run"));
    StateKey s;
    // Batches of states, expanded on all threads; results are pushed in key order by this thread.
    const int T = static_cast<int>(std::max(1u, opt_.threads));
    std::vector<StateKey> batch;
    std::vector<StateRec> recs;
    std::vector<std::vector<LevelMsg>> t_sched(static_cast<std::size_t>(T));
    std::vector<std::vector<Edge>> t_look(static_cast<std::size_t>(T)), t_edge(static_cast<std::size_t>(T));
    std::vector<std::string> t_error(static_cast<std::size_t>(T));
    bool more = true;
    while (more) {
      batch.clear();
      while (batch.size() < kBatch && (more = keys.next(s))) batch.push_back(s);
      recs.assign(batch.size(), StateRec{});
#pragma omp parallel num_threads(T)
      {
        const auto t = static_cast<std::size_t>(omp_get_thread_num());
        std::vector<Child> kids;
#pragma omp for schedule(dynamic, 1024)
        for (std::size_t i = 0; i < batch.size(); ++i) {
          if (!t_error[t].empty()) continue;
          try {
            const StateKey k = batch[i];
            StateRec& rec = recs[i];
            rec.key = k;
            Value tv = game_.terminal_value(k);
            if (tv.is_known()) {
              rec.value = tv.raw();
              // A value in 0 plies needs no messages: every parent applies it while scanned here.
              if ((tv.is_win() || tv.is_loss()) && tv.plies() > 0) t_sched[t].push_back(LevelMsg{tv.plies(), kSeed, tv.raw(), k});
              continue;
            }
            game_.successors(k, kids);
            if (kids.empty()) throw std::logic_error(game_.name() + ": state " + std::to_string(k) + " has no moves and no terminal value");
            rec.pending = static_cast<std::uint32_t>(kids.size());
            bool lost_child_now = false;
            for (auto& c : kids) {
              // Children whose value the rules fix in 0 plies (game-ending moves, checkmates) are
              // applied at once, instead of as level-0 messages: that is most of level 0's work.
              Value cv = c.is_terminal() ? c.terminal : game_.terminal_value(c.key);
              if (cv.is_known() && cv.plies() == 0 && !cv.is_draw()) {
                if (cv.is_loss()) lost_child_now = true;
                else --rec.pending;
              } else if (c.is_terminal()) {
                if (cv.is_win() || cv.is_loss()) t_sched[t].push_back(LevelMsg{cv.plies(), kMessage, cv.raw(), k});
              } else if (!opt_.lower_tier_values.empty() && game_.tier_of(c.key) != tier) {
                t_look[t].push_back(Edge{c.key, k});
              } else if (reverse_edges) {
                t_edge[t].push_back(Edge{c.key, k});
              }
            }
            Value now = lost_child_now ? Value::win(1) : rec.pending == 0 ? Value::loss(1) : Value::unknown();
            if (now.is_known()) {
              rec.value = now.raw();
              t_sched[t].push_back(LevelMsg{1, kSeed, now.raw(), k});
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
      }
      states.append_many(recs.data(), recs.size());
      n += batch.size();
      bar.add(batch.size());
    }
    bar.finish();
    RunInfo s0 = states.finish();
    std::vector<RunInfo> outs;
    if (lookups.size() > 0) {  // children in lower tiers: one sort, one merge-join with their values
      lookups.sort();
      TierValues lower(opt_.lower_tier_values);
      Edge e;
      while (lookups.next(e)) {
        Value v = lower.find(e.child);
        if (!v.is_known())
          throw std::runtime_error(game_.name() + ": child " + std::to_string(e.child) + " of " + std::to_string(e.parent) +
                                   " is in no lower tier's values run");
        schedule(kMessage, e.parent, v);
      }
    }
    scheduled.sort();
    outs.push_back(scheduled.write_to(path("scheduled.run"), run_options("retro.levelmsg", sizeof(LevelMsg))));
    if (reverse_edges) {
      edges.sort();
      outs.push_back(edges.write_to(path("edges.run"), run_options("retro.edge", sizeof(Edge))));
    }
    manifest_.record("init", outs, {{"max_scheduled_level", max_level}, {"states", n}, {"reverse_edges", reverse_edges}});
    // S_0, and level 0's frontier, which comes from the seeds alone: an empty run. Superseded by level 0.
    RunInfo f0 = RunWriter(frontier_path(0), run_options("retro.keyvalue", sizeof(KeyValue))).finish();
    manifest_.record("initial-states", {s0, f0});
    remove_quietly(path("keys.run"));
  }

  // One level: messages from F_d (and scheduled work for d), sorted, merged into S_d -> S_{d+1}, F_{d+1}.
  std::uint64_t level(std::uint32_t d) {
    ExternalSorter<Msg> msgs(sort_options(opt_, "messages"));
    {
      RunReader frontier(frontier_path(d));
      RunReader scheduled(path("scheduled.run"));
      LevelMsg lm;
      bool has_lm = scheduled.next(lm);
      while (has_lm && lm.level < d) has_lm = scheduled.next(lm);
      // The frontier is F_d plus the seeds of level d, merged by key (edge joins need key order).
      KeyValue f;
      bool has_f = frontier.next(f);
      auto next_frontier = [&](KeyValue& out) {
        while (has_lm && lm.level == d && lm.kind == kMessage) {
          msgs.push(Msg{lm.key, lm.value, {0, 0, 0}});
          has_lm = scheduled.next(lm);
        }
        bool seed = has_lm && lm.level == d;
        if (!has_f && !seed) return false;
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
              for (StateKey p : preds) out[t].push_back(Msg{p, batch[i].value, {0, 0, 0}});
            }
          }
          for (auto& o : out) {
            for (auto& m : o) msgs.push(m);
            o.clear();
          }
          bar.add(batch.size());
        }
      } else {
        RunReader edges(path("edges.run"));  // sorted by child: many parents per child
        KeyValue s;
        bool has_s = next_frontier(s);
        Edge e;
        while (has_s && edges.next(e)) {
          while (has_s && s.key < e.child) has_s = next_frontier(s);
          if (has_s && s.key == e.child) msgs.push(Msg{e.parent, s.value, {0, 0, 0}}), bar.add(1);
        }
        while (next_frontier(s)) {  // drain: scheduled messages still to be pushed
        }
      }
    }
    msgs.sort();
    if (msgs.size() == 0) return quiet_level(d);
    // Merge the sorted messages into the state run.
    RunReader in(states_path(d));
    RunWriter out(states_path(d + 1), run_options("retro.state", sizeof(StateRec)));
    RunWriter next_f(frontier_path(d + 1), run_options("retro.keyvalue", sizeof(KeyValue)));
    Msg m;
    bool has_m = msgs.next(m);
    StateRec s;
    std::uint64_t decided = 0;
    Progress bar("level " + std::to_string(d) + " merge", in.size());
    while (in.next(s)) {
      while (has_m && m.key < s.key) has_m = msgs.next(m);  // messages to states outside this tier
      bool lost_child = false;
      std::uint32_t won_children = 0;
      for (; has_m && m.key == s.key; has_m = msgs.next(m)) {
        Value v = Value::from_raw(m.value);
        if (v.is_loss()) lost_child = true;
        else if (v.is_win()) ++won_children;
      }
      if (s.value == 0 && (lost_child || won_children)) {
        if (won_children > s.pending) throw std::logic_error(game_.name() + ": more won children than moves at state " + std::to_string(s.key));
        s.pending -= won_children;
        Value v = lost_child ? Value::win(d + 1) : s.pending == 0 ? Value::loss(d + 1) : Value::unknown();
        if (v.is_known()) {
          s.value = v.raw();
          next_f.push(KeyValue{s.key, s.value});
          ++decided;
        }
      }
      out.push(s);
      bar.add(1);
    }
    std::vector<RunInfo> outs{out.finish(), next_f.finish()};
    std::string stage = "level-" + std::to_string(d);
    manifest_.record(stage, outs, {{"decided", decided}});
    // The previous level's runs are superseded.
    manifest_.erase(d > 0 ? "level-" + std::to_string(d - 1) : "initial-states");
    remove_quietly(states_path(d));
    remove_quietly(frontier_path(d));
    return decided;
  }

  // A level with no messages changes nothing: S_{d+1} is S_d, renamed rather than rewritten.
  std::uint64_t quiet_level(std::uint32_t d) {
    fs::rename(states_path(d), states_path(d + 1));
    RunInfo s = inspect_run(states_path(d + 1));
    RunInfo f = RunWriter(frontier_path(d + 1), run_options("retro.keyvalue", sizeof(KeyValue))).finish();
    manifest_.record("level-" + std::to_string(d), {s, f}, {{"decided", 0}});
    manifest_.erase(d > 0 ? "level-" + std::to_string(d - 1) : "initial-states");
    remove_quietly(frontier_path(d));
    return 0;
  }

  void finish(std::uint32_t last, const std::string& values) {
    RunReader in(states_path(last));
    RunOptions o = run_options("values", sizeof(KeyValue));
    RunWriter out(values, o);
    nlohmann::json hist = nlohmann::json::object();
    std::map<std::uint32_t, std::uint64_t> by_plies;
    std::uint64_t wins = 0, losses = 0, draws = 0, longest_key = 0;
    std::uint32_t longest = 0;
    StateRec s;
    while (in.next(s)) {
      Value v = s.value ? Value::from_raw(s.value) : Value::draw();
      out.push(KeyValue{s.key, v.raw()});
      if (v.is_draw()) ++draws;
      else {
        (v.is_win() ? wins : losses)++;
        by_plies[v.plies()]++;
        if (v.plies() > longest || (v.plies() == longest && longest_key == 0)) longest = v.plies(), longest_key = s.key;
      }
    }
    for (auto& [p, c] : by_plies) hist[std::to_string(p)] = c;
    RunInfo info = out.finish();
    manifest_.record("final", {info},
                     {{"states", wins + losses + draws}, {"wins", wins}, {"losses", losses}, {"draws", draws},
                      {"by_plies", hist}, {"levels", last}, {"longest", longest}, {"longest_key", longest_key}});
    // Keep the values and the manifest; the working runs are no longer needed.
    manifest_.erase("level-" + std::to_string(last - 1));
    remove_quietly(states_path(last));
    remove_quietly(frontier_path(last));
  }

  SolveResult result_from(const nlohmann::json& f, const std::string& values, bool resumed) {
    SolveResult r;
    r.resumed = resumed;
    r.values_path = values;
    r.states = f["states"], r.wins = f["wins"], r.losses = f["losses"], r.draws = f["draws"];
    for (auto& [k, v] : f["by_plies"].items()) r.by_plies[static_cast<std::uint32_t>(std::stoul(k))] = v;
    r.levels = f["levels"], r.longest = f["longest"], r.longest_key = f["longest_key"];
    r.digest = inspect_run(values).digest_hex();
    return r;
  }

  const Game& game_;
  SolveOptions opt_;
  Manifest manifest_;
};

}  // namespace

SolveResult solve_retrograde_in_ram(const Game& game, const SolveOptions& opt);  // retrograde_ram.cpp

SolveResult solve_retrograde(const Game& game, const SolveOptions& opt) {
  SolveResult r = opt.in_ram ? solve_retrograde_in_ram(game, opt) : OutOfCoreSolver(game, opt).run();
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
