// Training the pattern evaluation (patterns.hpp) on positions this code labels itself, and
// measuring its accuracy against exact scores.
//
// Why: the issue asks for an evaluation of our own, with no weights from elsewhere. Positions
// come from games of a cheap self-play (random openings, then the linear evaluation's 2-ply
// choice with random moves mixed in: closer to real games than uniform random play); each
// position with few enough empties is labelled with its exact score by the endgame solver; the
// weights of each phase are the least-squares fit (ridge, conjugate gradients) of those scores.
// Everything is a function of the options: the same seed and count give the same weights bit for
// bit, whatever the number of threads (the threads only share out the exact solves, whose results
// do not depend on the order).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "zermelo/games/othello/pattern_file.hpp"
#include "zermelo/games/othello/patterns.hpp"

namespace zermelo::othello::patterns {

struct LabelledPosition {
  Bits p = 0, o = 0;  // the side to move's discs, the opponent's
  int score = 0;      // exact final disc difference for the side to move
};

// `count` positions with empties in [min_empties, max_empties] (the mover has a move) from the
// self-play games of `seed`, one in `keep_one_in` of a game's drawn at random, each with its
// exact score; `threads` workers solve them.
std::vector<LabelledPosition> labelled_positions(std::uint64_t seed, int count, int min_empties,
                                                 int max_empties, unsigned threads,
                                                 int keep_one_in = 1);

struct TrainOptions {
  std::uint64_t seed = 1;
  int positions = 100000;
  int min_empties = 4, max_empties = 18;
  int keep_one_in = 1;              // positions kept of a game's in range (labelled_positions)
  int chunk_positions = 0;          // labelled in chunks of this many (pattern_labels.hpp); 0: one
  int phases = 5, phase_width = 4;  // phase k: k*4 .. k*4+3 empties; the last: 16 and more
  unsigned threads = 1;
  double ridge = 8.0;       // L2 shrinkage, in units of one sample's squared error (discs²)
  std::string labels_file;  // a folder caching the labelled positions' chunks (pattern_labels.hpp)
  std::string prior_file;   // weights the fit starts from and shrinks toward; "": zero
};
// Fit constants (part of what makes the file; changing one changes the weights):
constexpr double kRidge = 2.0;       // L2 shrinkage, in units of one sample's squared error
constexpr int kFitIterations = 150;  // conjugate-gradient iterations per phase
constexpr int kPhaseOverlap = 2;     // a phase also learns from positions this many empties
                                     // beyond its own range (neighbouring phases smooth out)

struct TrainResult {
  PatternWeights weights;
  int positions = 0;
  std::vector<double> fit_mae;  // discs, on each phase's own training positions
  double label_seconds = 0, fit_seconds = 0;
};
TrainResult train_patterns(const TrainOptions& options);
// The same fit on positions already labelled (the tests' small runs); with `prior`, of the change
// from its weights (ridge toward them: new labels refine weights fitted before, whose own labels
// need not be solved again).
TrainResult fit_patterns(const std::vector<LabelledPosition>& data, int phases, int phase_width,
                         double ridge, const PatternWeights* prior = nullptr);

// Mean absolute error, by empties, of the pattern evaluation and of the linear evaluation of
// eval.hpp, against the exact scores of the positions of `set` (pattern_labels.hpp; cached in
// `labels_file` when given).
struct AccuracyRow {
  int empties = 0;
  int positions = 0;
  double pattern_mae = 0, linear_mae = 0;  // discs
};
struct Accuracy {
  std::vector<AccuracyRow> rows;  // one an empties count, ascending
  AccuracyRow all;                // every position (empties = -1)
  double seconds = 0;
};
struct LabelSet;
Accuracy measure_accuracy(const PatternWeights& w, const LabelSet& set, unsigned threads,
                          const std::string& labels_file = "");

}  // namespace zermelo::othello::patterns
