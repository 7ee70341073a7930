// Stable discs of the four edges of an 8x8 board, exactly, from a table of every edge line.
//
// Why a file of its own: a disc on an edge can be flipped along that edge only (its other lines
// leave the board at once), so whether it is stable is a question about one line of 8 squares,
// 3^8 of them. Answered once for every line (any sequence of placements by either side, a
// superset of the legal ones), the table finds discs the step-by-step rule of stability.hpp
// cannot: edge discs held by the line's own shape, not by a corner. They seed that rule, so more
// interior discs follow and the search's stability cut-off fires more often (Edax does the same).
#pragma once
#include <array>
#include <cstdint>
#ifdef __BMI2__
#include <immintrin.h>
#endif

#include "zermelo/games/othello/bitboard.hpp"

namespace zermelo::othello {

class EdgeStability8 {
 public:
  // p's discs on the four edges (rows 1 and 8, files A and H) that can never be flipped.
  static Bits stable(Bits p, Bits o) {
    const Table& t = table();
    constexpr Bits kFileA = 0x0101010101010101ULL, kFileH = 0x8080808080808080ULL;
    Bits s = Bits{t[line(p & 0xff, o & 0xff)]};
    s |= Bits{t[line(p >> 56, o >> 56)]} << 56;
    s |= deposit(t[line(extract(p, kFileA), extract(o, kFileA))], kFileA);
    s |= deposit(t[line(extract(p, kFileH), extract(o, kFileH))], kFileH);
    return s;
  }
  // One line of 8 squares: the discs of p that no placements on the line can flip.
  static std::uint8_t line_stable(std::uint8_t p, std::uint8_t o) { return table()[line(p, o)]; }

 private:
  using Table = std::array<std::uint8_t, 256 * 256>;  // by p's line * 256 + o's line
  static const Table& table();
  static std::size_t line(Bits p, Bits o) { return static_cast<std::size_t>(p * 256 + o); }
  static Bits extract(Bits b, Bits mask) {
#ifdef __BMI2__
    return _pext_u64(b, mask);
#else
    Bits r = 0;
    for (int i = 0; mask; mask &= mask - 1, ++i)
      if (b & mask & -mask) r |= Bits{1} << i;
    return r;
#endif
  }
  static Bits deposit(Bits b, Bits mask) {
#ifdef __BMI2__
    return _pdep_u64(b, mask);
#else
    Bits r = 0;
    for (int i = 0; mask; mask &= mask - 1, ++i)
      if (b & (Bits{1} << i)) r |= mask & -mask;
    return r;
#endif
  }
};

}  // namespace zermelo::othello
