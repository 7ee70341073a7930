// Othello's whole tasks at a runtime board size: see tasks.hpp.
#include "zermelo/games/othello/tasks.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <random>
#include <stdexcept>

#include "zermelo/games/othello/board_size.hpp"
#include "zermelo/io/run_file.hpp"

namespace zermelo::othello {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

std::string default_ffo_file() {
  const char* dir = std::getenv("ZERMELO_SPEC_DIR");
  if (!dir) throw std::invalid_argument("othello solve --ffo: give the .obf file with --ffo-file");
  return std::string(dir) + "/ffo40-49.obf";
}

EndedGames ended_games(const std::string& ended) {
  if (ended == "vanish") return EndedGames::kVanish;
  if (ended == "stay") return EndedGames::kStayLeaves;
  throw std::invalid_argument("othello perft: --ended must be 'vanish' or 'stay', not '" + ended +
                              "'");
}

int sign(int v) { return v > 0 ? 1 : v < 0 ? -1 : 0; }
// A prediction's outcome: win at >= +1 disc, loss at <= -1, else a draw (1/100 disc).
int predicted_sign(int v) { return v >= 100 ? 1 : v <= -100 ? -1 : 0; }

std::unique_ptr<RunWriter> predicted_writer(const std::string& path) {
  if (path.empty()) return nullptr;
  RunOptions ro;
  ro.record_size = sizeof(PredictedRecord);
  ro.record_type = "othello.predicted.v1";
  ro.sort_key = "canonical (mover, opponent) asc";
  return std::make_unique<RunWriter>(path, ro);
}

// Step 2 on one layer: every position's prediction, tallied and written if asked.
template <int N>
std::vector<int> predict_each(const std::vector<PosKey>& layer, LayerPrediction& r) {
  auto out = predicted_writer(r.options.out);
  std::vector<int> predicted(layer.size());
  double sum = 0;
  for (std::size_t i = 0; i < layer.size(); ++i) {
    const int v = predict<N>(layer[i].p, layer[i].o, r.options.depth);
    predicted[i] = v;
    const int s = predicted_sign(v);
    (s > 0 ? r.wins : s < 0 ? r.losses : r.draws) += 1;
    sum += v / 100.0;
    if (out) out->push(PredictedRecord{layer[i].p, layer[i].o, v, 0});
  }
  if (out) out->finish();
  r.mean = sum / static_cast<double>(std::max<std::size_t>(1, layer.size()));
  return predicted;
}

// Predictions against exact values on an evenly spaced sample of the layer.
template <int N>
void compare_with_exact(const std::vector<PosKey>& layer, const std::vector<int>& predicted,
                        LayerPrediction& r) {
  r.sample = std::min<int>(r.options.exact_sample, static_cast<int>(layer.size()));
  if (r.sample <= 0) return;
  const auto t0 = Clock::now();
  EndgameSolver<N> solver(22);
  int agree = 0;
  double se = 0;
  const auto n = static_cast<std::size_t>(r.sample);
  for (std::size_t k = 0; k < n; ++k) {
    const std::size_t i = layer.size() * k / n;
    const int exact = solver.solve(layer[i].p, layer[i].o, -N * N, N * N).score;
    const double v = predicted[i] / 100.0;
    agree += predicted_sign(predicted[i]) == sign(exact);
    se += (v - exact) * (v - exact);
  }
  r.sign_agreement = static_cast<double>(agree) / r.sample;
  r.rms_error = std::sqrt(se / r.sample);
  r.exact_seconds = seconds_since(t0);
}

template <int N>
LayerPrediction predict_layer_sized(const PredictOptions& options) {
  constexpr int S = N * N;
  if (options.empties < 0 || options.empties > S - 4)
    throw std::invalid_argument("othello predict: --empties must be in 0.." +
                                std::to_string(S - 4));
  LayerPrediction r;
  r.options = options;
  const auto t0 = Clock::now();
  std::vector<PosKey> layer;
  unique_positions_by_discs<N>(S - options.empties, &layer);
  r.enumerate_seconds = seconds_since(t0);
  r.positions = layer.size();
  const std::vector<int> predicted = predict_each<N>(layer, r);
  r.predict_seconds = seconds_since(t0) - r.enumerate_seconds;
  compare_with_exact<N>(layer, predicted, r);
  return r;
}

// One game from the start: the player's moves from `player`, the opponent's uniformly random.
template <int N>
PlayedGame play_one(ProofPlayer<N>& player, bool player_white, std::mt19937_64& rng) {
  Bits p = Geometry<N>::kStartBlack, o = Geometry<N>::kStartWhite;
  bool white = false;
  PlayedGame game;
  while (legal_moves<N>(p, o) || legal_moves<N>(o, p)) {
    const Bits moves = legal_moves<N>(p, o);
    int sq = kPass;
    if (white == player_white)
      sq = player.choose(p, o);
    else if (moves)
      sq = nth_square(moves, static_cast<int>(rng() % static_cast<unsigned>(popcount(moves))));
    game.moves += (game.moves.empty() ? "" : " ") + square_name(sq);
    if (sq == kPass)
      std::swap(p, o);
    else
      play<N>(p, o, sq);
    white = !white;
  }
  game.score = (white == player_white ? 1 : -1) * final_score<N>(p, o);
  return game;
}

template <int N>
RandomPlayReport play_against_random_sized(const RandomPlayOptions& options) {
  RandomPlayReport r;
  r.size = N;
  r.player_white = parse_side(options.as);
  ProofPlayer<N> player(options.proof);
  r.guarantee = r.player_white ? player.white_guarantee : player.black_guarantee;
  std::mt19937_64 rng(options.seed);
  r.worst_score = N * N;
  for (int g = 0; g < options.games; ++g) {
    r.games.push_back(play_one<N>(player, r.player_white, rng));
    r.worst_score = std::min(r.worst_score, r.games.back().score);
    r.below_guarantee += r.guarantee && r.games.back().score < *r.guarantee;
  }
  r.moves_from_proof = player.moves_from_proof;
  r.moves_from_solver = player.moves_from_solver;
  return r;
}

// An .obf line as a position to solve, with its published scores when it has them.
PositionToSolve to_solve(const ObfEntry& entry) {
  if (!entry.published()) return {entry.position, std::nullopt};
  return {entry.position, FfoReference{0, entry.best_score(), entry.best_moves()}};
}

}  // namespace

PositionToSolve ffo_position(const std::string& file_given, int number, int first) {
  const std::string file = file_given.empty() ? default_ffo_file() : file_given;
  const auto entries = read_obf_file(file);
  const int index = number - first;
  if (index < 0 || index >= static_cast<int>(entries.size()))
    throw std::invalid_argument("othello solve: FFO #" + std::to_string(number) + " is not in " +
                                file + " (it holds #" + std::to_string(first) + "..#" +
                                std::to_string(first + static_cast<int>(entries.size()) - 1) + ")");
  PositionToSolve position = to_solve(entries[static_cast<std::size_t>(index)]);
  if (position.ffo) position.ffo->number = number;
  return position;
}

PositionToSolve position_from_text(const std::string& text, int size) {
  return to_solve(parse_obf_line(text, size));
}

void parse_window(const std::string& text, SolveOptions& options) {
  const auto comma = text.find(',');
  if (comma == std::string::npos)
    throw std::invalid_argument("othello solve: --window wants LO,HI, e.g. -2,2");
  options.alpha = std::stoi(text.substr(0, comma));
  options.beta = std::stoi(text.substr(comma + 1));
}

PositionSolve solve_position(const PositionToSolve& input, const SolveOptions& options,
                             bool each_move) {
  PositionSolve r{input, {}, options.threads, each_move, {}};
  const Position& pos = input.position;
  with_board_size(pos.size, [&](auto n) {
    constexpr int N = decltype(n)::value;
    r.result = solve<N>(pos.mover(), pos.opponent(), options);
    if (!each_move) return;
    SolveOptions full = options;
    full.alpha = -64;
    full.beta = 64;
    r.move_scores = solve_each_move<N>(pos.mover(), pos.opponent(), full);
  });
  return r;
}

std::optional<bool> agrees_with_published(const PositionSolve& solve) {
  if (!solve.input.ffo) return std::nullopt;
  return solve.result.exact() && solve.result.score == solve.input.ffo->published_score;
}

ProblemSetSolve solve_problem_file(const std::string& path, const SolveOptions& options) {
  ProblemSetSolve r{path, {}, 0, 0, 0};
  for (const ObfEntry& entry : read_obf_file(path)) {
    PositionSolve solve = solve_position(to_solve(entry), options, false);
    r.nodes += solve.result.nodes;
    r.seconds += solve.result.seconds;
    r.disagreements += agrees_with_published(solve) == false;
    r.lines.emplace_back(entry.line, std::move(solve));
  }
  return r;
}

PerftTable perft_table(int size, int depth, const std::string& ended) {
  const EndedGames convention = ended_games(ended);
  if (depth < 0) throw std::invalid_argument("othello perft: DEPTH must be >= 0");
  const Position s = start_position(size);
  PerftTable r{size, ended, {}, 0};
  const auto t0 = Clock::now();
  with_board_size(size, [&](auto n) {
    for (int d = 1; d <= depth; ++d)
      r.leaves.push_back(perft<decltype(n)::value>(s.black, s.white, d, convention));
  });
  r.seconds = seconds_since(t0);
  return r;
}

Enumeration enumerate_layers(int size, int discs, int empties) {
  check_board_size(size);
  const int squares = size * size;
  if (empties >= 0) discs = squares - empties;
  if (discs < 4 || discs > squares)
    throw std::invalid_argument("othello enumerate: disc count must be in 4.." +
                                std::to_string(squares));
  Enumeration r{size, discs, {}, 0, 0};
  const auto t0 = Clock::now();
  std::vector<PosKey> layer;
  with_board_size(size, [&](auto n) {
    r.counts = unique_positions_by_discs<decltype(n)::value>(discs, &layer);
  });
  r.layer_positions = layer.size();
  r.seconds = seconds_since(t0);
  return r;
}

int default_leaf_empties(int size) { return size == 4 ? 6 : size == 6 ? 20 : 36; }

WeakSolveReport weak_solve_position(const Position& position, WeakSolveOptions options,
                                    const std::function<void(const WeakSolveProgress&)>& progress) {
  if (options.leaf_empties < 0) options.leaf_empties = default_leaf_empties(position.size);
  if (position.size != 8) options.predictor = Predictor::kLinear;  // patterns are 8×8 only
  WeakSolveReport r{position, options, {}};
  r.result = with_board_size(position.size, [&](auto n) {
    return weak_solve<decltype(n)::value>(position.mover(), position.opponent(), options, progress);
  });
  return r;
}

EvalFitReport fit_weights(int size, int samples, int min_empties, int max_empties,
                          std::uint64_t seed) {
  const int lo = min_empties >= 0 ? min_empties : size == 4 ? 4 : size == 6 ? 12 : 14;
  const int hi = max_empties >= 0 ? max_empties : size == 4 ? 10 : size == 6 ? 20 : 18;
  EvalFitReport r{size, lo, hi, {}};
  r.fit = with_board_size(
      size, [&](auto n) { return fit_evaluation<decltype(n)::value>(samples, lo, hi, seed); });
  return r;
}

TrainReport train_weights(const patterns::TrainOptions& options, const std::string& out) {
  TrainReport r{options, out, patterns::train_patterns(options), 0, 0};
  const std::vector<std::uint8_t> bytes = patterns::encode_weights(
      r.result.weights, {options.seed, static_cast<std::uint64_t>(r.result.positions)});
  patterns::write_weights_file(out, r.result.weights,
                               {options.seed, static_cast<std::uint64_t>(r.result.positions)});
  r.file_bytes = bytes.size();
  for (int i = 0; i < 8; ++i)
    r.checksum |= std::uint64_t{bytes[40 + static_cast<std::size_t>(i)]} << (8 * i);
  return r;
}

EvalErrorReport evaluation_error(const std::string& weights_file, const patterns::LabelSet& set,
                                 unsigned threads, const std::string& labels_file) {
  EvalErrorReport r;
  r.weights = weights_file.empty() ? "compiled-in" : weights_file;
  r.seed = set.seed;
  r.positions = set.count;
  const patterns::PatternWeights w = weights_file.empty()
                                         ? patterns::default_pattern_weights()
                                         : patterns::read_weights_file(weights_file);
  r.accuracy = patterns::measure_accuracy(w, set, threads, labels_file);
  return r;
}

LayerPrediction predict_layer(const PredictOptions& options) {
  return with_board_size(options.size,
                         [&](auto n) { return predict_layer_sized<decltype(n)::value>(options); });
}

RandomPlayReport play_against_random(const RandomPlayOptions& options) {
  return with_board_size(
      options.size, [&](auto n) { return play_against_random_sized<decltype(n)::value>(options); });
}

}  // namespace zermelo::othello
