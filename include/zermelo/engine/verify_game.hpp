// A game module's self-check, in the spirit of GamesmanOne's per-game verifier.
//
// The engine trusts a game's hooks blindly: un-moves that miss a parent, or list it too often,
// give wrong values without any crash. This check walks states breadth-first from the start and
// compares the hooks against each other: every move s -> c found by successors(s) must appear in
// predecessors(c) as often (unless s has a terminal value, which predecessors may leave out), every
// parent listed by predecessors(c) must reach c by as many moves, every rule value a child
// carries (Child::rule) must equal terminal_value of its key, and successor_outcomes must list the
// same moves as successors. The hooks that come in pairs must agree (include/zermelo/game.hpp):
// tier_of names a tier of tiers() and moves go only to the tiers a tier depends on; exit and
// group slots lie in their ranges, distinct exit states have distinct slots, and group slots do
// not decrease as keys increase; successors_skipping skips just what it is asked to. Run by the
// tests for every game, and by `zermelo verify-game GAME`.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "zermelo/game.hpp"

namespace zermelo {

struct GameCheck {
  std::size_t states = 0;             // states whose moves and un-moves were compared
  std::size_t edges = 0;              // moves checked both ways
  std::vector<std::string> problems;  // the first few disagreements, described with diagrams
};

// The report stops at this many problems.
inline constexpr std::size_t kMaxGameProblems = 5;

// Checks up to `max_states` states reached breadth-first from the start.
GameCheck verify_game_moves(const Game& game, std::size_t max_states);

}  // namespace zermelo
