// In-RAM solvers for Onitama: the strong solve by retrograde analysis over the reachable state
// graph, the forward-looking retrograde analysis (a weak solve that expands from the start and
// stops once the start is decided), and a plain fixpoint solver used only to cross-check both.
//
// All three may fold the player-swap symmetry (a state and its 180°-turned, colour-swapped twin
// have the same value): then only the smaller key of each pair is stored.
//
// Why they stay beside the engine's in-RAM solver (pipeline/retrograde_ram.cpp, `solve --in-ram`),
// which solves any Game: that one values every state the game enumerates (every legal state of a
// tier: 604,914 on the 3x4 board with boar cards), where the thesis's figures are about the
// states reachable from the start (431,793 there), the edges between them and the levels of
// their retrograde analysis, found by a search over a bit per key; the weak solve is a forward
// search that stops once the start is decided, which the engine has no counterpart of; and the
// out-of-core tests (tests/onitama/onitama_out_of_core_test.cpp) need a solver that shares no
// code with the engine, to check its values on every reachable state.
#pragma once
#include <cstdint>
#include <map>
#include <vector>

#include "zermelo/engine/value.hpp"
#include "zermelo/games/onitama/graph.hpp"

namespace zermelo::onitama {

struct StrongResult {
  bool symmetry = false;
  GraphStats graph;
  KeySet set;
  std::vector<std::uint16_t> values;  // Value::raw() by set.index(key)
  Value start_value;
  std::uint64_t wins = 0, losses = 0, draws = 0;
  std::uint32_t longest_win = 0;  // most plies of any won state
  std::uint32_t levels = 0;       // retrograde levels run
  double explore_seconds = 0, solve_seconds = 0;

  // The value of any reachable state (folded by the symmetry if the solve was).
  Value value_of(const Rules& rules, Key k) const;
};

// Reachable graph by BFS, then retrograde level by level: terminal states are lost in 0; a state
// with a child lost in d is won in d+1; a state whose last undecided child is won in d is lost in
// d+1; whatever is never decided is a draw. Parents come from the rules' un-moves.
StrongResult solve_strong(const Rules& rules, bool symmetry);

struct WeakResult {
  bool symmetry = false;
  Value start_value;             // win/loss plies are upper bounds (labels on a partial graph)
  std::uint64_t expanded = 0;    // states whose moves were generated
  std::uint64_t discovered = 0;  // states stored (expanded or seen as a child)
  std::uint32_t depth = 0;       // BFS levels expanded
  double seconds = 0;
};

// Forward-looking retrograde analysis: expand breadth-first from the start, label wins and losses
// on the discovered graph as they appear (propagating to discovered parents), never expand a
// state that is already decided, and stop as soon as the start is decided. If the search runs out
// of states first, every undecided state, the start among them, is a draw.
WeakResult solve_weak(const Rules& rules, bool symmetry);

// Reference solver for tiny boards: a std::map of reachable states and rounds of "decided in
// exactly k plies" over successors only. Slow and simple on purpose.
std::map<Key, Value> solve_brute_force(const Rules& rules);

}  // namespace zermelo::onitama
