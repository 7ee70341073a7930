// Kernel benchmark of the set image (forward/reverse over all moves) on Breakthrough 5x4 reachable
// sets: the partitioned image (one pass for all moves) against one change per move plus unions.
#include <benchmark/benchmark.h>

#include "zermelo/games/breakthrough/breakthrough_sets.hpp"

namespace {

using namespace zermelo;

struct Fixture {
  std::unique_ptr<dfa::Manager> m;
  dfa::SetGame g;
  std::vector<dfa::Set> reach;
  Fixture() {
    auto b = breakthrough::parse_board("5x4");
    m = breakthrough::make_manager(b, 3ull << 30);
    g = breakthrough::make_game(*m, b);
    dfa::Set open = m->singleton(g.start);
    for (int ply = 0; ply <= 12; ++ply) {
      reach.push_back(open);
      open = dfa::forward(g, open - (g.won0 | g.lost0));
    }
  }
};
Fixture& fixture() {
  static Fixture f;
  return f;
}

void BM_Image(benchmark::State& state) {
  Fixture& f = fixture();
  f.g.partitioned_image = state.range(0) != 0;
  const bool backwards = state.range(1) != 0;
  const dfa::Set& s = f.reach[static_cast<std::size_t>(state.range(2))];
  for (auto _ : state) {
    state.PauseTiming();
    f.m->collect_garbage();
    f.m->clear_operation_cache();  // a cold operation cache each time
    state.ResumeTiming();
    dfa::Set r = backwards ? dfa::reverse(f.g, s) : dfa::forward(f.g, s);
    benchmark::DoNotOptimize(r.root());
  }
  state.counters["input_states"] = static_cast<double>(s.states());
  f.g.partitioned_image = true;
}
BENCHMARK(BM_Image)
    ->ArgNames({"partitioned", "reverse", "ply"})
    ->ArgsProduct({{0, 1}, {0, 1}, {8, 11}})
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
