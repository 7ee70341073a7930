// Perft (leaf counts of the game tree) and the layer-by-layer enumeration of reachable positions.
//
// Why: both are the independent checks of the move generator against published figures (perft
// from the start; symmetry-unique positions by disc count) and the enumeration is step 1 of the
// weak-solve pipeline (the 2,958,551 positions with 50 empties). Layers are plain sorted vectors of
// canonical (mover, opponent) pairs, so an external sort can replace the in-memory one later.
#pragma once
#include <compare>
#include <cstdint>
#include <vector>

#include "zermelo/games/othello/bitboard.hpp"

namespace zermelo::othello {

// Perft conventions from depth 10 on (depths 1..9 agree: no game can end before ply 9).
enum class EndedGames {
  kVanish,      // a game that ended before the last ply has no leaf there (pure tree leaf count)
  kStayLeaves,  // a finished game counts as one leaf at every deeper depth
};

// Leaves at `depth` plies below (p to move, o); a forced pass is a ply.
template <int N>
std::uint64_t perft(Bits p, Bits o, int depth, EndedGames convention = EndedGames::kVanish);

// A position from the mover's side, as the enumeration stores it.
struct PosKey {
  Bits p = 0;  // side to move
  Bits o = 0;
  friend auto operator<=>(const PosKey&, const PosKey&) = default;
};

// The least of the 8 symmetric images of (p, o), compared as (p, o).
template <int N>
PosKey canonical(Bits p, Bits o);

// From the canonical positions with n discs (mover has a move) to those with n+1 discs: every move,
// then a forced pass is taken (the position after the pass replaces it) and finished games are
// dropped, canonicalised, sorted and deduplicated. The finished games (no move for either side)
// go to `finished` if given (canonical, sorted, deduplicated).
template <int N>
std::vector<PosKey> next_layer(const std::vector<PosKey>& layer,
                               std::vector<PosKey>* finished = nullptr);

// Counts of symmetry-unique positions by disc count, from the start (4 discs) to `max_discs`,
// every position that can arise, finished games included (the published 1, 1, 3, 14, 60, ...:
// at 13 discs, 36 of the 434,029 are finished games). `last_layer` receives the weak-solve
// pipeline's layer at max_discs: finished games dropped, forced passes taken.
template <int N>
std::vector<std::uint64_t> unique_positions_by_discs(int max_discs,
                                                     std::vector<PosKey>* last_layer = nullptr);

}  // namespace zermelo::othello
