// The table of games by name. Each game module registers itself from a static initialiser
// (see ZERMELO_REGISTER_GAME), so adding a game never touches this file.
#include <map>
#include <stdexcept>

#include "zermelo/game.hpp"

namespace zermelo {
namespace {
struct Entry {
  std::string summary;
  GameFactory factory;
};
std::map<std::string, Entry>& table() {
  static std::map<std::string, Entry> t;  // function-local: safe from static-init order
  return t;
}
}  // namespace

void register_game(const std::string& name, const std::string& summary, GameFactory factory) {
  table()[name] = Entry{summary, std::move(factory)};
}

std::unique_ptr<Game> make_game(const std::string& name, const std::vector<std::string>& options) {
  auto it = table().find(name);
  if (it == table().end()) {
    std::string known;
    for (auto& [n, e] : table()) known += (known.empty() ? "" : ", ") + n;
    throw std::invalid_argument("unknown game '" + name + "' (known: " + known + ")");
  }
  std::unique_ptr<Game> game = it->second.factory(options);
  game->options_ = options;
  return game;
}

std::vector<std::pair<std::string, std::string>> registered_games() {
  std::vector<std::pair<std::string, std::string>> out;
  for (auto& [n, e] : table()) out.emplace_back(n, e.summary);
  return out;
}

}  // namespace zermelo
