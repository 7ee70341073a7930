// Stable discs, for the endgame solver's stability cut-off: discs that no sequence of moves can
// flip, so the opponent's stable discs bound the score the side to move can reach.
//
// Why a file of its own: the test runs at most interior nodes with a high alpha, and on 8x8 its
// full-line part has a shift-and-mask form (three doubling steps a direction instead of seven
// single ones) that the generic form, kept for 4x4 and 6x6, does not. Both give the same discs.
#pragma once
#include "edge_stability.hpp"
#include "zermelo/games/othello/bitboard.hpp"

namespace zermelo::othello {

// The lines of an 8x8 board that are full, in four directions: each square of the result lies on
// a full line of that direction. A line is full from a square to the edge in one direction when
// the square and the runs 1, 2, 4 steps further are (squares near the edge count the outside as
// full); both directions together make the whole line.
struct FullLines8 {
  static constexpr Bits rows(int from, int to) {
    Bits b = 0;
    for (int r = from; r <= to; ++r) b |= Bits{0xff} << (8 * r);
    return b;
  }
  static constexpr Bits cols(int from, int to) {
    Bits b = 0;
    for (int c = from; c <= to; ++c) b |= Bits{0x0101010101010101ULL} << c;
    return b;
  }
  // Squares from which w steps along +s (toward higher bits; s = 9 goes right, s = 7 left), or
  // along -s when `up` is false, leave the board.
  static constexpr Bits off_within(int s, int w, bool up) {
    const bool right = (s == 9) == up;
    return (up ? rows(8 - w, 7) : rows(0, w - 1)) | (right ? cols(8 - w, 7) : cols(0, w - 1));
  }
  // Filled from each square to the edge along +s and along -s: a diagonal line (s = 9 or 7).
  // The masks are constants: computed in the loop, GCC built each one square by square at run
  // time (2026-12-07: half of the solver's stability test).
  template <int s>
  static Bits line(Bits occ) {
    static constexpr Bits kUp[3] = {off_within(s, 1, true), off_within(s, 2, true),
                                    off_within(s, 4, true)};
    static constexpr Bits kDown[3] = {off_within(s, 1, false), off_within(s, 2, false),
                                      off_within(s, 4, false)};
    Bits up = occ, down = occ;
    for (int k = 0; k < 3; ++k) {
      up &= (up >> (s << k)) | kUp[k];
      down &= (down << (s << k)) | kDown[k];
    }
    return up & down;
  }
  static Bits horizontal(Bits occ) {
    Bits h = occ;
    h &= h >> 4;
    h &= h >> 2;
    h &= h >> 1;
    return (h & 0x0101010101010101ULL) * 0xff;
  }
  static Bits vertical(Bits occ) {
    Bits v = occ;
    v &= (v >> 8) | (v << 56);
    v &= (v >> 16) | (v << 48);
    v &= (v >> 32) | (v << 32);
    return v;
  }
  static Bits diagonal(Bits occ) { return line<9>(occ); }       // A1-H8 direction
  static Bits anti_diagonal(Bits occ) { return line<7>(occ); }  // H1-A8 direction
};

// The direction opposite d in step<d>'s numbering (E-W, S-N, SE-NW, SW-NE). It was d ^ 1 until
// 2026-11-24, which paired SE with SW: the stability test then judged both diagonals by their SE
// and SW halves, so a disc that can still be flipped along a diagonal could count as stable and
// the stability cut-off could return a bound below the true score.
constexpr int opposite(int d) { return d < 4 ? d ^ 1 : 11 - d; }
static_assert(opposite(0) == 1 && opposite(2) == 3 && opposite(4) == 7 && opposite(5) == 6);

// Discs of `p` that can never be flipped (a sufficient test): along every axis the line through
// the disc is full, or a neighbour on that axis is off the board or itself a stable disc of `p`.
template <int N>
struct Stability {
  static constexpr Bits kMask = Geometry<N>::kMask;
  // Squares whose neighbour in direction d is off the board.
  template <int d>
  static constexpr Bits edge() {
    return kMask & ~step<opposite(d)>(kMask);
  }

  // Squares from which every square up to the edge in direction d is occupied.
  template <int d>
  static Bits filled_to_edge(Bits occ) {
    Bits r = occ & edge<d>();
    for (int i = 0; i < N - 1; ++i) r = occ & (edge<d>() | step<opposite(d)>(r));
    return r;
  }
  template <int d>
  static Bits full_axis(Bits occ) {
    if constexpr (N == 8) {
      if constexpr (d == 0) return FullLines8::horizontal(occ);
      if constexpr (d == 2) return FullLines8::vertical(occ);
      if constexpr (d == 4) return FullLines8::diagonal(occ);
      return FullLines8::anti_diagonal(occ);
    }
    return filled_to_edge<d>(occ) & filled_to_edge<opposite(d)>(occ);
  }

  template <int d>
  static Bits axis_ok(Bits full, Bits stable) {
    return full | edge<d>() | edge<opposite(d)>() | step<opposite(d)>(stable) | step<d>(stable);
  }

  static Bits stable(Bits p, Bits o) {
    if constexpr (N == 8) return stable8(p, o);
    return by_rule(p, o);
  }

  // The rule alone, from no stable disc.
  static Bits by_rule(Bits p, Bits o) {
    const Bits occ = p | o;
    const Bits fh = full_axis<0>(occ), fv = full_axis<2>(occ), fd = full_axis<4>(occ),
               fa = full_axis<5>(occ);
    Bits s = 0;
    for (;;) {
      const Bits next =
          p & axis_ok<0>(fh, s) & axis_ok<2>(fv, s) & axis_ok<4>(fd, s) & axis_ok<5>(fa, s);
      if (next == s) return s;
      s = next;
    }
  }

  // The same rule on 8x8, as Edax computes it: the edges' stable discs are known exactly from
  // their lines (edge_stability.hpp), so the rule runs on the inner 6x6 squares only, where a
  // neighbour is never off the board and a shift needs no mask (a disc shifted across a row's end
  // lands on the A or H file, outside the inner squares). With no stable disc at the start none
  // can follow, and the common case ends there.
  static Bits stable8(Bits p, Bits o) {
    constexpr Bits kInner = 0x007e7e7e7e7e7e00ULL;
    const Bits occ = p | o;
    const Bits fh = FullLines8::horizontal(occ), fv = FullLines8::vertical(occ),
               fd = FullLines8::diagonal(occ), fa = FullLines8::anti_diagonal(occ);
    const Bits inner = p & kInner;
    Bits s = EdgeStability8::stable(p, o) | (inner & fh & fv & fd & fa);
    if (!s) return 0;
    for (;;) {
      const Bits next = s | (inner & (fh | (s >> 1) | (s << 1)) & (fv | (s >> 8) | (s << 8)) &
                             (fd | (s >> 9) | (s << 9)) & (fa | (s >> 7) | (s << 7)));
      if (next == s) return s;
      s = next;
    }
  }
};

}  // namespace zermelo::othello
