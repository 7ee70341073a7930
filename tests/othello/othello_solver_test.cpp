// The exact endgame solver against independent references: plain minimax on tiny boards and on
// random late positions, the published FFO scores and best moves, and the paper's drawn line.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <tuple>
#include <utility>

#include "tests/othello/mailbox_reference.hpp"
#include "tests/othello/random_play.hpp"
#include "tests/test_util.hpp"
#include "zermelo/games/othello/notation.hpp"
#include "zermelo/games/othello/patterns.hpp"
#include "zermelo/games/othello/solver.hpp"

using namespace zermelo::othello;

namespace {

// Plays random moves from the start until `empties` squares are left (passes taken as needed).
template <int N>
bool random_position(std::mt19937_64& rng, int empties, Bits& p, Bits& o) {
  p = Geometry<N>::kStartBlack;
  o = Geometry<N>::kStartWhite;
  while (Geometry<N>::kSquares - popcount(p | o) > empties) {
    const Bits moves = legal_moves<N>(p, o);
    if (!moves) {
      if (!legal_moves<N>(o, p)) return false;
      std::swap(p, o);
      continue;
    }
    zermelo::othello::test_support::play_random_move<N>(rng, moves, p, o);
  }
  return true;
}

template <int N>
void check_against_minimax(int positions, int empties, unsigned seed) {
  std::mt19937_64 rng(seed);
  SolveOptions opt;
  opt.tt_bits = 16;
  int checked = 0;
  while (checked < positions) {
    Bits p, o;
    if (!random_position<N>(rng, empties, p, o)) continue;
    const int expected = minimax<N>(p, o);
    const SolveResult r = solve<N>(p, o, opt);
    ASSERT_TRUE(r.exact());
    ASSERT_EQ(r.score, expected) << "position " << checked;
    // The best move and the principal variation must realise the score.
    Bits q = p, x = o;
    int sign = 1;
    for (int m : r.pv) {
      if (m != kPass) {
        ASSERT_TRUE(legal_moves<N>(q, x) & bit(m));
        const Bits f = flips<N>(q, x, m);
        q |= f | bit(m);
        x &= ~f;
      }
      std::swap(q, x);
      sign = -sign;
    }
    ASSERT_FALSE(legal_moves<N>(q, x) | legal_moves<N>(x, q))
        << "PV does not reach the end of the game";
    ASSERT_EQ(sign * final_score<N>(q, x), expected);
    ++checked;
  }
}

}  // namespace

TEST(OthelloSolver, FourByFourStartMatchesPlainMinimax) {
  const Bits b = Geometry<4>::kStartBlack, w = Geometry<4>::kStartWhite;
  std::uint64_t nodes = 0;
  const int expected = minimax<4>(b, w, &nodes);
  EXPECT_GT(nodes, 1000u);  // really walked the whole tree
  const SolveResult r = solve<4>(b, w);
  EXPECT_EQ(r.score, expected);
  // 4x4 Othello is a second-player win, 3-11 with two squares left empty: -10 for Black once the
  // empties go to the winner.
  EXPECT_EQ(expected, -10);
}

TEST(OthelloSolver, FourByFourRandomPositionsMatchMinimax) { check_against_minimax<4>(200, 8, 11); }
TEST(OthelloSolver, SixBySixRandomPositionsMatchMinimax) { check_against_minimax<6>(60, 9, 12); }
TEST(OthelloSolver, EightByEightRandomPositionsMatchMinimax) {
  check_against_minimax<8>(40, 9, 13);
}

// Positions from random games (8-9 empties, found among thousands solved against minimax) that
// the solver once got wrong by 2: its stability test paired the diagonals' directions wrongly,
// counted discs as stable that can still flip, and the stability cut-off returned a bound past
// the true score.
TEST(OthelloSolver, PositionsOnceMissolvedByTheStabilityCutOff) {
  SolveOptions opt;
  opt.tt_bits = 16;
  const std::pair<Bits, Bits> eight[] = {{0x7880465302646d3eULL, 0x073f392cfc9b9080ULL},
                                         {0x79273f2f3c3e3f3fULL, 0x8090c0d0c0c1c000ULL},
                                         {0x403070f2f3fefcfaULL, 0x070f0f0d0c000301ULL},
                                         {0xa080a0302800a400ULL, 0x487a5fcb57ff5b7fULL}};
  for (const auto& [p, o] : eight) EXPECT_EQ(solve<8>(p, o, opt).score, minimax<8>(p, o));
  const std::pair<Bits, Bits> six[] = {{0x0000230301050109ULL, 0x0000043c1e3a2602ULL},
                                       {0x0000202028342800ULL, 0x0000001c160b173eULL}};
  for (const auto& [p, o] : six) EXPECT_EQ(solve<6>(p, o, opt).score, minimax<6>(p, o));
}

// 8x8 positions with 10 to 12 empties against the square-by-square alpha-beta of the tests
// (independent of the solver's bitboard kernels, table and cut-offs), each with and without a
// window around the value, so the null-window code for the last six empties is reached from
// every depth.
TEST(OthelloSolver, EightByEightMatchesIndependentAlphaBetaUpToTwelveEmpties) {
  using Mailbox = zermelo::othello::test_support::Mailbox<8>;
  std::mt19937_64 rng(21);
  SolveOptions opt;
  opt.tt_bits = 16;
  for (int i = 0; i < 36; ++i) {
    Bits p, o;
    if (!random_position<8>(rng, 10 + i % 3, p, o)) continue;
    const int expected = Mailbox::alpha_beta(p, o, -65, 65);
    ASSERT_EQ(solve<8>(p, o, opt).score, expected) << "position " << i;
    SolveOptions narrow = opt;
    narrow.alpha = narrow.beta = expected;
    ASSERT_EQ(solve<8>(p, o, narrow).score, expected) << "position " << i;
  }
}

// Move ordering changes only the work: with the compiled-in pattern weights, with the old
// heuristic and with nonsense weights (random, so the ordering searches rank moves at random),
// every score equals the independent alpha-beta's, at 14 and 15 empties where both kinds of
// ordering search run, full window and one-value window.
TEST(OthelloSolver, OrderingNeverChangesAScore) {
  using Mailbox = zermelo::othello::test_support::Mailbox<8>;
  patterns::PatternWeights nonsense = patterns::default_pattern_weights();
  std::mt19937_64 noise(4);
  for (auto& w : nonsense.weights) w = static_cast<std::int16_t>(noise() % 4001) - 2000;
  std::mt19937_64 rng(33);
  std::uint64_t nodes[3] = {0, 0, 0};
  // Under the sanitizers half the positions (both empties counts still): each solve is slower.
  const int positions = zermelo::testing::release_else_sanitized(8, 4);
  for (int i = 0; i < positions; ++i) {
    Bits p, o;
    if (!random_position<8>(rng, 14 + i % 2, p, o)) continue;
    int score[3];
    for (int k = 0; k < 3; ++k) {
      SolveOptions opt;
      opt.tt_bits = 16;
      opt.ordering = k == 1 ? Ordering::kHeuristic : Ordering::kPatterns;
      opt.weights = k == 2 ? &nonsense : nullptr;
      const SolveResult r = solve<8>(p, o, opt);
      score[k] = r.score;
      nodes[k] += r.nodes;
      opt.alpha = opt.beta = r.score;
      ASSERT_EQ(solve<8>(p, o, opt).score, r.score) << "position " << i << ", ordering " << k;
    }
    ASSERT_EQ(score[1], score[0]) << "position " << i;
    ASSERT_EQ(score[2], score[0]) << "position " << i;
    // The independent alpha-beta confirms the value (a window around it: cheaper than a full one,
    // and a result strictly inside it is the exact value).
    ASSERT_EQ(Mailbox::alpha_beta(p, o, score[0] - 1, score[0] + 1), score[0]) << "position " << i;
  }
  // The orderings really differ (else this test would prove nothing about them).
  EXPECT_NE(nodes[0], nodes[2]);
  EXPECT_NE(nodes[0], nodes[1]);
}

TEST(OthelloSolver, EveryMoveScoreAndWindowsAgree) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 10; ++i) {
    Bits p, o;
    if (!random_position<8>(rng, 14, p, o) || !legal_moves<8>(p, o)) continue;
    SolveOptions small;
    small.tt_bits = 18;
    const SolveResult r = solve<8>(p, o, small);
    int best = -100;
    for (auto [m, s] : solve_each_move<8>(p, o, small)) {
      best = std::max(best, s);
      if (m == r.best_move) {
        EXPECT_EQ(s, r.score);
      }
    }
    EXPECT_EQ(best, r.score);
    // A window that excludes the score yields a bound on the right side.
    SolveOptions above = small;
    above.alpha = r.score + 2;
    above.beta = r.score + 10;
    const SolveResult ra = solve<8>(p, o, above);
    EXPECT_FALSE(ra.exact());
    EXPECT_EQ(ra.outside, -1);  // an upper bound: the true score is at most ra.score
    EXPECT_LE(ra.score, above.alpha - 1);
    EXPECT_GE(ra.score, r.score);
    SolveOptions below = small;
    below.alpha = r.score - 10;
    below.beta = r.score - 2;
    const SolveResult rb = solve<8>(p, o, below);
    EXPECT_FALSE(rb.exact());
    EXPECT_EQ(rb.outside, 1);  // a lower bound: the true score is at least rb.score
    EXPECT_GE(rb.score, below.beta + 1);
    EXPECT_LE(rb.score, r.score);
    SolveOptions around = small;
    around.alpha = r.score - 2;
    around.beta = r.score + 2;
    EXPECT_EQ(solve<8>(p, o, around).score, r.score);
  }
}

// EndgameSolver::exceeds is one null window on a kept table (the proofs' test of a bound): at
// every threshold around the true value it must answer on the right side and name a move that
// keeps the bound, whatever the table holds from the earlier tests.
template <int N>
void check_exceeds(int positions, int empties, unsigned seed) {
  std::mt19937_64 rng(seed);
  EndgameSolver<N> solver(16);
  for (int i = 0; i < positions;) {
    Bits p, o;
    if (!random_position<N>(rng, empties, p, o) || !legal_moves<N>(p, o)) continue;
    const int value = minimax<N>(p, o);
    std::map<int, int> child_value;  // minimax of the moves named so far
    for (int t = value - 3; t <= value + 2; ++t) {
      const SolveResult r = solver.exceeds(p, o, t);
      ASSERT_EQ(r.score > t, value > t) << "position " << i << ", threshold " << t;
      if (value > t) {  // the named move keeps value > t
        ASSERT_TRUE(legal_moves<N>(p, o) & bit(r.best_move));
        const Bits f = flips<N>(p, o, r.best_move);
        if (!child_value.count(r.best_move))
          child_value[r.best_move] = -minimax<N>(o & ~f, p | f | bit(r.best_move));
        ASSERT_GT(child_value[r.best_move], t) << "position " << i;
      }
    }
    ++i;
  }
}

TEST(OthelloSolver, NullWindowTestsAgreeWithMinimax) {
  check_exceeds<6>(12, 11, 21);
  check_exceeds<8>(8, 11, 22);
}

TEST(OthelloSolver, TwoThreadsGiveTheSameScores) {
  std::mt19937_64 rng(5);
  SolveOptions one, two;
  one.tt_bits = two.tt_bits = 18;
  two.threads = 2;
  for (int i = 0; i < 6; ++i) {
    Bits p, o;
    if (!random_position<8>(rng, 17, p, o)) continue;
    EXPECT_EQ(solve<8>(p, o, two).score, solve<8>(p, o, one).score);
  }
}

// Splits at null-window nodes of 16+ empties, with moves refuted while other threads search
// (their searches aborted) and owners helping below: 2 and 3 threads give 1 thread's scores.
TEST(OthelloSolver, SplitNodesGiveTheSameScoresAtTwoAndThreeThreads) {
  std::mt19937_64 rng(11);
  SolveOptions one;
  one.tt_bits = 18;
  int compared = 0;
  for (int i = 0; i < 8 && compared < 4; ++i) {
    Bits p, o;
    if (!random_position<8>(rng, 20, p, o)) continue;
    const SolveResult r1 = solve<8>(p, o, one);
    for (unsigned threads : {2u, 3u}) {
      SolveOptions many = one;
      many.threads = threads;
      const SolveResult rn = solve<8>(p, o, many);
      EXPECT_EQ(rn.score, r1.score) << threads << " threads, position " << i;
      EXPECT_GT(rn.nodes, 0u);
    }
    ++compared;
  }
  EXPECT_EQ(compared, 4);
}

// The counts by empties (search_stats.hpp): every node at an empties count the position can have,
// the ordering searches' positions attributed without loss (their total is counted apart, helper
// threads included), and each count within the one it is a part of.
void check_search_counts(const SolveResult& r, int empties) {
  std::uint64_t ordering = 0;
  for (int n = 0; n <= SearchStats::kMaxEmpties; ++n) {
    const EmptiesCounts& c = r.stats.at(n);
    if (n > empties) {
      EXPECT_FALSE(c.any()) << n;
    }
    if (n < 7) {
      EXPECT_EQ(c.searched, 0u) << n;  // the last-empties code keeps no such counts
    }
    EXPECT_LE(c.searched, c.nodes) << n;
    EXPECT_LE(c.refuted, c.searched) << n;
    EXPECT_LE(c.refuted_first, c.refuted) << n;
    EXPECT_LE(c.stability_cuts, c.stability_tries) << n;
    ordering += c.ordering_nodes;
  }
  EXPECT_GE(r.stats.at(empties).nodes, 1u);
  EXPECT_EQ(r.stats.nodes(), r.nodes);
  EXPECT_EQ(ordering, r.ordering_nodes);
}

TEST(OthelloSolver, SearchCountsByEmptiesAddUp) {
  std::mt19937_64 rng(23);
  SolveOptions one;
  one.tt_bits = 18;
  int checked = 0;
  for (int i = 0; i < 6 && checked < 2; ++i) {
    Bits p, o;
    if (!random_position<8>(rng, 20, p, o)) continue;
    const SolveResult r1 = solve<8>(p, o, one);
    check_search_counts(r1, 20);
    // Deep enough for every kind of count to be seen.
    EXPECT_GT(r1.stats.at(20).ordering_nodes, 0u);
    std::uint64_t refuted = 0, first = 0, table = 0, stability = 0;
    for (const EmptiesCounts& c : r1.stats.by_empties) {
      refuted += c.refuted, first += c.refuted_first, table += c.table_cuts;
      stability += c.stability_cuts;
    }
    EXPECT_GT(first, refuted / 2);  // the ordering's first move refutes most cut nodes
    EXPECT_GT(table, 0u);
    EXPECT_GT(stability, 0u);
    SolveOptions two = one;
    two.threads = 2;
    check_search_counts(solve<8>(p, o, two), 20);  // the helper's counts are added
    ++checked;
  }
  EXPECT_EQ(checked, 2);
}

// A kept solver's counts are those of its last search alone.
TEST(OthelloSolver, AKeptSolversCountsAreItsLastSearchs) {
  std::mt19937_64 rng(29);
  Bits p, o;
  ASSERT_TRUE(random_position<8>(rng, 14, p, o));
  EndgameSolver<8> solver(16);
  const SolveResult first = solver.solve(p, o, -64, 64);
  const SolveResult again = solver.solve(p, o, -64, 64);
  EXPECT_EQ(again.score, first.score);
  EXPECT_LT(again.nodes, first.nodes);  // the table answers most of it now
  EXPECT_EQ(again.stats.nodes(), again.nodes);
  EXPECT_GE(again.stats.at(14).nodes, 1u);
}

TEST(OthelloSolver, RejectsImpossiblePositions) {
  EXPECT_THROW(solve<8>(bit(3), bit(3)), std::invalid_argument);
  EXPECT_THROW(solve<6>(bit(7), bit(0)), std::invalid_argument);  // H1 is off a 6x6 board
}

TEST(OthelloSolver, PapersDrawnLineSolvesToZeroFromEighteenEmpties) {
  // Takizawa's optimal line: every position on it from 24 empties on is a draw; the test takes the
  // ones from 18 empties on (the rest are in bench/othello_ffo.cpp).
  const std::string line =
      "F5D6C3D3C4F4F6F3E6E7D7C5B6D8C6C7D2B5A5A6A7G5E3B4C8G6G4C2E8D1F7E2G3H4F1E1F2G1B1F8G8B3H3B2H5B7"
      "A3A4A1A2C1H2H1"
      "G2B8A8G7H8H7H6";
  Bits p = Geometry<8>::kStartBlack, o = Geometry<8>::kStartWhite;
  int solved = 0;
  for (std::size_t i = 0; i < line.size(); i += 2) {
    const int empties = 64 - popcount(p | o);
    if (empties <= 18) {
      const SolveResult r = solve<8>(p, o);
      ASSERT_EQ(r.score, 0) << "after " << i / 2 << " moves";
      ++solved;
    }
    if (!legal_moves<8>(p, o)) std::swap(p, o);  // a pass (none happens on this line)
    const int sq = parse_square(line.substr(i, 2));
    ASSERT_TRUE(legal_moves<8>(p, o) & bit(sq)) << line.substr(i, 2);
    const Bits f = flips<8>(p, o, sq);
    const Bits np = o & ~f, no = p | f | bit(sq);
    p = np;
    o = no;
  }
  EXPECT_EQ(final_score<8>(p, o), 0);  // 32-32
  EXPECT_EQ(solved, 18);               // after moves 42..59
}

// FFO positions the solver finishes in a few seconds each in Release, at 1 and 2 threads; all
// ten are in the bench.
class OthelloFfo : public ::testing::TestWithParam<std::tuple<int, unsigned>> {};

TEST_P(OthelloFfo, SolvesWithPublishedScoreAndABestMove) {
  const auto entries = read_obf_file(ZERMELO_FFO_FILE);
  const ObfEntry& e = entries.at(static_cast<std::size_t>(std::get<0>(GetParam()) - 40));
  SolveOptions opt;
  opt.threads = std::get<1>(GetParam());
  const SolveResult r = solve<8>(e.position.mover(), e.position.opponent(), opt);
  EXPECT_EQ(r.score, e.best_score());
  const auto best = e.best_moves();
  EXPECT_NE(std::find(best.begin(), best.end(), r.best_move), best.end())
      << square_name(r.best_move);
  ASSERT_FALSE(r.pv.empty());
  EXPECT_EQ(r.pv.front(), r.best_move);
}

INSTANTIATE_TEST_SUITE_P(Othello, OthelloFfo,
                         ::testing::Combine(::testing::Values(40, 41, 42, 44, 47),
                                            ::testing::Values(1u, 2u)));
