// Playing a solved game: a perfect player that reads its moves from the values runs, games of it
// against another player, and the check that it never does worse than the solve says.
//
// A solve claims a value for every state; playing is how a user feels that claim, and a cheap
// independent test of it: from a state worth a win the perfect player must win whatever the
// opponent does, from a draw it must never lose. play_game reports every game's moves and result,
// and the caller counts results that fall short of the start's value (none for a sound solve).
// The perfect player picks the move whose child value is best for it (Value::parent_via: the
// fastest win, the longest loss, a draw before a loss), the first such move in move order.
#pragma once
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "zermelo/engine/optimal_line.hpp"

namespace zermelo {

// A child's value for the player who moves into it: terminal children carry theirs.
Value child_value(ValuesLookup& values, const Child& c);

// The move a perfect player makes from s (kids = game.successors(s)); kids.size() when there is
// none or a child's value is missing.
std::size_t perfect_move(ValuesLookup& values, const std::vector<Child>& kids);

// A player: given the state and its children, the index of the move to make.
using Player = std::function<std::size_t(StateKey, const std::vector<Child>&)>;

struct PlayedGame {
  std::vector<std::string> moves;
  // For the first player: win, loss, or draw when max_plies passed without an end.
  Value result_for_first = Value::unknown();
  std::size_t plies = 0;
};

// From `start`, players[0] moving first and the two alternating, until a move ends the game, a
// state is terminal, or max_plies moves.
PlayedGame play_game(const Game& game, StateKey start, const Player players[2],
                     std::size_t max_plies);

}  // namespace zermelo
