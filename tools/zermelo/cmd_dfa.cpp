// `zermelo breakthrough solve` and `zermelo nim solve`: games solved with DFA position sets.
// Prints per-step tables (set sizes in positions and DFA states, positions per byte), the winner,
// the compression exponent, and --json for machines.
#include <sys/resource.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tools/zermelo/command.hpp"
#include "zermelo/dfa/set_file.hpp"
#include "zermelo/dfa/solver.hpp"
#include "zermelo/games/breakthrough/breakthrough_sets.hpp"
#include "zermelo/games/nim/nim_sets.hpp"
#include "zermelo/util/size.hpp"

namespace {

using namespace zermelo;
using nlohmann::json;

std::uint64_t peak_rss_bytes() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::stoull(line.substr(6)) * 1024;
  return 0;
}

double process_cpu_seconds() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  auto secs = [](const timeval& t) { return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec); };
  return secs(ru.ru_utime) + secs(ru.ru_stime);
}

json stats_json(const dfa::SetStats& s) {
  return {{"positions", s.positions}, {"states", s.states}, {"bytes", s.bytes}, {"positions_per_byte", s.positions_per_byte()}};
}

std::string fmt_ppb(const dfa::SetStats& s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", s.positions_per_byte());
  return buf;
}

struct SolveOptions {
  std::string method = "reach";
  unsigned backward_steps = 0;
  unsigned max_steps = 100000;
  std::string save_dir;
  bool restrict_backup = false;
  std::string spill_dir;
};

// Runs either method on a set game and prints the tables; `who_moves_first` names the winner.
void solve_and_report(dfa::SetGame& g, const SolveOptions& o, const std::string& first, const std::string& second) {
  const bool as_json = cli::globals().json;
  auto t0 = std::chrono::steady_clock::now();
  g.simplify_backup = o.restrict_backup;
  json out{{"game", g.name}, {"method", o.method}, {"memory_budget", g.manager->budget_bytes()}};
  std::vector<dfa::SetStats> all_sets;
  bool first_wins = false;
  auto say = [&](const std::string& line) {
    if (!as_json) std::cout << line << std::flush;
  };
  char buf[256];

  // The retrograde table: W(i), L(i) per step (the whole solve, or the backward half of reach).
  auto run_retrograde = [&](unsigned max_steps) {
    std::snprintf(buf, sizeof buf, "%5s %16s %10s %10s %16s %10s %10s %9s\n", "step", "W positions", "W states", "W pos/B",
                  "L positions", "L states", "L pos/B", "seconds");
    say(buf);
    auto r = dfa::retrograde(g, max_steps, [&](const dfa::RetrogradeStep& s) {
      std::snprintf(buf, sizeof buf, "%5u %16llu %10zu %10s %16llu %10zu %10s %9.2f\n", s.step,
                    static_cast<unsigned long long>(s.won.positions), s.won.states, fmt_ppb(s.won).c_str(),
                    static_cast<unsigned long long>(s.lost.positions), s.lost.states, fmt_ppb(s.lost).c_str(), s.seconds);
      say(buf);
    });
    json steps = json::array();
    for (auto& s : r.steps) {
      steps.push_back({{"step", s.step}, {"won", stats_json(s.won)}, {"lost", stats_json(s.lost)}, {"seconds", s.seconds}});
      all_sets.push_back(s.won), all_sets.push_back(s.lost);
    }
    return std::make_pair(r, steps);
  };

  if (o.method == "retrograde") {
    say("retrograde analysis over all " + std::to_string(g.all.count()) + " strings\n");
    auto [r, steps] = run_retrograde(o.max_steps);
    out["steps"] = steps;
    out["converged"] = r.converged;
    if (!r.won.contains(g.start) && !r.lost.contains(g.start))
      throw std::runtime_error("the start position is undecided after " + std::to_string(o.max_steps) + " steps");
    first_wins = r.won.contains(g.start);
    out["won"] = stats_json(dfa::stats_of(r.won));
    out["lost"] = stats_json(dfa::stats_of(r.lost));
    if (!o.save_dir.empty()) {
      std::filesystem::create_directories(o.save_dir);
      dfa::save_set(r.won, o.save_dir + "/won.zdfa");
      dfa::save_set(r.lost, o.save_dir + "/lost.zdfa");
    }
  } else if (o.method == "reach") {
    dfa::Set known_won = g.won0, known_lost = g.lost0;
    if (o.backward_steps > 0) {
      say("backward: " + std::to_string(o.backward_steps) + " retrograde steps over all " + std::to_string(g.all.count()) +
          " strings\n");
      auto [r, steps] = run_retrograde(o.backward_steps);
      known_won = r.won, known_lost = r.lost;
      out["backward"] = steps;
      // W(J)/L(J) range over every string, reachable or not: keep them out of the statistics
      // of the solve proper (they are in the table and the JSON).
      all_sets.clear();
    }
    std::snprintf(buf, sizeof buf, "%5s %14s %10s %10s %14s %10s %9s\n", "ply", "R positions", "R states", "R pos/B",
                  "open positions", "open states", "seconds");
    say(o.backward_steps > 0 ? "forward: reachable sets R(ply), expanding only positions not in W(J) or L(J)\n"
                             : "forward: reachable sets R(ply)\n");
    say(buf);
    bool backing_up_header = false;
    auto r = dfa::solve_by_reach(g, known_won, known_lost, o.max_steps, [&](const dfa::ReachStep& s, bool back) {
      if (!back) {
        std::snprintf(buf, sizeof buf, "%5u %14llu %10zu %10s %14llu %10zu %9.2f\n", s.ply,
                      static_cast<unsigned long long>(s.reach.positions), s.reach.states, fmt_ppb(s.reach).c_str(),
                      static_cast<unsigned long long>(s.undecided.positions), s.undecided.states, s.seconds);
        say(buf);
      } else {
        // One row per ply as the back-up passes it (deepest first), so a long run shows its progress.
        if (!backing_up_header) {
          say("backward: values backed up to the start, deepest ply first\n");
          std::snprintf(buf, sizeof buf, "%5s %14s %10s %10s %14s %10s %10s %10s %12s %9s\n", "ply", "won", "W states", "W pos/B",
                        "lost", "L states", "L pos/B", "passed st", "table states", "seconds");
          say(buf);
          backing_up_header = true;
        }
        std::snprintf(buf, sizeof buf, "%5u %14llu %10zu %10s %14llu %10zu %10s %10zu %12zu %9.2f\n", s.ply,
                      static_cast<unsigned long long>(s.won.positions), s.won.states, fmt_ppb(s.won).c_str(),
                      static_cast<unsigned long long>(s.lost.positions), s.lost.states, fmt_ppb(s.lost).c_str(),
                      s.passed_states, g.manager->live_nodes(), s.seconds);
        say(buf);
      }
    }, /*keep_sets=*/!o.save_dir.empty(), o.spill_dir);
    json steps = json::array();
    for (auto& s : r.steps) {
      steps.push_back({{"ply", s.ply}, {"reach", stats_json(s.reach)}, {"open", stats_json(s.undecided)},
                       {"won", stats_json(s.won)}, {"lost", stats_json(s.lost)}, {"passed_states", s.passed_states},
                       {"seconds", s.seconds}});
      all_sets.push_back(s.reach), all_sets.push_back(s.won), all_sets.push_back(s.lost);
    }
    out["steps"] = steps;
    out["distinct_reachable"] = stats_json(r.distinct);
    out["forward_seconds"] = r.forward_seconds;
    out["backward_seconds"] = r.backward_seconds;
    say("distinct reachable positions: " + std::to_string(r.distinct_positions) + " (" + std::to_string(r.distinct.states) +
        " DFA states)\n");
    first_wins = r.start_won;
    if (!o.save_dir.empty()) {
      std::filesystem::create_directories(o.save_dir);
      for (std::size_t i = 0; i < r.reach.size(); ++i) {
        dfa::save_set(r.won[i], o.save_dir + "/won_" + std::to_string(i) + ".zdfa");
        dfa::save_set(r.lost[i], o.save_dir + "/lost_" + std::to_string(i) + ".zdfa");
      }
    }
  } else {
    throw std::invalid_argument("unknown --method '" + o.method + "' (use reach or retrograde)");
  }

  dfa::SetStats largest_pos{}, largest_states{};
  for (auto& s : all_sets) {
    if (s.positions > largest_pos.positions) largest_pos = s;
    if (s.states > largest_states.states) largest_states = s;
  }
  double c = dfa::fit_compression_exponent(all_sets);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::string winner = first_wins ? first : second;
  out["winner"] = winner;
  out["start_value"] = first_wins ? "win" : "loss";
  out["largest_set_positions"] = stats_json(largest_pos);
  out["largest_set_states"] = stats_json(largest_states);
  out["compression_exponent"] = c;
  out["seconds"] = seconds;
  out["peak_table_states"] = g.manager->peak_nodes();
  out["peak_rss_bytes"] = peak_rss_bytes();
  // With several threads: the CPU time of the operations split over them, and what the solve would
  // take on free cores (the serial CPU time plus each split operation's busiest thread), a figure
  // that does not depend on how busy the machine was.
  const dfa::Manager::ParallelStats& par = g.manager->parallel_stats();
  const double cpu = process_cpu_seconds();
  const double on_free_cores = cpu - par.cpu_seconds + par.critical_seconds;
  out["threads"] = g.manager->threads();
  out["cpu_seconds"] = cpu;
  out["split_cpu_seconds"] = par.cpu_seconds;
  out["split_critical_seconds"] = par.critical_seconds;
  out["seconds_on_free_cores"] = on_free_cores;
  if (as_json) {
    std::cout << out.dump(2) << "\n";
    return;
  }
  std::cout << "\n" << g.render(g.start);
  std::cout << "winner: " << winner << " (the player to move at the start " << (first_wins ? "wins" : "loses") << ")\n";
  std::snprintf(buf, sizeof buf,
                "largest set: %llu positions (%zu states); most states: %zu (%llu positions)\n"
                "compression exponent c (states ~ positions^c): %.3f\n"
                "time %.2f s, peak DFA table %zu states, peak RSS %s\n",
                static_cast<unsigned long long>(largest_pos.positions), largest_pos.states, largest_states.states,
                static_cast<unsigned long long>(largest_states.positions), c, seconds, g.manager->peak_nodes(),
                format_bytes(static_cast<double>(peak_rss_bytes())).c_str());
  std::cout << buf;
  std::snprintf(buf, sizeof buf,
                "threads %u: CPU %.2f s, %.2f s of it in operations split over the threads (%.2f s on the busiest); "
                "on free cores about %.2f s\n",
                g.manager->threads(), cpu, par.cpu_seconds, par.critical_seconds, on_free_cores);
  std::cout << buf;
}

void add_solve_options(CLI::App* solve, SolveOptions& o) {
  solve->add_option("--method", o.method, "reach (forward sets, then back up) or retrograde (W(i)/L(i) over all positions)")
      ->capture_default_str();
  solve->add_option("--backward-steps", o.backward_steps,
                    "reach: first run this many retrograde steps and stop expanding positions they decide (meet in the middle)")
      ->capture_default_str();
  solve->add_option("--max-steps", o.max_steps, "give up after this many steps/plies")->capture_default_str();
  solve->add_flag("--restrict-backup", o.restrict_backup,
                  "reach: hand each ply's lost set up the back-up restricted to what the ply above can reach (fewer states, not faster)");
  solve->add_option("--spill", o.spill_dir,
                    "reach: keep each ply's forward sets in set files under this directory until the back-up needs them");
  solve->add_option("--save", o.save_dir, "directory to save the final won/lost sets to (checksummed .zdfa files)");
}

}  // namespace

ZERMELO_REGISTER_COMMAND(40, [](CLI::App& app) {
  auto* bt = app.add_subcommand("breakthrough", "Breakthrough on small boards, solved with DFA position sets");
  bt->require_subcommand(1);
  auto* solve = bt->add_subcommand("solve", "solve a w x h board (P1 starts on rows 1-2 and moves first)");
  static std::string board_text;
  static SolveOptions o;
  solve->add_option("--board", board_text, "board size WxH, e.g. 3x4")->required();
  add_solve_options(solve, o);
  solve->callback([] {
    breakthrough::Board b = breakthrough::parse_board(board_text);
    auto m = breakthrough::make_manager(b, cli::globals().memory_bytes);
    m->set_threads(cli::globals().threads);
    dfa::SetGame g = breakthrough::make_game(*m, b);
    solve_and_report(g, o, "P1", "P2");
  });

  auto* nim = app.add_subcommand("nim", "Nim (last stick wins), solved with DFA position sets");
  nim->require_subcommand(1);
  auto* nsolve = nim->add_subcommand("solve", "solve m heaps of up to n sticks; the start has n sticks in every heap");
  static nim_dfa::NimShape shape;
  static SolveOptions no;
  no.method = "retrograde";
  nsolve->add_option("--heaps", shape.heaps, "number of heaps m")->required();
  nsolve->add_option("--sticks", shape.sticks, "sticks per heap n")->required();
  add_solve_options(nsolve, no);
  nsolve->callback([] {
    auto m = nim_dfa::make_manager(shape, cli::globals().memory_bytes);
    m->set_threads(cli::globals().threads);
    dfa::SetGame g = nim_dfa::make_game(*m, shape);
    solve_and_report(g, no, "first player", "second player");
  });
});
