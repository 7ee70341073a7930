// Onitama through the out-of-core engine: the engine solves every legal state tier by tier from
// the streamed enumeration and the unfiltered un-moves; on every state reachable from the start
// its value must equal the module's own in-RAM strong solve (an independent implementation that
// only ever sees reachable states).
#include <gtest/gtest.h>

#include <algorithm>

#include "tests/test_util.hpp"
#include "zermelo/engine/retrograde.hpp"
#include "zermelo/games/onitama/solve.hpp"

namespace zermelo {
namespace {

void expect_engine_equals_module_on_reachable_states(const std::vector<std::string>& options, const std::string& dir) {
  auto game = make_game("onitama", options);
  auto rules = onitama::Rules::from_options(options);
  onitama::StrongResult reference = onitama::solve_strong(rules, false);
  SolveOptions o;
  o.job_dir = dir;
  o.memory_bytes = 256ull << 20;
  std::vector<KeyValue> solved;
  for (auto& r : solve_tiers(*game, o, "all")) {
    auto values = load_values(r.values_path);
    solved.insert(solved.end(), values.begin(), values.end());
  }
  std::sort(solved.begin(), solved.end(), [](const KeyValue& a, const KeyValue& b) { return a.key < b.key; });
  std::uint64_t reachable = 0, mismatches = 0;
  std::string first_mismatch;
  for (const KeyValue& kv : solved) {
    const Value mine = reference.value_of(rules, kv.key);
    if (!mine.is_known()) continue;  // not reachable from the start: the module never saw it
    ++reachable;
    if (Value::from_raw(kv.value) == mine) continue;
    if (mismatches++ == 0)
      first_mismatch = "state " + std::to_string(kv.key) + " engine " + Value::from_raw(kv.value).to_string() + " module " +
                       mine.to_string() + "\n" + game->render(kv.key);
  }
  EXPECT_EQ(mismatches, 0u) << options[0] << " " << options[1] << ": " << first_mismatch;
  EXPECT_EQ(reachable, reference.graph.states) << "every reachable state is among the engine's";
  EXPECT_GT(solved.size(), reachable);
}

TEST(OnitamaOutOfCore, Boar3x3EqualsTheInRamSolveOnReachableStates) {
  testing::ScratchDir dir;
  expect_engine_equals_module_on_reachable_states({"3x3", "boar"}, dir.str());
}

TEST(OnitamaOutOfCore, Boar3x4EqualsTheInRamSolveOnReachableStates) {
  testing::ScratchDir dir;
  expect_engine_equals_module_on_reachable_states({"3x4", "boar"}, dir.str());
}

TEST(OnitamaOutOfCore, Boar4x3EqualsTheInRamSolveOnReachableStates) {
  testing::ScratchDir dir;
  expect_engine_equals_module_on_reachable_states({"4x3", "boar"}, dir.str());
}

TEST(OnitamaOutOfCore, RealCards2x4EqualsTheInRamSolveOnReachableStates) {
  testing::ScratchDir dir;
  expect_engine_equals_module_on_reachable_states({"2x4", "rabbit,monkey,elephant,crane,cobra"}, dir.str());
}

}  // namespace
}  // namespace zermelo
