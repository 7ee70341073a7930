// See include/zermelo/engine/state_text.hpp.
#include "zermelo/engine/state_text.hpp"

#include <cctype>
#include <optional>
#include <stdexcept>
#include <vector>

namespace zermelo {
namespace {

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// Runs a game's parser, turning an exception it throws into its message.
template <class Parse>
auto parsed_or_error(Parse parse, std::string& error) -> decltype(parse()) {
  try {
    return parse();
  } catch (const std::exception& e) {
    error = e.what();
    return std::nullopt;
  }
}

}  // namespace

bool names_the_start(std::string_view text) { return trimmed(text) == kStartWord; }

StateKey read_state(const Game& game, std::string_view text) {
  if (names_the_start(text)) return game.start();
  std::string error;
  const std::optional<StateKey> key =
      parsed_or_error([&] { return game.parse(trimmed(text), &error); }, error);
  if (!key)
    throw std::invalid_argument(game.name() + ": cannot read state '" + std::string(text) +
                                "': " + error + " (or '" + std::string(kStartWord) + "')");
  return *key;
}

std::size_t read_move(const Game& game, StateKey s, std::string_view text) {
  std::string error;
  const std::optional<std::size_t> i =
      parsed_or_error([&] { return game.parse_move(s, trimmed(text), &error); }, error);
  if (!i) throw std::invalid_argument(error + "; legal moves: " + legal_moves_text(game, s));
  return *i;
}

std::string legal_moves_text(const Game& game, StateKey s) {
  std::vector<Child> kids;
  game.successors(s, kids);
  std::string text;
  for (std::size_t i = 0; i < kids.size(); ++i) text += (i ? " " : "") + game.move_name(s, i);
  return text;
}

}  // namespace zermelo
