// The meet-in-the-middle solve with its sets out of core (ext_solve.hpp) against the in-RAM
// solve (solver.hpp) on small Breakthrough boards: the same winner, and ply for ply the same
// forward, won and lost sets (the digests of their canonical forms, save_ext of the in-RAM sets).
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "tests/test_util.hpp"
#include "zermelo/dfa/ext_solve.hpp"
#include "zermelo/dfa/solver.hpp"
#include "zermelo/games/breakthrough/breakthrough_sets.hpp"

namespace {

using namespace zermelo;
using namespace zermelo::dfa;

std::uint64_t digest(const Set& s, const zermelo::testing::ScratchDir& dir) {
  return save_ext(s, dir / "digest").digest;
}

// Both solves, with the known sets of `backward_steps` retrograde steps (0: the terminal sets).
void check_solve(const std::string& board, unsigned backward_steps, std::uint64_t memory,
                 unsigned threads = 1) {
  zermelo::testing::ScratchDir dir;
  auto b = breakthrough::parse_board(board);
  auto m = breakthrough::make_manager(b, 1ull << 30);
  const SetGame g = breakthrough::make_game(*m, b);
  Set known_won = g.won0, known_lost = g.lost0;
  if (backward_steps > 0) {
    const RetrogradeResult back = retrograde(g, backward_steps);
    known_won = back.won, known_lost = back.lost;
  }
  const ReachResult ram = solve_by_reach(g, known_won, known_lost, 200);
  ExtOptions o{dir / "scratch", memory};
  o.threads = threads;
  const ExtReachResult ext =
      ext_solve_by_reach(g, known_won, known_lost, 200, dir / "solve", board, o);
  EXPECT_EQ(ext.start_won, ram.start_won) << board;
  ASSERT_EQ(ext.steps.size(), ram.reach.size()) << board;
  for (std::size_t i = 0; i < ext.steps.size(); ++i) {
    const ExtReachStep& st = ext.steps[i];
    EXPECT_EQ(st.reach.digest, digest(ram.reach[i], dir)) << board << " ply " << i;
    EXPECT_EQ(st.won.digest, digest(ram.won[i], dir)) << board << " ply " << i;
    EXPECT_EQ(st.lost.digest, digest(ram.lost[i], dir)) << board << " ply " << i;
    EXPECT_EQ(st.reach.states, ram.reach[i].states()) << board << " ply " << i;
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "solve/sets")) << "the sets are removed at the end";
}

// Each external operation has a fixed cost of some 50-100 ms (a run file a layer, each with its
// own io_uring set-up: docs/dfa.md), so the tests take known sets deep enough to leave a few
// forward plies: 7 on 3x4 with W(6)/L(6), 5 on 4x4 with W(10)/L(10).
TEST(BreakthroughExtSolve, SameWinnerAndSetsAsInRamOn3x4) { check_solve("3x4", 6, 64ull << 20); }

// Two threads: two operations at once, each with half the budget (a sort needs some 18 MiB).
TEST(BreakthroughExtSolve, SameWinnerAndSetsAsInRamOn3x4OnTwoThreads) {
  check_solve("3x4", 6, 128ull << 20, 2);
}

TEST(BreakthroughExtSolve, SameWinnerAndSetsAsInRamOn4x4) {
  if (!zermelo::testing::kSanitized) check_solve("4x4", 10, 64ull << 20);
}

// What a user compares: the JSON of an in-RAM solve with --digests and of an --external solve
// give every set of every ply (forward, open, won, lost) the same digest and size.
TEST(BreakthroughExtSolve, InRamJsonDigestsAreTheExternalSolves) {
  zermelo::testing::ScratchDir dir;
  const std::string solve = "--json --memory 1G breakthrough solve 3x4 --backward-steps 2";
  const auto ram = zermelo::testing::run_cli(solve + " --digests");
  const auto ext = zermelo::testing::run_cli(solve + " --external " + dir / "x");
  ASSERT_EQ(ram.code, 0) << ram.out;
  ASSERT_EQ(ext.code, 0) << ext.out;
  const auto a = nlohmann::json::parse(ram.out)["steps"],
             b = nlohmann::json::parse(ext.out)["steps"];
  ASSERT_EQ(a.size(), b.size());
  ASSERT_GT(a.size(), 5u);
  for (std::size_t i = 0; i < a.size(); ++i)
    for (const char* set : {"reach", "open", "won", "lost"}) {
      EXPECT_EQ(a[i][set]["digest"], b[i][set]["digest"]) << "ply " << i << " " << set;
      EXPECT_EQ(a[i][set]["states"], b[i][set]["states"]) << "ply " << i << " " << set;
    }
  const auto plain = nlohmann::json::parse(zermelo::testing::run_cli(solve).out)["steps"];
  EXPECT_FALSE(plain[0]["reach"].contains("digest")) << "digests only when asked for";
}

}  // namespace
