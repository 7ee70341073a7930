// Ostle kernels: the enumeration producer (positions and states counted per second), successors
// and predecessors per state (both readings' un-moves in a level's key order, the reference
// reading's states of a position), and the reference cross-check at bench scale (millions of
// states; a mismatch stops the benchmark with an error). The reference rules live with the tests
// and are compiled in here directly.
#include <benchmark/benchmark.h>

#include <random>

#include "tests/ostle/crosscheck.hpp"
// The reference is test code, built into this bench only.
#include "tests/ostle/reference.cpp"  // NOLINT
#include "zermelo/games/ostle/count.hpp"
#include "zermelo/games/ostle/game.hpp"
#include "zermelo/games/ostle/published.hpp"

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

// Arg: the reading (0 the exact, 1 the published solver's).
static void BM_Successors(benchmark::State& state) {
  auto game =
      make_ostle_game(GameOptions{state.range(0) ? Reading::kPublished : Reading::kExact, false});
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
BENCHMARK(BM_Successors)->Arg(0)->Arg(1);

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

// The un-moves of a solver's level: its frontier's states in key order. Arg 0 the reading (0
// exact, 1 reference), arg 1 the stride (1: every state of 37,000 consecutive positions of 4v4/c3,
// as a dense frontier; 16: every 16th, as a sparse one, whose states rarely share a position).
static void BM_PredecessorsInKeyOrder(benchmark::State& state) {
  const Reading reading = state.range(0) == 0 ? Reading::kExact : Reading::kPublished;
  auto game = make_ostle_game(GameOptions{reading, false});
  const int cls = class_id(0, 5);
  const std::uint64_t lo = PositionIndex::get().size(cls) / 2;
  std::vector<StateKey> keys;
  std::uint64_t n = 0;
  enumerate_states(
      cls, lo, lo + 37'000,
      [&](StateKey k) {
        if (n++ % static_cast<std::uint64_t>(state.range(1)) == 0) keys.push_back(k);
      },
      reading);
  std::vector<StateKey> out;
  std::size_t edges = 0;
  for (auto _ : state)
    for (StateKey k : keys) {
      game->predecessors(k, out);
      edges += out.size();
    }
  const auto items = static_cast<std::int64_t>(keys.size()) * state.iterations();
  state.SetItemsProcessed(items);
  state.counters["edges/state"] = static_cast<double>(edges) / static_cast<double>(items);
  state.counters["us/state"] = benchmark::Counter(
      static_cast<double>(items) * 1e-6, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.SetLabel(reading == Reading::kExact ? "exact" : "reference");
}
BENCHMARK(BM_PredecessorsInKeyOrder)
    ->Args({0, 1})
    ->Args({1, 1})
    ->Args({0, 16})
    ->Args({1, 16})
    ->Unit(benchmark::kMillisecond);

// The reference reading's states of one canonical position (what its enumeration and its
// un-moves' parents need), at random positions.
static void BM_PublishedCodes(benchmark::State& state) {
  std::mt19937_64 rng(3);
  std::vector<Position> positions;
  for (int i = 0; i < 4096; ++i)
    positions.push_back(canonical_position(ostle_check::random_position(rng)).pos);
  std::size_t i = 0, codes = 0;
  for (auto _ : state)
    codes += static_cast<std::size_t>(published_codes(positions[i++ & 4095]).size);
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
  state.counters["codes/position"] =
      static_cast<double>(codes) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_PublishedCodes);

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
