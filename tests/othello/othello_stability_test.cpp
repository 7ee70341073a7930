// The solver's stable discs (stability.hpp, edge_stability.hpp): the 8x8 full-line shortcut
// against the generic step-by-step form, the edge table against a search of every line a line can
// become, and the whole set against random games. A disc counted as stable that can still flip
// would cut the search at a wrong bound.
#include <gtest/gtest.h>

#include <bit>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "src/games/othello/edge_stability.hpp"
#include "src/games/othello/stability.hpp"

using namespace zermelo::othello;

namespace {

template <int d>
Bits generic_full(Bits occ) {
  using S = Stability<8>;
  return S::filled_to_edge<d>(occ) & S::filled_to_edge<opposite(d)>(occ);
}

TEST(OthelloStability, FullLinesOf8x8MatchTheGenericForm) {
  std::mt19937_64 rng(7);
  int full_seen = 0;
  for (int i = 0; i < 200000; ++i) {
    Bits occ = rng();
    for (int k = 0; k < i % 6; ++k) occ |= rng();  // denser boards have full lines
    ASSERT_EQ(FullLines8::horizontal(occ), generic_full<0>(occ)) << std::hex << occ;
    ASSERT_EQ(FullLines8::vertical(occ), generic_full<2>(occ)) << std::hex << occ;
    ASSERT_EQ(FullLines8::diagonal(occ), generic_full<4>(occ)) << std::hex << occ;
    ASSERT_EQ(FullLines8::anti_diagonal(occ), generic_full<5>(occ)) << std::hex << occ;
    full_seen += FullLines8::diagonal(occ) != 0;
  }
  EXPECT_GT(full_seen, 1000);  // the comparison saw full diagonals, not only empty results
}

// Every line (p, o) reachable from the given one by placements of either side, each flipping the
// runs it closes on the line, found by a plain search over a visited set.
std::set<std::pair<unsigned, unsigned>> reachable_lines(unsigned p, unsigned o) {
  std::set<std::pair<unsigned, unsigned>> seen{{p, o}};
  std::vector<std::pair<unsigned, unsigned>> todo{{p, o}};
  while (!todo.empty()) {
    const auto [a, b] = todo.back();
    todo.pop_back();
    for (int x = 0; x < 8; ++x) {
      if ((a | b) >> x & 1) continue;
      for (int side = 0; side < 2; ++side) {
        unsigned me = side ? b : a, them = side ? a : b;
        unsigned flipped = 0;
        for (int dir : {-1, 1}) {
          unsigned run = 0;
          int y = x + dir;
          while (y >= 0 && y < 8 && (them >> y & 1)) {
            run |= 1u << y;
            y += dir;
          }
          if (y >= 0 && y < 8 && (me >> y & 1)) flipped |= run;
        }
        me |= flipped | 1u << x;
        them &= ~flipped;
        const std::pair<unsigned, unsigned> next = side ? std::pair{them, me} : std::pair{me, them};
        if (seen.insert(next).second) todo.push_back(next);
      }
    }
  }
  return seen;
}

TEST(OthelloStability, EdgeTableMatchesASearchOfEveryReachableLine) {
  int lines = 0, stable_discs = 0;
  for (unsigned p = 0; p < 256; ++p)
    for (unsigned o = 0; o < 256; ++o) {
      if (p & o) continue;
      unsigned stable = p;
      for (const auto& [a, b] : reachable_lines(p, o)) stable &= a;
      ASSERT_EQ(
          EdgeStability8::line_stable(static_cast<std::uint8_t>(p), static_cast<std::uint8_t>(o)),
          stable)
          << "p " << p << " o " << o;
      ++lines;
      stable_discs += std::popcount(stable);
    }
  EXPECT_EQ(lines, 6561);
  EXPECT_GT(stable_discs, 5000);
}

// Random games; at each position the stable discs of both sides, then random continuations to
// the end in which none of them may change colour.
TEST(OthelloStability, StableDiscsNeverFlipInRandomContinuations) {
  std::mt19937_64 rng(11);
  auto random_move = [&rng](Bits moves) {
    int k = static_cast<int>(rng() % static_cast<std::uint64_t>(std::popcount(moves)));
    for (; k > 0; --k) moves &= moves - 1;
    return std::countr_zero(moves);
  };
  long checked = 0, edge_only = 0;
  for (int game = 0; game < 300; ++game) {
    Bits p = 0x0000000810000000ULL, o = 0x0000001008000000ULL;
    while (legal_moves<8>(p, o) | legal_moves<8>(o, p)) {
      const Bits sp = Stability<8>::stable(p, o), so = Stability<8>::stable(o, p);
      checked += std::popcount(sp | so);
      edge_only += std::popcount(EdgeStability8::stable(p, o) & ~0x8100000000000081ULL);
      for (int run = 0; run < 4 && (sp | so); ++run) {
        Bits a = p, b = o;  // a holds p's discs whoever is to move
        bool p_to_move = true;
        while (legal_moves<8>(a, b) | legal_moves<8>(b, a)) {
          Bits& me = p_to_move ? a : b;
          Bits& them = p_to_move ? b : a;
          const Bits moves = legal_moves<8>(me, them);
          if (moves) {
            const int sq = random_move(moves);
            const Bits f = flips<8>(me, them, sq);
            me |= f | bit(sq);
            them &= ~f;
          }
          p_to_move = !p_to_move;
          ASSERT_EQ(a & sp, sp) << "a stable disc of the mover flipped";
          ASSERT_EQ(b & so, so) << "a stable disc of the other side flipped";
        }
      }
      const Bits moves = legal_moves<8>(p, o);
      if (moves) {
        const int sq = random_move(moves);
        const Bits f = flips<8>(p, o, sq);
        const Bits np = o & ~f;
        o = p | f | bit(sq);
        p = np;
      } else {
        std::swap(p, o);
      }
    }
  }
  EXPECT_GT(checked, 100000);
  EXPECT_GT(edge_only, 10000);  // the edge table's own discs were among them
}

// The 8x8 form (edge table, then the rule on the inner squares) finds every disc the rule alone
// finds over the whole board, and more.
TEST(OthelloStability, EightByEightFormFindsEveryDiscOfThePlainRule) {
  std::mt19937_64 rng(5);
  long plain = 0, more = 0;
  for (int game = 0; game < 300; ++game) {
    Bits p = 0x0000000810000000ULL, o = 0x0000001008000000ULL;
    while (legal_moves<8>(p, o) | legal_moves<8>(o, p)) {
      const Bits rule = Stability<8>::by_rule(p, o), fast = Stability<8>::stable(p, o);
      ASSERT_EQ(rule & ~fast, 0u) << std::hex << p << " " << o;
      plain += std::popcount(rule);
      more += std::popcount(fast & ~rule);
      Bits moves = legal_moves<8>(p, o);
      if (!moves) {
        std::swap(p, o);
        continue;
      }
      for (int k = static_cast<int>(rng() % static_cast<std::uint64_t>(std::popcount(moves)));
           k > 0; --k)
        moves &= moves - 1;
      const int sq = std::countr_zero(moves);
      const Bits f = flips<8>(p, o, sq);
      const Bits np = o & ~f;
      o = p | f | bit(sq);
      p = np;
    }
  }
  EXPECT_GT(plain, 10000);
  EXPECT_GT(more, 1000);
}

}  // namespace
