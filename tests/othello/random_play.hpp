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
  play<N>(p, o,
          nth_square(moves, static_cast<int>(rng() % static_cast<unsigned>(popcount(moves)))));
}

}  // namespace zermelo::othello::test_support
