// Shards (docs/shards.md): a solve whose levels are cut into P key ranges writes the unsharded
// values run, byte for byte, whatever P, on games with un-moves and without, with tiers and
// without; and it leaves no shard folder behind.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/test_util.hpp"
#include "zermelo/engine/retrograde.hpp"

namespace zermelo {
namespace {

// A game and the shard counts it is solved with. Each count is checked on two games at least;
// the boards are the smallest that still have several levels (and tiers), because a sharded
// level's cost is mostly its P shards' files made and synced, not its states.
struct GameCase {
  std::string name;
  std::vector<std::string> options;
  std::vector<unsigned> shards;
};

// Every tier's digest, solved out of core with `shards` shards, or in RAM with none: the
// unsharded solve, by a solver that knows nothing of shards.
std::vector<std::string> tier_digests(const Game& g, const std::string& dir, unsigned shards,
                                      bool unmoves = true) {
  SolveOptions o;
  o.job_dir = dir;
  o.memory_bytes = 512ull << 20;  // seven shards' passes and sorters
  o.in_ram = shards == 0;
  o.shards = std::max(1u, shards);
  o.use_predecessors = unmoves;
  std::vector<std::string> digests;
  for (const SolveResult& r : solve_tiers(g, o, "all")) digests.push_back(r.tier + " " + r.digest);
  return digests;
}

TEST(Shards, AnyNumberOfShardsGivesTheUnshardedDigests) {
  const testing::ScratchDir dir;
  for (const GameCase& c : std::vector<GameCase>{{"tictactoe", {}, {1, 3, 7}},
                                                 {"nim", {"2x4"}, {1, 2, 7}},
                                                 {"ostle-mini", {"2x3:p2"}, {3}},
                                                 {"onitama", {"2x3", "boar"}, {2}}}) {
    const auto g = make_game(c.name, c.options);
    const std::string tag = c.name + (c.options.empty() ? "" : "-" + c.options.back());
    const std::vector<std::string> whole = tier_digests(*g, dir / (tag + "-ram"), 0);
    ASSERT_FALSE(whole.empty()) << tag;
    for (unsigned p : c.shards) {
      const std::string job = dir / (tag + "-" + std::to_string(p));
      EXPECT_EQ(tier_digests(*g, job, p), whole) << tag << " with " << p << " shards";
    }
  }
}

TEST(Shards, ReverseEdgesAreCutByTheirChild) {
  const testing::ScratchDir dir;
  const auto g = make_game("tictactoe");
  const std::vector<std::string> whole = tier_digests(*g, dir / "whole", 0, false);
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
