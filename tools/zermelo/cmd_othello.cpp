// `zermelo othello ...`: the Othello engine from the command line.
//   othello solve BOARD SIDE | --ffo N --ffo-file F   exact score, best move, PV, nodes, nodes/s
//   othello perft DEPTH [--size 8|6|4] [--ended vanish|stay]
//   othello enumerate --discs D | --empties K [--size 8|6|4]   symmetry-unique positions by layer
//   othello weak-solve [--size N] [--leaf-empties K] [--value V] [--proof FILE] [BOARD SIDE]
//   othello check-proof FILE                          replay a proof with the rules and the solver
//   othello fit-eval --size N                         least-squares fit of the evaluation's weights
//   othello predict --empties K [--size N] [--out F]  predicted values of a whole layer (step 2)
//   othello play --proof F --as black|white [--games K]  the perfect player against random play
// Othello stays outside the generic Game interface: its positions are two 64-bit bitboards.
#include <chrono>
#include <cmath>
#include <memory>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <optional>
#include <random>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "tools/zermelo/command.hpp"
#include "zermelo/games/othello/eval.hpp"
#include "zermelo/games/othello/notation.hpp"
#include "zermelo/games/othello/perft.hpp"
#include "zermelo/games/othello/proof.hpp"
#include "zermelo/games/othello/solver.hpp"
#include "zermelo/io/run_file.hpp"

namespace {

using namespace zermelo::othello;

struct SolveArgs {
  std::string board, side;
  int ffo = -1;
  std::string ffo_file;
  int ffo_first = 40;
  int size = 8;
  int tt_bits = 22;
  std::string window;
  bool each_move = false;
};

template <int N>
SolveResult solve_sized(const Position& pos, const SolveOptions& opt) {
  return solve<N>(pos.mover(), pos.opponent(), opt);
}

template <int N>
std::vector<std::pair<int, int>> each_sized(const Position& pos, const SolveOptions& opt) {
  return solve_each_move<N>(pos.mover(), pos.opponent(), opt);
}

std::string pv_text(const std::vector<int>& pv) {
  std::string s;
  for (int m : pv) s += square_name(m);
  return s;
}

void run_solve(const SolveArgs& a) {
  Position pos;
  nlohmann::json j;
  if (a.ffo >= 0) {
    std::string file = a.ffo_file;
    if (file.empty()) {
      const char* dir = std::getenv("ZERMELO_SPEC_DIR");
      if (!dir) throw std::invalid_argument("othello solve --ffo: give the .obf file with --ffo-file");
      file = std::string(dir) + "/ffo40-49.obf";
    }
    const auto entries = read_obf_file(file);
    const int index = a.ffo - a.ffo_first;
    if (index < 0 || index >= static_cast<int>(entries.size()))
      throw std::invalid_argument("othello solve: FFO #" + std::to_string(a.ffo) + " is not in " + file + " (it holds #" +
                                  std::to_string(a.ffo_first) + "..#" +
                                  std::to_string(a.ffo_first + static_cast<int>(entries.size()) - 1) + ")");
    pos = entries[static_cast<std::size_t>(index)].position;
    j["ffo"] = a.ffo;
    j["published_score"] = entries[static_cast<std::size_t>(index)].best_score();
    nlohmann::json best = nlohmann::json::array();
    for (int m : entries[static_cast<std::size_t>(index)].best_moves()) best.push_back(square_name(m));
    j["published_best_moves"] = best;
  } else {
    if (a.board.empty() || a.side.empty())
      throw std::invalid_argument("othello solve: give BOARD SIDE (e.g. the 64-char FFO form and X or O) or --ffo N");
    pos = parse_position(a.board, a.side, a.size);
  }
  SolveOptions opt;
  opt.threads = zermelo::cli::globals().threads;
  opt.tt_bits = a.tt_bits;
  if (!a.window.empty()) {
    const auto comma = a.window.find(',');
    if (comma == std::string::npos) throw std::invalid_argument("othello solve: --window wants LO,HI, e.g. -2,2");
    opt.alpha = std::stoi(a.window.substr(0, comma));
    opt.beta = std::stoi(a.window.substr(comma + 1));
  }
  SolveResult r;
  switch (pos.size) {
    case 4: r = solve_sized<4>(pos, opt); break;
    case 6: r = solve_sized<6>(pos, opt); break;
    default: r = solve_sized<8>(pos, opt); break;
  }
  const double nps = r.seconds > 0 ? static_cast<double>(r.nodes) / r.seconds : 0.0;
  std::vector<std::pair<int, int>> each;
  if (a.each_move) {
    SolveOptions eo = opt;
    eo.alpha = -64;
    eo.beta = 64;
    switch (pos.size) {
      case 4: each = each_sized<4>(pos, eo); break;
      case 6: each = each_sized<6>(pos, eo); break;
      default: each = each_sized<8>(pos, eo); break;
    }
  }
  if (zermelo::cli::globals().json) {
    j["board"] = board_string(pos);
    j["side"] = pos.white_to_move ? "O" : "X";
    j["size"] = pos.size;
    j["empties"] = r.empties;
    j["score"] = r.score;
    j["exact"] = r.exact;
    j["best_move"] = square_name(r.best_move);
    nlohmann::json pv = nlohmann::json::array();
    for (int m : r.pv) pv.push_back(square_name(m));
    j["pv"] = pv;
    j["nodes"] = r.nodes;
    j["seconds"] = r.seconds;
    j["cpu_seconds"] = r.cpu_seconds;
    j["nodes_per_second"] = nps;
    j["threads"] = opt.threads;
    if (a.each_move) {
      nlohmann::json e = nlohmann::json::object();
      for (auto& [m, s] : each) e[square_name(m)] = s;
      j["move_scores"] = e;
    }
    std::cout << j.dump(2) << "\n";
    return;
  }
  std::cout << render(pos);
  if (a.ffo >= 0) std::cout << "FFO #" << a.ffo << " (published score " << j["published_score"] << ")\n";
  std::cout << "empties     " << r.empties << "\n"
            << "score       " << (r.score > 0 ? "+" : "") << r.score << (r.exact ? "" : " (bound: outside the window)")
            << "\n"
            << "best move   " << square_name(r.best_move) << "\n"
            << "PV          " << pv_text(r.pv) << "\n"
            << "nodes       " << r.nodes << "\n"
            << "time        " << std::fixed << std::setprecision(3) << r.seconds << " s (CPU " << r.cpu_seconds
            << " s)\n"
            << "nodes/s     " << std::setprecision(0) << nps << "\n"
            << "threads     " << opt.threads << "\n";
  if (a.each_move) {
    std::cout << "move scores";
    for (auto& [m, s] : each) std::cout << " " << square_name(m) << ":" << (s > 0 ? "+" : "") << s;
    std::cout << "\n";
  }
}

void run_perft(int depth, int size, const std::string& ended) {
  EndedGames conv;
  if (ended == "vanish")
    conv = EndedGames::kVanish;
  else if (ended == "stay")
    conv = EndedGames::kStayLeaves;
  else
    throw std::invalid_argument("othello perft: --ended must be 'vanish' or 'stay', not '" + ended + "'");
  if (depth < 0) throw std::invalid_argument("othello perft: DEPTH must be >= 0");
  const Position s = start_position(size);
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::uint64_t> counts;
  for (int d = 1; d <= depth; ++d) {
    switch (size) {
      case 4: counts.push_back(perft<4>(s.black, s.white, d, conv)); break;
      case 6: counts.push_back(perft<6>(s.black, s.white, d, conv)); break;
      default: counts.push_back(perft<8>(s.black, s.white, d, conv)); break;
    }
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (zermelo::cli::globals().json) {
    nlohmann::json j{{"size", size}, {"ended_games", ended}, {"leaves", counts}, {"seconds", secs}};
    std::cout << j.dump(2) << "\n";
    return;
  }
  std::cout << "perft " << size << "x" << size << " (ended games " << ended << ")\n";
  for (int d = 1; d <= depth; ++d) std::cout << std::setw(3) << d << "  " << counts[static_cast<std::size_t>(d - 1)] << "\n";
  std::cout << "time " << std::fixed << std::setprecision(3) << secs << " s\n";
}

void run_enumerate(int discs, int empties, int size) {
  const int squares = size * size;
  if (start_position(size).size != size) return;
  if (empties >= 0) discs = squares - empties;
  if (discs < 4 || discs > squares)
    throw std::invalid_argument("othello enumerate: disc count must be in 4.." + std::to_string(squares));
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::uint64_t> counts;
  std::vector<PosKey> layer;
  switch (size) {
    case 4: counts = unique_positions_by_discs<4>(discs, &layer); break;
    case 6: counts = unique_positions_by_discs<6>(discs, &layer); break;
    default: counts = unique_positions_by_discs<8>(discs, &layer); break;
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (zermelo::cli::globals().json) {
    nlohmann::json j{{"size", size},
                     {"discs", discs},
                     {"empties", squares - discs},
                     {"unique_positions_by_discs_from_4", counts},
                     {"layer_positions_to_solve", layer.size()},
                     {"seconds", secs}};
    std::cout << j.dump(2) << "\n";
    return;
  }
  std::cout << "symmetry-unique positions, " << size << "x" << size << " (finished games included)\n";
  for (std::size_t i = 0; i < counts.size(); ++i)
    std::cout << std::setw(4) << (i + 4) << " discs  " << counts[i] << "\n";
  std::cout << "layer at " << discs << " discs (" << squares - discs
            << " empties), side to move has a move, passes taken, finished games dropped: " << layer.size() << "\n"
            << "time " << std::fixed << std::setprecision(3) << secs << " s\n";
}

struct WeakSolveArgs {
  std::string board, side;
  int size = 6;
  int leaf_empties = -1;  // default by size
  int predict_depth = 4;
  int tt_bits = 20;
  std::optional<int> value;
  std::string proof;
};

int default_leaf_empties(int size) { return size == 4 ? 6 : size == 6 ? 20 : 36; }

void run_weak_solve(const WeakSolveArgs& a) {
  const Position pos = a.board.empty() ? start_position(a.size) : parse_position(a.board, a.side, a.size);
  WeakSolveOptions opt;
  opt.leaf_empties = a.leaf_empties >= 0 ? a.leaf_empties : default_leaf_empties(pos.size);
  opt.predict_depth = a.predict_depth;
  opt.value = a.value;
  opt.threads = std::max(1u, zermelo::cli::globals().threads);
  opt.tt_bits = a.tt_bits;
  opt.proof_path = a.proof;
  const bool json = zermelo::cli::globals().json;
  auto progress = [&](const WeakSolveProgress& pr) {
    if (zermelo::cli::globals().quiet) return;
    std::cerr << "  [" << std::fixed << std::setprecision(1) << pr.seconds << " s] proving "
              << goal_text(pr.goal, pr.bound) << ", round " << pr.round << ": batch " << pr.batch
              << ", leaves solved " << pr.leaves_solved << "\n";
  };
  WeakSolveResult r;
  switch (pos.size) {
    case 4: r = weak_solve<4>(pos.mover(), pos.opponent(), opt, progress); break;
    case 6: r = weak_solve<6>(pos.mover(), pos.opponent(), opt, progress); break;
    default: r = weak_solve<8>(pos.mover(), pos.opponent(), opt, progress); break;
  }
  const std::string mover = pos.white_to_move ? "White" : "Black";
  if (json) {
    nlohmann::json attempts = nlohmann::json::array();
    for (std::size_t i = 0; i < r.attempts.size(); ++i)
      attempts.push_back({{"goal", goal_text(r.attempts[i].first, r.attempts[i].second)},
                          {"proved", static_cast<bool>(r.attempt_proved[i])}});
    nlohmann::json j{{"size", pos.size},
                     {"board", board_string(pos)},
                     {"side", pos.white_to_move ? "O" : "X"},
                     {"value", r.value},
                     {"leaf_empties", opt.leaf_empties},
                     {"predict_depth", opt.predict_depth},
                     {"proof_internal_nodes", r.internal_nodes},
                     {"proof_leaves", r.leaves},
                     {"positions_solved_exactly", r.leaf_solves},
                     {"leaf_solver_nodes", r.leaf_nodes},
                     {"rounds", r.rounds},
                     {"failed_predictions", r.failed_predictions},
                     {"attempts", attempts},
                     {"proof_file", a.proof},
                     {"threads", opt.threads},
                     {"seconds", r.seconds},
                     {"cpu_seconds", r.cpu_seconds}};
    std::cout << j.dump(2) << "\n";
    return;
  }
  std::cout << render(pos);
  std::cout << "value                     " << (r.value > 0 ? "+" : "") << r.value << " for " << mover
            << " (proved: value >= " << r.value << " and value <= " << r.value << ")\n"
            << "attempts                 ";
  for (std::size_t i = 0; i < r.attempts.size(); ++i)
    std::cout << " " << goal_text(r.attempts[i].first, r.attempts[i].second) << (r.attempt_proved[i] ? " proved;" : " refuted;");
  std::cout << "\n"
            << "leaf layer                <= " << opt.leaf_empties << " empties (solved exactly)\n"
            << "proof internal nodes      " << r.internal_nodes << "\n"
            << "proof leaves              " << r.leaves << "\n"
            << "positions solved exactly  " << r.leaf_solves << " (" << r.leaf_nodes << " solver nodes)\n"
            << "select/solve rounds       " << r.rounds << "\n"
            << "failed predictions        " << r.failed_predictions << "\n"
            << "proof file                " << (a.proof.empty() ? "(not written: give --proof FILE)" : a.proof) << "\n"
            << "time                      " << std::fixed << std::setprecision(1) << r.seconds << " s (CPU "
            << r.cpu_seconds << " s)\n";
}

void run_check_proof(const std::string& path, int tt_bits) {
  const ProofCheck c = check_proof(path, tt_bits);
  nlohmann::json roots = nlohmann::json::array();
  for (const ProofRoot& r : c.roots) {
    Position pos;
    pos.size = c.size;
    pos.black = r.p;
    pos.white = r.o;
    roots.push_back({{"board", board_string(pos)}, {"goal", goal_text(r.goal, r.bound)}, {"is_start", r.is_start}});
  }
  if (zermelo::cli::globals().json) {
    nlohmann::json j{{"ok", c.ok},       {"error", c.error},         {"size", c.size},
                     {"nodes", c.nodes}, {"expanded", c.expanded},   {"leaves", c.leaves},
                     {"edges", c.edges}, {"unreachable", c.unreachable}, {"leaf_solver_nodes", c.leaf_solver_nodes},
                     {"roots", roots},   {"seconds", c.seconds}};
    std::cout << j.dump(2) << "\n";
  } else if (c.ok) {
    std::cout << "proof OK: " << path << " (" << c.size << "x" << c.size << ")\n";
    for (const ProofRoot& r : c.roots)
      std::cout << "  proves " << goal_text(r.goal, r.bound) << " for the side to move at "
                << (r.is_start ? "the start position" : "the root (canonical, mover as X)") << "\n";
    std::cout << "nodes " << c.nodes << " (expanded " << c.expanded << ", leaves " << c.leaves << "), edges "
              << c.edges << ", unreachable " << c.unreachable << "\n"
              << "leaves re-solved with " << c.leaf_solver_nodes << " solver nodes\n"
              << "time " << std::fixed << std::setprecision(1) << c.seconds << " s\n";
  }
  if (!c.ok) throw std::runtime_error("proof rejected: " + path + ": " + c.error);
}

template <int N>
EvalFit fit_sized(int samples, int lo, int hi, std::uint64_t seed) {
  return fit_evaluation<N>(samples, lo, hi, seed);
}

void run_fit_eval(int size, int samples, int lo, int hi, std::uint64_t seed) {
  EvalFit f;
  switch (size) {
    case 4: f = fit_sized<4>(samples, lo, hi, seed); break;
    case 6: f = fit_sized<6>(samples, lo, hi, seed); break;
    case 8: f = fit_sized<8>(samples, lo, hi, seed); break;
    default: throw std::invalid_argument("othello fit-eval: board size must be 4, 6 or 8, not " + std::to_string(size));
  }
  if (zermelo::cli::globals().json) {
    nlohmann::json w = nlohmann::json::object();
    for (int i = 0; i < kEvalFeatures; ++i) w[eval_feature_name(i)] = f.weights[static_cast<std::size_t>(i)];
    nlohmann::json j{{"size", size},           {"samples", f.samples},
                     {"min_empties", lo},      {"max_empties", hi},
                     {"weights", w},           {"rms_error", f.rms_error},
                     {"default_rms_error", f.default_rms_error}, {"sign_agreement", f.sign_agreement},
                     {"seconds", f.seconds}};
    std::cout << j.dump(2) << "\n";
    return;
  }
  std::cout << "least-squares fit, " << size << "x" << size << ", " << f.samples << " random-play positions with "
            << lo << ".." << hi << " empties, exact scores\n";
  for (int i = 0; i < kEvalFeatures; ++i)
    std::cout << "  " << std::setw(20) << std::left << eval_feature_name(i) << std::right << std::fixed
              << std::setprecision(3) << f.weights[static_cast<std::size_t>(i)] << "\n";
  std::cout << "rms error " << std::setprecision(2) << f.rms_error << " discs (compiled-in weights: "
            << f.default_rms_error << "), sign agreement " << std::setprecision(3) << f.sign_agreement << "\n"
            << "time " << std::setprecision(1) << f.seconds << " s\n";
}

// One predicted layer position on disk: canonical (mover, opponent) and the prediction.
struct PredictedRecord {
  std::uint64_t p = 0, o = 0;
  std::int32_t predicted = 0;  // 1/100 disc, side to move
  std::int32_t pad = 0;
};
static_assert(sizeof(PredictedRecord) == 24);

struct PredictArgs {
  int size = 6;
  int empties = -1;
  int depth = 4;
  int exact_sample = 0;
  std::string out;
};

template <int N>
void run_predict_sized(const PredictArgs& a) {
  constexpr int S = N * N;
  if (a.empties < 0 || a.empties > S - 4)
    throw std::invalid_argument("othello predict: --empties must be in 0.." + std::to_string(S - 4));
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<PosKey> layer;
  unique_positions_by_discs<N>(S - a.empties, &layer);
  const double enum_secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::unique_ptr<zermelo::RunWriter> out;
  if (!a.out.empty()) {
    zermelo::RunOptions ro;
    ro.record_size = sizeof(PredictedRecord);
    ro.record_type = "othello.predicted.v1";
    ro.sort_key = "canonical (mover, opponent) asc";
    out = std::make_unique<zermelo::RunWriter>(a.out, ro);
  }
  std::vector<int> predicted(layer.size());
  std::uint64_t wins = 0, draws = 0, losses = 0;
  double sum = 0;
  for (std::size_t i = 0; i < layer.size(); ++i) {
    const int v = predict<N>(layer[i].p, layer[i].o, a.depth);
    predicted[i] = v;
    (v >= 100 ? wins : v <= -100 ? losses : draws) += 1;
    sum += v / 100.0;
    if (out) out->push(PredictedRecord{layer[i].p, layer[i].o, v, 0});
  }
  if (out) out->finish();
  const double predict_secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() - enum_secs;
  // Against exact values on an evenly spaced sample of the layer.
  int agree = 0;
  double se = 0, sample_secs = 0;
  const int sample = std::min<int>(a.exact_sample, static_cast<int>(layer.size()));
  if (sample > 0) {
    const auto s0 = std::chrono::steady_clock::now();
    EndgameSolver<N> solver(22);
    for (int k = 0; k < sample; ++k) {
      const std::size_t i = layer.size() * static_cast<std::size_t>(k) / static_cast<std::size_t>(sample);
      const int exact = solver.solve(layer[i].p, layer[i].o, -S, S).score;
      const int v = predicted[i];
      agree += (v >= 100 ? 1 : v <= -100 ? -1 : 0) == (exact > 0 ? 1 : exact < 0 ? -1 : 0);
      se += (v / 100.0 - exact) * (v / 100.0 - exact);
    }
    sample_secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - s0).count();
  }
  const double n = static_cast<double>(std::max<std::size_t>(1, layer.size()));
  if (zermelo::cli::globals().json) {
    nlohmann::json j{{"size", N},
                     {"empties", a.empties},
                     {"depth", a.depth},
                     {"positions", layer.size()},
                     {"predicted_wins", wins},
                     {"predicted_draws", draws},
                     {"predicted_losses", losses},
                     {"mean_predicted", sum / n},
                     {"out", a.out},
                     {"enumerate_seconds", enum_secs},
                     {"predict_seconds", predict_secs}};
    if (sample > 0) {
      j["exact_sample"] = sample;
      j["sign_agreement"] = static_cast<double>(agree) / sample;
      j["rms_error"] = std::sqrt(se / sample);
      j["exact_seconds"] = sample_secs;
    }
    std::cout << j.dump(2) << "\n";
    return;
  }
  std::cout << "layer " << a.empties << " empties, " << N << "x" << N << ": " << layer.size()
            << " positions (canonical, passes taken, finished games dropped)\n"
            << "predicted by a " << a.depth << "-ply search on the fitted evaluation (side to move):\n"
            << "  win (>= +1 disc) " << wins << ", draw (|v| < 1) " << draws << ", loss " << losses << ", mean "
            << std::fixed << std::setprecision(2) << sum / n << " discs\n";
  if (sample > 0)
    std::cout << "exact sample of " << sample << ": sign agreement " << std::setprecision(3)
              << static_cast<double>(agree) / sample << ", rms error " << std::setprecision(2) << std::sqrt(se / sample)
              << " discs (" << std::setprecision(1) << sample_secs << " s)\n";
  if (!a.out.empty()) std::cout << "written to " << a.out << "\n";
  std::cout << "time: enumerate " << std::setprecision(1) << enum_secs << " s, predict " << predict_secs << " s\n";
}

struct PlayArgs {
  std::string proof;
  std::string as = "white";
  int games = 10;
  std::uint64_t seed = 1;
};

// Games of the proof's perfect player against a uniformly random opponent, from the start.
template <int N>
void run_play_sized(const PlayArgs& a) {
  const bool player_white = parse_side(a.as);
  ProofPlayer<N> player(a.proof);
  const std::optional<int> guarantee = player_white ? player.white_guarantee : player.black_guarantee;
  std::mt19937_64 rng(a.seed);
  nlohmann::json games = nlohmann::json::array();
  int worst = N * N, below = 0;
  for (int g = 0; g < a.games; ++g) {
    Bits p = Geometry<N>::kStartBlack, o = Geometry<N>::kStartWhite;
    bool white = false;
    std::string line;
    while (legal_moves<N>(p, o) || legal_moves<N>(o, p)) {
      const Bits moves = legal_moves<N>(p, o);
      int sq = kPass;
      if (white == player_white)
        sq = player.choose(p, o);
      else if (moves)
        sq = nth_square(moves, static_cast<int>(rng() % static_cast<unsigned>(popcount(moves))));
      line += square_name(sq);
      if (sq == kPass)
        std::swap(p, o);
      else
        play<N>(p, o, sq);
      white = !white;
    }
    const int score = (white == player_white ? 1 : -1) * final_score<N>(p, o);  // for the player
    worst = std::min(worst, score);
    below += guarantee && score < *guarantee;
    games.push_back({{"moves", line}, {"score", score}});
    if (!zermelo::cli::globals().json)
      std::cout << "game " << std::setw(3) << g + 1 << "  " << (score > 0 ? "+" : "") << score << "  " << line << "\n";
  }
  if (zermelo::cli::globals().json) {
    nlohmann::json j{{"size", N},
                     {"player", player_white ? "white" : "black"},
                     {"games", games},
                     {"worst_score", worst},
                     {"below_guarantee", below},
                     {"moves_from_proof", player.moves_from_proof},
                     {"moves_from_solver", player.moves_from_solver}};
    if (guarantee) j["guarantee"] = *guarantee;
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << "player " << (player_white ? "White" : "Black") << ", worst score " << worst;
    if (guarantee) std::cout << " (the proof guarantees >= " << *guarantee << ")";
    std::cout << "; moves from the proof " << player.moves_from_proof << ", from the endgame solver "
              << player.moves_from_solver << "\n";
  }
  if (below) throw std::runtime_error(std::to_string(below) + " games scored below the proof's guarantee");
}

void setup_othello(CLI::App& app) {
  auto* oth = app.add_subcommand("othello", "Othello: exact endgame solver, perft, position enumeration");
  oth->require_subcommand(1);

  static SolveArgs sa;
  auto* solve_cmd = oth->add_subcommand("solve", "exact score, best move and principal variation of a position");
  solve_cmd->add_option("board", sa.board, "the board: 64 chars A1..H8 row by row, X black, O white, - empty");
  solve_cmd->add_option("side", sa.side, "side to move: X (black) or O (white)");
  solve_cmd->add_option("--ffo", sa.ffo, "solve FFO test position N from the .obf file instead");
  solve_cmd->add_option("--ffo-file", sa.ffo_file, "the .obf file (default: $ZERMELO_SPEC_DIR/ffo40-49.obf)");
  solve_cmd->add_option("--ffo-first", sa.ffo_first, "FFO number of the file's first line")->capture_default_str();
  solve_cmd->add_option("--size", sa.size, "board size: 8, 6 or 4")->capture_default_str();
  solve_cmd->add_option("--tt-bits", sa.tt_bits, "transposition table of 2^B slots of 24 bytes")
      ->capture_default_str()
      ->check(CLI::Range(10, 30));
  solve_cmd->add_option("--window", sa.window, "search window LO,HI (a score outside is reported as a bound)");
  solve_cmd->add_flag("--each-move", sa.each_move, "also solve every legal move exactly");
  solve_cmd->callback([] { run_solve(sa); });

  static int depth = 0, psize = 8;
  static std::string ended = "vanish";
  auto* perft_cmd = oth->add_subcommand("perft", "leaf counts of the game tree from the start, depth 1..DEPTH");
  perft_cmd->add_option("depth", depth, "plies (a pass is a ply)")->required();
  perft_cmd->add_option("--size", psize, "board size: 8, 6 or 4")->capture_default_str();
  perft_cmd->add_option("--ended", ended,
                        "games over before DEPTH: 'vanish' (no leaf) or 'stay' (one leaf at every deeper depth)")
      ->capture_default_str();
  perft_cmd->callback([] { run_perft(depth, psize, ended); });

  static int discs = -1, empties = -1, esize = 8;
  auto* enum_cmd = oth->add_subcommand("enumerate", "symmetry-unique reachable positions layer by layer");
  auto* d_opt = enum_cmd->add_option("--discs", discs, "last layer: positions with this many discs");
  auto* e_opt = enum_cmd->add_option("--empties", empties, "last layer: positions with this many empty squares");
  d_opt->excludes(e_opt);
  enum_cmd->add_option("--size", esize, "board size: 8, 6 or 4")->capture_default_str();
  enum_cmd->callback([] {
    if (discs < 0 && empties < 0) throw std::invalid_argument("othello enumerate: give --discs D or --empties K");
    run_enumerate(discs, empties, esize);
  });

  static PredictArgs pa;
  auto* pr = oth->add_subcommand("predict", "predicted values of every position of a layer (spec step 2)");
  pr->add_option("--size", pa.size, "board size: 8, 6 or 4")->capture_default_str();
  pr->add_option("--empties", pa.empties, "the layer: positions with this many empty squares")->required();
  pr->add_option("--depth", pa.depth, "plies of the shallow search")->capture_default_str()->check(CLI::Range(0, 12));
  pr->add_option("--exact-sample", pa.exact_sample, "solve this many evenly spaced positions exactly and compare");
  pr->add_option("--out", pa.out, "write (position, prediction) records to this run file");
  pr->callback([] {
    switch (pa.size) {
      case 4: run_predict_sized<4>(pa); break;
      case 6: run_predict_sized<6>(pa); break;
      case 8: run_predict_sized<8>(pa); break;
      default: throw std::invalid_argument("othello predict: board size must be 4, 6 or 8");
    }
  });

  static WeakSolveArgs wa;
  auto* ws = oth->add_subcommand("weak-solve", "prove a position's value with a proof tree (default: the start)");
  ws->add_option("board", wa.board, "a position instead of the start (board text, then side)");
  ws->add_option("side", wa.side, "side to move: X (black) or O (white)");
  ws->add_option("--size", wa.size, "board size: 8, 6 or 4")->capture_default_str();
  ws->add_option("--leaf-empties", wa.leaf_empties,
                 "solve positions with at most K empties exactly (default 6 on 4x4, 20 on 6x6, 36 on 8x8)")
      ->check(CLI::NonNegativeNumber);
  ws->add_option("--predict-depth", wa.predict_depth, "plies of the shallow search that orders moves")
      ->capture_default_str()
      ->check(CLI::Range(1, 12));
  ws->add_option("--value", wa.value, "prove exactly this value (e.g. 0: the paper's draw); default: find it");
  ws->add_option("--proof", wa.proof, "write the proof tree to this run file");
  ws->add_option("--tt-bits", wa.tt_bits, "each leaf solver's table: 2^B slots of 24 bytes")
      ->capture_default_str()
      ->check(CLI::Range(10, 28));
  ws->callback([] { run_weak_solve(wa); });

  static PlayArgs la;
  static int lsize = 6;
  auto* pl = oth->add_subcommand("play", "a perfect player (a proof tree, then the endgame solver) against random play");
  pl->add_option("--proof", la.proof, "the proof file (from weak-solve --proof)")->required();
  pl->add_option("--as", la.as, "the player's colour: black or white")->capture_default_str();
  pl->add_option("--size", lsize, "board size of the proof: 8, 6 or 4")->capture_default_str();
  pl->add_option("--games", la.games, "games to play")->capture_default_str();
  pl->add_option("--seed", la.seed, "random seed of the opponent")->capture_default_str();
  pl->callback([] {
    switch (lsize) {
      case 4: run_play_sized<4>(la); break;
      case 6: run_play_sized<6>(la); break;
      case 8: run_play_sized<8>(la); break;
      default: throw std::invalid_argument("othello play: board size must be 4, 6 or 8");
    }
  });

  static std::string proof_file;
  static int check_tt_bits = 20;
  auto* cp = oth->add_subcommand("check-proof", "check a proof tree with the rules and the endgame solver alone");
  cp->add_option("file", proof_file, "the proof run file")->required();
  cp->add_option("--tt-bits", check_tt_bits, "the leaf solver's table: 2^B slots")->capture_default_str()->check(CLI::Range(10, 28));
  cp->callback([] { run_check_proof(proof_file, check_tt_bits); });

  static int fsize = 6, fsamples = 4000, fmin = -1, fmax = -1;
  static std::uint64_t fseed = 1;
  auto* fit = oth->add_subcommand("fit-eval", "fit the evaluation's weights by least squares on exact endgame scores");
  fit->add_option("--size", fsize, "board size: 8, 6 or 4")->capture_default_str();
  fit->add_option("--samples", fsamples, "random-play positions to solve")->capture_default_str();
  fit->add_option("--min-empties", fmin, "fewest empties of a sample (default by size)");
  fit->add_option("--max-empties", fmax, "most empties of a sample (default by size)");
  fit->add_option("--seed", fseed, "random seed")->capture_default_str();
  fit->callback([] {
    const int lo = fmin >= 0 ? fmin : fsize == 4 ? 4 : fsize == 6 ? 12 : 14;
    const int hi = fmax >= 0 ? fmax : fsize == 4 ? 10 : fsize == 6 ? 20 : 18;
    run_fit_eval(fsize, fsamples, lo, hi, fseed);
  });
}

}  // namespace

ZERMELO_REGISTER_COMMAND(40, setup_othello)
