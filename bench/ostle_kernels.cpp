// Ostle kernels: the enumeration producer (positions and states counted per second), successors
// and predecessors per state, and the reference cross-check at bench scale (millions of states;
// a mismatch stops the benchmark with an error). The reference rules live with the tests and are
// compiled in here directly.
#include <benchmark/benchmark.h>

#include <random>

#include "tests/ostle/crosscheck.hpp"
// The reference is test code, built into this bench only.
#include "tests/ostle/reference.cpp"  // NOLINT
#include "zermelo/games/ostle/count.hpp"
#include "zermelo/games/ostle/game.hpp"

using namespace zermelo;
using namespace zermelo::ostle;

static void BM_CountRange(benchmark::State& state) {
  const int cls = static_cast<int>(state.range(0));
  const std::uint64_t n = std::min<std::uint64_t>(PositionIndex::get().size(cls), 20'000'000);
  for (auto _ : state) benchmark::DoNotOptimize(count_range(cls, 0, n));
  state.SetItemsProcessed(static_cast<std::int64_t>(n * state.iterations()));
  state.SetLabel(class_name(cls));
}
BENCHMARK(BM_CountRange)
    ->Arg(class_id(0, 1))
    ->Arg(class_id(2, 1))
    ->Arg(class_id(3, 1))
    ->Unit(benchmark::kMillisecond);

static std::vector<StateKey> random_states(int n) {
  std::mt19937_64 rng(1);
  std::vector<StateKey> keys;
  for (int i = 0; i < n; ++i) {
    const Position p = ostle_check::random_position_with_states(rng);
    const ForbidList codes = reachable_forbid_codes(p);
    keys.push_back(state_key(p, codes.codes[rng() % static_cast<std::uint64_t>(codes.size)]).key);
  }
  return keys;
}

static void BM_Successors(benchmark::State& state) {
  auto game = make_ostle_game();
  const auto keys = random_states(4096);
  std::vector<Child> out;
  std::size_t i = 0, edges = 0;
  for (auto _ : state) {
    game->successors(keys[i++ & 4095], out);
    edges += out.size();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
  state.counters["edges/state"] =
      static_cast<double>(edges) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_Successors);

// The breadth-first search's expansion of a state whose position was expanded before: keys for
// none of its moves (arg 0: the position took them all) or for one (arg 1), against all
// (BM_Successors). Random states, so every call decodes its position, as a later ply's state does.
static void BM_SuccessorsKeyedExcept(benchmark::State& state) {
  auto game = make_ostle_game();
  const auto keys = random_states(4096);
  const std::uint64_t skip = state.range(0) == 0 ? ~std::uint64_t{0} : ~std::uint64_t{1};
  std::vector<Child> out;
  std::size_t i = 0, keyed = 0;
  for (auto _ : state) {
    game->successors_skipping(keys[i++ & 4095], skip, out);
    for (const Child& c : out) keyed += !c.is_skipped() && !c.is_terminal();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
  state.counters["keyed/state"] =
      static_cast<double>(keyed) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_SuccessorsKeyedExcept)->Arg(0)->Arg(1);

static void BM_Predecessors(benchmark::State& state) {
  auto game = make_ostle_game();
  const auto keys = random_states(4096);
  std::vector<StateKey> out;
  std::size_t i = 0, edges = 0;
  for (auto _ : state) {
    game->predecessors(keys[i++ & 4095], out);
    edges += out.size();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
  state.counters["edges/state"] =
      static_cast<double>(edges) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_Predecessors);

static void BM_ReferenceCrossCheck(benchmark::State& state) {
  std::uint64_t states = 0, moves = 0, seed = 1;
  for (auto _ : state) {
    const ostle_check::Stats st =
        ostle_check::random_walks(seed++, static_cast<int>(state.range(0)), 40);
    states += st.states, moves += st.moves;
    if (st.mismatches) {
      state.SkipWithError(("reference mismatch: " + st.first_error).c_str());
      break;
    }
  }
  state.counters["states"] = static_cast<double>(states);
  state.counters["moves"] = static_cast<double>(moves);
}
BENCHMARK(BM_ReferenceCrossCheck)->Arg(100000)->Iterations(1)->Unit(benchmark::kSecond);

BENCHMARK_MAIN();
