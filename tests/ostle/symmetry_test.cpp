// The board's symmetries on whole bitboards (shifts and masks, symmetry.hpp) against the plain
// statement: each square carried to its image one at a time, for every symmetry, on random and
// on one-square bitboards; and the eight maps form the group (each one's inverse is among them).
#include <gtest/gtest.h>

#include <bit>
#include <random>
#include <vector>

#include "zermelo/games/ostle/published.hpp"
#include "zermelo/games/ostle/symmetry.hpp"

namespace {

using namespace zermelo::ostle;

Bits image_square_by_square(int g, Bits b) {
  Bits out = 0;
  for (int s = 0; s < kSquares; ++s)
    if (b & bit(s)) out |= bit(sym_square(g, s));
  return out;
}

TEST(OstleSymmetry, BitboardImagesAreTheSquaresImages) {
  std::mt19937 rng(11);
  for (int g = 0; g < kSymmetries; ++g) {
    for (int s = 0; s < kSquares; ++s)
      EXPECT_EQ(sym_bits(g, bit(s)), image_square_by_square(g, bit(s)));
    for (int i = 0; i < 20000; ++i) {
      const Bits b = static_cast<Bits>(rng()) & kBoardMask;
      ASSERT_EQ(sym_bits(g, b), image_square_by_square(g, b)) << "g " << g << " board " << b;
    }
    EXPECT_EQ(sym_bits(g, kBoardMask), kBoardMask);
  }
}

TEST(OstleSymmetry, TheMapsAreTheEightSymmetriesOfTheSquare) {
  // Corner a1 goes to each corner twice, and every map has an inverse among the eight.
  int corner_images[kSquares] = {};
  for (int g = 0; g < kSymmetries; ++g) {
    ++corner_images[sym_square(g, square_at(0, 0))];
    bool inverse = false;
    for (int h = 0; h < kSymmetries; ++h) {
      bool identity = true;
      for (int s = 0; s < kSquares; ++s) identity &= sym_square(h, sym_square(g, s)) == s;
      inverse |= identity;
    }
    EXPECT_TRUE(inverse) << "g " << g;
  }
  for (int corner : {square_at(0, 0), square_at(0, 4), square_at(4, 0), square_at(4, 4)})
    EXPECT_EQ(corner_images[corner], 2);
  EXPECT_EQ(sym_square(4, square_at(1, 3)), square_at(3, 1)) << "4 transposes";
  EXPECT_EQ(sym_square(1, square_at(1, 3)), square_at(3, 3)) << "1 mirrors the files";
  EXPECT_EQ(sym_square(2, square_at(1, 3)), square_at(1, 1)) << "2 mirrors the ranks";
}

// The near-symmetry test's core against the plain definition: some two of the ten lines (files
// and ranks, built from square_at) cover the set. Every set of up to six squares, and random
// larger ones up to the eleven that no two lines hold.
TEST(OstleSymmetry, WithinTwoLinesIsCoveredByTwoFilesOrRanks) {
  std::vector<Bits> lines;
  for (int i = 0; i < 5; ++i) {
    Bits file = 0, rank = 0;
    for (int j = 0; j < 5; ++j) file |= bit(square_at(i, j)), rank |= bit(square_at(j, i));
    lines.push_back(file), lines.push_back(rank);
  }
  const auto covered = [&](Bits set) {
    for (Bits a : lines)
      for (Bits b : lines)
        if (!(set & ~(a | b))) return true;
    return false;
  };
  std::vector<Bits> sets{0};
  for (int k = 0; k < 6; ++k) {  // sets of k + 1 squares from those of k, each once
    const std::size_t from = sets.size();
    for (std::size_t i = 0; i < from; ++i)
      if (std::popcount(sets[i]) == k)
        for (int s = std::bit_width(sets[i]); s < kSquares; ++s) sets.push_back(sets[i] | bit(s));
  }
  ASSERT_EQ(sets.size(), 245506u);  // C(25, 0) + ... + C(25, 6)
  std::mt19937 rng(7);
  for (int i = 0; i < 200000; ++i) {
    Bits set = 0;
    for (int n = 7 + static_cast<int>(rng() % 5); std::popcount(set) < n;)
      set |= bit(static_cast<int>(rng() % 25));
    sets.push_back(set);
  }
  int within = 0;
  for (Bits set : sets) {
    ASSERT_EQ(within_two_lines(set), covered(set)) << std::hex << set;
    within += covered(set);
  }
  EXPECT_GT(within, 20000);  // both answers occur often
}

}  // namespace
