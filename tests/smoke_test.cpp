#include <gtest/gtest.h>

#include "zermelo/game.hpp"
#include "zermelo/util/size.hpp"

TEST(Size, ParsesUnits) {
  EXPECT_EQ(zermelo::parse_size("512M"), 512ull << 20);
  EXPECT_EQ(zermelo::parse_size("4G"), 4ull << 30);
  EXPECT_EQ(zermelo::parse_size("1GiB"), 1ull << 30);
  EXPECT_THROW(zermelo::parse_size("lots"), std::invalid_argument);
  EXPECT_THROW(zermelo::parse_size("4X"), std::invalid_argument);
}

TEST(Registry, KnowsTicTacToe) {
  auto g = zermelo::make_game("tictactoe");
  EXPECT_EQ(g->name(), "tictactoe");
  EXPECT_THROW(zermelo::make_game("chess"), std::invalid_argument);
}
