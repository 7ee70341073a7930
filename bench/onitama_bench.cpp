// Onitama kernels: move generation, key coding, and the in-RAM solves the thesis timed
// (3×4 strong, 4×3 weak), so regressions in the hot paths show up as numbers.
#include <benchmark/benchmark.h>

#include "zermelo/games/onitama/solve.hpp"

using namespace zermelo::onitama;

namespace {

// Reachable keys of a board, for realistic inputs to the per-state kernels.
std::vector<Key> sample_keys(const Rules& rules, std::size_t every) {
  KeySet set;
  explore(rules, false, set);
  std::vector<Key> keys;
  std::size_t i = 0;
  set.for_each([&](Key k) {
    if (i++ % every == 0) keys.push_back(k);
  });
  return keys;
}

void BM_ChildKeys(benchmark::State& state) {
  Rules rules(3, 4, parse_deck(state.range(0) ? "tiger,ox,crab,eel,boar" : "boar"));
  auto keys = sample_keys(rules, 7);
  std::vector<Key> out;
  std::size_t i = 0;
  for (auto _ : state) {
    child_keys(rules, keys[i++ % keys.size()], false, out);
    benchmark::DoNotOptimize(out.data());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_ChildKeys)->Arg(0)->Arg(1);

void BM_Parents(benchmark::State& state) {
  Rules rules(3, 4, parse_deck("boar"));
  auto keys = sample_keys(rules, 7);
  std::size_t i = 0, n = 0;
  for (auto _ : state) {
    rules.for_each_parent(rules.decode(keys[i++ % keys.size()]),
                          [&](const Position& p, const Move&) { n += rules.encode(p) & 1; });
  }
  benchmark::DoNotOptimize(n);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_Parents);

void BM_KeyRoundTrip(benchmark::State& state) {
  Rules rules(5, 5, parse_deck("tiger,ox,crab,eel,boar"));
  Key k = rules.start();
  for (auto _ : state) {
    Position p = rules.decode(k);
    k = rules.encode(p);
    benchmark::DoNotOptimize(k);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}
BENCHMARK(BM_KeyRoundTrip);

void BM_Strong3x4(benchmark::State& state) {
  Rules rules(3, 4, parse_deck("boar"));
  for (auto _ : state)
    benchmark::DoNotOptimize(solve_strong(rules, state.range(0) != 0).start_value);
}
BENCHMARK(BM_Strong3x4)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

void BM_Weak4x3(benchmark::State& state) {
  Rules rules(4, 3, parse_deck("boar"));
  for (auto _ : state) benchmark::DoNotOptimize(solve_weak(rules, state.range(0) != 0).start_value);
}
BENCHMARK(BM_Weak4x3)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
