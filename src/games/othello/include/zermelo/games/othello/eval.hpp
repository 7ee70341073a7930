// Predicted values: a static evaluation of a position and the shallow search built on it.
//
// Why: step 2 of the weak-solve pipeline gives each position of a layer a predicted score, and
// the proof search (proof.hpp) tries first the move predicted best, so the quality of this guess
// decides how many positions must be solved exactly. The evaluation is linear in a few features
// (discs, mobility, corners, X/C squares next to empty corners, potential mobility, edge discs
// anchored at a corner, parity), with one weight vector per board size fitted by least squares on
// exact endgame scores this code computes itself (`fit_evaluation`, `zermelo othello fit-eval`);
// the fitted weights are compiled in (eval.cpp, with the command that produced them).
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "zermelo/games/othello/bitboard.hpp"

namespace zermelo::othello {

constexpr int kEvalFeatures = 9;
using EvalFeatures = std::array<double, kEvalFeatures>;
using EvalWeights = std::array<double, kEvalFeatures>;

// The features of (p to move, o), each "mover minus opponent" except the constant and parity.
template <int N>
EvalFeatures eval_features(Bits p, Bits o);
const char* eval_feature_name(int i);

// The compiled-in weights for board size N (fitted, see eval.cpp).
template <int N>
const EvalWeights& default_weights();

// Static estimate of the final disc difference for the side to move, in 1/100 disc.
template <int N>
int evaluate(Bits p, Bits o, const EvalWeights& w = default_weights<N>());

// Predicted score: negamax alpha-beta `depth` plies deep on `evaluate` (passes do not count as a
// ply; finished games score exactly), in 1/100 disc for the side to move.
template <int N>
int predict(Bits p, Bits o, int depth, const EvalWeights& w = default_weights<N>());

// Least-squares fit of the weights on `samples` positions from random play with empties in
// [min_empties, max_empties], each solved exactly. Reports the fit's quality on those samples.
struct EvalFit {
  EvalWeights weights{};
  int samples = 0;
  double rms_error = 0;  // discs, of the static evaluation against the exact score
  double sign_agreement =
      0;  // share of positions where sign(eval) == sign(exact) (0 counts as its own sign)
  double default_rms_error = 0;  // the compiled-in weights on the same samples, for comparison
  double seconds = 0;
};
template <int N>
EvalFit fit_evaluation(int samples, int min_empties, int max_empties, std::uint64_t seed);

}  // namespace zermelo::othello
