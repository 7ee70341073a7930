// The published solver's reading of the repetition rule (Takizawa's ostle_solver, the reading
// behind the paper's state counts, value table and breadth-first levels), next to the rules as
// written (board.hpp). Under it a state is a canonical position C plus the symmetry class of the
// position P before the last ply: its code is 1 + the first move of C, in C's fixed move order,
// whose result is congruent to P under the 8 symmetries, or 0 when no move of C gives anything
// congruent to P. Only that one move is forbidden. A state exists when some position (a
// checkmate one included) has a legal move that produces it.
//
// Codes use the forbidden-move encoding of board.hpp and the canonical frame of index.hpp, so
// keys keep their layout: only which codes exist, and which child a move reaches, differ. They
// differ only near symmetry: a position that no symmetry takes to a board differing from it on
// at most two lines (most positions) has the exact reading's states, un-moves and children's
// codes, which is how the functions below are fast (published.cpp, near_symmetric).
#pragma once
#include <vector>

#include "zermelo/games/ostle/board.hpp"
#include "zermelo/games/ostle/index.hpp"

namespace zermelo::ostle {

// The state key a move from `prev` into `next` leaves (both from their movers' points of view,
// `next` being apply_move(prev, m).next for some continuing move m).
Key published_child_key(const Position& next, const Position& prev);
// The same from the move's result r = apply_move(prev, m), faster: far from symmetric, a child's
// code is the exact reading's (the move's undo, r.next_forbid), so only near symmetry are the
// child's own moves compared with `prev`.
Key published_child_key(const MoveResult& r, const Position& prev);

// The codes of the states of a canonical position, in increasing order (none first if it exists).
ForbidList published_codes(const Position& canonical);

// The parents of a state under this reading (Game::predecessors): each non-checkmate parent
// state as often as its successors list the child. From the exact un-moves of the child's
// position over all its exact codes (every board and move into it), keeping the boards whose
// moves leave the child's code, each paired with its states here that do not forbid the move.
void published_parents(Key child, std::vector<Key>& out);

// True when the squares of `diff` lie on at most two lines (files or ranks): the near-symmetry
// test's core (published.cpp), public for its test against a brute force.
bool within_two_lines(Bits diff);

}  // namespace zermelo::ostle
