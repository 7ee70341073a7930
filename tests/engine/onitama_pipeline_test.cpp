// Two independent solvers of one game must agree on every state: the out-of-core engine, tier by
// tier through run files, against the Onitama module's own in-RAM retrograde solver.
#include <gtest/gtest.h>

#include "tests/test_util.hpp"
#include "zermelo/engine/retrograde.hpp"
#include "zermelo/games/onitama/solve.hpp"

namespace zermelo {
namespace {

void expect_engine_equals_module(const std::vector<std::string>& options, const std::string& dir) {
  auto game = make_game("onitama", options);
  auto rules = onitama::Rules::from_options(options);
  onitama::StrongResult reference = onitama::solve_strong(rules, false);
  SolveOptions o;
  o.job_dir = dir;
  o.memory_bytes = 256ull << 20;
  std::uint64_t states = 0;
  for (auto& r : solve_tiers(*game, o, "all"))
    for (auto& kv : load_values(r.values_path)) {
      ASSERT_EQ(Value::from_raw(kv.value), reference.value_of(rules, kv.key))
          << "state " << kv.key << " engine " << Value::from_raw(kv.value).to_string() << " module "
          << reference.value_of(rules, kv.key).to_string() << "\n"
          << game->render(kv.key);
      ++states;
    }
  EXPECT_EQ(states, reference.graph.states);
}

TEST(EnginePipeline, OnitamaBoar3x3AgreesWithTheModulesSolver) {
  testing::ScratchDir dir;
  expect_engine_equals_module({"3x3"}, dir.str());
}

TEST(EnginePipeline, Onitama3x4PublishedWinnerThroughRunFiles) {
  testing::ScratchDir dir;
  auto game = make_game("onitama", {"3x4"});
  SolveOptions o;
  o.job_dir = dir.str();
  o.memory_bytes = 256ull << 20;
  auto results = solve_tiers(*game, o, "all");
  std::string start_tier = game->tier_of(game->start());
  for (auto& r : results) {
    if (r.tier == start_tier) {
      EXPECT_TRUE(lookup_value(r.values_path, game->start()).is_win());  // Red, who moves first, wins
    }
  }
}

}  // namespace
}  // namespace zermelo
