// Nim solved with DFA sets against the XOR rule (Bouton): every position of every m, n ≤ 8, and the
// Θ(m·n) growth of the losing set's DFA.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/test_util.hpp"
#include "zermelo/games/nim/nim_sets.hpp"

namespace {

using namespace zermelo;

struct Solved {
  std::unique_ptr<dfa::Manager> m;
  dfa::SetGame g;
  dfa::RetrogradeResult r;
};

Solved solve(unsigned heaps, unsigned sticks) {
  Solved s;
  s.m = nim_dfa::make_manager({heaps, sticks}, 256u << 20);
  s.g = nim_dfa::make_game(*s.m, {heaps, sticks});
  s.r = dfa::retrograde(s.g, 10000);
  return s;
}

TEST(NimDfa, LosingSetIsTheXorRuleForEveryPosition) {
  // Up to 9^8 positions looked up one by one: under the sanitizers the same solves up to 6 x 6.
  const unsigned most = zermelo::testing::release_else_sanitized(8u, 6u);
  for (unsigned m = 1; m <= most; ++m) {
    for (unsigned n = 1; n <= most; ++n) {
      SCOPED_TRACE("heaps " + std::to_string(m) + ", sticks " + std::to_string(n));
      Solved s = solve(m, n);
      ASSERT_TRUE(s.r.converged);
      // Every position, odometer order: lost iff XOR = 0, won otherwise, never both.
      std::vector<std::uint8_t> pos(m, 0);
      std::uint64_t positions = 0, mismatches = 0, xor_zero = 0;
      while (true) {
        unsigned x = 0;
        for (auto h : pos) x ^= h;
        bool lost = s.r.lost.contains(pos), won = s.r.won.contains(pos);
        mismatches += (lost != (x == 0)) || (won != (x != 0));
        xor_zero += x == 0;
        ++positions;
        unsigned i = 0;
        while (i < m && pos[i] == n) pos[i++] = 0;
        if (i == m) break;
        ++pos[i];
      }
      EXPECT_EQ(mismatches, 0u);
      EXPECT_EQ(positions, static_cast<std::uint64_t>(std::pow(n + 1, m)));
      EXPECT_EQ(s.r.lost.count(), xor_zero);
      EXPECT_EQ(s.r.won.count() + s.r.lost.count(), positions);
    }
  }
}

// The same retrograde solve on two threads: the very states of the one-thread solve.
TEST(NimDfa, TwoThreadsSolveLikeOne) {
  std::vector<std::pair<unsigned, unsigned>> boards = {{4u, 5u}};
  if (!zermelo::testing::kSanitized) boards.insert(boards.end(), {{6u, 7u}, {8u, 8u}});
  for (auto [m, n] : boards) {
    Solved s = solve(m, n);
    s.m->set_threads(2, 0);  // split even these small operations
    s.m->clear_operation_cache();
    dfa::RetrogradeResult two = dfa::retrograde(s.g, 10000);
    EXPECT_TRUE(two.converged);
    EXPECT_EQ(two.won, s.r.won) << m << " heaps of " << n;
    EXPECT_EQ(two.lost, s.r.lost) << m << " heaps of " << n;
    EXPECT_GT(s.m->parallel_stats().sections, 0u);
  }
}

TEST(NimDfa, LosingSetDfaGrowsAsHeapsTimesSticks) {
  // The XOR-zero DFA tracks the running XOR: at most 2^ceil(log2(n+1)) states a layer, so
  // states ≤ m·2n + 1, while the set holds about (n+1)^(m-1) positions.
  std::vector<std::size_t> by_heaps;
  const unsigned most = zermelo::testing::release_else_sanitized(16u, 8u);
  for (unsigned m = 2; m <= most; m += 2) {
    Solved s = solve(m, 7);
    std::size_t st = s.r.lost.states();
    EXPECT_LE(st, m * 2 * 7 + 1);
    EXPECT_GE(st, m);
    by_heaps.push_back(st);
    if (m < most) continue;
    // 16 heaps of 7: 8^16 = 2.8e14 positions, 8^15 of them lost, in a DFA of about a hundred
    // states (8 heaps under the sanitizers: 8^7 lost).
    EXPECT_EQ(s.r.lost.count(), 1ull << (3 * (m - 1)));
    EXPECT_LT(st, 130u);
  }
  // Linear in m: equal increments once the first layers are full (8 XOR values a layer for n = 7).
  for (std::size_t i = 2; i + 1 < by_heaps.size(); ++i)
    EXPECT_EQ(by_heaps[i + 1] - by_heaps[i], by_heaps[i] - by_heaps[i - 1]);
  EXPECT_EQ(by_heaps[1] - by_heaps[0], 16u);  // two more layers of 8 states
  // Linear-ish in n at fixed m (bounded by the power of two above n).
  std::size_t prev = 0;
  for (unsigned n = 1; n <= 15; n += 2) {
    Solved s = solve(6, n);
    std::size_t st = s.r.lost.states();
    EXPECT_LE(st, 6 * 2 * n + 1);
    EXPECT_GT(st, prev);
    prev = st;
  }
}

TEST(NimDfa, ForwardReachAndBackUpAgrees) {
  for (unsigned m = 1; m <= 4; ++m)
    for (unsigned n = 1; n <= 5; ++n) {
      auto mgr = nim_dfa::make_manager({m, n}, 64u << 20);
      auto g = nim_dfa::make_game(*mgr, {m, n});
      auto r = dfa::solve_by_reach(g, g.won0, g.lost0, 1000);
      unsigned x = 0;
      for (unsigned i = 0; i < m; ++i) x ^= n;
      EXPECT_EQ(r.start_won, x != 0) << m << " heaps of " << n;
      EXPECT_EQ(r.distinct_positions, static_cast<std::uint64_t>(std::pow(n + 1, m)));
    }
}

TEST(NimDfa, LargestAlphabet) {
  // 31 sticks: 32 characters a heap, the widest alphabet the set library takes.
  Solved s = solve(2, 31);
  EXPECT_EQ(s.r.lost.count(), 32u);  // equal heaps
  EXPECT_TRUE(s.r.lost.contains({17, 17}));
  EXPECT_TRUE(s.r.won.contains({31, 0}));
}

TEST(NimDfa, RejectsBadShapes) {
  EXPECT_THROW(nim_dfa::make_manager({0, 3}, 64u << 20), std::invalid_argument);
  EXPECT_THROW(nim_dfa::make_manager({3, 0}, 64u << 20), std::invalid_argument);
  EXPECT_THROW(nim_dfa::make_manager({3, 40}, 64u << 20), std::invalid_argument);
}

}  // namespace
