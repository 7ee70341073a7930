// Onitama's moves as a person writes them. A move is shown by its squares alone (`a4-a3`, `b1xb2`
// for a capture, `pass`) when no other move of the position has the same squares, and with its
// card (`Tiger a4-a3`) when two cards make the same step, so every name shown is one move. Both
// spellings are read, in any case, with `-` or `x` between the squares; a spelling that fits
// two moves is refused with both full names, so a typed move is never guessed.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "zermelo/games/onitama/rules.hpp"

namespace zermelo::onitama {

// The names of p's moves, in for_each_child's order: the card left out where it is not needed.
std::vector<std::string> move_names(const Rules& rules, const Position& p);

// The index (for_each_child's order) of the move `text` names, or nullopt with *error saying
// why: no such move, or the full names of the moves an ambiguous text fits.
std::optional<std::size_t> find_move(const Rules& rules, const Position& p, std::string_view text,
                                     std::string* error);

}  // namespace zermelo::onitama
