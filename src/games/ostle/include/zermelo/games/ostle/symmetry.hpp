// The 8 symmetries of Ostle's square board and the canonical representative of a position or a
// state. Symmetric positions are one position for the solver, so every key it sees is canonical.
//
// Canonical form: the hole is brought to one of the 6 representative squares a1 a2 a3 b2 b3 c3
// (the symmetries that do this form a coset of the representative's stabiliser); among those
// images the one with the smallest (mover bitboard, opponent bitboard), compared as unsigned
// numbers in that order, is the representative. For a state, the forbidden move is carried along
// and, when the position is symmetric, the smallest forbidden code among its images is taken.
#pragma once
#include <array>
#include <cstdint>
#include <utility>

#include "zermelo/games/ostle/board.hpp"

namespace zermelo::ostle {

constexpr int kSymmetries = 8;
constexpr int kHoleClasses = 6;
constexpr std::array<int, kHoleClasses> kHoleReps = {0, 1, 2, 6, 7, 12};  // a1 a2 a3 b2 b3 c3

// Symmetry g (bits: 4 transposes, then 1 mirrors the files, then 2 mirrors the ranks) maps
// square s to sym_square(g, s); g = 0 is the identity.
namespace detail {
inline constexpr auto kSymSquare = [] {
  std::array<std::array<std::uint8_t, kSquares>, kSymmetries> t{};
  for (int g = 0; g < kSymmetries; ++g)
    for (int s = 0; s < kSquares; ++s) {
      int f = file_of(s), r = rank_of(s);
      if (g & 4) std::swap(f, r);
      if (g & 1) f = 4 - f;
      if (g & 2) r = 4 - r;
      t[g][s] = static_cast<std::uint8_t>(square_at(f, r));
    }
  return t;
}();

// The same maps on bitboards, a byte at a time: kSymBytes[g][k][v] is the image of v << 8k. Inline,
// since they are the inner loop of canonical forms and of the reference reading's symmetry tests
// (four loads an image; shifts and masks were 1.3x slower there). Tested against kSymSquare.
inline constexpr auto kSymBytes = [] {
  std::array<std::array<std::array<Bits, 256>, 4>, kSymmetries> t{};
  for (int g = 0; g < kSymmetries; ++g)
    for (int k = 0; k < 4; ++k)
      for (int v = 0; v < 256; ++v)
        for (int b = 0; b < 8; ++b)
          if ((v >> b & 1) && 8 * k + b < kSquares) t[g][k][v] |= bit(kSymSquare[g][8 * k + b]);
  return t;
}();
}  // namespace detail

constexpr int sym_square(int g, int s) { return detail::kSymSquare[g][s]; }
int sym_dir(int g, int d);
constexpr Bits sym_bits(int g, Bits b) {
  const auto& t = detail::kSymBytes[g];
  return t[0][b & 0xFF] | t[1][(b >> 8) & 0xFF] | t[2][(b >> 16) & 0xFF] | t[3][b >> 24];
}
int sym_forbid(int g, int forbid);
constexpr Position sym_position(int g, const Position& p) {
  return Position{sym_bits(g, p.me), sym_bits(g, p.opp), sym_square(g, p.hole)};
}

// The representative square of the hole's orbit and its index in kHoleReps.
int hole_rep_index(int square);
// Bit g set when symmetry g maps `square` to its representative (a coset of the stabiliser).
unsigned hole_coset(int square);
// Bit g set when g fixes the representative square rep (its stabiliser).
unsigned rep_stabiliser(int hole_index);

struct Canonical {
  Position pos;           // the representative
  int forbid = 0;         // its forbidden code
  unsigned pos_stab = 1;  // symmetries fixing the representative position (bit g)
  int state_stab = 1;     // how many symmetries fix the representative state
};
Canonical canonicalize(const Position& p, int forbid);

// The same in two steps, for callers that need one position with several forbidden codes.
struct CanonicalPosition {
  Position pos;        // the representative
  unsigned achieving;  // the symmetries g with g(p) = pos (bit g)
};
CanonicalPosition canonical_position(const Position& p);
struct CanonicalForbid {
  int forbid;      // the smallest image of the code under the achieving symmetries
  int state_stab;  // how many achieving symmetries give it (= symmetries fixing the state)
};
CanonicalForbid canonical_forbid(unsigned achieving, int forbid);

}  // namespace zermelo::ostle
