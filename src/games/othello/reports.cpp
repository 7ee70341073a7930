// JSON and text forms of Othello's task results: see reports.hpp. Each text form is what
// `zermelo othello ...` has always printed.
#include "zermelo/games/othello/reports.hpp"

#include <iomanip>
#include <optional>
#include <sstream>

namespace zermelo::othello {
namespace {

using nlohmann::json;

std::string signed_text(int v) { return (v > 0 ? "+" : "") + std::to_string(v); }

json square_names(const std::vector<int>& squares) {
  json names = json::array();
  for (int m : squares) names.push_back(square_name(m));
  return names;
}

std::string pv_text(const std::vector<int>& pv) {
  std::string s;
  for (int m : pv) s += (s.empty() ? "" : " ") + square_name(m);
  return s;
}

double per_second(std::uint64_t nodes, double seconds) {
  return seconds > 0 ? static_cast<double>(nodes) / seconds : 0.0;
}

double nodes_per_second(const SolveResult& r) { return per_second(r.nodes, r.seconds); }

std::string side_text(const Position& pos) { return pos.white_to_move ? "O" : "X"; }

// "yes", "NO", or "-" for a position published without scores.
const char* agreement_text(std::optional<bool> agrees) {
  if (!agrees) return "-";
  return *agrees ? "yes" : "NO";
}

// The score, or which bound it is when it fell outside the search window.
std::string score_text(const SolveResult& r) {
  if (r.outside < 0) return "<= " + signed_text(r.score) + " (an upper bound: below the window)";
  if (r.outside > 0) return ">= " + signed_text(r.score) + " (a lower bound: above the window)";
  return signed_text(r.score);
}

// One row of a problem file's table, in the columns of Edax's `-solve`, then the published score.
std::string problem_row(int line, const PositionSolve& s) {
  const SolveResult& r = s.result;
  std::ostringstream os;
  os << std::setw(5) << line << " | " << std::setw(7) << r.empties << " | " << std::setw(5)
     << (signed_text(r.score) + (r.exact() ? "" : "?")) << " | " << std::setw(4)
     << square_name(r.best_move) << " | " << std::setw(14) << r.nodes << " | " << std::setw(10)
     << std::fixed << std::setprecision(3) << r.seconds << " | " << std::setw(12)
     << std::setprecision(0) << nodes_per_second(r) << " | " << std::setw(9)
     << (s.input.ffo ? signed_text(s.input.ffo->published_score) : "-") << " | "
     << agreement_text(agrees_with_published(s)) << "\n";
  return os.str();
}

// A share in per cent, or "-" when there is nothing to share.
std::string percent(std::uint64_t part, std::uint64_t whole) {
  if (!whole) return "-";
  std::ostringstream os;
  os << std::fixed << std::setprecision(1)
     << 100.0 * static_cast<double>(part) / static_cast<double>(whole);
  return os.str();
}

}  // namespace

json report_json(const PositionSolve& s) {
  const SolveResult& r = s.result;
  const Position& pos = s.input.position;
  json j{{"board", board_string(pos)},
         {"side", side_text(pos)},
         {"size", pos.size},
         {"empties", r.empties},
         {"score", r.score},
         {"exact", r.exact()},
         {"bound", r.outside < 0   ? json("upper")
                   : r.outside > 0 ? json("lower")
                                   : json(nullptr)},
         {"best_move", square_name(r.best_move)},
         {"pv", square_names(r.pv)},
         {"nodes", r.nodes},
         {"seconds", r.seconds},
         {"cpu_seconds", r.cpu_seconds},
         {"nodes_per_second", nodes_per_second(r)},
         {"threads", s.threads}};
  if (s.input.ffo) {
    if (s.input.ffo->number > 0) j["ffo"] = s.input.ffo->number;
    j["published_score"] = s.input.ffo->published_score;
    j["published_best_moves"] = square_names(s.input.ffo->best_moves);
    j["agrees"] = *agrees_with_published(s);
  }
  if (s.show_stats) j["by_empties"] = report_json(r.stats);
  if (s.each_move) {
    json e = json::object();
    for (auto& [m, score] : s.move_scores) e[square_name(m)] = score;
    j["move_scores"] = e;
  }
  return j;
}

std::string report_text(const PositionSolve& s) {
  const SolveResult& r = s.result;
  std::ostringstream os;
  os << render(s.input.position);
  if (s.input.ffo)
    os << (s.input.ffo->number > 0 ? "FFO #" + std::to_string(s.input.ffo->number) + " (" : "(")
       << "published score " << signed_text(s.input.ffo->published_score) << ": "
       << (*agrees_with_published(s) ? "agrees" : "DISAGREES") << ")\n";
  os << "empties     " << r.empties << "\n"
     << "score       " << score_text(r) << "\n"
     << "best move   "
     << (r.outside < 0 ? "- (no move reaches the window)" : square_name(r.best_move)) << "\n"
     << "PV          " << pv_text(r.pv) << "\n"
     << "nodes       " << r.nodes << "\n"
     << "time        " << std::fixed << std::setprecision(3) << r.seconds << " s (CPU "
     << r.cpu_seconds << " s)\n"
     << "nodes/s     " << std::setprecision(0) << nodes_per_second(r) << "\n"
     << "threads     " << s.threads << "\n";
  if (s.show_stats) os << report_text(r.stats);
  if (s.each_move) {
    os << "move scores";
    for (auto& [m, score] : s.move_scores) os << " " << square_name(m) << ":" << signed_text(score);
    os << "\n";
  }
  return os.str();
}

json report_json(const ProblemSetSolve& r) {
  json lines = json::array();
  for (auto& [line, solve] : r.lines) {
    json j = report_json(solve);
    j["line"] = line;
    lines.push_back(std::move(j));
  }
  return {{"file", r.file},
          {"positions", lines},
          {"total",
           {{"positions", r.lines.size()},
            {"nodes", r.nodes},
            {"seconds", r.seconds},
            {"nodes_per_second", per_second(r.nodes, r.seconds)},
            {"disagreements", r.disagreements}}}};
}

std::string report_text(const ProblemSetSolve& r) {
  std::ostringstream os;
  os << " line | empties | score | move |          nodes |   time (s) |      nodes/s | published"
        " | agrees\n"
     << "------+---------+-------+------+----------------+------------+--------------+----------"
        "-+-------\n";
  for (auto& [line, solve] : r.lines) os << problem_row(line, solve);
  os << "total: " << r.lines.size() << " positions, " << r.nodes << " nodes, " << std::fixed
     << std::setprecision(3) << r.seconds << " s, " << std::setprecision(0)
     << per_second(r.nodes, r.seconds) << " nodes/s; "
     << (r.disagreements ? std::to_string(r.disagreements) + " DISAGREE" : "none disagrees")
     << " with the file\n";
  return os.str();
}

json report_json(const PerftTable& r) {
  return {{"size", r.size}, {"ended_games", r.ended}, {"leaves", r.leaves}, {"seconds", r.seconds}};
}

std::string report_text(const PerftTable& r) {
  std::ostringstream os;
  os << "perft " << r.size << "x" << r.size << " (ended games " << r.ended << ")\n";
  for (std::size_t d = 1; d <= r.leaves.size(); ++d)
    os << std::setw(3) << d << "  " << r.leaves[d - 1] << "\n";
  os << "time " << std::fixed << std::setprecision(3) << r.seconds << " s\n";
  return os.str();
}

json report_json(const Enumeration& r) {
  return {{"size", r.size},
          {"discs", r.discs},
          {"empties", r.size * r.size - r.discs},
          {"unique_positions_by_discs_from_4", r.counts},
          {"layer_positions_to_solve", r.layer_positions},
          {"seconds", r.seconds}};
}

std::string report_text(const Enumeration& r) {
  std::ostringstream os;
  os << "symmetry-unique positions, " << r.size << "x" << r.size << " (finished games included)\n";
  for (std::size_t i = 0; i < r.counts.size(); ++i)
    os << std::setw(4) << (i + 4) << " discs  " << r.counts[i] << "\n";
  os << "layer at " << r.discs << " discs (" << r.size * r.size - r.discs
     << " empties), side to move has a move, passes taken, finished games dropped: "
     << r.layer_positions << "\n"
     << "time " << std::fixed << std::setprecision(3) << r.seconds << " s\n";
  return os.str();
}

json report_json(const WeakSolveReport& w) {
  const WeakSolveResult& r = w.result;
  json attempts = json::array();
  for (std::size_t i = 0; i < r.attempts.size(); ++i)
    attempts.push_back({{"goal", goal_text(r.attempts[i].first, r.attempts[i].second)},
                        {"proved", static_cast<bool>(r.attempt_proved[i])}});
  return {{"size", w.position.size},
          {"board", board_string(w.position)},
          {"side", side_text(w.position)},
          {"value", r.value},
          {"leaf_empties", w.options.leaf_empties},
          {"predict_depth", w.options.predict_depth},
          {"predictor", predictor_name(w.options.predictor)},
          {"proof_internal_nodes", r.internal_nodes},
          {"proof_leaves", r.leaves},
          {"positions_solved_exactly", r.leaf_solves},
          {"leaf_solver_nodes", r.leaf_nodes},
          {"search", w.options.search == ProofSearch::kSolver ? "solver" : "rounds"},
          {"interior_solves", r.interior_solves},
          {"interior_solver_nodes", r.interior_nodes},
          {"resumed_solves", r.resumed_solves},
          {"journal", r.journal_path},
          {"rounds", r.rounds},
          {"failed_predictions", r.failed_predictions},
          {"attempts", attempts},
          {"proof_file", w.options.proof_path},
          {"threads", w.options.threads},
          {"seconds", r.seconds},
          {"cpu_seconds", r.cpu_seconds}};
}

std::string report_text(const WeakSolveReport& w) {
  const WeakSolveResult& r = w.result;
  const std::string& proof = w.options.proof_path;
  std::ostringstream os;
  os << render(w.position);
  os << "value                     " << signed_text(r.value) << " for "
     << (w.position.white_to_move ? "White" : "Black") << " (proved: value >= " << r.value
     << " and value <= " << r.value << ")\n"
     << "attempts                 ";
  for (std::size_t i = 0; i < r.attempts.size(); ++i)
    os << " " << goal_text(r.attempts[i].first, r.attempts[i].second)
       << (r.attempt_proved[i] ? " proved;" : " refuted;");
  os << "\n"
     << "leaf layer                <= " << w.options.leaf_empties << " empties (solved exactly)\n"
     << "predictions               "
     << (w.options.search == ProofSearch::kSolver
             ? std::string("none (the endgame solver's own ordering picks the moves)")
             : std::string(predictor_name(w.options.predictor)) + " evaluation, " +
                   std::to_string(w.options.predict_depth) + " plies")
     << "\n"
     << "proof internal nodes      " << r.internal_nodes << "\n"
     << "proof leaves              " << r.leaves << "\n"
     << "positions solved exactly  " << r.leaf_solves << " (" << r.leaf_nodes << " solver nodes)\n"
     << "resumed from the journal  " << r.resumed_solves << " of those solves"
     << (r.journal_path.empty() ? std::string(" (no journal)") : " (" + r.journal_path + ")")
     << "\n"
     << "select/solve rounds       " << r.rounds << "\n"
     << "failed predictions        " << r.failed_predictions << "\n";
  if (w.options.search == ProofSearch::kSolver)
    os << "search                    solver-led: " << r.interior_solves
       << " OR nodes solved at their bound (" << r.interior_nodes << " solver nodes)\n";
  os << "proof file                " << (proof.empty() ? "(not written: give --proof FILE)" : proof)
     << "\n"
     << "time                      " << std::fixed << std::setprecision(1) << r.seconds
     << " s (CPU " << r.cpu_seconds << " s)\n";
  return os.str();
}

json report_json(const ProofCheckReport& r) {
  const ProofCheck& c = r.check;
  json roots = json::array();
  for (const ProofRoot& root : c.roots) {
    Position pos;
    pos.size = c.size;
    pos.black = root.p;
    pos.white = root.o;
    roots.push_back({{"board", board_string(pos)},
                     {"goal", goal_text(root.goal, root.bound)},
                     {"is_start", root.is_start}});
  }
  return {{"ok", c.ok},
          {"error", c.error},
          {"size", c.size},
          {"nodes", c.nodes},
          {"expanded", c.expanded},
          {"leaves", c.leaves},
          {"edges", c.edges},
          {"unreachable", c.unreachable},
          {"leaf_solver_nodes", c.leaf_solver_nodes},
          {"roots", roots},
          {"seconds", c.seconds}};
}

std::string report_text(const ProofCheckReport& r) {
  const ProofCheck& c = r.check;
  if (!c.ok) return "";
  std::ostringstream os;
  os << "proof OK: " << r.path << " (" << c.size << "x" << c.size << ")\n";
  for (const ProofRoot& root : c.roots)
    os << "  proves " << goal_text(root.goal, root.bound) << " for the side to move at "
       << (root.is_start ? "the start position" : "the root (canonical, mover as X)") << "\n";
  os << "nodes " << c.nodes << " (expanded " << c.expanded << ", leaves " << c.leaves << "), edges "
     << c.edges << ", unreachable " << c.unreachable << "\n"
     << "leaves re-solved with " << c.leaf_solver_nodes << " solver nodes\n"
     << "time " << std::fixed << std::setprecision(1) << c.seconds << " s\n";
  return os.str();
}

json report_json(const EvalFitReport& r) {
  const EvalFit& f = r.fit;
  json w = json::object();
  for (int i = 0; i < kEvalFeatures; ++i)
    w[eval_feature_name(i)] = f.weights[static_cast<std::size_t>(i)];
  return {{"size", r.size},
          {"samples", f.samples},
          {"min_empties", r.min_empties},
          {"max_empties", r.max_empties},
          {"weights", w},
          {"rms_error", f.rms_error},
          {"default_rms_error", f.default_rms_error},
          {"sign_agreement", f.sign_agreement},
          {"seconds", f.seconds}};
}

std::string report_text(const EvalFitReport& r) {
  const EvalFit& f = r.fit;
  std::ostringstream os;
  os << "least-squares fit, " << r.size << "x" << r.size << ", " << f.samples
     << " random-play positions with " << r.min_empties << ".." << r.max_empties
     << " empties, exact scores\n";
  for (int i = 0; i < kEvalFeatures; ++i)
    os << "  " << std::setw(20) << std::left << eval_feature_name(i) << std::right << std::fixed
       << std::setprecision(3) << f.weights[static_cast<std::size_t>(i)] << "\n";
  os << "rms error " << std::setprecision(2) << f.rms_error
     << " discs (compiled-in weights: " << f.default_rms_error << "), sign agreement "
     << std::setprecision(3) << f.sign_agreement << "\n"
     << "time " << std::setprecision(1) << f.seconds << " s\n";
  return os.str();
}

std::string hex_text(std::uint64_t v) {
  std::ostringstream os;
  os << std::hex << std::setw(16) << std::setfill('0') << v;
  return os.str();
}

json report_json(const TrainReport& r) {
  const patterns::TrainOptions& o = r.options;
  return {{"seed", o.seed},
          {"positions", r.result.positions},
          {"min_empties", o.min_empties},
          {"max_empties", o.max_empties},
          {"keep_one_in", o.keep_one_in},
          {"chunk_positions", o.chunk_positions},
          {"ridge", o.ridge},
          {"prior", o.prior_file},
          {"phases", o.phases},
          {"phase_width", o.phase_width},
          {"pattern_set", patterns::kPatternSetId},
          {"fit_mae_by_phase", r.result.fit_mae},
          {"out", r.out},
          {"bytes", r.file_bytes},
          {"checksum", hex_text(r.checksum)},
          {"label_seconds", r.result.label_seconds},
          {"fit_seconds", r.result.fit_seconds}};
}

std::string report_text(const TrainReport& r) {
  const patterns::TrainOptions& o = r.options;
  std::ostringstream os;
  os << "pattern evaluation trained: seed " << o.seed << ", " << r.result.positions
     << " self-play positions with " << o.min_empties << ".." << o.max_empties
     << " empties (one in " << o.keep_one_in << " of a game's), exact scores; ridge " << o.ridge
     << "\n"
     << "pattern set " << patterns::kPatternSetId << ", " << o.phases << " phases of "
     << o.phase_width << " empties; mean absolute error on the training positions by phase:";
  os << std::fixed << std::setprecision(2);
  for (double e : r.result.fit_mae) os << " " << e;
  os << " discs\n"
     << "wrote " << r.out << " (" << r.file_bytes << " bytes, XXH3 " << hex_text(r.checksum)
     << ")\n"
     << "time: labels " << std::setprecision(1) << r.result.label_seconds << " s, fit "
     << r.result.fit_seconds << " s\n";
  return os.str();
}

json report_json(const EvalErrorReport& r) {
  const auto row = [](const patterns::AccuracyRow& x) {
    return json{{"empties", x.empties},
                {"positions", x.positions},
                {"pattern_mae", x.pattern_mae},
                {"linear_mae", x.linear_mae}};
  };
  json rows = json::array();
  for (const auto& x : r.accuracy.rows) rows.push_back(row(x));
  return {{"weights", r.weights},       {"seed", r.seed},
          {"positions", r.positions},   {"by_empties", rows},
          {"all", row(r.accuracy.all)}, {"seconds", r.accuracy.seconds}};
}

std::string report_text(const EvalErrorReport& r) {
  std::ostringstream os;
  os << "mean absolute error (discs) against exact scores, " << r.positions
     << " self-play positions of seed " << r.seed << "; pattern weights: " << r.weights << "\n"
     << " empties | positions | pattern | linear (eval.hpp)\n"
     << "---------+-----------+---------+------------------\n"
     << std::fixed << std::setprecision(2);
  const auto line = [&](const std::string& e, const patterns::AccuracyRow& x) {
    os << std::setw(8) << e << " | " << std::setw(9) << x.positions << " | " << std::setw(7)
       << x.pattern_mae << " | " << std::setw(7) << x.linear_mae << "\n";
  };
  for (const auto& x : r.accuracy.rows) line(std::to_string(x.empties), x);
  line("all", r.accuracy.all);
  os << "time " << std::setprecision(1) << r.accuracy.seconds << " s\n";
  return os.str();
}

json report_json(const LayerPrediction& r) {
  const PredictOptions& o = r.options;
  json j{{"size", o.size},
         {"empties", o.empties},
         {"depth", o.depth},
         {"positions", r.positions},
         {"predicted_wins", r.wins},
         {"predicted_draws", r.draws},
         {"predicted_losses", r.losses},
         {"mean_predicted", r.mean},
         {"out", o.out},
         {"enumerate_seconds", r.enumerate_seconds},
         {"predict_seconds", r.predict_seconds}};
  if (r.sample > 0) {
    j["exact_sample"] = r.sample;
    j["sign_agreement"] = r.sign_agreement;
    j["rms_error"] = r.rms_error;
    j["exact_seconds"] = r.exact_seconds;
  }
  return j;
}

std::string report_text(const LayerPrediction& r) {
  const PredictOptions& o = r.options;
  std::ostringstream os;
  os << "layer " << o.empties << " empties, " << o.size << "x" << o.size << ": " << r.positions
     << " positions (canonical, passes taken, finished games dropped)\n"
     << "predicted by a " << o.depth << "-ply search on the fitted evaluation (side to move):\n"
     << "  win (>= +1 disc) " << r.wins << ", draw (|v| < 1) " << r.draws << ", loss " << r.losses
     << ", mean " << std::fixed << std::setprecision(2) << r.mean << " discs\n";
  if (r.sample > 0)
    os << "exact sample of " << r.sample << ": sign agreement " << std::setprecision(3)
       << r.sign_agreement << ", rms error " << std::setprecision(2) << r.rms_error << " discs ("
       << std::setprecision(1) << r.exact_seconds << " s)\n";
  if (!o.out.empty()) os << "written to " << o.out << "\n";
  os << "time: enumerate " << std::setprecision(1) << r.enumerate_seconds << " s, predict "
     << r.predict_seconds << " s\n";
  return os.str();
}

json report_json(const SearchStats& s) {
  json rows = json::array();
  for (int n = SearchStats::kMaxEmpties; n >= 0; --n) {
    const EmptiesCounts& c = s.at(n);
    if (!c.any()) continue;
    rows.push_back({{"empties", n},
                    {"nodes", c.nodes},
                    {"searched", c.searched},
                    {"refuted", c.refuted},
                    {"refuted_first", c.refuted_first},
                    {"table_cuts", c.table_cuts},
                    {"etc_cuts", c.etc_cuts},
                    {"stability_tries", c.stability_tries},
                    {"stability_cuts", c.stability_cuts},
                    {"ordering_nodes", c.ordering_nodes}});
  }
  return rows;
}

std::string report_text(const SearchStats& s) {
  std::ostringstream os;
  os << "| empties | nodes | % of nodes | searched | refuted | by the first move % | table cuts |"
        " ETC cuts | stability tries | cuts % | ordering nodes |\n"
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
  const std::uint64_t total = s.nodes();
  for (int n = SearchStats::kMaxEmpties; n >= 0; --n) {
    const EmptiesCounts& c = s.at(n);
    if (!c.any()) continue;
    os << "| " << n << " | " << c.nodes << " | " << percent(c.nodes, total) << " | " << c.searched
       << " | " << c.refuted << " | " << percent(c.refuted_first, c.refuted) << " | "
       << c.table_cuts << " | " << c.etc_cuts << " | " << c.stability_tries << " | "
       << percent(c.stability_cuts, c.stability_tries) << " | " << c.ordering_nodes << " |\n";
  }
  return os.str();
}

json report_json(const RandomPlayReport& r) {
  json games = json::array();
  for (const PlayedGame& g : r.games) games.push_back({{"moves", g.moves}, {"score", g.score}});
  json j{{"size", r.size},
         {"player", r.player_white ? "white" : "black"},
         {"games", games},
         {"worst_score", r.worst_score},
         {"below_guarantee", r.below_guarantee},
         {"moves_from_proof", r.moves_from_proof},
         {"moves_from_solver", r.moves_from_solver}};
  if (r.guarantee) j["guarantee"] = *r.guarantee;
  return j;
}

std::string report_text(const RandomPlayReport& r) {
  std::ostringstream os;
  for (std::size_t g = 0; g < r.games.size(); ++g)
    os << "game " << std::setw(3) << g + 1 << "  " << signed_text(r.games[g].score) << "  "
       << r.games[g].moves << "\n";
  os << "player " << (r.player_white ? "White" : "Black") << ", worst score " << r.worst_score;
  if (r.guarantee) os << " (the proof guarantees >= " << *r.guarantee << ")";
  os << "; moves from the proof " << r.moves_from_proof << ", from the endgame solver "
     << r.moves_from_solver << "\n";
  return os.str();
}

std::string progress_line(const WeakSolveProgress& p) {
  std::ostringstream os;
  os << "  [" << std::fixed << std::setprecision(1) << p.seconds << " s] proving "
     << goal_text(p.goal, p.bound);
  if (p.round == 0)  // the solver-led walk has no rounds
    os << ": positions solved " << p.leaves_solved;
  else
    os << ", round " << p.round << ": batch " << p.batch << ", leaves solved " << p.leaves_solved;
  if (p.resumed) os << " (" << p.resumed << " from the journal)";
  if (p.solving_empties)
    os << "; a solve of " << p.solving_empties << " empties running for " << std::setprecision(0)
       << p.solving_seconds << " s";
  os << "\n";
  return os.str();
}

}  // namespace zermelo::othello
