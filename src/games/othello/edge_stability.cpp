// The edge lines' stable discs (edge_stability.hpp), computed once for all 3^8 lines.
#include "edge_stability.hpp"

#include <bit>

namespace zermelo::othello {
namespace {

// The discs of o that p's placement on square x of the line flips (runs of o closed by p).
std::uint8_t line_flips(unsigned p, unsigned o, int x) {
  unsigned f = 0;
  for (int dir : {-1, 1}) {
    unsigned run = 0;
    int y = x + dir;
    for (; y >= 0 && y < 8 && (o >> y & 1); y += dir) run |= 1u << y;
    if (y >= 0 && y < 8 && (p >> y & 1)) f |= run;
  }
  return static_cast<std::uint8_t>(f);
}

// Lines in order of their empties: every placement leads to a line with one empty fewer, whose
// answer is then known. A square is stable for p when it holds p's disc now and in every line a
// placement of either side (legal on the board or not) leads to.
std::array<std::uint8_t, 256 * 256> make_table() {
  std::array<std::uint8_t, 256 * 256> t{};
  for (int empties = 0; empties <= 8; ++empties)
    for (unsigned p = 0; p < 256; ++p)
      for (unsigned o = 0; o < 256; ++o) {
        if ((p & o) || std::popcount(~(p | o) & 0xffu) != empties) continue;
        unsigned stable = p;
        for (unsigned e = ~(p | o) & 0xffu; e && stable; e &= e - 1) {
          const int x = std::countr_zero(e);
          const unsigned fp = line_flips(p, o, x), fo = line_flips(o, p, x);
          stable &= t[(p | fp | (1u << x)) * 256 + (o & ~fp)];
          stable &= t[(p & ~fo) * 256 + (o | fo | (1u << x))];
        }
        t[p * 256 + o] = static_cast<std::uint8_t>(stable);
      }
  return t;
}

}  // namespace

const EdgeStability8::Table& EdgeStability8::table() {
  static const Table t = make_table();
  return t;
}

}  // namespace zermelo::othello
