// Whole Breakthrough solves with DFA sets (meet in the middle), one benchmark per board, reporting
// the winner against the published one and the set statistics as counters. Heavy boards are
// selected with --benchmark_filter (e.g. 'BM_Breakthrough/5x5'); results go to
// bench/results/dfa.md.
#include <benchmark/benchmark.h>

#include "zermelo/games/breakthrough/breakthrough_sets.hpp"

namespace {

using namespace zermelo;

struct Case {
  const char* board;
  unsigned backward_steps;  // J: retrograde steps before the forward search
  int published;            // 1 = P1 wins, 2 = P2 wins, 0 = not given in the spec
};

// Spec: 2x4 P2, 2x5 P2, 2x6 P1, 3x4 P2, 3x5 P2, 3x6 P1, 4x4 P2, 4x5 P2, 5x4 P2, 5x5 P2, 6x4 P2;
// the paper's additional sizes (5x6, 4x7, 2x8, 3x8, 7x4, 8x4) without a winner in the spec.
const Case kCases[] = {{"2x4", 0, 2}, {"2x5", 0, 2}, {"2x6", 0, 1}, {"3x4", 0, 2}, {"3x5", 0, 2},
                       {"3x6", 0, 1}, {"4x4", 0, 2}, {"4x5", 2, 2}, {"5x4", 2, 2}, {"6x4", 4, 2},
                       {"5x5", 6, 2}, {"2x8", 4, 0}, {"3x8", 4, 0}, {"7x4", 4, 0}, {"8x4", 4, 0},
                       {"4x7", 6, 0}, {"5x6", 6, 0}};

void BM_Breakthrough(benchmark::State& state, Case c) {
  std::uint64_t budget = 4ull << 30;
  bool first_wins = false;
  dfa::SetStats largest_pos, largest_states;
  double exponent = 0;
  std::uint64_t distinct = 0;
  for (auto _ : state) {
    auto b = breakthrough::parse_board(c.board);
    auto m = breakthrough::make_manager(b, budget);
    auto g = breakthrough::make_game(*m, b);
    auto back = dfa::retrograde(g, c.backward_steps);
    auto r = dfa::solve_by_reach(g, back.won, back.lost, 1000);
    first_wins = r.start_won;
    std::vector<dfa::SetStats> sets;
    // Statistics of the solve proper: W(J)/L(J) range over every string, reachable or not.
    for (auto& s : r.steps) sets.push_back(s.reach), sets.push_back(s.won), sets.push_back(s.lost);
    for (auto& s : sets) {
      if (s.positions > largest_pos.positions) largest_pos = s;
      if (s.states > largest_states.states) largest_states = s;
    }
    exponent = dfa::fit_compression_exponent(sets);
    distinct = r.distinct_positions;
  }
  if (c.published != 0 && (first_wins ? 1 : 2) != c.published)
    state.SkipWithError((std::string(c.board) + ": winner differs from the published one").c_str());
  state.counters["winner"] = first_wins ? 1 : 2;
  state.counters["J"] = c.backward_steps;
  state.counters["distinct_reach"] = static_cast<double>(distinct);
  state.counters["max_set_positions"] = static_cast<double>(largest_pos.positions);
  state.counters["max_set_states"] = static_cast<double>(largest_states.states);
  state.counters["c"] = exponent;
}

const bool registered = [] {
  for (const Case& c : kCases)
    benchmark::RegisterBenchmark((std::string("BM_Breakthrough/") + c.board).c_str(),
                                 BM_Breakthrough, c)
        ->Iterations(1)
        ->Unit(benchmark::kSecond);
  return true;
}();

}  // namespace

BENCHMARK_MAIN();
