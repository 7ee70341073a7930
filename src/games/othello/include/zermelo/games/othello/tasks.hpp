// Othello's whole tasks as library calls: what `zermelo othello ...` runs, for any front end.
//
// Why: the engine's entry points (solver.hpp, perft.hpp, eval.hpp, proof.hpp) are templated on
// the board size and do one step each; a task (solve an FFO position, a perft table, predict a
// layer, play a proof against random play) is several steps with a size named at run time. Each
// task here takes the runtime size (dispatched once, board_size.hpp) and returns what it found as
// a plain struct; reports.hpp turns those into JSON and text. The CLI only parses and calls.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "zermelo/games/othello/eval.hpp"
#include "zermelo/games/othello/notation.hpp"
#include "zermelo/games/othello/pattern_labels.hpp"
#include "zermelo/games/othello/pattern_train.hpp"
#include "zermelo/games/othello/perft.hpp"
#include "zermelo/games/othello/proof.hpp"
#include "zermelo/games/othello/solver.hpp"

namespace zermelo::othello {

// ---- solve: one position's exact score, best move and principal variation.
// The published scores a position came with: an FFO test position's, or an .obf line's.
struct FfoReference {
  int number = 0;  // the FFO number; 0 for an .obf line that is not numbered
  int published_score = 0;
  std::vector<int> best_moves;
};
struct PositionToSolve {
  Position position;
  std::optional<FfoReference> ffo;  // set when the position came with published scores
};
// FFO test position `number` of an .obf file whose first line is number `first` (file empty:
// $ZERMELO_SPEC_DIR/ffo40-49.obf). Throws std::invalid_argument naming the file's range.
PositionToSolve ffo_position(const std::string& file, int number, int first);
// A position as text: "<board> <side>", the 65-character form, or a whole .obf line (whose
// published scores come with it). Throws std::invalid_argument naming what is wrong.
PositionToSolve position_from_text(const std::string& text, int size);
// A search window "LO,HI" into options.alpha and options.beta.
void parse_window(const std::string& text, SolveOptions& options);

struct PositionSolve {
  PositionToSolve input;
  SolveResult result;
  unsigned threads = 1;
  bool each_move = false;
  std::vector<std::pair<int, int>> move_scores;  // (square, exact score), when each_move
  bool show_stats = false;  // the reports add the counts by empties (SolveResult::stats)
};
PositionSolve solve_position(const PositionToSolve& input, const SolveOptions& options,
                             bool each_move);
// Whether the solve agrees with the published score: none without one; a bound never agrees.
std::optional<bool> agrees_with_published(const PositionSolve& solve);

// ---- solve a problem file: every line of an .obf file, as Edax's `-solve` does.
struct ProblemSetSolve {
  std::string file;
  std::vector<std::pair<int, PositionSolve>> lines;  // (line number in the file, its solve)
  std::uint64_t nodes = 0;
  double seconds = 0;
  int disagreements = 0;  // lines whose score is not the published one
};
// Reads the whole file first, so a malformed line fails before any search (naming its line).
ProblemSetSolve solve_problem_file(const std::string& path, const SolveOptions& options);

// ---- perft: leaf counts from the start, depth 1..depth.
struct PerftTable {
  int size = 8;
  std::string ended;  // "vanish" or "stay" (EndedGames)
  std::vector<std::uint64_t> leaves;
  double seconds = 0;
};
PerftTable perft_table(int size, int depth, const std::string& ended);

// ---- enumerate: symmetry-unique positions by disc count, up to one layer.
struct Enumeration {
  int size = 8;
  int discs = 4;
  std::vector<std::uint64_t> counts;  // from 4 discs
  std::size_t layer_positions = 0;    // the weak-solve layer at `discs` (perft.hpp)
  double seconds = 0;
};
// The last layer by discs, or by empties when empties >= 0.
Enumeration enumerate_layers(int size, int discs, int empties);

// ---- weak-solve: a proof tree of a position's value.
int default_leaf_empties(int size);  // 6 on 4x4, 20 on 6x6, 36 on 8x8
struct WeakSolveReport {
  Position position;
  WeakSolveOptions options;  // as run: leaf_empties resolved
  WeakSolveResult result;
};
// options.leaf_empties < 0: default_leaf_empties.
WeakSolveReport weak_solve_position(const Position& position, WeakSolveOptions options,
                                    const std::function<void(const WeakSolveProgress&)>& progress);

// ---- check-proof: proof.hpp's check_proof, with the file it read.
struct ProofCheckReport {
  std::string path;
  ProofCheck check;
};

// ---- fit-eval: the evaluation's weights by least squares.
struct EvalFitReport {
  int size = 6;
  int min_empties = 0, max_empties = 0;
  EvalFit fit;
};
// min_empties/max_empties < 0: the size's defaults (4..10 on 4x4, 12..20 on 6x6, 14..18 on 8x8).
EvalFitReport fit_weights(int size, int samples, int min_empties, int max_empties,
                          std::uint64_t seed);

// ---- train: the pattern evaluation's weights (8x8), written to a weights file.
struct TrainReport {
  patterns::TrainOptions options;
  std::string out;  // the file written
  patterns::TrainResult result;
  std::uint64_t checksum = 0;  // the file's XXH3 (header field)
  std::size_t file_bytes = 0;
};
TrainReport train_weights(const patterns::TrainOptions& options, const std::string& out);

// ---- eval-error: the pattern and the linear evaluations against exact scores, by empties.
struct EvalErrorReport {
  std::string weights;  // the file, or "compiled-in"
  std::uint64_t seed = 0;
  int positions = 0;
  patterns::Accuracy accuracy;
};
// weights_file empty: the compiled-in weights; labels_file: a cache of the labelled positions.
EvalErrorReport evaluation_error(const std::string& weights_file, const patterns::LabelSet& set,
                                 unsigned threads, const std::string& labels_file = "");

// ---- predict: every position of a layer given a predicted value (spec step 2).
struct PredictOptions {
  int size = 6;
  int empties = -1;
  int depth = 4;         // plies of the shallow search
  int exact_sample = 0;  // solve this many evenly spaced positions exactly and compare
  std::string out;       // a run file of PredictedRecord, if not empty
};
// One predicted layer position on disk: canonical (mover, opponent) and the prediction.
struct PredictedRecord {
  std::uint64_t p = 0, o = 0;
  std::int32_t predicted = 0;  // 1/100 disc, side to move
  std::int32_t pad = 0;
};
static_assert(sizeof(PredictedRecord) == 24);
struct LayerPrediction {
  PredictOptions options;
  std::size_t positions = 0;
  std::uint64_t wins = 0, draws = 0, losses = 0;  // predicted >= +1 disc, |v| < 1, <= -1
  double mean = 0;                                // discs
  int sample = 0;                                 // exact solves run (<= options.exact_sample)
  double sign_agreement = 0, rms_error = 0, exact_seconds = 0;
  double enumerate_seconds = 0, predict_seconds = 0;
};
LayerPrediction predict_layer(const PredictOptions& options);

// ---- play: a proof's perfect player against uniformly random play, from the start.
struct RandomPlayOptions {
  int size = 6;
  std::string proof;
  std::string as = "white";
  int games = 10;
  std::uint64_t seed = 1;
};
struct PlayedGame {
  std::string moves;  // separated by spaces, as in a principal variation: "f5 d6 c3"
  int score = 0;      // for the player
};
struct RandomPlayReport {
  int size = 6;
  bool player_white = true;
  std::vector<PlayedGame> games;
  int worst_score = 0;
  int below_guarantee = 0;  // games scored below the proof's guarantee: a wrong proof
  std::optional<int> guarantee;
  std::uint64_t moves_from_proof = 0, moves_from_solver = 0;
};
RandomPlayReport play_against_random(const RandomPlayOptions& options);

}  // namespace zermelo::othello
