// The shallow alpha-beta search under every predicted value, whatever evaluation sits at its
// leaves.
//
// Why a file of its own: the linear evaluation (eval.cpp) and the pattern evaluation
// (prediction.cpp) predict with the same search, and the prover compares the two
// (`weak-solve --predictor`), so the search must be one piece of code, not two copies.
#pragma once
#include <algorithm>
#include <bit>

#include "zermelo/games/othello/bitboard.hpp"

namespace zermelo::othello::detail {

// Negamax alpha-beta `depth` plies deep, fail-soft, in 1/100 disc for the side to move; passes do
// not count as a ply and finished games score exactly. `eval(p, o)` values a leaf for p.
template <int N, typename Eval>
int predict_search(Bits p, Bits o, int depth, int alpha, int beta, const Eval& eval) {
  const Bits moves = legal_moves<N>(p, o);
  if (!moves) {
    if (!legal_moves<N>(o, p)) return 100 * final_score<N>(p, o);
    return -predict_search<N>(o, p, depth, -beta, -alpha, eval);
  }
  if (depth <= 0) return eval(p, o);
  int best = -1000000;
  for (Bits m = moves; m; m &= m - 1) {
    const int sq = std::countr_zero(m);
    const Bits f = flips<N>(p, o, sq);
    const int v =
        -predict_search<N>(o & ~f, p | f | bit(sq), depth - 1, -beta, -std::max(alpha, best), eval);
    if (v > best) {
      best = v;
      if (v >= beta) break;
    }
  }
  return best;
}

}  // namespace zermelo::othello::detail
