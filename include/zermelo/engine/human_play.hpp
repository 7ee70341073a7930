// A person playing a solved game against its perfect player, on a text stream: `zermelo play
// --opponent human`. The game is the point, so the dialogue is what a player expects of a
// program: the board before each of their moves, the engine's move announced with what it is
// worth ("Zermelo plays a4-a3 (win in 17)"), `hint` (the best move and its value), `undo` (takes
// back the last full turn), `quit`, a bad move answered with the legal moves, the final board
// with the result, and the end of input taken as leaving the game, not as an error.
#pragma once
#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

#include "zermelo/engine/perfect_play.hpp"

namespace zermelo {

struct HumanPlayOptions {
  bool person_moves_first = true;
  std::size_t max_plies = 1000;  // a game not over after this many plies is a draw
};

enum class HumanPlayEnd { kGameOver, kQuit, kEndOfInput };

struct HumanPlayResult {
  HumanPlayEnd end = HumanPlayEnd::kGameOver;
  std::vector<std::string> moves;       // the moves kept (taken-back ones are gone)
  Value for_person = Value::unknown();  // game over: the result from the person's side
};

// Plays from `start`: reads the person's lines from `in`, writes the dialogue to `out`. The
// engine's moves are perfect_move's; a state without a value throws std::runtime_error.
HumanPlayResult play_with_person(const Game& game, ValuesLookup& values, StateKey start,
                                 const HumanPlayOptions& options, std::istream& in,
                                 std::ostream& out);

}  // namespace zermelo
