// Othello rules on bitboards, for every board size Zermelo plays (8×8, 6×6, 4×4) with one code.
//
// Why one header: move generation and flipping are the inner loop of perft, enumeration and the
// endgame solver, so they must inline into each of them. A board of size N uses the N×N top-left
// corner of an 8×8 layout (bit = row*8 + col, A1 = bit 0, B1 = bit 1, A2 = bit 8), so the same
// shift-based generator works for every N: squares outside the board are never occupied and are
// masked out of the empty set, and rays for flipping stop at the board's edge.
// A position is always seen from the side to move: `p` are its discs, `o` the opponent's.
#pragma once
#include <array>
#include <bit>
#include <cstdint>

#include "zermelo/games/othello/moves8.hpp"

namespace zermelo::othello {

using Bits = std::uint64_t;

constexpr Bits bit(int sq) { return Bits{1} << sq; }

// Geometry of an N×N board embedded in the 8×8 layout.
template <int N>
struct Geometry {
  static_assert(N == 4 || N == 6 || N == 8, "Othello boards are 4x4, 6x6 or 8x8");
  static constexpr int kSize = N;
  static constexpr int kSquares = N * N;

  static constexpr Bits make_mask() {
    Bits m = 0;
    for (int r = 0; r < N; ++r)
      for (int c = 0; c < N; ++c) m |= bit(r * 8 + c);
    return m;
  }
  static constexpr Bits kMask = make_mask();

  // The standard centred start: d5/e4 Black (first to move), d4/e5 White on 8×8, likewise centred.
  static constexpr Bits kStartBlack =
      bit((N / 2) * 8 + (N / 2 - 1)) | bit((N / 2 - 1) * 8 + (N / 2));
  static constexpr Bits kStartWhite =
      bit((N / 2 - 1) * 8 + (N / 2 - 1)) | bit((N / 2) * 8 + (N / 2));

  // Rays from each square in each of the 8 directions (the square itself excluded), cut at the
  // edge.
  static constexpr int kDr[8] = {0, 0, 1, -1, 1, 1, -1, -1};
  static constexpr int kDc[8] = {1, -1, 0, 0, 1, -1, 1, -1};
  static constexpr std::array<std::array<Bits, 64>, 8> make_rays() {
    std::array<std::array<Bits, 64>, 8> rays{};
    for (int d = 0; d < 8; ++d)
      for (int sq = 0; sq < 64; ++sq) {
        Bits ray = 0;
        int r = sq / 8 + kDr[d], c = sq % 8 + kDc[d];
        if (sq / 8 < N && sq % 8 < N)
          while (r >= 0 && r < N && c >= 0 && c < N) {
            ray |= bit(r * 8 + c);
            r += kDr[d];
            c += kDc[d];
          }
        rays[d][sq] = ray;
      }
    return rays;
  }
  static constexpr std::array<std::array<Bits, 64>, 8> kRays = make_rays();
};

// Shifts of a whole bitboard by one step in a direction, dropping discs that would wrap around.
constexpr Bits kNotColA = 0xfefefefefefefefeULL;
constexpr Bits kNotColH = 0x7f7f7f7f7f7f7f7fULL;

// Legal moves of the side to move (`p`) against `o`: the classic shift-and-propagate generator,
// both directions of each axis handled with one mask.
template <int N>
inline Bits legal_moves(Bits p, Bits o) {
  if constexpr (N == 8) return moves8::legal_moves(p, o);
  const Bits empty = ~(p | o) & Geometry<N>::kMask;
  const Bits oh = o & 0x7e7e7e7e7e7e7e7eULL;  // opponent discs a horizontal/diagonal line may pass
  Bits moves = 0;
  Bits t, u;
  // Each block: t grows from p one step at a time through opponent discs (at most N-2 of them).
#define ZERMELO_OTHELLO_DIR(SHIFT_L, SHIFT_R, MASK) \
  t = MASK & (p SHIFT_L);                           \
  u = MASK & (p SHIFT_R);                           \
  for (int i = 0; i < N - 3; ++i) {                 \
    t |= MASK & (t SHIFT_L);                        \
    u |= MASK & (u SHIFT_R);                        \
  }                                                 \
  moves |= (t SHIFT_L) | (u SHIFT_R);
  ZERMELO_OTHELLO_DIR(<< 1, >> 1, oh)
  ZERMELO_OTHELLO_DIR(<< 8, >> 8, o)
  ZERMELO_OTHELLO_DIR(<< 7, >> 7, oh)
  ZERMELO_OTHELLO_DIR(<< 9, >> 9, oh)
#undef ZERMELO_OTHELLO_DIR
  return moves & empty;
}

// Discs flipped when the side to move plays `sq` (empty; zero means the move is illegal).
// Along each ray, the nearest square that is not an opponent disc must be one of ours: rays that
// grow toward higher bits take the lowest such bit, the others the highest.
template <int N>
inline Bits flips(Bits p, Bits o, int sq) {
#ifdef __AVX2__
  if constexpr (N == 8) return moves8::flips(p, o, sq);
#endif
  const auto& rays = Geometry<N>::kRays;
  Bits f = 0;
  // Directions 0 (east), 2 (south), 4 (south-east), 5 (south-west) grow toward higher bits.
  for (int d : {0, 2, 4, 5}) {
    const Bits ray = rays[d][sq];
    const Bits stop = ray & ~o;
    const Bits first = stop & (0 - stop);
    if (first & p) f |= ray & (first - 1);
  }
  for (int d : {1, 3, 6, 7}) {
    const Bits ray = rays[d][sq];
    const Bits stop = ray & ~o;
    if (stop) {
      const Bits first = Bits{1} << (63 - std::countl_zero(stop));
      if (first & p) f |= ray & ~((first << 1) - 1);
    }
  }
  return f;
}

inline int popcount(Bits b) { return std::popcount(b); }

// One step of a whole board in direction d (0 E, 1 W, 2 S, 3 N, 4 SE, 5 SW, 6 NE, 7 NW), discs
// that would wrap around a row dropped (the search and the evaluation both need it).
template <int d>
constexpr Bits step(Bits b) {
  if constexpr (d == 0) return (b << 1) & kNotColA;
  if constexpr (d == 1) return (b >> 1) & kNotColH;
  if constexpr (d == 2) return b << 8;
  if constexpr (d == 3) return b >> 8;
  if constexpr (d == 4) return (b << 9) & kNotColA;
  if constexpr (d == 5) return (b << 7) & kNotColH;
  if constexpr (d == 6) return (b >> 7) & kNotColA;
  return (b >> 9) & kNotColH;
}

// The squares next to any square of b (mask with the board's empties before use).
constexpr Bits neighbours(Bits b) {
  return step<0>(b) | step<1>(b) | step<2>(b) | step<3>(b) | step<4>(b) | step<5>(b) | step<6>(b) |
         step<7>(b);
}

// Plays the legal move `sq` for the side to move; afterwards (p, o) is seen from the next mover.
template <int N>
inline void play(Bits& p, Bits& o, int sq) {
  const Bits f = flips<N>(p, o, sq);
  const Bits np = o & ~f, no = p | f | bit(sq);
  p = np;
  o = no;
}

// The square of the k-th (from 0) set bit of b.
inline int nth_square(Bits b, int k) {
  while (k--) b &= b - 1;
  return std::countr_zero(b);
}

// Final score for the side to move when the game is over: disc difference, empties to the winner.
template <int N>
inline int final_score(Bits p, Bits o) {
  const int pc = popcount(p), oc = popcount(o);
  const int empties = Geometry<N>::kSquares - pc - oc;
  const int diff = pc - oc;
  if (diff > 0) return diff + empties;
  if (diff < 0) return diff - empties;
  return 0;
}

// The 8 symmetries of the square board, applied to a bitboard of an N×N board.
template <int N>
inline Bits flip_vertical(Bits b) {  // row r -> row N-1-r
  b = __builtin_bswap64(b);
  return b >> (8 * (8 - N));
}
template <int N>
inline Bits flip_horizontal(Bits b) {  // column c -> column N-1-c
  // Reverse the bits of each byte, then move the board back to the low columns.
  b = ((b >> 1) & 0x5555555555555555ULL) | ((b & 0x5555555555555555ULL) << 1);
  b = ((b >> 2) & 0x3333333333333333ULL) | ((b & 0x3333333333333333ULL) << 2);
  b = ((b >> 4) & 0x0f0f0f0f0f0f0f0fULL) | ((b & 0x0f0f0f0f0f0f0f0fULL) << 4);
  return b >> (8 - N);
}
inline Bits flip_diagonal(Bits b) {  // (r, c) -> (c, r); the main diagonal A1-H8 is fixed
  Bits t;
  t = 0x0f0f0f0f00000000ULL & (b ^ (b << 28));
  b ^= t ^ (t >> 28);
  t = 0x3333000033330000ULL & (b ^ (b << 14));
  b ^= t ^ (t >> 14);
  t = 0x5500550055005500ULL & (b ^ (b << 7));
  b ^= t ^ (t >> 7);
  return b;
}
// Symmetry k in 0..7: bit 0 flips vertically, bit 1 horizontally, bit 2 transposes (last).
template <int N>
inline Bits transform(Bits b, int k) {
  if (k & 1) b = flip_vertical<N>(b);
  if (k & 2) b = flip_horizontal<N>(b);
  if (k & 4) b = flip_diagonal(b);
  return b;
}

}  // namespace zermelo::othello
