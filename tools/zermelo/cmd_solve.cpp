// `zermelo solve GAME`: strong solve by retrograde analysis through the pipeline, and
// `zermelo check-solution GAME`: the independent local check of a solved values run.
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "tools/zermelo/command.hpp"
#include "tools/zermelo/game_words.hpp"
#include "tools/zermelo/solve_summary.hpp"
#include "zermelo/engine/cluster.hpp"
#include "zermelo/engine/optimal_line.hpp"
#include "zermelo/engine/retrograde.hpp"
#include "zermelo/pipeline/solved_database.hpp"
#include "zermelo/pipeline/work_dir_lock.hpp"
#include "zermelo/serve/picture_file.hpp"
#include "zermelo/serve/table_charts.hpp"
#include "zermelo/util/size.hpp"

namespace zermelo::cli {
namespace {

struct SolveArgs {
  std::string game;
  std::vector<std::string> game_options;
  std::string tier = "all";
  bool in_ram = false;
  bool no_predecessors = false;
  std::uint64_t checkpoint_states = 0;
  std::string raw_runs = "8G";
  bool exit_lookups = false;
  bool no_message_filter = false;
  std::uint64_t max_states = 0;
  unsigned shards = 1;
  std::string plot;        // an SVG or PNG file for the chart of states by plies
  std::string plot_scale;  // its y axis: "" (linear), "linear" or "log"
  bool verbose = false;
};

SolveOptions solve_options(const SolveArgs& a) {
  SolveOptions o;
  o.job_dir = globals().work_dir;
  o.memory_bytes = globals().memory_bytes;
  o.threads = globals().threads;
  o.in_ram = a.in_ram;
  o.use_predecessors = !a.no_predecessors;
  if (a.checkpoint_states > 0) o.init_chunk_states = a.checkpoint_states;
  o.raw_run_bytes = a.raw_runs == "0" ? 0 : parse_size(a.raw_runs);  // 0: always compressed
  o.exit_values = !a.exit_lookups;
  o.message_filter = !a.no_message_filter;
  o.max_states = a.max_states;
  o.shards = a.shards;
  o.cluster = globals().cluster;  // under mpirun: one shard a rank unless --shards says more
  if (o.cluster && o.shards == 1) o.shards = o.cluster->ranks();
  return o;
}

// The longest decided state's line of optimal play, as the values run tells it.
std::vector<LineStep> longest_line(const Game& g, const SolveResult& r) {
  if (r.states == 0) return {};
  std::vector<std::string> runs{r.values_path};
  for (auto& p : tier_dependencies_values(g, globals().work_dir, r.tier)) runs.push_back(p);
  ValuesLookup values(runs);
  return optimal_line(g, values, r.longest_key, 10000);
}

nlohmann::json line_json(const Game& g, const std::vector<LineStep>& line) {
  nlohmann::json a = nlohmann::json::array();
  for (auto& s : line)
    a.push_back({{"key", s.key},
                 {"value", s.value.to_string()},
                 {"move", s.move},
                 {"board", g.render(s.key)},
                 {"ends_game", s.after.is_known() ? s.after.to_string() : ""}});
  return a;
}

nlohmann::json result_json(const Game& g, const SolveResult& r, const std::vector<LineStep>& line,
                           Value start) {
  nlohmann::json hist = nlohmann::json::object();
  for (auto& [p, c] : r.by_plies) hist[std::to_string(p)] = c;
  return {{"game", g.name()},
          {"variant", g.variant()},
          {"tier", r.tier},
          {"mode", r.in_ram ? "in-ram" : "out-of-core"},
          {"states", r.states},
          {"wins", r.wins},
          {"losses", r.losses},
          {"draws", r.draws},
          {"by_plies", hist},
          {"levels", r.levels},
          {"longest", r.longest},
          {"longest_state", g.render(r.longest_key)},
          {"longest_line", line_json(g, line)},
          {"start_value", start.to_string()},
          {"values", r.values_path},
          {"digest", r.digest},
          {"resumed", r.resumed},
          {"engine",
           {{"states_copied_in_untouched_blocks", r.copied_records},
            {"messages_filtered", r.filtered_messages},
            {"exit_moves_settled_in_memory", r.exit_moves_settled}}}};
}

void print_text(const Game& g, const SolveResult& r, const std::vector<LineStep>& line,
                Value start) {
  // The game is named once, by the summary: Onitama's variant lists every card.
  std::cout << "tier " << r.tier << " solved " << (r.in_ram ? "in RAM" : "out of core")
            << (r.resumed ? " (resumed)" : "") << "\n"
            << "  states " << r.states << ": " << r.wins << " wins, " << r.losses << " losses, "
            << r.draws << " draws\n"
            << "  plies  states\n";
  for (auto& [p, c] : r.by_plies) std::cout << "  " << std::setw(5) << p << "  " << c << "\n";
  std::cout << "  draws  " << r.draws << "\n"
            << "  longest decided state (" << r.longest
            << " plies), and its line of optimal play:\n";
  for (std::size_t i = 0; i < line.size(); ++i) {
    std::cout << "  ply " << i << ": " << line[i].value.to_string() << " for the player to move"
              << (line[i].move.empty() ? "" : ", plays " + line[i].move) << "\n"
              << g.render(line[i].key);
    if (line[i].after.is_known())
      std::cout << "  the move ends the game: " << line[i].after.to_string()
                << " for the player to move after it\n";
  }
  if (start.is_known()) std::cout << "  start position: " << start.to_string() << "\n";
  std::cout << "  values run " << r.values_path << " digest " << r.digest << "\n";
}

std::uint64_t terminal_states(const SolveResult& r) {
  auto it = r.by_plies.find(0);
  return it == r.by_plies.end() ? 0 : it->second;
}

// The whole game's value distribution when every tier was solved: plies -> states, one column a
// tier (the shape of a published value table). States valued in 0 plies are the terminal ones
// (Ostle's checkmate positions); the rest are the states retrograde analysis had to value (the
// paper's "non-trivial" states).
nlohmann::json whole_game_json(const std::vector<SolveResult>& results, Value start) {
  std::map<std::uint32_t, std::uint64_t> total;
  std::uint64_t states = 0, wins = 0, losses = 0, draws = 0, terminal = 0;
  std::uint32_t longest = 0;
  for (auto& r : results) {
    for (auto& [p, c] : r.by_plies) total[p] += c;
    states += r.states, wins += r.wins, losses += r.losses, draws += r.draws,
        terminal += terminal_states(r);
    longest = std::max(longest, r.longest);
  }
  nlohmann::json hist = nlohmann::json::object();
  for (auto& [p, c] : total) hist[std::to_string(p)] = c;
  return {{"states", states}, {"wins", wins},         {"losses", losses},
          {"draws", draws},   {"terminal", terminal}, {"non_terminal", states - terminal},
          {"by_plies", hist}, {"longest", longest},   {"start_value", start.to_string()}};
}

constexpr std::size_t kTierColumns = 6;

void print_whole_game_text(const std::vector<SolveResult>& results, Value start) {
  std::set<std::uint32_t> plies;
  for (auto& r : results)
    for (auto& [p, c] : r.by_plies) plies.insert(p);
  auto row = [](const std::string& label, const std::vector<std::uint64_t>& cells) {
    std::cout << "  " << std::setw(8) << label;
    for (auto c : cells) std::cout << "  " << std::setw(14) << c;
    std::cout << "\n";
  };
  // A column a tier while the table stays readable (Ostle's 3); beyond, the totals alone (each
  // tier's own table is printed above, and the JSON has every tier).
  const bool by_tier = results.size() <= kTierColumns;
  std::cout << "whole game, "
            << (by_tier ? "every tier" : "all " + std::to_string(results.size()) + " tiers")
            << ":\n  " << std::setw(8) << "plies";
  if (by_tier)
    for (auto& r : results) std::cout << "  " << std::setw(14) << r.tier;
  std::cout << "  " << std::setw(14) << "total"
            << "\n";
  auto cells_of = [&](auto get) {
    std::vector<std::uint64_t> cells;
    std::uint64_t sum = 0;
    for (auto& r : results) {
      sum += get(r);
      if (by_tier) cells.push_back(get(r));
    }
    cells.push_back(sum);
    return cells;
  };
  for (auto p : plies)
    row(std::to_string(p), cells_of([p](const SolveResult& r) {
          auto it = r.by_plies.find(p);
          return it == r.by_plies.end() ? 0 : it->second;
        }));
  row("draws", cells_of([](const SolveResult& r) { return r.draws; }));
  row("wins", cells_of([](const SolveResult& r) { return r.wins; }));
  row("losses", cells_of([](const SolveResult& r) { return r.losses; }));
  row("states", cells_of([](const SolveResult& r) { return r.states; }));
  row("terminal", cells_of(terminal_states));
  row("valued", cells_of([](const SolveResult& r) { return r.states - terminal_states(r); }));
  std::cout << "  (terminal: valued in 0 plies; valued: the states retrograde analysis valued)\n";
  if (start.is_known()) std::cout << "  start position: " << start.to_string() << "\n";
}

// The start's value, read from the values run of the start's tier (or of the one tier solved),
// and that tier's result; unknown and none when the start is in no tier solved here.
std::pair<Value, const SolveResult*> start_value(const Game& g,
                                                 const std::vector<SolveResult>& results) {
  const std::string start_tier = g.tier_of(g.start());
  for (const SolveResult& r : results) {
    if (r.tier != start_tier && results.size() > 1) continue;
    try {
      return {lookup_value(r.values_path, g.start()), &r};
    } catch (const std::exception&) {
    }
  }
  return {Value::unknown(), nullptr};
}

// The start's value in tier r's report: only the start's tier (or the one tier solved) has it.
Value start_in(const Game& g, const std::vector<SolveResult>& results, const SolveResult& r,
               Value start) {
  return r.tier == g.tier_of(g.start()) || results.size() == 1 ? start : Value::unknown();
}

// One JSON document: a tier's object alone, or every tier's and the whole game's; with the
// summary's facts (work dir, winner, time, peak memory) at its top level.
void print_json(const Game& g, const std::vector<SolveResult>& results, Value start,
                const SolveCost& cost) {
  nlohmann::json tiers = nlohmann::json::array();
  for (auto& r : results)
    tiers.push_back(result_json(g, r, longest_line(g, r), start_in(g, results, r, start)));
  nlohmann::json doc = results.size() == 1
                           ? tiers[0]
                           : nlohmann::json{{"game", g.name()},
                                            {"variant", g.variant()},
                                            {"tiers", tiers},
                                            {"whole_game", whole_game_json(results, start)}};
  doc.update(summary_json(start, cost));
  std::cout << doc.dump(2) << "\n";
}

// --verbose: every tier's table and longest line, then the whole game's table.
void print_tables(const Game& g, const std::vector<SolveResult>& results, Value start) {
  for (auto& r : results) print_text(g, r, longest_line(g, r), start_in(g, results, r, start));
  if (results.size() > 1) print_whole_game_text(results, start);
}

void print_results(const SolveArgs& a, const Game& g, const std::vector<SolveResult>& results,
                   const SolveCost& cost) {
  const auto [start, start_tier] = start_value(g, results);
  if (globals().json) return print_json(g, results, start, cost);
  if (a.verbose) print_tables(g, results, start);
  std::string game = a.game;  // as named on the command line
  for (const std::string& option : a.game_options) game += " " + option;
  std::cout << solve_summary(game, results, start, start_tier, cost);
}

// Every solved tier (or the one asked for) against its children's stored values.
void run_check(SolveArgs c, const std::vector<std::string>& words, std::size_t sample,
               std::uint64_t seed) {
  const std::string dir = globals().work_dir;
  // A writer's lock: the full check sorts in scratch files in the work dir.
  WorkDirLock lock(dir, WorkDirLock::Mode::kWrite, "check-solution");
  SolvedDatabase db(dir, game_request(words));
  const Game& g = db.game();
  std::vector<std::string> tiers = c.tier == "all" ? db.tiers() : std::vector<std::string>{c.tier};
  std::uint64_t mismatches = 0;
  nlohmann::json report = nlohmann::json::array();
  for (auto& tier : tiers) {
    const std::string& values = db.values(tier);
    SolveOptions o = solve_options(c);
    o.job_dir = tier_job_dir(g, dir, tier);
    const auto lower = db.values_below(tier);
    CheckResult r = sample > 0 ? check_solution_sample(g, values, lower, sample, seed)
                               : check_solution(g, values, lower, o);
    mismatches += r.mismatches;
    report.push_back({{"values", values},
                      {"tier", tier},
                      {"states", r.states},
                      {"mismatches", r.mismatches},
                      {"examples", r.examples}});
    if (globals().json) continue;
    std::cout << "checked " << r.states << " states of " << values << ": " << r.mismatches
              << " mismatches\n";
    for (auto& e : r.examples) std::cout << "  " << e << "\n";
  }
  if (globals().json)
    std::cout << (report.size() == 1 ? report[0]
                                     : nlohmann::json{{"game", g.name()},
                                                      {"variant", g.variant()},
                                                      {"tiers", report},
                                                      {"mismatches", mismatches}})
                     .dump(2)
              << "\n";
  if (mismatches) throw CLI::RuntimeError(1);
}

void run_solve(const SolveArgs& a) {
  auto g = make_game(a.game, a.game_options);
  if (!a.plot.empty()) check_picture_path(a.plot);  // a bad name fails now, not after the solve
  WorkDirLock lock(globals().work_dir, WorkDirLock::Mode::kWrite, "solve " + a.game);
  const auto began = std::chrono::steady_clock::now();
  auto results = solve_tiers(*g, solve_options(a), a.tier);
  if (globals().cluster && globals().cluster->rank() != 0) return;  // rank 0 reports
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - began;
  print_results(a, *g, results, solve_cost(took.count()));
  if (a.plot.empty()) return;
  std::vector<TierTable> tables;
  for (auto& r : results)
    tables.push_back({r.tier, r.states, r.wins, r.losses, r.draws, r.by_plies});
  write_picture(a.plot, plies_chart_svg(chart_title(*g), tables, chart_scale(a.plot_scale)));
}

struct CheckArgs {
  SolveArgs solve;  // its tier
  std::vector<std::string> words;
  std::size_t sample = 0;
  std::uint64_t seed = 1;
};

}  // namespace
}  // namespace zermelo::cli

ZERMELO_REGISTER_COMMAND(10, [](CLI::App& app) {
  using namespace zermelo;
  auto* solve = app.add_subcommand(
      "solve", "strongly solve a game by retrograde analysis (out of core unless --in-ram)");
  auto& a = cli::command_options<cli::SolveArgs>(solve, cli::run_solve);
  solve->add_option("game", a.game, "game name (see `zermelo games`)")->required();
  solve->add_option("options", a.game_options, "game options, e.g. a board size");
  solve->add_option("--tier", a.tier,
                    "tier to solve (default all: every tier bottom-up; a single tier solves the "
                    "tiers it reads first, where they are missing in --work-dir)");
  solve->add_flag("--in-ram", a.in_ram, "use the in-memory solver (small games; same output file)");
  solve->add_flag("--no-predecessors", a.no_predecessors,
                  "build a reverse-edge run instead of using the game's un-moves");
  solve->add_option(
      "--checkpoint-states", a.checkpoint_states,
      "checkpoint the initial scan every N states (default 2^28; part of the job's identity)");
  solve->add_option("--raw-runs", a.raw_runs,
                    "store runs rewritten every level (undecided states, spilled messages) "
                    "uncompressed while they are "
                    "below this size, e.g. 0, 512M, 8G (default 8G: raw I/O is cheaper than zstd, "
                    "compression saves disk)");
  solve->add_flag("--exit-lookups", a.exit_lookups,
                  "settle moves into lower tiers by sorted lookups even when the game numbers them "
                  "for an in-memory "
                  "array (slower and far more disk; for comparison)");
  solve->add_flag(
      "--no-message-filter", a.no_message_filter,
      "sort every message, even those to groups of states all decided (for comparison)");
  solve->add_option("--max-states", a.max_states,
                    "refuse a solve of more states than this: before any work where the game "
                    "counts its states, else when its enumeration passes the limit");
  solve->add_flag("--verbose", a.verbose,
                  "also print the values by plies of every tier, its longest line of optimal "
                  "play, and the whole game's table (the JSON always has them)");
  solve
      ->add_option("--shards", a.shards,
                   "cut each tier's levels into this many key ranges, run at once on the threads "
                   "(default 1; part of the job's identity; docs/shards.md)")
      ->check(CLI::Range(1u, 4096u));
  auto* plot = solve->add_option("--plot", a.plot,
                                 "also draw the states by plies (a colour a tier) as a chart into "
                                 "this file, FILE.svg or FILE.png");
  solve->add_option("--plot-scale", a.plot_scale, "the chart's y axis: linear (default) or log")
      ->check(CLI::IsMember({"linear", "log"}))
      ->needs(plot);
  solve->footer(
      "A solve the disk cannot hold (about 4 bytes a state at the peak) is refused before it "
      "starts.\n"
      "Example: zermelo --work-dir work/ttt solve tictactoe\n"
      "         zermelo --work-dir work/ttt-ram solve tictactoe --in-ram\n"
      "Killed or interrupted, the same command resumes from the last finished level.");

  auto* check = app.add_subcommand("check-solution",
                                   "re-check a solved values run state by state (streaming)");
  auto& c = cli::command_options<cli::CheckArgs>(
      check, [](const cli::CheckArgs& k) { cli::run_check(k.solve, k.words, k.sample, k.seed); });
  cli::add_game_words(check, c.words);
  check->add_option("--tier", c.solve.tier, "tier to check (default: every solved tier)");
  check->add_option("--sample", c.sample,
                    "check only this many random states (random-access reads) instead of every "
                    "state");
  check->add_option("--seed", c.seed, "random seed for --sample");
  check->footer(
      "The game and its options come from the work dir's manifest; named here, they must agree.\n"
      "Example: zermelo --work-dir work/ttt check-solution\n"
      "         zermelo --work-dir work/ostle check-solution ostle --tier 4v4 --sample 2000");
});
