// `zermelo tally GAME --run FILE`: how many of a run's states fall in each tier, with examples.
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "tools/zermelo/command.hpp"
#include "tools/zermelo/game_words.hpp"
#include "zermelo/engine/tally.hpp"
#include "zermelo/pipeline/work_dir_lock.hpp"

namespace zermelo::cli {
namespace {

struct TallyArgs {
  std::string run;
  std::vector<std::string> words;
  std::size_t examples = 1;
};

void print_tally_json(const Game& g, const std::string& run, std::uint64_t total,
                      const std::map<std::string, TierTally>& tally) {
  nlohmann::json tiers = nlohmann::json::object();
  for (const auto& [tier, t] : tally) {
    nlohmann::json ex = nlohmann::json::array();
    for (auto k : t.examples) ex.push_back(g.render(k));
    tiers[tier] = {{"states", t.states}, {"examples", ex}};
  }
  std::cout << nlohmann::json{{"game", g.name()},
                              {"variant", g.variant()},
                              {"run", run},
                              {"states", total},
                              {"tiers", tiers}}
                   .dump(2)
            << "\n";
}

void run_tally(const TallyArgs& a) {
  const std::string dir = std::filesystem::path(a.run).parent_path().string();
  WorkDirLock lock(dir.empty() ? "." : dir, WorkDirLock::Mode::kRead, "tally");
  auto g = game_of_work_dir(dir.empty() ? "." : dir, game_request(a.words));
  const auto tally = tally_tiers(*g, a.run, a.examples);
  std::uint64_t total = 0;
  for (const auto& [tier, t] : tally) total += t.states;
  if (globals().json) return print_tally_json(*g, a.run, total, tally);
  std::cout << a.run << ": " << total << " states\n  tier            states\n";
  for (const auto& [tier, t] : tally)
    std::cout << "  " << std::left << std::setw(12) << tier << std::right << std::setw(14)
              << t.states << "\n";
  for (const auto& [tier, t] : tally)
    for (auto k : t.examples) std::cout << "\n" << tier << ":\n" << g->render(k);
}

}  // namespace
}  // namespace zermelo::cli

ZERMELO_REGISTER_COMMAND(25, [](CLI::App& app) {
  using namespace zermelo::cli;
  auto* sub = app.add_subcommand(
      "tally",
      "count a run of state keys (e.g. what a breadth-first search never reached) by tier");
  auto& a = command_options<TallyArgs>(sub, run_tally);
  add_game_words(sub, a.words);
  sub->add_option("--run", a.run, "a run of state keys, as `bfs` leaves them")
      ->required()
      ->check(CLI::ExistingFile);
  sub->add_option("--examples", a.examples, "states of each tier to draw (the first in key order)")
      ->capture_default_str();
  sub->footer(
      "The game comes from the manifest beside the run (named here, it must agree).\n"
      "Example: zermelo tally --run work/ostle-bfs/unvisited-27.run --examples 2");
});
