// The explicit-state retrograde engine and the DFA set solver agree on Breakthrough: on small
// boards every position string gets the same outcome (the engine's win/loss vs the set solver's
// won/lost sets after retrograde to the fixpoint), and the forward/back-up solve's per-ply won sets
// are the reachable positions the engine calls won.
#include <gtest/gtest.h>

#include <algorithm>

#include "tests/test_util.hpp"
#include "zermelo/dfa/solver.hpp"
#include "zermelo/engine/retrograde.hpp"
#include "zermelo/engine/verify_game.hpp"
#include "zermelo/game.hpp"
#include "zermelo/games/breakthrough/breakthrough_sets.hpp"

namespace zermelo {
namespace {

// The key layout of the engine module, written out again here: side + 2 · Σ square_i · 3^i.
StateKey key_of(const std::vector<std::uint8_t>& s) {
  StateKey k = 0;
  for (std::size_t i = s.size(); i-- > 1;) k = k * 3 + s[i];
  return k * 2 + s[0];
}

struct EngineValues {
  std::vector<KeyValue> values;  // sorted by key
  Value of(StateKey k) const {
    auto it = std::lower_bound(values.begin(), values.end(), k,
                               [](const KeyValue& kv, StateKey x) { return kv.key < x; });
    return it != values.end() && it->key == k ? Value::from_raw(it->value) : Value::unknown();
  }
};

void cross_check(const std::string& board) {
  SCOPED_TRACE(board);
  testing::ScratchDir dir;
  auto game = make_game("breakthrough", {board});
  SolveOptions o;
  o.job_dir = dir / "job";
  o.in_ram = true;
  o.memory_bytes = 256ull << 20;
  SolveResult solved = solve_retrograde(*game, o);
  EngineValues engine{load_values(solved.values_path)};

  breakthrough::Board b = breakthrough::parse_board(board);
  auto m = breakthrough::make_manager(b, 256ull << 20);
  dfa::SetGame g = breakthrough::make_game(*m, b);
  dfa::RetrogradeResult sets = dfa::retrograde(g, 1000);
  ASSERT_TRUE(sets.converged);

  // Every string: the same outcome (Breakthrough has no draws, from any board).
  EXPECT_EQ(solved.states, g.all.count());
  EXPECT_EQ(solved.draws, 0u);
  EXPECT_EQ(solved.wins, sets.won.count());
  EXPECT_EQ(solved.losses, sets.lost.count());
  std::size_t mismatches = 0;
  g.all.enumerate([&](const std::vector<std::uint8_t>& s) {
    Value v = engine.of(key_of(s));
    bool ok = v.is_win() ? sets.won.contains(s) && !sets.lost.contains(s)
                         : v.is_loss() && sets.lost.contains(s) && !sets.won.contains(s);
    if (!ok && ++mismatches <= 3)
      ADD_FAILURE() << "engine " << v.to_string() << " vs sets, at\n" << g.render(s);
    return true;
  });
  EXPECT_EQ(mismatches, 0u);

  // The meet-in-the-middle solve: each ply's won set is the reachable positions the engine calls
  // won.
  dfa::RetrogradeResult two = dfa::retrograde(g, 2);
  dfa::ReachResult reach = dfa::solve_by_reach(g, two.won, two.lost, 1000);
  for (std::size_t ply = 0; ply < reach.reach.size(); ++ply) {
    reach.reach[ply].enumerate([&](const std::vector<std::uint8_t>& s) {
      EXPECT_EQ(engine.of(key_of(s)).is_win(), reach.won[ply].contains(s)) << "ply " << ply << "\n"
                                                                           << g.render(s);
      return true;
    });
  }
  EXPECT_EQ(engine.of(game->start()).is_win(), reach.start_won);
  EXPECT_EQ(game->start(), key_of(g.start));
}

TEST(BreakthroughEngine, AgreesWithTheSetSolverOn2x4) { cross_check("2x4"); }
TEST(BreakthroughEngine, AgreesWithTheSetSolverOn2x5) { cross_check("2x5"); }
TEST(BreakthroughEngine, AgreesWithTheSetSolverOn3x4) { cross_check("3x4"); }
TEST(BreakthroughEngine, AgreesWithTheSetSolverOn2x6) { cross_check("2x6"); }

TEST(BreakthroughEngine, MovesAndBadBoards) {
  // On 3x4 the home rows touch: the start's only moves are the 4 diagonal captures
  // a2xb3, b2xa3, b2xc3, c2xb3.
  auto game = make_game("breakthrough", {"3x4"});
  std::vector<Child> kids;
  game->successors(game->start(), kids);
  EXPECT_EQ(kids.size(), 4u);
  EXPECT_EQ(game->move_name(game->start(), 0), "a2xb3");
  EXPECT_EQ(game->move_name(game->start(), 3), "c2xb3");
  EXPECT_EQ(game->terminal_value(game->start()), Value::unknown());
  GameCheck c = verify_game_moves(*game, 3000);
  EXPECT_TRUE(c.problems.empty());
  EXPECT_THROW(make_game("breakthrough", {"3x3"}), std::invalid_argument);
  EXPECT_THROW(make_game("breakthrough", {"8x5"}),
               std::invalid_argument);  // 2·3^40 keys do not fit in 64 bits
}

}  // namespace
}  // namespace zermelo
