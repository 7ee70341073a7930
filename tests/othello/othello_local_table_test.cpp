// The solver's per-thread table (local_table.hpp): a wrong hit there (a free slot taken for the
// empty board, another empties count's slot, bounds replaced instead of intersected) would cut
// the search at a wrong bound, which the FFO scores would catch only by luck.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "src/games/othello/local_table.hpp"

using namespace zermelo::othello;

namespace {

using Small = LocalTable<7, 9, 4>;  // 3 empties counts of 16 slots: collisions are frequent

TEST(OthelloLocalTable, AFreshTableHoldsNothingNotEvenTheEmptyBoard) {
  Small t;
  TTEntry e;
  EXPECT_FALSE(t.probe(0, 0, 7, e));
  EXPECT_FALSE(t.probe(0x10, 0x20, 9, e));
}

TEST(OthelloLocalTable, ABoundOfOneEmptiesCountIsNotFoundUnderAnother) {
  Small t;
  t.store(0x10, 0x20, 8, 4, 127, 12);
  TTEntry e;
  ASSERT_TRUE(t.probe(0x10, 0x20, 8, e));
  EXPECT_EQ(e.lower, 4);
  EXPECT_EQ(e.upper, 127);
  EXPECT_EQ(e.move, 12);
  EXPECT_FALSE(t.probe(0x10, 0x20, 7, e));
  EXPECT_FALSE(t.probe(0x10, 0x20, 9, e));
}

TEST(OthelloLocalTable, BoundsOfOnePositionIntersectAndKeepTheirMove) {
  Small t;
  t.store(0x10, 0x20, 8, 4, 127, 12);    // value >= 4, best move 12
  t.store(0x10, 0x20, 8, -127, 10, -1);  // value <= 10, no move found
  TTEntry e;
  ASSERT_TRUE(t.probe(0x10, 0x20, 8, e));
  EXPECT_EQ(e.lower, 4);
  EXPECT_EQ(e.upper, 10);
  EXPECT_EQ(e.move, 12);
}

// Against plain arrays of every bound stored: a hit holds bounds stored for that very position and
// empties count (some may have been lost to collisions, so it is at most as tight as all of them
// together), and so brackets the position's value; misses are allowed.
TEST(OthelloLocalTable, EveryHitIsABoundStoredForThatPosition) {
  Small t;
  std::mt19937_64 rng(25);
  struct Key {
    Bits p, o;
    int n;
  };
  std::vector<Key> keys;
  for (int i = 0; i < 200; ++i) keys.push_back({rng() & rng(), rng() & rng(), 7 + i % 3});
  std::vector<int> lower(keys.size(), -127), upper(keys.size(), 127);
  int hits = 0;
  for (int step = 0; step < 20000; ++step) {
    const std::size_t k = rng() % keys.size();
    // One exact value a position, so every stored bound brackets it, as in a real search.
    const int value = static_cast<int>(keys[k].p % 65) - 32;
    const int cut = value + static_cast<int>(rng() % 9) - 4;
    const Key& key = keys[k];
    TTEntry e;
    if (t.probe(key.p, key.o, key.n, e)) {
      ++hits;
      ASSERT_LE(e.lower, lower[k]);
      ASSERT_GE(e.upper, upper[k]);
      ASSERT_LE(e.lower, value);
      ASSERT_GE(e.upper, value);
    }
    const bool low = cut <= value;  // "value >= cut" or "value <= cut"
    t.store(key.p, key.o, key.n, low ? cut : -127, low ? 127 : cut, static_cast<int>(k % 64));
    if (low)
      lower[k] = std::max(lower[k], cut);
    else
      upper[k] = std::min(upper[k], cut);
  }
  EXPECT_GT(hits, 100);  // the table does answer
}

}  // namespace
