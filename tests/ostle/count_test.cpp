// Counting positions, checkmates and states by class: the 4v4 tier against the published
// checkmate count (the full 2.7e9 count is a bench: bench/results/ostle.md).
#include <gtest/gtest.h>

#include "zermelo/games/ostle/count.hpp"

using namespace zermelo::ostle;

TEST(OstleCount, FourVersusFourMatchesThePublishedCheckmates) {
  std::vector<int> classes;
  for (int h = 0; h < kHoleClasses; ++h) classes.push_back(class_id(material_of(4, 4), h));
  const auto counts = count_classes(classes, 2);
  StateCounts total;
  for (const auto& c : counts) total += c;
  EXPECT_EQ(total.positions, 160900185u);
  EXPECT_EQ(total.checkmates, 84616783u);
  EXPECT_GT(total.states, total.positions);
  EXPECT_LT(total.nontrivial_states, total.states);
}

TEST(OstleCount, ChunksAddUpToTheWholeClass) {
  // One class counted in one piece and in uneven ranges gives the same numbers.
  const int cls = class_id(material_of(5, 4), 5);
  const std::uint64_t n = PositionIndex::get().size(cls);
  const StateCounts whole = count_range(cls, 0, n);
  StateCounts parts;
  for (std::uint64_t lo = 0; lo < n; lo += 3333331) parts += count_range(cls, lo, std::min(n, lo + 3333331));
  EXPECT_EQ(whole.positions, n);
  EXPECT_EQ(parts.positions, whole.positions);
  EXPECT_EQ(parts.checkmates, whole.checkmates);
  EXPECT_EQ(parts.states, whole.states);
  EXPECT_EQ(parts.nontrivial_states, whole.nontrivial_states);
}
