// Breakthrough on a w×h board as a game of sets, for the DFA solver
// (include/zermelo/dfa/solver.hpp).
//
// Rules (docs/dfa.md, shared spec): each player starts with pawns on its two home rows; P1 starts
// on rows 1–2 and moves up, P2 on rows h-1..h and moves down. A pawn steps straight forward onto an
// empty square, or diagonally forward onto an empty square or an enemy pawn (capturing it).
// Reaching the far row or capturing every enemy pawn wins; a player with no legal move loses.
//
// Position string: character 0 is the side to move (0 = P1, 1 = P2), then the squares row by row
// from row 1 (P1's home row), left to right: 0 empty, 1 P1 pawn, 2 P2 pawn. Putting the side first
// keeps each move's change local to the layers above the squares it touches.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "zermelo/dfa/solver.hpp"

namespace zermelo::breakthrough {

// A square's value in a position string.
inline constexpr std::uint8_t kEmpty = 0, kP1 = 1, kP2 = 2;

struct Board {
  unsigned width = 3;
  unsigned height = 4;
  unsigned squares() const { return width * height; }
  unsigned index(unsigned row, unsigned col) const {
    return 1 + row * width + col;
  }  // string position
  std::string name() const { return std::to_string(width) + "x" + std::to_string(height); }
};

// "3x4" (width x height). Throws std::invalid_argument naming what is wrong; needs 2 ≤ w ≤ 12,
// 4 ≤ h ≤ 12 (two home rows each) and at most 40 squares.
Board parse_board(const std::string& text);

std::unique_ptr<dfa::Manager> make_manager(const Board& b, std::uint64_t memory_budget);
dfa::SetGame make_game(dfa::Manager& m, const Board& b);

std::vector<std::uint8_t> start_position(const Board& b);
std::string render(const Board& b, const std::vector<std::uint8_t>& position);

}  // namespace zermelo::breakthrough
