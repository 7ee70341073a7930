// The set-game interface: how a game is described to the DFA set solver (solver.hpp).
//
// Why a second interface beside zermelo/game.hpp: the Game interface hands the engine one state
// at a time (successors, predecessors, a key); the set solver never sees a single position. It
// needs the game as sets of strings (DFAs over one character a square) and moves as square
// relabellings between a precondition and a postcondition set, so that one set operation moves
// millions of positions at once (Considine, "Compressed Game Solving"). A game module builds a
// SetGame (breakthrough_sets.hpp, nim_sets.hpp); rules never appear in the solver.
//
// Each member says REQUIRED or OPTIONAL and what is lost without it, as the Game interface does.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "zermelo/dfa/set.hpp"

namespace zermelo::dfa {

// One move of a set game: from the positions in `pre`, relabel by `forward`, land in `post`.
struct SetMove {
  std::string name;
  Set pre;  // must exclude terminal positions: a finished game has no moves
  Set post;
  Manager::ChangeId forward = 0;   // the change
  Manager::ChangeId backward = 0;  // its inverse
  Change change;                   // the change itself, for the external images (ext_image.hpp)
};

struct SetGame {
  // REQUIRED: names the game in reports (--json "game").
  std::string name;
  // REQUIRED: the manager every set of this game lives in (its table, budget and threads).
  Manager* manager = nullptr;
  // REQUIRED: P, every string that is a position. Retrograde analysis ranges over it (its
  // complements are taken within P), and a move whose pre or post is P skips that intersection.
  Set all;
  // REQUIRED: the terminal positions, valued for the player to move. Without them nothing is
  // ever decided.
  Set won0, lost0;
  // REQUIRED: the moves (add_move). Each pre must exclude terminal positions.
  std::vector<SetMove> moves;
  // REQUIRED: the start position; the value reported is this string's.
  std::vector<std::uint8_t> start;
  // OPTIONAL: a diagram of a position. Without it reports show no board.
  std::function<std::string(const std::vector<std::uint8_t>&)> render;
  // OPTIONAL (default on): how forward/reverse apply the moves: all of a group in one
  // partitioned pass (Set::change_all), or one change per move and a balanced union. Off loses
  // speed only (kept for comparison and as a cross-check).
  bool partitioned_image = true;
  // OPTIONAL (default off): solve_by_reach hands each ply's lost open positions to the next ply
  // up as a restrict to the positions that ply can reach (Set::restrict_to) when that has fewer
  // states, instead of the exact set. On Breakthrough 5x5 it saves a third of the states on
  // every other ply but costs more time than it saves (bench/results/dfa.md).
  bool simplify_backup = false;
  // OPTIONAL (default off): every set's statistics carry its canonical digest (ext_dfa.hpp), by
  // which an in-RAM solve's sets are compared with an out-of-core solve's. Off saves its cost
  // (a numbering of every set: 1.17x the CPU of a Breakthrough 4x6 solve).
  bool digests = false;
  // Adds a move, interning its change and inverse.
  void add_move(std::string move_name, const Set& pre, const Set& post, const Change& change);
};

}  // namespace zermelo::dfa
