// `zermelo verify-game GAME [OPTIONS]`: the game verifier (verify_game_moves) from the command
// line, so that a game module under development is checked before anything is solved with it.
// Exit 1 and the first problems, each with the states concerned drawn, if its hooks disagree.
#include <iostream>
#include <nlohmann/json.hpp>

#include "tools/zermelo/command.hpp"
#include "zermelo/engine/verify_game.hpp"

namespace zermelo::cli {
namespace {

int run_verify_game(const std::vector<std::string>& words, std::size_t max_states) {
  const std::vector<std::string> options(words.begin() + 1, words.end());
  const std::unique_ptr<Game> game = make_game(words[0], options);
  const GameCheck c = verify_game_moves(*game, max_states);
  if (globals().json) {
    nlohmann::json j = {{"game", game->name()},
                        {"variant", game->variant()},
                        {"states", c.states},
                        {"edges", c.edges},
                        {"problems", c.problems}};
    std::cout << j.dump(2) << "\n";
  } else {
    for (const std::string& p : c.problems) std::cout << "problem: " << p << "\n";
    const std::string variant = game->variant().empty() ? "" : " " + game->variant();
    std::cout << game->name() << variant << ": " << c.states << " states and " << c.edges
              << " moves checked both ways, " << c.problems.size() << " problems"
              << (c.problems.size() == kMaxGameProblems ? " (stopped at the first few)" : "")
              << "\n";
  }
  return c.problems.empty() ? 0 : 1;
}

}  // namespace
}  // namespace zermelo::cli

ZERMELO_REGISTER_COMMAND(81, [](CLI::App& app) {
  static std::vector<std::string> words;
  static std::size_t max_states = 100000;
  auto* sub = app.add_subcommand("verify-game",
                                 "check a game module's hooks against each other "
                                 "(moves and un-moves, tiers, slots)");
  sub->add_option("game", words, "game and options, as given to solve")->required();
  sub->add_option("--states", max_states, "states to check, breadth-first from the start")
      ->capture_default_str();
  sub->callback([] {
    int rc = zermelo::cli::run_verify_game(words, max_states);
    if (rc) throw CLI::RuntimeError(rc);
  });
  sub->footer("Example: zermelo verify-game dawson 12");
});
