// Onitama solvers: the published winners of the spec's boar boards, the strong solve against a
// plain fixpoint solver state by state, symmetry folding, and the weak solve's verdicts.
#include <gtest/gtest.h>

#include "tests/test_util.hpp"
#include "zermelo/games/onitama/solve.hpp"

using namespace zermelo::onitama;
using zermelo::Value;

namespace {

// The colour that wins from the start, or -1 for a draw.
int winner(const Rules& rules, Value v) {
  if (v.is_draw()) return -1;
  const int mover = rules.start_position().player;
  return v.is_win() ? mover : 1 - mover;
}

struct Board {
  int w, h, winner;
};
// From the spec: 1×m Red for m = 2, 4 and Blue for 3, 5; n×2 Red for n = 1..5; n×3 Blue for
// n = 1..4; 2×5 draw; 3×4 Red.
const Board kPublished[] = {{1, 2, kRed},  {1, 3, kBlue}, {1, 4, kRed},  {1, 5, kBlue},
                            {2, 2, kRed},  {3, 2, kRed},  {4, 2, kRed},  {5, 2, kRed},
                            {2, 3, kBlue}, {3, 3, kBlue}, {4, 3, kBlue}, {2, 5, -1},
                            {3, 4, kRed}};

// Under the sanitizers the boards of at most 9 squares: the same code paths, where the larger
// boards' figures are Release's to check.
bool within_test_size(const Board& b) { return !zermelo::testing::kSanitized || b.w * b.h <= 9; }

}  // namespace

TEST(OnitamaSolve, PublishedWinnersWithAndWithoutSymmetry) {
  for (const Board& b : kPublished) {
    if (!within_test_size(b)) continue;
    Rules rules(b.w, b.h, parse_deck("boar"));
    StrongResult plain = solve_strong(rules, false);
    EXPECT_EQ(winner(rules, plain.start_value), b.winner) << b.w << "x" << b.h;
    StrongResult folded = solve_strong(rules, true);
    EXPECT_EQ(folded.start_value, plain.start_value) << b.w << "x" << b.h;
  }
}

TEST(OnitamaSolve, StrongSolveMatchesBruteForceStateByState) {
  const std::pair<std::pair<int, int>, const char*> cases[] = {
      {{1, 5}, "boar"},
      {{2, 2}, "boar"},
      {{3, 2}, "boar"},
      {{2, 3}, "boar"},
      {{2, 4}, "boar"},
      {{2, 5}, "boar"},
      {{3, 3}, "boar"},
      {{3, 2}, "rabbit,tiger,crab,eel,boar"},
      {{2, 3}, "monkey,ox,frog,crane,goose"},
      {{2, 4}, "dragon,horse,cobra,rooster,mantis"}};
  for (auto& [size, deck] : cases) {
    Rules rules(size.first, size.second, parse_deck(deck));
    auto reference = solve_brute_force(rules);
    for (bool symmetry : {false, true}) {
      StrongResult r = solve_strong(rules, symmetry);
      if (!symmetry) {
        EXPECT_EQ(r.graph.states, reference.size());
      }
      std::size_t mismatches = 0;
      for (auto& [k, v] : reference) mismatches += !(r.value_of(rules, k) == v);
      EXPECT_EQ(mismatches, 0u) << size.first << "x" << size.second << " " << deck << " symmetry "
                                << symmetry;
    }
  }
}

TEST(OnitamaSolve, SymmetryGivesIdenticalValuesEverywhere) {
  for (auto [w, h, deck] : {std::tuple{3, 4, "boar"}, std::tuple{2, 4, "tiger,ox,crab,eel,boar"},
                            std::tuple{4, 2, "rabbit,monkey,elephant,crane,cobra"}}) {
    Rules rules(w, h, parse_deck(deck));
    StrongResult plain = solve_strong(rules, false), folded = solve_strong(rules, true);
    EXPECT_LT(folded.graph.states, plain.graph.states);
    std::uint64_t mismatches = 0;
    plain.set.for_each([&](Key k) {
      const Value v = plain.value_of(rules, k);
      mismatches += !(folded.value_of(rules, k) == v);
      mismatches += !(plain.value_of(rules, rules.encode(rules.swapped(rules.decode(k)))) == v) &&
                    plain.set.contains(rules.encode(rules.swapped(rules.decode(k))));
    });
    EXPECT_EQ(mismatches, 0u) << w << "x" << h << " " << deck;
  }
}

TEST(OnitamaSolve, WeakSolveVerdictsEqualStrongSolve) {
  std::vector<std::tuple<int, int, std::string>> cases;
  for (const Board& b : kPublished)
    if (within_test_size(b)) cases.emplace_back(b.w, b.h, "boar");
  std::vector<const char*> decks = {"tiger,ox,crab,eel,boar"};
  if (!zermelo::testing::kSanitized)  // the same code paths on more decks: Release only
    decks.insert(decks.end(),
                 {"rabbit,monkey,elephant,crane,cobra", "dragon,horse,frog,goose,mantis"});
  for (const char* deck : decks)
    for (auto [w, h] : {std::pair{3, 3}, std::pair{2, 4}, std::pair{2, 5}})
      cases.emplace_back(w, h, deck);
  for (auto& [w, h, deck] : cases) {
    Rules rules(w, h, parse_deck(deck));
    const Value strong = solve_strong(rules, true).start_value;
    for (bool symmetry : {false, true}) {
      WeakResult weak = solve_weak(rules, symmetry);
      EXPECT_EQ(weak.start_value.is_win(), strong.is_win()) << w << "x" << h << " " << deck;
      EXPECT_EQ(weak.start_value.is_loss(), strong.is_loss()) << w << "x" << h << " " << deck;
      EXPECT_EQ(weak.start_value.is_draw(), strong.is_draw()) << w << "x" << h << " " << deck;
      // Labels on a partial graph bound the true distance from above.
      EXPECT_GE(weak.start_value.plies(), strong.plies()) << w << "x" << h << " " << deck;
    }
  }
}

TEST(OnitamaSolve, WeakSolveOf4x3ExpandsFewStates) {
  Rules rules(4, 3, parse_deck("boar"));
  WeakResult plain = solve_weak(rules, false), folded = solve_weak(rules, true);
  EXPECT_EQ(winner(rules, plain.start_value), kBlue);
  EXPECT_EQ(winner(rules, folded.start_value), kBlue);
  EXPECT_LT(plain.expanded, 3106131u / 10);  // the full graph has 3,106,131 states
  EXPECT_LT(folded.expanded, plain.expanded);
}
