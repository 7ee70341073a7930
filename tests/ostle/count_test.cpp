// Counting positions, checkmates and states by class: the 4v4 tier against the published
// checkmate count (the full 2.7e9 count is a bench: bench/results/ostle.md).
#include <gtest/gtest.h>

#include "tests/test_util.hpp"
#include "zermelo/games/ostle/count.hpp"
#include "zermelo/games/ostle/game.hpp"
#include "zermelo/games/ostle/symmetry.hpp"

using namespace zermelo::ostle;

// 160 million positions: a test of the figure; the counting's code paths are the smaller
// tests' below.
TEST(OstleCount, FourVersusFourMatchesThePublishedCheckmates) {
  ZERMELO_RELEASE_ONLY_SCALE_TEST();
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
  for (std::uint64_t lo = 0; lo < n; lo += 3333331)
    parts += count_range(cls, lo, std::min(n, lo + 3333331));
  EXPECT_EQ(whole.positions, n);
  EXPECT_EQ(parts.positions, whole.positions);
  EXPECT_EQ(parts.checkmates, whole.checkmates);
  EXPECT_EQ(parts.states, whole.states);
  EXPECT_EQ(parts.nontrivial_states, whole.nontrivial_states);
}

TEST(OstleCount, StatesOfTheMostSymmetricClassMatchBurnside) {
  ZERMELO_RELEASE_ONLY_SCALE_TEST();  // 51 million placements of plain arithmetic
  // 4v4 with the hole on c3 (all 8 symmetries fix the hole): the number of states up to symmetry
  // is the average over the symmetries of the raw (position, forbidden code) pairs each fixes,
  // counted here over every raw placement without the index or the canonical forms.
  const int hole = kHoleReps[5];
  const int cls = class_id(material_of(4, 4), 5);
  const Bits free = kBoardMask & ~bit(hole);
  std::uint64_t fixed_states = 0, fixed_nontrivial = 0;
  for (Bits me_c = 0xF; me_c < (1u << 24); me_c = next_combination(me_c)) {
    const Bits me = pdep(me_c, free);
    for (Bits opp_c = 0xF; opp_c < (1u << 20); opp_c = next_combination(opp_c)) {
      const Position p{me, pdep(opp_c, free & ~me), hole};
      const bool mate = is_checkmate(p);
      std::uint64_t n =
          static_cast<std::uint64_t>(reachable_forbid_count(p));  // the identity fixes all
      for (int g = 1; g < kSymmetries; ++g) {
        if (sym_bits(g, p.me) != p.me || sym_bits(g, p.opp) != p.opp) continue;
        for (int code : reachable_forbid_codes(p)) n += sym_forbid(g, code) == code;
      }
      fixed_states += n;
      if (!mate) fixed_nontrivial += n;
    }
  }
  ASSERT_EQ(fixed_states % 8, 0u);
  const StateCounts c = count_range(cls, 0, PositionIndex::get().size(cls));
  EXPECT_EQ(c.states, fixed_states / 8);
  EXPECT_EQ(c.nontrivial_states, fixed_nontrivial / 8);
}

TEST(OstleCount, ForbiddingStatesAreTheEnumeratedKeysWithACode) {
  // Under both readings, the counts against the keys the game enumerates for the same ranks: a
  // range of 5v4 with the hole on a2 (checkmates and symmetric boards among them), and one of 5v5
  // from a board that no move can leave without an undo (its only states forbid something).
  const Position walled =
      canonical_position(*parse_position("22100-22300-21000-10001-00001", nullptr)).pos;
  const int walled_cls = class_of(walled);
  const std::uint64_t walled_rank = PositionIndex::get().rank(walled);
  struct Range {
    int cls;
    std::uint64_t lo, hi;
  };
  for (const Range& r : {Range{class_id(material_of(5, 4), 1), 1000000, 1150000},
                         Range{walled_cls, walled_rank, walled_rank + 3000}})
    for (Reading reading : {Reading::kExact, Reading::kPublished}) {
      const StateCounts c = count_range(r.cls, r.lo, r.hi, reading);
      std::uint64_t states = 0, forbidding = 0, nontrivial = 0, nontrivial_forbidding = 0;
      enumerate_states(
          r.cls, r.lo, r.hi,
          [&](zermelo::StateKey k) {
            const auto [p, code] = key_state(k);
            const bool mate = is_checkmate(p);
            ++states, forbidding += code != kNoForbidden;
            if (!mate) ++nontrivial, nontrivial_forbidding += code != kNoForbidden;
          },
          reading);
      EXPECT_EQ(c.states, states);
      EXPECT_EQ(c.forbidding_states, forbidding);
      EXPECT_EQ(c.nontrivial_states, nontrivial);
      EXPECT_EQ(c.nontrivial_forbidding, nontrivial_forbidding);
      EXPECT_GT(c.nontrivial_forbidding, 0u);
      EXPECT_LT(c.nontrivial_forbidding, c.nontrivial_states);
    }
}
