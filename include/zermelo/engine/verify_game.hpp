// A game module's self-check, in the spirit of GamesmanOne's per-game verifier.
//
// The engine trusts a game's hooks blindly: un-moves that miss a parent, or list it too often,
// give wrong values without any crash. This check walks states breadth-first from the start and
// compares the hooks against each other: every move s -> c found by successors(s) must appear in
// predecessors(c) as often (unless s has a terminal value, which predecessors may leave out), every
// parent listed by predecessors(c) must reach c by as many moves, and every rule value a child
// carries (Child::rule) must equal terminal_value of its key, and successor_outcomes must list the
// same moves as successors. Run by the tests for every game.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "zermelo/game.hpp"

namespace zermelo {

struct GameCheck {
  std::size_t states = 0;    // states whose moves and un-moves were compared
  std::size_t edges = 0;     // moves checked both ways
  std::vector<std::string> problems;  // the first few disagreements, described with diagrams
};

// Checks up to `max_states` states reached breadth-first from the start.
GameCheck verify_game_moves(const Game& game, std::size_t max_states);

}  // namespace zermelo
