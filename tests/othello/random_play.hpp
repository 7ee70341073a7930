// Random play for the Othello tests: pick one of the legal moves uniformly and play it.
#pragma once
#include <bit>
#include <random>

#include "zermelo/games/othello/bitboard.hpp"

namespace zermelo::othello::test_support {

// Plays a uniformly chosen move of `moves` (non-empty) for the side p; afterwards (p, o) is the
// position from the next mover's side.
template <int N>
void play_random_move(std::mt19937_64& rng, Bits moves, Bits& p, Bits& o) {
  int pick = static_cast<int>(rng() % static_cast<unsigned>(popcount(moves)));
  while (pick--) moves &= moves - 1;
  const int sq = std::countr_zero(moves);
  const Bits f = flips<N>(p, o, sq);
  const Bits np = o & ~f, no = p | f | bit(sq);
  p = np;
  o = no;
}

}  // namespace zermelo::othello::test_support
