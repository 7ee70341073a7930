// `zermelo solve GAME`: strong solve by retrograde analysis through the pipeline, and
// `zermelo check-solution GAME`: the independent local check of a solved values run.
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "tools/zermelo/command.hpp"
#include "zermelo/engine/optimal_line.hpp"
#include "zermelo/engine/retrograde.hpp"
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
    a.push_back({{"key", s.key}, {"value", s.value.to_string()}, {"move", s.move}, {"board", g.render(s.key)},
                 {"ends_game", s.after.is_known() ? s.after.to_string() : ""}});
  return a;
}

void print_result(const Game& g, const SolveResult& r, bool several) {
  const std::vector<LineStep> line = longest_line(g, r);
  Value start = Value::unknown();
  std::string start_tier = g.tier_of(g.start());
  if (r.tier == start_tier || !several) {
    try {
      start = lookup_value(r.values_path, g.start());
    } catch (const std::exception&) {
    }
  }
  if (globals().json) {
    nlohmann::json hist = nlohmann::json::object();
    for (auto& [p, c] : r.by_plies) hist[std::to_string(p)] = c;
    std::cout << nlohmann::json{{"game", g.name()}, {"variant", g.variant()}, {"tier", r.tier}, {"mode", r.in_ram ? "in-ram" : "out-of-core"},
                                {"states", r.states}, {"wins", r.wins}, {"losses", r.losses}, {"draws", r.draws},
                                {"by_plies", hist}, {"levels", r.levels}, {"longest", r.longest},
                                {"longest_state", g.render(r.longest_key)}, {"longest_line", line_json(g, line)},
                                {"start_value", start.to_string()},
                                {"values", r.values_path}, {"digest", r.digest}, {"resumed", r.resumed},
                                {"engine", {{"states_copied_in_untouched_blocks", r.copied_records},
                                            {"messages_filtered", r.filtered_messages},
                                            {"exit_moves_settled_in_memory", r.exit_moves_settled}}}}
                     .dump(2)
              << "\n";
    return;
  }
  std::cout << g.name() << " " << g.variant() << " tier " << r.tier << " solved " << (r.in_ram ? "in RAM" : "out of core")
            << (r.resumed ? " (resumed)" : "") << "\n"
            << "  states " << r.states << ": " << r.wins << " wins, " << r.losses << " losses, " << r.draws << " draws\n"
            << "  plies  states\n";
  for (auto& [p, c] : r.by_plies) std::cout << "  " << std::setw(5) << p << "  " << c << "\n";
  std::cout << "  draws  " << r.draws << "\n"
            << "  longest decided state (" << r.longest << " plies), and its line of optimal play:\n";
  for (std::size_t i = 0; i < line.size(); ++i) {
    std::cout << "  ply " << i << ": " << line[i].value.to_string() << " for the player to move"
              << (line[i].move.empty() ? "" : ", plays " + line[i].move) << "\n"
              << g.render(line[i].key);
    if (line[i].after.is_known()) std::cout << "  the move ends the game: " << line[i].after.to_string() << " for the player to move after it\n";
  }
  if (start.is_known()) std::cout << "  start position: " << start.to_string() << "\n";
  std::cout << "  values run " << r.values_path << " digest " << r.digest << "\n";
}

}  // namespace
}  // namespace zermelo::cli

ZERMELO_REGISTER_COMMAND(10, [](CLI::App& app) {
  using namespace zermelo;
  static cli::SolveArgs a;
  auto* solve = app.add_subcommand("solve", "strongly solve a game by retrograde analysis (out of core unless --in-ram)");
  solve->add_option("game", a.game, "game name (see `zermelo games`)")->required();
  solve->add_option("options", a.game_options, "game options, e.g. a board size");
  solve->add_option("--tier", a.tier, "tier to solve (default all: every tier bottom-up; a single tier needs its lower tiers solved in the same --work-dir)");
  solve->add_flag("--in-ram", a.in_ram, "use the in-memory solver (small games; same output file)");
  solve->add_flag("--no-predecessors", a.no_predecessors, "build a reverse-edge run instead of using the game's un-moves");
  solve->add_option("--checkpoint-states", a.checkpoint_states,
                    "checkpoint the initial scan every N states (default 2^28; part of the job's identity)");
  solve->add_option("--raw-runs", a.raw_runs,
                    "store runs rewritten every level (undecided states, spilled messages) uncompressed while they are "
                    "below this size, e.g. 0, 512M, 8G (default 8G: raw I/O is cheaper than zstd, compression saves disk)");
  solve->add_flag("--exit-lookups", a.exit_lookups,
                  "settle moves into lower tiers by sorted lookups even when the game numbers them for an in-memory "
                  "array (slower and far more disk; for comparison)");
  solve->add_flag("--no-message-filter", a.no_message_filter,
                  "sort every message, even those to groups of states all decided (for comparison)");
  solve->footer("Example: zermelo --work-dir work/ttt solve tictactoe\n"
                "         zermelo --work-dir work/ttt-ram solve tictactoe --in-ram\n"
                "Killed or interrupted, the same command resumes from the last finished level.");
  solve->callback([] {
    auto g = make_game(a.game, a.game_options);
    SolveOptions o = cli::solve_options(a);
    auto results = solve_tiers(*g, o, a.tier);
    for (auto& r : results) cli::print_result(*g, r, results.size() > 1);
  });

  static cli::SolveArgs c;
  auto* check = app.add_subcommand("check-solution", "re-check a solved values run state by state (streaming)");
  check->add_option("game", c.game, "game name")->required();
  check->add_option("options", c.game_options, "game options");
  check->add_option("--tier", c.tier, "tier to check");
  static std::size_t sample = 0;
  static std::uint64_t seed = 1;
  check->add_option("--sample", sample, "check only this many random states (random-access reads) instead of every state");
  check->add_option("--seed", seed, "random seed for --sample");
  check->footer("Example: zermelo --work-dir work/ttt check-solution tictactoe\n"
                "         zermelo --work-dir work/ostle check-solution ostle --tier 4v4 --sample 2000");
  check->callback([] {
    auto g = make_game(c.game, c.game_options);
    SolveOptions o = cli::solve_options(c);
    o.job_dir = tier_job_dir(*g, o.job_dir, c.tier);
    std::string values = o.job_dir + "/values-" + c.tier + ".run";
    auto lower = tier_dependencies_values(*g, cli::globals().work_dir, c.tier);
    CheckResult r = sample > 0 ? check_solution_sample(*g, values, lower, sample, seed) : check_solution(*g, values, lower, o);
    if (cli::globals().json)
      std::cout << nlohmann::json{{"values", values}, {"states", r.states}, {"mismatches", r.mismatches}, {"examples", r.examples}}.dump(2)
                << "\n";
    else {
      std::cout << "checked " << r.states << " states of " << values << ": " << r.mismatches << " mismatches\n";
      for (auto& e : r.examples) std::cout << "  " << e << "\n";
    }
    if (r.mismatches) throw CLI::RuntimeError(1);
  });
});
