// Nim as a game of sets: the first test of the DFA solver (include/zermelo/dfa/solver.hpp).
//
// m heaps of at most n sticks; a position is the string of heap sizes (one character per heap,
// alphabet 0..n); a move takes at least one stick from one heap, and the player who takes the last
// stick wins, so the all-zero position is lost for the player to move. Nim is impartial, so the
// string needs no side-to-move character. Known answer: lost iff the XOR of the heaps is 0, and
// that set's DFA has Θ(m·n) states while it holds about (n+1)^m / (n+1) positions.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "zermelo/dfa/solver.hpp"

namespace zermelo::nim_dfa {

struct NimShape {
  unsigned heaps = 3;
  unsigned sticks = 5;
};

// "HEAPSxSTICKS", e.g. "4x7", as both the retrograde game (`solve nim 4x7`) and the set solver
// (`nim solve 4x7`) name a shape; the ranges are each solver's own check. Throws
// std::invalid_argument naming the word otherwise.
NimShape parse_shape(const std::string& word);
// Throws std::invalid_argument for heaps outside 1..24 or sticks outside 1..31.
void check_shape(const NimShape& shape);
std::unique_ptr<dfa::Manager> make_manager(const NimShape& shape, std::uint64_t memory_budget);
// One move per heap: its change relabels that heap's size s to every t < s.
dfa::SetGame make_game(dfa::Manager& m, const NimShape& shape);

}  // namespace zermelo::nim_dfa
