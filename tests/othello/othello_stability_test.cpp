// The solver's 8x8 full-line shortcut (stability.hpp) against the generic step-by-step form: a
// wrong mask there would count flippable discs as stable and cut the search at a wrong bound.
#include <gtest/gtest.h>

#include <random>

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

}  // namespace
