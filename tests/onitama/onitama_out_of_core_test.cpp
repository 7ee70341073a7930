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

void expect_engine_equals_module_on_reachable_states(const std::vector<std::string>& options,
                                                     const std::string& dir) {
  auto game = make_game("onitama", options);
  const bool symmetry = options.size() == 3;
  auto rules = onitama::Rules::from_options({options[0], options[1]});
  onitama::StrongResult reference = onitama::solve_strong(rules, false);
  SolveOptions o;
  o.job_dir = dir;
  o.memory_bytes = 256ull << 20;
  std::vector<KeyValue> solved;
  for (auto& r : solve_tiers(*game, o, "all")) {
    auto values = load_values(r.values_path);
    solved.insert(solved.end(), values.begin(), values.end());
  }
  std::sort(solved.begin(), solved.end(),
            [](const KeyValue& a, const KeyValue& b) { return a.key < b.key; });
  auto key_less = [](const KeyValue& a, const KeyValue& b) { return a.key < b.key; };
  // Every state reachable from the start (its folded key with the symmetry) has the module's value.
  std::uint64_t reachable = 0, missing = 0, mismatches = 0;
  std::string first_mismatch;
  reference.set.for_each([&](onitama::Key k) {
    ++reachable;
    const onitama::Key key = symmetry ? rules.canonical(k) : k;
    auto it = std::lower_bound(solved.begin(), solved.end(), KeyValue{key, 0}, key_less);
    if (it == solved.end() || it->key != key) return void(++missing);
    const Value mine = reference.value_of(rules, k), engine = Value::from_raw(it->value);
    if (engine == mine) return;
    if (mismatches++ == 0)
      first_mismatch = "state " + std::to_string(k) + " engine " + engine.to_string() + " module " +
                       mine.to_string() + "\n" + rules.render(rules.decode(k));
  });
  EXPECT_EQ(missing, 0u) << "every reachable state is among the engine's";
  EXPECT_EQ(mismatches, 0u) << options[0] << " " << options[1] << ": " << first_mismatch;
  EXPECT_EQ(reachable, reference.graph.states);
  EXPECT_GT(solved.size(), symmetry ? reachable / 2 : reachable);
}

TEST(OnitamaOutOfCore, Boar3x3EqualsTheInRamSolveOnReachableStates) {
  testing::ScratchDir dir;
  expect_engine_equals_module_on_reachable_states({"3x3", "boar"}, dir.str());
}

TEST(OnitamaOutOfCore, Boar3x4EqualsTheInRamSolveOnReachableStates) {
  testing::ScratchDir dir;
  expect_engine_equals_module_on_reachable_states({"3x4", "boar"}, dir.str());
}

// 4×3 (3.8 M legal states) with the symmetry, to keep the test fast: half the states, and every
// reachable state is still checked through its folded key.
TEST(OnitamaOutOfCore, Boar4x3WithTheSymmetryEqualsTheInRamSolveOnReachableStates) {
  testing::ScratchDir dir;
  const char* board = testing::release_else_sanitized("4x3", "3x3");  // paths, not size
  expect_engine_equals_module_on_reachable_states({board, "boar", "symmetry"}, dir.str());
}

TEST(OnitamaOutOfCore, RealCards2x4EqualsTheInRamSolveOnReachableStates) {
  testing::ScratchDir dir;
  expect_engine_equals_module_on_reachable_states({"2x4", "rabbit,monkey,elephant,crane,cobra"},
                                                  dir.str());
  expect_engine_equals_module_on_reachable_states(
      {"2x4", "rabbit,monkey,elephant,crane,cobra", "symmetry"}, dir.str() + "/sym");
}

}  // namespace
}  // namespace zermelo
