// Bench: the exact solver on FFO #40-#49 (and the paper's drawn line from 24 empties), printing a
// markdown table of score, best move, nodes, time and nodes/s, checked against the published
// scores and best moves. Exits non-zero on any mismatch.
//   othello_ffo [--obf FILE] [--threads T] [--only N,N,...] [--tt-bits B] [--line]
//               [--ordering patterns|heuristic] [--weights FILE] [--stats]
// --stats: after the table, the positions' search counts by empties, summed (reports.hpp).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "zermelo/games/othello/notation.hpp"
#include "zermelo/games/othello/pattern_file.hpp"
#include "zermelo/games/othello/reports.hpp"
#include "zermelo/games/othello/solver.hpp"

using namespace zermelo::othello;

int main(int argc, char** argv) {
  std::string obf;
#ifdef ZERMELO_SPEC_DIR
  obf = std::string(ZERMELO_SPEC_DIR) + "/ffo40-49.obf";
#endif
  if (const char* dir = std::getenv("ZERMELO_SPEC_DIR")) obf = std::string(dir) + "/ffo40-49.obf";
  SolveOptions opt;
  patterns::PatternWeights weights;  // --weights: instead of the compiled-in ones
  std::vector<int> only;
  bool line = false, stats = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "othello_ffo: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--obf")
      obf = next();
    else if (a == "--threads")
      opt.threads = static_cast<unsigned>(std::stoul(next()));
    else if (a == "--tt-bits")
      opt.tt_bits = std::stoi(next());
    else if (a == "--ordering") {
      const std::string o = next();
      if (o != "patterns" && o != "heuristic") {
        std::fprintf(stderr, "othello_ffo: --ordering is patterns or heuristic, not %s\n",
                     o.c_str());
        return 2;
      }
      opt.ordering = o == "patterns" ? Ordering::kPatterns : Ordering::kHeuristic;
    } else if (a == "--weights") {
      weights = patterns::read_weights_file(next());
      opt.weights = &weights;
    } else if (a == "--line")
      line = true;
    else if (a == "--stats")
      stats = true;
    else if (a == "--only") {
      const std::string list = next();
      for (std::size_t p = 0; p < list.size();) {
        const std::size_t c = list.find(',', p);
        only.push_back(std::stoi(list.substr(p, c - p)));
        p = c == std::string::npos ? list.size() : c + 1;
      }
    } else {
      std::fprintf(stderr, "othello_ffo: unknown option %s\n", a.c_str());
      return 2;
    }
  }
  int bad = 0;
  if (line) {
    // Takizawa's drawn line: every position from move 36 (24 empties) on must solve to 0.
    const std::string moves =
        "F5D6C3D3C4F4F6F3E6E7D7C5B6D8C6C7D2B5A5A6A7G5E3B4C8G6G4C2E8D1F7E2G3H4F1E1F2G1B1F8G8B3H3B2H5"
        "B7A3A4A1A2C1H2H1"
        "G2B8A8G7H8H7H6";
    Bits p = Geometry<8>::kStartBlack, o = Geometry<8>::kStartWhite;
    std::printf(
        "| after move | empties | score | best | nodes | time (s) | nodes/s "
        "|\n|---|---|---|---|---|---|---|\n");
    for (std::size_t i = 0; i + 2 <= moves.size(); i += 2) {
      const int empties = 64 - popcount(p | o);
      if (empties <= 24 && empties >= 19) {
        const SolveResult r = solve<8>(p, o, opt);
        std::printf("| %zu | %d | %+d | %s | %llu | %.2f | %.0f |\n", i / 2, empties, r.score,
                    square_name(r.best_move).c_str(), static_cast<unsigned long long>(r.nodes),
                    r.seconds, static_cast<double>(r.nodes) / r.seconds);
        std::fflush(stdout);
        if (r.score != 0) ++bad;
      }
      const int sq = parse_square(moves.substr(i, 2));
      const Bits f = flips<8>(p, o, sq);
      const Bits np = o & ~f, no = p | f | bit(sq);
      p = np;
      o = no;
    }
    return bad ? 1 : 0;
  }
  const auto entries = read_obf_file(obf);
  std::printf(
      "| FFO | empties | score (published) | best move (published) | nodes "
      "| ordering nodes | wall (s) | CPU (s) | nodes/s (wall) | ok |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
  std::uint64_t total_nodes = 0, total_ordering = 0;
  double total_time = 0, total_cpu = 0;
  SearchStats total_stats;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const int number = 40 + static_cast<int>(i);
    if (!only.empty() && std::find(only.begin(), only.end(), number) == only.end()) continue;
    const ObfEntry& e = entries[i];
    const SolveResult r = solve<8>(e.position.mover(), e.position.opponent(), opt);
    const auto best = e.best_moves();
    std::string published;
    for (int m : best) published += (published.empty() ? "" : " ") + square_name(m);
    const bool ok =
        r.score == e.best_score() && std::find(best.begin(), best.end(), r.best_move) != best.end();
    bad += !ok;
    total_nodes += r.nodes;
    total_ordering += r.ordering_nodes;
    total_stats += r.stats;
    total_time += r.seconds;
    total_cpu += r.cpu_seconds;
    std::printf("| #%d | %d | %+d (%+d) | %s (%s) | %llu | %llu | %.2f | %.2f | %.0f | %s |\n",
                number, r.empties, r.score, e.best_score(), square_name(r.best_move).c_str(),
                published.c_str(), static_cast<unsigned long long>(r.nodes),
                static_cast<unsigned long long>(r.ordering_nodes), r.seconds, r.cpu_seconds,
                static_cast<double>(r.nodes) / r.seconds, ok ? "yes" : "NO");
    std::fflush(stdout);
  }
  std::printf("| total | | | | %llu | %llu | %.2f | %.2f | %.0f | %s |\n",
              static_cast<unsigned long long>(total_nodes),
              static_cast<unsigned long long>(total_ordering), total_time, total_cpu,
              static_cast<double>(total_nodes) / total_time, bad ? "NO" : "yes");
  if (stats) std::printf("\n%s", report_text(total_stats).c_str());
  return bad ? 1 : 0;
}
