// The options both Ostle games (`ostle`, `ostle-mini`) take after their board: which reading of
// the repetition rule the game follows, and whether a search may play the move that reading
// forbids. They are part of a job's identity (Game::variant), so each reading solves into its
// own work directory, and an unknown option is an error, never a silent default.
#pragma once
#include <string>
#include <vector>

namespace zermelo::ostle {

enum class Reading {
  kExact,      // the rules as written: the forbidden move recreates the exact previous board
  kPublished,  // the published solver's: a state is (position, symmetry class of the previous one)
};

struct GameOptions {
  Reading reading = Reading::kExact;
  // Successors list the forbidden move too (the published breadth-first search plays it); the
  // state space is unchanged, the game graph is not the game's, so such a game has no un-moves.
  bool play_restricted = false;
  // "" for the defaults, else the options in canonical order, e.g. "reference play-restricted".
  std::string variant() const;
};

// Parses {"reference", "play-restricted"} in any order; throws std::invalid_argument naming an
// unknown or repeated option and the known ones. `game` prefixes the message.
GameOptions parse_game_options(const std::vector<std::string>& options, const std::string& game);

}  // namespace zermelo::ostle
