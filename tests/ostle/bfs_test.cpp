// Breadth-first levels from the start against the published figures.
#include <gtest/gtest.h>

#include "zermelo/games/ostle/game.hpp"

TEST(OstleBfs, LevelsFromTheStartMatchThePaper) {
  const std::vector<std::uint64_t> expected = {1, 9, 102, 954, 6329, 33052};
  EXPECT_EQ(zermelo::ostle::bfs_levels(5), expected);
}
