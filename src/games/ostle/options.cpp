// Ostle's game options (see zermelo/games/ostle/options.hpp).
#include "zermelo/games/ostle/options.hpp"

#include <stdexcept>

namespace zermelo::ostle {

namespace {
constexpr const char* kReference = "reference";
constexpr const char* kPlayRestricted = "play-restricted";
}  // namespace

std::string GameOptions::variant() const {
  std::string v = reading == Reading::kPublished ? kReference : "";
  if (play_restricted) v += (v.empty() ? "" : " ") + std::string(kPlayRestricted);
  return v;
}

GameOptions parse_game_options(const std::vector<std::string>& options, const std::string& game) {
  GameOptions o;
  bool seen_reference = false, seen_play = false;
  for (const std::string& opt : options) {
    bool& seen = opt == kReference ? seen_reference : seen_play;
    if (opt != kReference && opt != kPlayRestricted)
      throw std::invalid_argument(game + ": unknown option '" + opt + "' (known: " + kReference +
                                  " = the published solver's reading of the repetition rule, " +
                                  kPlayRestricted + " = successors include the forbidden move)");
    if (seen) throw std::invalid_argument(game + ": option '" + opt + "' given twice");
    seen = true;
  }
  if (seen_reference) o.reading = Reading::kPublished;
  o.play_restricted = seen_play;
  return o;
}

}  // namespace zermelo::ostle
