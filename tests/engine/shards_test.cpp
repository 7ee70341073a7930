// Shards (docs/shards.md): a solve whose levels are cut into P key ranges writes the unsharded
// values run, byte for byte, whatever P, on games with un-moves and without, with tiers and
// without; and it leaves no shard folder behind.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "tests/test_util.hpp"
#include "zermelo/engine/retrograde.hpp"

namespace zermelo {
namespace {

struct GameCase {
  std::string name;
  std::vector<std::string> options;
  std::string tag;
};

// Every tier's digest, solved out of core with `shards` shards.
std::vector<std::string> tier_digests(const Game& g, const std::string& dir, unsigned shards,
                                      bool unmoves = true) {
  SolveOptions o;
  o.job_dir = dir;
  o.memory_bytes = 512ull << 20;  // seven shards' sorters above the floor each
  o.shards = shards;
  o.use_predecessors = unmoves;
  std::vector<std::string> digests;
  for (const SolveResult& r : solve_tiers(g, o, "all")) digests.push_back(r.tier + " " + r.digest);
  return digests;
}

TEST(Shards, AnyNumberOfShardsGivesTheUnshardedDigests) {
  const testing::ScratchDir dir;
  for (const GameCase& c : std::vector<GameCase>{{"tictactoe", {}, "ttt"},
                                                 {"nim", {"4x6"}, "nim"},
                                                 {"nim", {"3x5", "tiered"}, "nim-tiered"},
                                                 {"ostle-mini", {"3x4:p3"}, "ostle"},
                                                 {"onitama", {"3x3", "boar"}, "onitama"}}) {
    const auto g = make_game(c.name, c.options);
    const std::vector<std::string> whole = tier_digests(*g, dir / (c.tag + "-1"), 1);
    ASSERT_FALSE(whole.empty()) << c.tag;
    for (unsigned p : {2u, 3u, 7u}) {
      const std::string job = dir / (c.tag + "-" + std::to_string(p));
      EXPECT_EQ(tier_digests(*g, job, p), whole) << c.tag << " with " << p << " shards";
    }
  }
}

TEST(Shards, ReverseEdgesAreCutByTheirChild) {
  const testing::ScratchDir dir;
  const auto g = make_game("tictactoe");
  const std::vector<std::string> whole = tier_digests(*g, dir / "whole", 1, false);
  EXPECT_EQ(tier_digests(*g, dir / "three", 3, false), whole);
  EXPECT_EQ(tier_digests(*g, dir / "seven", 7, false), whole);
}

TEST(Shards, MoreShardsThanStatesLeavesSomeEmptyAndTheSameValues) {
  const testing::ScratchDir dir;
  const auto g = make_game("nim", {"1x4"});  // 5 states
  SolveOptions o;
  o.job_dir = dir / "whole";
  o.in_ram = true;
  const std::string ram = solve_retrograde(*g, o).digest;
  o.in_ram = false;
  o.memory_bytes = 512ull << 20;
  o.shards = 9;
  o.job_dir = dir / "nine";
  const SolveResult r = solve_retrograde(*g, o);
  EXPECT_EQ(r.digest, ram);
  EXPECT_EQ(r.states, 5u);
  for (unsigned s = 0; s < 9; ++s)
    EXPECT_FALSE(std::filesystem::exists(dir / ("nine/shard-" + std::to_string(s)))) << s;
}

}  // namespace
}  // namespace zermelo
