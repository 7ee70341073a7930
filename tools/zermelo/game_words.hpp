// How a reading command names its game: `[GAME [OPTIONS...]]`, or nothing, and the work dir's
// manifest says which game it holds. What is named is checked against the manifest
// (SolvedDatabase), so a command never answers about a game other than the one asked for.
#pragma once
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "zermelo/pipeline/solved_database.hpp"

namespace zermelo::cli {

// Adds the optional positionals GAME and OPTIONS... to `sub`, read into `words`.
inline void add_game_words(CLI::App* sub, std::vector<std::string>& words) {
  sub->add_option(
      "game", words,
      "game and options, as given to solve (default: the work dir's, from its manifest)");
}

inline GameRequest game_request(const std::vector<std::string>& words) {
  GameRequest r;
  if (words.empty()) return r;
  r.name = words[0];
  r.options.assign(words.begin() + 1, words.end());
  r.options_given = words.size() > 1;
  return r;
}

}  // namespace zermelo::cli
