// `zermelo decode [GAME [OPTIONS...]] KEY`: the state a key of a solved work dir stands for, as a
// diagram with its tier and value, so that the keys of `export`, run files and `--json` output can
// be read back; `decode start` gives the start's key. The game comes from the work dir's manifest
// (named, it must agree). The key is looked up in the values runs before the game decodes it: a key
// that is no state is an error, where decoding it could crash.
#include <charconv>
#include <iostream>
#include <nlohmann/json.hpp>

#include "tools/zermelo/command.hpp"
#include "tools/zermelo/game_words.hpp"
#include "zermelo/engine/optimal_line.hpp"
#include "zermelo/engine/state_text.hpp"
#include "zermelo/engine/value_json.hpp"
#include "zermelo/pipeline/work_dir_lock.hpp"

namespace zermelo::cli {
namespace {

StateKey key_of(const Game& game, const std::string& text) {
  if (names_the_start(text)) return game.start();
  StateKey key = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), key);
  if (error != std::errc() || end != text.data() + text.size())
    throw std::invalid_argument("'" + text + "' is not a key (a decimal number) or 'start'");
  return key;
}

void run_decode(const std::vector<std::string>& words) {
  const std::string dir = globals().work_dir;
  WorkDirLock lock(dir, WorkDirLock::Mode::kRead, "decode");
  SolvedDatabase db(dir, game_request({words.begin(), words.end() - 1}));
  const Game& game = db.game();
  const StateKey key = key_of(game, words.back());
  const Value value = ValuesLookup(db.all_values()).find(key);
  if (!value.is_known())
    throw std::invalid_argument(game.name() + ": key " + words.back() + " is no state solved in " +
                                dir);
  const std::string tier = game.tier_of(key), state = game.render(key);
  if (globals().json) {
    std::cout
        << nlohmann::json{{"game", game.name()}, {"variant", game.variant()},  {"key", key},
                          {"tier", tier},        {"value", value_json(value)}, {"state", state}}
               .dump(2)
        << "\n";
    return;
  }
  std::cout << "key " << key << ", tier " << tier << ", " << value.to_string()
            << " for the player to move\n"
            << state;
}

}  // namespace
}  // namespace zermelo::cli

ZERMELO_REGISTER_COMMAND(17, [](CLI::App& app) {
  using Words = std::vector<std::string>;
  auto* sub = app.add_subcommand(
      "decode", "the state a key of a solved --work-dir stands for (diagram, tier and value)");
  auto& words = zermelo::cli::command_options<Words>(sub, zermelo::cli::run_decode);
  sub->add_option("words", words,
                  "[GAME [OPTIONS...]] KEY: the key in decimal, or 'start'; the game defaults to "
                  "the work dir's")
      ->required();
  sub->footer(
      "Example: zermelo --work-dir work/default-onitama-3x4 decode 2061048\n"
      "         zermelo --work-dir work/default-onitama-3x4 decode start");
});
