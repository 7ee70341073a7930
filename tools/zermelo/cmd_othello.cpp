// `zermelo othello ...`: the Othello engine from the command line.
//   othello solve BOARD SIDE | --ffo N --ffo-file F   exact score, best move, PV, nodes, nodes/s
//   othello perft DEPTH [--size 8|6|4] [--ended vanish|stay]
//   othello enumerate --discs D | --empties K [--size 8|6|4]   symmetry-unique positions by layer
// Othello stays outside the generic Game interface: its positions are two 64-bit bitboards.
#include <chrono>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "tools/zermelo/command.hpp"
#include "zermelo/games/othello/notation.hpp"
#include "zermelo/games/othello/perft.hpp"
#include "zermelo/games/othello/solver.hpp"

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
}

}  // namespace

ZERMELO_REGISTER_COMMAND(40, setup_othello)
