// `zermelo othello ...`: the Othello engine from the command line.
//   othello solve BOARD SIDE | FILE.obf | --ffo N --ffo-file F   exact score, best move, PV,
//                                                     nodes, nodes/s; a file: a table, a total
//   othello perft DEPTH [--size 8|6|4] [--ended vanish|stay]
//   othello enumerate --discs D | --empties K [--size 8|6|4]   symmetry-unique positions by layer
//   othello weak-solve [--size N] [--leaf-empties K] [--value V] [--proof FILE] [BOARD SIDE]
//   othello check-proof FILE                          replay a proof with the rules and the solver
//   othello fit-eval --size N                         least-squares fit of the evaluation's weights
//   othello train --seed S --positions P [--out F]   fit the pattern evaluation's weights
//   othello eval-error [--weights F]                 its mean absolute error by empties
//   othello predict --empties K [--size N] [--out F]  predicted values of a whole layer (step 2)
//   othello play --proof F --as black|white [--games K]  the perfect player against random play
// Othello is solved by search, outside the Game interface (README, "Three ways a game is
// solved"). Each command is an options struct, the options that fill it and one library call
// (zermelo/games/othello/tasks.hpp); the library's reports.hpp prints the result.
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "tools/zermelo/command.hpp"
#include "zermelo/engine/state_text.hpp"
#include "zermelo/games/othello/reports.hpp"
#include "zermelo/games/othello/tasks.hpp"

// A namespace of its own: the using-directive below stays out of the other commands compiled
// in the same unity file.
namespace zermelo::cli::othello_command {
namespace {

using namespace zermelo::othello;

CLI::Option* add_size(CLI::App* sub, int& size, const char* what = "board size: 8, 6 or 4") {
  return sub->add_option("--size", size, what)->capture_default_str();
}

struct SolveArgs {
  std::vector<std::string> position;  // its words, or one .obf file
  int ffo = -1;
  std::string ffo_file;
  int ffo_first = 40;
  int size = 8;
  int tt_bits = 22;
  std::string window;
  bool each_move = false;
  bool stats = false;
};

// One word that is a file, or looks like one: a problem file to solve line by line.
bool names_problem_file(const SolveArgs& a) {
  if (a.position.size() != 1 || a.ffo >= 0) return false;
  const std::string& word = a.position[0];
  return word.ends_with(".obf") || std::filesystem::is_regular_file(word);
}

PositionToSolve position_of(const SolveArgs& a) {
  if (a.ffo >= 0) return ffo_position(a.ffo_file, a.ffo, a.ffo_first);
  if (a.position.empty())
    throw std::invalid_argument(
        "othello solve: give a position (BOARD SIDE, e.g. the 64-char FFO form and X or O), an "
        ".obf file, or --ffo N");
  std::string text;
  for (const std::string& word : a.position) text += (text.empty() ? "" : " ") + word;
  if (names_the_start(a.position[0]))  // `start`, or `start X`
    return {parse_position(a.position[0], a.position.size() > 1 ? a.position[1] : "", a.size),
            std::nullopt};
  return position_from_text(text, a.size);
}

othello::SolveOptions solve_options(const SolveArgs& a) {
  othello::SolveOptions options;
  options.threads = globals().threads;
  options.tt_bits = a.tt_bits;
  if (!a.window.empty()) parse_window(a.window, options);
  return options;
}

void run_solve(const SolveArgs& a) {
  int disagreements = 0;
  if (names_problem_file(a)) {
    const ProblemSetSolve r = solve_problem_file(a.position[0], solve_options(a));
    print_report(r);
    disagreements = r.disagreements;
  } else {
    PositionSolve r = solve_position(position_of(a), solve_options(a), a.each_move);
    r.show_stats = a.stats;
    print_report(r);
    disagreements = agrees_with_published(r) == false;
  }
  if (disagreements)
    throw std::runtime_error(std::to_string(disagreements) +
                             " position(s) disagree with the published score");
}

void add_solve(CLI::App* oth) {
  auto* sub = oth->add_subcommand(
      "solve", "exact score, best move and principal variation of a position or an .obf file");
  auto& a = command_options<SolveArgs>(sub, run_solve);
  sub->add_option(
      "position", a.position,
      "BOARD SIDE (64 chars A1..H8 row by row, X black, O white, - empty; then X or "
      "O), 'start', the 65-char form, a whole .obf line, or an .obf FILE: every line solved");
  sub->add_option("--ffo", a.ffo, "solve FFO test position N from the .obf file instead");
  sub->add_option("--ffo-file", a.ffo_file,
                  "the .obf file (default: $ZERMELO_SPEC_DIR/ffo40-49.obf)");
  sub->add_option("--ffo-first", a.ffo_first, "FFO number of the file's first line")
      ->capture_default_str();
  add_size(sub, a.size);
  sub->add_option("--tt-bits", a.tt_bits, "transposition table of 2^B slots of 24 bytes")
      ->capture_default_str()
      ->check(CLI::Range(10, 30));
  sub->add_option("--window", a.window,
                  "search window LO,HI (a score outside is reported as a bound)");
  sub->add_flag("--each-move", a.each_move, "also solve every legal move exactly");
  sub->add_flag("--stats", a.stats,
                "also the search's counts by empties: nodes, refutations (by the first move "
                "tried), table, ETC and stability cut-offs, ordering nodes");
  sub->footer(
      "A file's table gives each line's empties, score, best move, nodes, time and nodes/s, and\n"
      "whether the score agrees with the one the file publishes; any disagreement exits 1.\n"
      "Example: zermelo othello solve tests/data/ffo-easy.obf");
}

struct PerftArgs {
  int depth = 0, size = 8;
  std::string ended = "vanish";
};

void add_perft(CLI::App* oth) {
  auto* sub =
      oth->add_subcommand("perft", "leaf counts of the game tree from the start, depth 1..DEPTH");
  auto& a = command_options<PerftArgs>(
      sub, [](const PerftArgs& p) { print_report(perft_table(p.size, p.depth, p.ended)); });
  sub->add_option("depth", a.depth, "plies (a pass is a ply)")->required();
  add_size(sub, a.size);
  sub->add_option(
         "--ended", a.ended,
         "games over before DEPTH: 'vanish' (no leaf) or 'stay' (one leaf at every deeper depth)")
      ->capture_default_str();
}

struct EnumerateArgs {
  int discs = -1, empties = -1, size = 8;
};

void run_enumerate(const EnumerateArgs& a) {
  if (a.discs < 0 && a.empties < 0)
    throw std::invalid_argument("othello enumerate: give --discs D or --empties K");
  print_report(enumerate_layers(a.size, a.discs, a.empties));
}

void add_enumerate(CLI::App* oth) {
  auto* sub =
      oth->add_subcommand("enumerate", "symmetry-unique reachable positions layer by layer");
  auto& a = command_options<EnumerateArgs>(sub, run_enumerate);
  auto* discs = sub->add_option("--discs", a.discs, "last layer: positions with this many discs");
  auto* empties =
      sub->add_option("--empties", a.empties, "last layer: positions with this many empty squares");
  discs->excludes(empties);
  add_size(sub, a.size);
}

void add_predict(CLI::App* oth) {
  auto* sub =
      oth->add_subcommand("predict", "predicted values of every position of a layer (spec step 2)");
  auto& a = command_options<PredictOptions>(
      sub, [](const PredictOptions& o) { print_report(predict_layer(o)); });
  add_size(sub, a.size);
  sub->add_option("--empties", a.empties, "the layer: positions with this many empty squares")
      ->required();
  sub->add_option("--depth", a.depth, "plies of the shallow search")
      ->capture_default_str()
      ->check(CLI::Range(0, 12));
  sub->add_option("--exact-sample", a.exact_sample,
                  "solve this many evenly spaced positions exactly and compare");
  sub->add_option("--out", a.out, "write (position, prediction) records to this run file");
}

struct WeakSolveArgs {
  std::string board, side;
  int size = 6;
  WeakSolveOptions options = [] {
    WeakSolveOptions o;
    o.leaf_empties = -1;  // by size
    return o;
  }();
};

void run_weak_solve(const WeakSolveArgs& a) {
  const Position pos =
      a.board.empty() ? start_position(a.size) : parse_position(a.board, a.side, a.size);
  WeakSolveOptions options = a.options;
  options.threads = std::max(1u, globals().threads);
  const auto progress = [](const WeakSolveProgress& p) {
    if (!globals().quiet) std::cerr << progress_line(p);
  };
  print_report(weak_solve_position(pos, options, progress));
}

// The value named `name` of an option with a fixed set of names; else an error listing them.
template <typename T>
T named_choice(const std::string& option, const std::string& name,
               const std::map<std::string, T>& choices) {
  if (auto it = choices.find(name); it != choices.end()) return it->second;
  std::string known;
  for (const auto& [k, v] : choices) known += (known.empty() ? "" : ", ") + k;
  throw CLI::ValidationError(option, "unknown value '" + name + "' (one of: " + known + ")");
}

void add_weak_solve(CLI::App* oth) {
  auto* sub = oth->add_subcommand(
      "weak-solve", "prove a position's value with a proof tree (default: the start)");
  sub->footer(
      "Killed or interrupted, the same command resumes: every exact solve is in the journal "
      "(--journal, or beside --proof), and the search replays them.");
  auto& a = command_options<WeakSolveArgs>(sub, run_weak_solve);
  WeakSolveOptions& o = a.options;
  sub->add_option("board", a.board, "a position instead of the start (board text, then side)");
  sub->add_option("side", a.side, "side to move: X (black) or O (white)");
  add_size(sub, a.size);
  sub->add_option(
         "--leaf-empties", o.leaf_empties,
         "solve positions with at most K empties exactly (default 6 on 4x4, 20 on 6x6, 36 on 8x8)")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--predict-depth", o.predict_depth,
                  "plies of the shallow search that orders moves")
      ->capture_default_str()
      ->check(CLI::Range(1, 12));
  sub->add_option_function<std::string>(
         "--predictor",
         [&o](const std::string& v) {
           o.predictor = named_choice<Predictor>(
               "--predictor", v,
               {{"patterns", Predictor::kPatterns}, {"linear", Predictor::kLinear}});
         },
         "the evaluation under that search: patterns (8x8 only; the default there) or linear "
         "(every size)")
      ->type_name("NAME");
  sub->add_option_function<std::string>(
         "--search",
         [&o](const std::string& v) {
           o.search = named_choice<ProofSearch>(
               "--search", v, {{"rounds", ProofSearch::kRounds}, {"solver", ProofSearch::kSolver}});
         },
         "rounds (default): predicted moves, leaves solved in batches, the paper's pipeline; "
         "solver: the endgame solver picks each OR move on one shared table (one thread)")
      ->type_name("NAME");
  sub->add_option("--value", o.value,
                  "prove exactly this value (e.g. 0: the paper's draw); default: find it");
  sub->add_option("--proof", o.proof_path, "write the proof tree to this run file");
  sub->add_option("--journal", o.journal_path,
                  "log every exact solve here, so that a killed search resumes when run again "
                  "(default: the proof file's name + .journal; removed once the proof is written)");
  sub->add_option("--stop-after-solves", o.stop_after_solves,
                  "stop (exit 1, journal kept) after this many solves the journal did not answer: "
                  "a segment of a known size; the same command without it goes on");
  sub->add_option("--tt-bits", o.tt_bits, "each leaf solver's table: 2^B slots of 24 bytes")
      ->capture_default_str()
      ->check(CLI::Range(10, 28));
}

void run_play(const RandomPlayOptions& o) {
  const RandomPlayReport r = play_against_random(o);
  print_report(r);
  if (r.below_guarantee)
    throw std::runtime_error(std::to_string(r.below_guarantee) +
                             " games scored below the proof's guarantee");
}

void add_play(CLI::App* oth) {
  auto* sub = oth->add_subcommand(
      "play", "a perfect player (a proof tree, then the endgame solver) against random play");
  auto& a = command_options<RandomPlayOptions>(sub, run_play);
  sub->add_option("--proof", a.proof, "the proof file (from weak-solve --proof)")->required();
  sub->add_option("--as", a.as, "the player's colour: black or white")->capture_default_str();
  add_size(sub, a.size, "board size of the proof: 8, 6 or 4");
  sub->add_option("--games", a.games, "games to play")->capture_default_str();
  sub->add_option("--seed", a.seed, "random seed of the opponent")->capture_default_str();
}

struct CheckProofArgs {
  std::string file;
  int tt_bits = 20;
};

void run_check_proof(const CheckProofArgs& a) {
  const ProofCheckReport r{a.file, check_proof(a.file, a.tt_bits)};
  print_report(r);
  if (!r.check.ok) throw std::runtime_error("proof rejected: " + a.file + ": " + r.check.error);
}

void add_check_proof(CLI::App* oth) {
  auto* sub = oth->add_subcommand("check-proof",
                                  "check a proof tree with the rules and the endgame solver alone");
  auto& a = command_options<CheckProofArgs>(sub, run_check_proof);
  sub->add_option("file", a.file, "the proof run file")->required();
  sub->add_option("--tt-bits", a.tt_bits, "the leaf solver's table: 2^B slots")
      ->capture_default_str()
      ->check(CLI::Range(10, 28));
}

struct FitArgs {
  int size = 6, samples = 4000, min_empties = -1, max_empties = -1;
  std::uint64_t seed = 1;
};

void add_fit_eval(CLI::App* oth) {
  auto* sub = oth->add_subcommand(
      "fit-eval", "fit the evaluation's weights by least squares on exact endgame scores");
  auto& a = command_options<FitArgs>(sub, [](const FitArgs& f) {
    print_report(fit_weights(f.size, f.samples, f.min_empties, f.max_empties, f.seed));
  });
  add_size(sub, a.size);
  sub->add_option("--samples", a.samples, "random-play positions to solve")->capture_default_str();
  sub->add_option("--min-empties", a.min_empties, "fewest empties of a sample (default by size)");
  sub->add_option("--max-empties", a.max_empties, "most empties of a sample (default by size)");
  sub->add_option("--seed", a.seed, "random seed")->capture_default_str();
}

struct TrainArgs {
  patterns::TrainOptions options;
  std::string out = "othello-patterns.bin";
};

void add_train(CLI::App* oth) {
  auto* sub = oth->add_subcommand(
      "train", "fit the pattern evaluation (8x8) on self-play positions labelled exactly");
  auto& a = command_options<TrainArgs>(sub, [](const TrainArgs& t) {
    patterns::TrainOptions o = t.options;
    o.threads = std::max(1u, globals().threads);
    print_report(train_weights(o, t.out));
  });
  patterns::TrainOptions& o = a.options;
  sub->add_option("--seed", o.seed, "random seed of the self-play games")->capture_default_str();
  sub->add_option("--positions", o.positions, "positions to label and fit on")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  sub->add_option("--min-empties", o.min_empties, "fewest empties of a position")
      ->capture_default_str();
  sub->add_option("--max-empties", o.max_empties, "most empties of a position (solved exactly)")
      ->capture_default_str();
  sub->add_option("--keep-one-in", o.keep_one_in, "keep one in K of a game's positions")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  sub->add_option("--chunk-positions", o.chunk_positions,
                  "label in chunks of this many positions, each from its own seed (0: one chunk)")
      ->capture_default_str();
  sub->add_option("--phases", o.phases, "weight sets, one a phase of empties")
      ->capture_default_str();
  sub->add_option("--phase-width", o.phase_width, "empties a phase (the last takes the rest)")
      ->capture_default_str();
  sub->add_option("--ridge", o.ridge, "L2 shrinkage of the fit")->capture_default_str();
  sub->add_option("--labels", o.labels_file,
                  "folder caching the labelled positions, in chunks (a stopped run resumes)");
  sub->add_option("--prior", o.prior_file,
                  "weights file to refine: the fit is of the change from it (ridge toward it)");
  sub->add_option("--out", a.out, "the weights file to write")->capture_default_str();
  sub->footer("The same options give the same file byte for byte, at any --threads.");
}

struct EvalErrorArgs {
  std::string weights, labels;
  patterns::LabelSet set{1001, 2000, 4, 18, 1};
};

void add_eval_error(CLI::App* oth) {
  auto* sub = oth->add_subcommand(
      "eval-error", "mean absolute error by empties of the pattern and linear evaluations");
  auto& a = command_options<EvalErrorArgs>(sub, [](const EvalErrorArgs& e) {
    print_report(evaluation_error(e.weights, e.set, std::max(1u, globals().threads), e.labels));
  });
  sub->add_option("--weights", a.weights, "a weights file (default: the compiled-in weights)");
  sub->add_option("--seed", a.set.seed,
                  "random seed of the self-play games (not the training seed)")
      ->capture_default_str();
  sub->add_option("--positions", a.set.count, "positions to solve exactly")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  sub->add_option("--min-empties", a.set.min_empties, "fewest empties")->capture_default_str();
  sub->add_option("--max-empties", a.set.max_empties, "most empties")->capture_default_str();
  sub->add_option("--keep-one-in", a.set.keep_one_in, "keep one in K of a game's positions")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  sub->add_option("--labels", a.labels,
                  "cache of the labelled positions: read if it exists for these options, else "
                  "written");
}

void setup_othello(CLI::App& app) {
  auto* oth =
      app.add_subcommand("othello", "Othello: exact endgame solver, perft, position enumeration");
  oth->require_subcommand(1);
  for (auto add : {add_solve, add_perft, add_enumerate, add_predict, add_weak_solve, add_play,
                   add_check_proof, add_fit_eval, add_train, add_eval_error})
    add(oth);
}

}  // namespace
}  // namespace zermelo::cli::othello_command

ZERMELO_REGISTER_COMMAND(40, zermelo::cli::othello_command::setup_othello)
