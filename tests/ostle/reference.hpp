// A slow, plain reference implementation of Ostle's rules, written separately from the bitboard
// module (a 5x5 character grid, the full previous position instead of a forbidden-move code, the
// symmetries as coordinate maps) so the tests can check the fast engine against it.
#pragma once
#include <array>
#include <optional>
#include <string>
#include <vector>

namespace ostle_ref {

// grid[file][rank], 0-based; 'x' = side to move, 'o' = opponent, 'H' = hole, '.' = empty.
struct Board {
  std::array<std::array<char, 5>, 5> grid{};
  bool operator==(const Board&) const = default;
  int count(char who) const;
  Board swapped() const;  // the other side's point of view
};

// The text form "11111-00000-00300-00000-22222" (rank 1 first, files a..e), parsed simply.
Board from_text(const std::string& text);
std::string to_text(const Board& b);

struct Move {
  int file, rank, dir;  // dir 0 U (rank-1), 1 D (rank+1), 2 L (file-1), 3 R (file+1)
  bool operator==(const Move&) const = default;
};

enum class Result { kContinues, kMoverWins, kMoverLoses };

struct Played {
  Board next;  // from the next mover's point of view
  Result result;
};

// Plays a move (a piece of the mover or the hole), as the rules are written.
Played play(const Board& b, const Move& m);

// Legal moves in the documented order (squares a1, a2, ..., e5 = file-major, then U D L R),
// leaving out a move that recreates `two_plies_before` (the position before the last ply, seen
// from the side that is to move after this move).
std::vector<Move> legal_moves(const Board& b, const std::optional<Board>& two_plies_before);

// The mover has a legal move that leaves the opponent with 3 pieces.
bool is_checkmate(const Board& b, const std::optional<Board>& two_plies_before);

// Whether a and b are the same position up to one of the 8 symmetries of the square.
bool equivalent(const Board& a, const Board& b);
Board transform(const Board& b, int g);  // g in 0..7

}  // namespace ostle_ref
