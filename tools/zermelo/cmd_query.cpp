// `zermelo query GAME [OPTIONS] STATE`: the value of one state and of every move, read from the
// solved values runs in --work-dir (only the blocks that can hold each key are read).
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

#include "tools/zermelo/command.hpp"
#include "zermelo/engine/retrograde.hpp"

ZERMELO_REGISTER_COMMAND(15, [](CLI::App& app) {
  static std::string game, state, forbidden;
  static std::vector<std::string> options;
  auto* sub = app.add_subcommand("query", "value of a state and of each of its moves, from a solved --work-dir");
  sub->add_option("game", game, "game name")->required();
  sub->add_option("state", state, "the state in the game's text form; 'start' for the start")->required();
  sub->add_option("--options", options, "game options, as given to solve (e.g. --options 3x4)");
  sub->add_option("--forbidden", forbidden,
                  "the move a repetition rule forbids, for games whose state text takes it after ':' (Ostle): "
                  "STATE --forbidden MOVE is STATE:MOVE");
  sub->footer("Example: zermelo --work-dir work/default-onitama-3x4 query onitama start --options 3x4\n"
              "         zermelo --work-dir work/ostle query ostle 11111-00300-00000-00000-22222 --forbidden c2D");
  sub->callback([] {
    using namespace zermelo;
    auto g = make_game(game, options);
    if (!forbidden.empty() && (state == "start" || state.find(':') != std::string::npos))
      throw std::invalid_argument("--forbidden " + forbidden + ": the state '" + state + "' already says what is forbidden");
    const std::string text = forbidden.empty() ? state : state + ":" + forbidden;
    std::string error;
    std::optional<StateKey> key = state == "start" ? std::optional<StateKey>(g->start()) : g->parse(text, &error);
    if (!key) throw std::invalid_argument(game + ": cannot read state '" + text + "': " + error);
    const std::string dir = cli::globals().work_dir;
    auto value_of = [&](StateKey k) {
      std::string tier = g->tier_of(k);
      return lookup_value(tier_values_path(*g, dir, tier), k);
    };
    Value v = value_of(*key);
    std::vector<Child> kids;
    g->successors(*key, kids);
    nlohmann::json moves = nlohmann::json::array();
    for (std::size_t i = 0; i < kids.size(); ++i) {
      Value child = kids[i].is_terminal() ? kids[i].terminal : value_of(kids[i].key);
      moves.push_back({{"move", g->move_name(*key, i)}, {"value", child.parent_via().to_string()}, {"rank", child.parent_via().rank()}});
    }
    if (cli::globals().json) {
      std::cout << nlohmann::json{{"state", g->render(*key)}, {"key", *key}, {"value", v.to_string()}, {"moves", moves}}.dump(2) << "\n";
      return;
    }
    std::cout << g->render(*key) << "value: " << v.to_string() << " for the player to move\n";
    for (auto& m : moves)
      std::cout << "  " << std::left << std::setw(12) << m["move"].get<std::string>() << m["value"].get<std::string>()
                << (m["value"] == v.to_string() ? "  *" : "") << "\n";
  });
});
