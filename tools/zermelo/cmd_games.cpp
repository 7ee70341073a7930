// `zermelo games`: list the registered game modules.
#include <iostream>
#include <nlohmann/json.hpp>

#include "tools/zermelo/command.hpp"
#include "zermelo/game.hpp"

ZERMELO_REGISTER_COMMAND(90, [](CLI::App& app) {
  auto* sub = app.add_subcommand("games", "list the games this build can solve");
  sub->callback([] {
    auto games = zermelo::registered_games();
    if (zermelo::cli::globals().json) {
      nlohmann::json j = nlohmann::json::array();
      for (auto& [n, s] : games) j.push_back({{"name", n}, {"summary", s}});
      std::cout << j.dump(2) << "\n";
      return;
    }
    for (auto& [n, s] : games) std::cout << n << "  " << s << "\n";
  });
});
