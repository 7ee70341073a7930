// A set game solved end to end by either method: see set_game_solve.hpp. SetSolveRun::run reads
// as the run: Step 0 the method's solve (with its tables), Step 1 save the sets, Step 2 the
// summary over every set built.
#include "zermelo/dfa/set_game_solve.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <utility>
#include <vector>

#include "zermelo/dfa/set_file.hpp"
#include "zermelo/dfa/solver.hpp"
#include "zermelo/util/process_usage.hpp"
#include "zermelo/util/size.hpp"

namespace zermelo::dfa {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

template <class... Args>
std::string printf_text(const char* format, Args... args) {
  char buf[512];
  std::snprintf(buf, sizeof buf, format, args...);
  return buf;
}

json stats_json(const SetStats& s) {
  json j = {{"positions", s.positions},
            {"states", s.states},
            {"bytes", s.bytes},
            {"positions_per_byte", s.positions_per_byte()}};
  if (s.digest) j["digest"] = printf_text("%016llx", static_cast<unsigned long long>(*s.digest));
  return j;
}

std::string ppb(const SetStats& s) { return printf_text("%.3g", s.positions_per_byte()); }

unsigned long long ull(std::uint64_t n) { return static_cast<unsigned long long>(n); }

class SetSolveRun {
 public:
  SetSolveRun(SetGame& g, const SetSolveOptions& o,
              const std::function<void(const std::string&)>& table)
      : g_(g), o_(o), say_(table ? table : [](const std::string&) {}) {}

  json run(const PlayerNames& players) {
    const auto t0 = Clock::now();
    g_.simplify_backup = o_.restrict_backup;
    g_.digests = o_.digests;
    out_ = {
        {"game", g_.name}, {"method", o_.method}, {"memory_budget", g_.manager->budget_bytes()}};
    bool first_wins = false;
    if (o_.method == "retrograde")
      first_wins = solve_by_retrograde();
    else if (o_.method == "reach")
      first_wins = solve_by_reach_method();
    else
      throw std::invalid_argument("unknown --method '" + o_.method + "' (use reach or retrograde)");
    add_summary(first_wins, players, std::chrono::duration<double>(Clock::now() - t0).count());
    return out_;
  }

 private:
  // W(i), L(i) per step (the whole solve, or the backward half of reach), as a table and JSON.
  std::pair<RetrogradeResult, json> retrograde_table(unsigned max_steps) {
    say_(printf_text("%5s %16s %10s %10s %16s %10s %10s %9s\n", "step", "W positions", "W states",
                     "W pos/B", "L positions", "L states", "L pos/B", "seconds"));
    auto r = retrograde(g_, max_steps, [&](const RetrogradeStep& s) {
      say_(printf_text("%5u %16llu %10zu %10s %16llu %10zu %10s %9.2f\n", s.step,
                       ull(s.won.positions), s.won.states, ppb(s.won).c_str(),
                       ull(s.lost.positions), s.lost.states, ppb(s.lost).c_str(), s.seconds));
    });
    json steps = json::array();
    for (auto& s : r.steps) {
      steps.push_back({{"step", s.step},
                       {"won", stats_json(s.won)},
                       {"lost", stats_json(s.lost)},
                       {"seconds", s.seconds}});
      all_sets_.push_back(s.won), all_sets_.push_back(s.lost);
    }
    return {std::move(r), std::move(steps)};
  }

  bool solve_by_retrograde() {
    say_("retrograde analysis over all " + std::to_string(g_.all.count()) + " strings\n");
    auto [r, steps] = retrograde_table(o_.max_steps);
    out_["steps"] = steps;
    out_["converged"] = r.converged;
    if (!r.won.contains(g_.start) && !r.lost.contains(g_.start))
      throw std::runtime_error("the start position is undecided after " +
                               std::to_string(o_.max_steps) + " steps");
    out_["won"] = stats_json(stats_of(r.won, g_.digests));
    out_["lost"] = stats_json(stats_of(r.lost, g_.digests));
    if (!o_.save_dir.empty()) {
      std::filesystem::create_directories(o_.save_dir);
      save_set(r.won, o_.save_dir + "/won.zdfa");
      save_set(r.lost, o_.save_dir + "/lost.zdfa");
    }
    return r.won.contains(g_.start);
  }

  // Meet in the middle: W(J), L(J) first when asked, then forward sets and the back-up.
  bool solve_by_reach_method() {
    Set known_won = g_.won0, known_lost = g_.lost0;
    if (o_.backward_steps > 0) {
      say_("backward: " + std::to_string(o_.backward_steps) + " retrograde steps over all " +
           std::to_string(g_.all.count()) + " strings\n");
      auto [r, steps] = retrograde_table(o_.backward_steps);
      known_won = r.won, known_lost = r.lost;
      out_["backward"] = steps;
      // W(J)/L(J) range over every string, reachable or not: keep them out of the statistics
      // of the solve proper (they are in the table and the JSON).
      all_sets_.clear();
    }
    say_(o_.backward_steps > 0
             ? "forward: reachable sets R(ply), expanding only positions not in W(J) or L(J)\n"
             : "forward: reachable sets R(ply)\n");
    say_(printf_text("%5s %14s %10s %10s %14s %10s %9s\n", "ply", "R positions", "R states",
                     "R pos/B", "open positions", "open states", "seconds"));
    auto r = solve_by_reach(
        g_, known_won, known_lost, o_.max_steps,
        [&](const ReachStep& s, bool back) { back ? backup_row(s) : forward_row(s); },
        /*keep_sets=*/!o_.save_dir.empty(), o_.spill_dir);
    record_reach(r);
    return r.start_won;
  }

  void forward_row(const ReachStep& s) {
    say_(printf_text("%5u %14llu %10zu %10s %14llu %10zu %9.2f%s\n", s.ply, ull(s.reach.positions),
                     s.reach.states, ppb(s.reach).c_str(), ull(s.undecided.positions),
                     s.undecided.states, s.seconds,
                     s.resumed ? "  (read back from the spill files)" : ""));
  }

  // One row per ply as the back-up passes it (deepest first), so a long run shows its progress.
  void backup_row(const ReachStep& s) {
    if (!backing_up_header_) {
      say_("backward: values backed up to the start, deepest ply first\n");
      say_(printf_text("%5s %14s %10s %10s %14s %10s %10s %10s %12s %9s\n", "ply", "won",
                       "W states", "W pos/B", "lost", "L states", "L pos/B", "passed st",
                       "table states", "seconds"));
      backing_up_header_ = true;
    }
    say_(printf_text("%5u %14llu %10zu %10s %14llu %10zu %10s %10zu %12zu %9.2f%s\n", s.ply,
                     ull(s.won.positions), s.won.states, ppb(s.won).c_str(), ull(s.lost.positions),
                     s.lost.states, ppb(s.lost).c_str(), s.passed_states, g_.manager->live_nodes(),
                     s.seconds, s.backup_resumed ? "  (backed up by an earlier run)" : ""));
  }

  void record_reach(const ReachResult& r) {
    json steps = json::array();
    for (auto& s : r.steps) {
      steps.push_back({{"ply", s.ply},
                       {"reach", stats_json(s.reach)},
                       {"open", stats_json(s.undecided)},
                       {"won", stats_json(s.won)},
                       {"lost", stats_json(s.lost)},
                       {"passed_states", s.passed_states},
                       {"seconds", s.seconds},
                       {"resumed", s.resumed},
                       {"backup_resumed", s.backup_resumed}});
      all_sets_.push_back(s.reach), all_sets_.push_back(s.won), all_sets_.push_back(s.lost);
    }
    out_["steps"] = steps;
    out_["distinct_reachable"] = stats_json(r.distinct);
    out_["forward_seconds"] = r.forward_seconds;
    out_["backward_seconds"] = r.backward_seconds;
    out_["resumed_plies"] = r.resumed_plies;
    out_["resumed_backup_plies"] = r.resumed_backup_plies;
    say_("distinct reachable positions: " + std::to_string(r.distinct_positions) + " (" +
         std::to_string(r.distinct.states) + " DFA states)\n");
    if (o_.save_dir.empty()) return;
    std::filesystem::create_directories(o_.save_dir);
    for (std::size_t i = 0; i < r.reach.size(); ++i) {
      save_set(r.won[i], o_.save_dir + "/won_" + std::to_string(i) + ".zdfa");
      save_set(r.lost[i], o_.save_dir + "/lost_" + std::to_string(i) + ".zdfa");
    }
  }

  void add_summary(bool first_wins, const PlayerNames& players, double seconds) {
    SetStats largest_pos{}, largest_states{};
    for (auto& s : all_sets_) {
      if (s.positions > largest_pos.positions) largest_pos = s;
      if (s.states > largest_states.states) largest_states = s;
    }
    out_["winner"] = first_wins ? players.first : players.second;
    out_["start_value"] = first_wins ? "win" : "loss";
    out_["largest_set_positions"] = stats_json(largest_pos);
    out_["largest_set_states"] = stats_json(largest_states);
    out_["compression_exponent"] = fit_compression_exponent(all_sets_);
    out_["seconds"] = seconds;
    out_["peak_table_states"] = g_.manager->peak_nodes();
    out_["peak_rss_bytes"] = peak_rss_bytes();
    // With several threads: the CPU time of the operations split over them, and what the solve
    // would take on free cores (the serial CPU time plus each split operation's busiest thread),
    // a figure that does not depend on how busy the machine was.
    const Manager::ParallelStats& par = g_.manager->parallel_stats();
    const double cpu = process_cpu_seconds();
    out_["threads"] = g_.manager->threads();
    out_["cpu_seconds"] = cpu;
    out_["split_cpu_seconds"] = par.cpu_seconds;
    out_["split_critical_seconds"] = par.critical_seconds;
    out_["seconds_on_free_cores"] = cpu - par.cpu_seconds + par.critical_seconds;
  }

  SetGame& g_;
  const SetSolveOptions& o_;
  std::function<void(const std::string&)> say_;
  json out_;
  std::vector<SetStats> all_sets_;
  bool backing_up_header_ = false;
};

}  // namespace

json solve_set_game(SetGame& g, const SetSolveOptions& options, const PlayerNames& players,
                    const std::function<void(const std::string&)>& table) {
  return SetSolveRun(g, options, table).run(players);
}

std::string summary_text(const SetGame& g, const json& r) {
  const json& pos = r["largest_set_positions"];
  const json& st = r["largest_set_states"];
  const bool wins = r["start_value"] == "win";
  std::string text = "\n" + (g.render ? g.render(g.start) : std::string());
  text += "winner: " + r["winner"].get<std::string>() + " (the player to move at the start " +
          (wins ? "wins" : "loses") + ")\n";
  text += printf_text(
      "largest set: %llu positions (%zu states); most states: %zu (%llu positions)\n"
      "compression exponent c (states ~ positions^c): %.3f\n"
      "time %.2f s, peak DFA table %zu states, peak RSS %s\n",
      ull(pos["positions"].get<std::uint64_t>()), pos["states"].get<std::size_t>(),
      st["states"].get<std::size_t>(), ull(st["positions"].get<std::uint64_t>()),
      r["compression_exponent"].get<double>(), r["seconds"].get<double>(),
      r["peak_table_states"].get<std::size_t>(),
      format_bytes(static_cast<double>(r["peak_rss_bytes"].get<std::uint64_t>())).c_str());
  text += printf_text(
      "threads %u: CPU %.2f s, %.2f s of it in operations split over the threads (%.2f s on the "
      "busiest); on free cores about %.2f s\n",
      r["threads"].get<unsigned>(), r["cpu_seconds"].get<double>(),
      r["split_cpu_seconds"].get<double>(), r["split_critical_seconds"].get<double>(),
      r["seconds_on_free_cores"].get<double>());
  return text;
}

}  // namespace zermelo::dfa
