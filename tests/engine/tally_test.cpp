// `tally_tiers` against a brute force: what an all-states search leaves unreached, counted per
// tier, equals each tier's enumerated states minus those an in-memory search from the start finds.
#include "zermelo/engine/tally.hpp"

#include <gtest/gtest.h>

#include <set>

#include "tests/engine/plain_bfs.hpp"
#include "tests/test_util.hpp"
#include "zermelo/engine/bfs.hpp"
#include "zermelo/io/run_file.hpp"

namespace zermelo {
namespace {

TEST(Tally, UnreachedStatesPerTierMatchABruteForce) {
  testing::ScratchDir dir;
  auto g = make_game("ostle-mini", {testing::release_else_sanitized("3x4:p3", "3x3:p3")});
  BfsOptions o;
  o.job_dir = dir.str();
  o.memory_bytes = 256ull << 20;
  o.all_states = true;
  const BfsResult r = breadth_first(*g, o);

  const auto reached = testing::plain_bfs(*g).ply_of;  // seen states and their plies
  std::map<std::string, std::uint64_t> expected;
  for (const Tier& t : g->tiers())
    g->enumerate(t.name, [&](StateKey k) { expected[t.name] += !reached.count(k); });
  std::erase_if(expected, [](const auto& e) { return e.second == 0; });
  ASSERT_GE(expected.size(), 2u) << "the case should leave states unreached in more than one tier";

  const auto tally = tally_tiers(*g, r.unreached_path, 2);
  std::map<std::string, std::uint64_t> got;
  for (const auto& [tier, t] : tally) {
    got[tier] = t.states;
    EXPECT_EQ(t.examples.size(), std::min<std::uint64_t>(2, t.states)) << tier;
    for (auto k : t.examples) {
      EXPECT_EQ(g->tier_of(k), tier);
      EXPECT_FALSE(reached.count(k)) << tier;
    }
  }
  EXPECT_EQ(got, expected);
}

TEST(Tally, RefusesARunThatHoldsNoStateKeysNamingIt) {
  testing::ScratchDir dir;
  const std::string path = dir / "values.run";
  RunOptions o;
  o.record_type = "values";
  o.record_size = 16;
  RunWriter w(path, o);
  w.finish();
  auto g = make_game("tictactoe");
  try {
    tally_tiers(*g, path, 1);
    FAIL() << "accepted a values run";
  } catch (const RunFileError& e) {
    EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("'values'"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace zermelo
