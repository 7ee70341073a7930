// Reading and writing Othello positions and moves as people and other solvers write them.
//
// Why a separate file: parsing is the one place where input comes from outside (the CLI, the FFO
// test file), so every error must name what is wrong; the bitboard core stays free of strings.
// Board text: one character a square, A1 B1 … H1, A2 … (row by row from the top) — the FFO/.obf
// form — with `X`/`x`/`*`/`B` Black, `O`/`o`/`W` White and `-`/`.` empty; spaces are ignored.
// Side: `X`/`B`/`black` or `O`/`W`/`white`. Moves: `A1`..`H8` (case-insensitive), `PS`/`pass`.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "zermelo/games/othello/bitboard.hpp"

namespace zermelo::othello {

constexpr int kPass = -1;  // the move "pass" in move lists and principal variations

// A position in absolute colours, as written down (the engine works from the mover's view).
struct Position {
  int size = 8;  // 4, 6 or 8
  Bits black = 0;
  Bits white = 0;
  bool white_to_move = false;

  Bits mover() const { return white_to_move ? white : black; }
  Bits opponent() const { return white_to_move ? black : white; }
  int empties() const { return size * size - popcount(black | white); }
};

Position start_position(int size);

// All parsers throw std::invalid_argument with a message naming the offending input.
// `start` as the board is the start position of that size (the side empty or Black).
Position parse_position(std::string_view board, std::string_view side, int size = 8);
bool parse_side(std::string_view side);                 // true = White to move
int parse_square(std::string_view text, int size = 8);  // bit index, or kPass for "PS"/"pass"
std::string square_name(int sq);                        // "A1".."H8", "PS" for a pass
std::string board_string(const Position& pos);          // the 64/36/16-char form
std::string render(const Position& pos);                // a diagram with coordinates, several lines

// A position as one piece of text: "<board> <side>" or the board and side run together (the
// 65-character form on 8x8: 64 squares, then X or O).
Position parse_board_and_side(std::string_view text, int size = 8);

// One line of an .obf file: "<board> <side>; <move>:<score>; ..." — the published move scores
// (none after a bare position).
struct ObfEntry {
  Position position;
  std::vector<std::pair<int, int>> move_scores;  // (square, exact score for the side to move)
  int line = 0;                                  // its line in the file; 0 if not read from one
  bool published() const { return !move_scores.empty(); }
  int best_score() const;
  std::vector<int> best_moves() const;
};
ObfEntry parse_obf_line(std::string_view line, int size = 8);
// Reads every non-empty, non-comment line of an .obf file (throws naming the file and line).
std::vector<ObfEntry> read_obf_file(const std::string& path);

}  // namespace zermelo::othello
