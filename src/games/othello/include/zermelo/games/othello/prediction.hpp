// Which evaluation predicts the values that order the prover's moves.
//
// Why: the proof search (proof.hpp) tries first the move predicted best, so the prediction's
// quality decides how many positions it must solve exactly. Two evaluations exist: the linear one
// of eval.hpp, fitted for every board size, and the trained pattern evaluation of patterns.hpp,
// 8×8 only and about twice as accurate (bench/results/othello.md). Both sit under the same
// shallow search; this header lets a caller choose between them by name.
#pragma once
#include "zermelo/games/othello/bitboard.hpp"

namespace zermelo::othello {

enum class Predictor {
  kLinear,    // eval.hpp, every board size
  kPatterns,  // patterns.hpp, the committed weights; 8×8 only (other sizes use kLinear)
};

const char* predictor_name(Predictor p);

// Predicted score of (p to move, o) by a `depth`-ply alpha-beta search on the chosen
// evaluation, in 1/100 disc for the side to move; finished games score exactly.
template <int N>
int predict(Bits p, Bits o, int depth, Predictor predictor);

}  // namespace zermelo::othello
