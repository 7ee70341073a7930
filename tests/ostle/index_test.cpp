// The dense index against the published position counts, and rank/unrank round trips.
#include <gtest/gtest.h>

#include <random>

#include "zermelo/games/ostle/index.hpp"

using namespace zermelo::ostle;

namespace {
// Positions per class from the spec (Takizawa 2023), rows a1 a2 a3 b2 b3 c3, columns by material
// in this module's order 4v4, 4v5, 5v4, 5v5.
constexpr std::uint64_t kPublished[6][4] = {
    {25744590, 82378152, 82378152, 247127256}, {51482970, 164745504, 164745504, 494236512},
    {25744590, 82378152, 82378152, 247127256}, {25744590, 82378152, 82378152, 247127256},
    {25744590, 82378152, 82378152, 247127256}, {6438855, 20598588, 20598588, 61788564}};
}  // namespace

TEST(OstleIndex, ClassSizesMatchThePublishedTable) {
  const auto& index = PositionIndex::get();
  std::uint64_t total = 0;
  std::uint64_t by_material[4] = {};
  for (int cls = 0; cls < kClasses; ++cls) {
    EXPECT_EQ(index.size(cls), kPublished[class_hole_index(cls)][class_material(cls)]) << class_name(cls);
    total += index.size(cls);
    by_material[class_material(cls)] += index.size(cls);
  }
  EXPECT_EQ(by_material[0], 160900185u);
  EXPECT_EQ(by_material[1], 514856700u);
  EXPECT_EQ(by_material[2], 514856700u);
  EXPECT_EQ(by_material[3], 1544534100u);
  EXPECT_EQ(total, 2735147685u);
}
