// Breadth-first levels from the start: the fast engine's states against a breadth-first search
// run on the reference rules alone (grid boards, the full previous position, symmetry by
// coordinate maps), and the published levels where they agree.
#include <gtest/gtest.h>

#include <set>

#include "tests/ostle/reference.hpp"
#include "tests/test_util.hpp"
#include "zermelo/engine/bfs.hpp"
#include "zermelo/games/ostle/game.hpp"

namespace {

// A reference state's identity: the board and the one move the repetition rule forbids (if any),
// both brought to the smallest image over the 8 symmetries.
std::string identity(const ostle_ref::Board& b, const std::optional<ostle_ref::Board>& before) {
  std::vector<ostle_ref::Move> all = ostle_ref::legal_moves(b, std::nullopt);
  std::vector<ostle_ref::Move> allowed = ostle_ref::legal_moves(b, before);
  int forbidden = -1;
  for (const auto& m : all)
    if (std::find(allowed.begin(), allowed.end(), m) == allowed.end())
      forbidden = m.file * 100 + m.rank * 10 + m.dir;
  std::string best;
  for (int g = 0; g < 8; ++g) {
    ostle_ref::Board t = ostle_ref::transform(b, g);
    std::string id = ostle_ref::to_text(t);
    if (forbidden >= 0) {
      // Mark the forbidden move's square and find where the symmetry sends it and its direction.
      ostle_ref::Board mark{}, dir_mark{};
      for (auto& col : mark.grid) col.fill('.');
      for (auto& col : dir_mark.grid) col.fill('.');
      const int f = forbidden / 100, r = forbidden / 10 % 10, d = forbidden % 10;
      const int df[4] = {0, 0, -1, 1}, dr[4] = {-1, 1, 0, 0};
      mark.grid[f][r] = 'x';
      const int tf = f + df[d], tr = r + dr[d];
      if (tf >= 0 && tf < 5 && tr >= 0 && tr < 5)
        dir_mark.grid[tf][tr] = 'x';
      else
        dir_mark.grid[f][r] = 'o';  // off-board moves are never forbidden; keep it unique anyway
      id += "|" + ostle_ref::to_text(ostle_ref::transform(mark, g)) + "|" +
            ostle_ref::to_text(ostle_ref::transform(dir_mark, g));
    }
    if (best.empty() || id < best) best = id;
  }
  return best;
}

std::vector<std::uint64_t> reference_levels(int max_ply) {
  struct S {
    ostle_ref::Board b;
    std::optional<ostle_ref::Board> before;
  };
  const ostle_ref::Board start = ostle_ref::from_text("11111-00000-00300-00000-22222");
  std::set<std::string> seen{identity(start, std::nullopt)};
  std::vector<S> frontier{{start, std::nullopt}};
  std::vector<std::uint64_t> levels{1};
  for (int ply = 1; ply <= max_ply; ++ply) {
    std::vector<S> next;
    for (const S& s : frontier)
      for (const auto& m : ostle_ref::legal_moves(s.b, s.before)) {
        const ostle_ref::Played q = ostle_ref::play(s.b, m);
        if (q.result != ostle_ref::Result::kContinues) continue;
        if (seen.insert(identity(q.next, s.b)).second) next.push_back(S{q.next, s.b});
      }
    levels.push_back(next.size());
    frontier.swap(next);
  }
  return levels;
}

}  // namespace

TEST(OstleBfs, LevelsFromTheStartMatchTheReferenceSearch) {
  const std::vector<std::uint64_t> fast = zermelo::ostle::bfs_levels(4);
  EXPECT_EQ(fast, reference_levels(4));
  EXPECT_EQ(fast, (std::vector<std::uint64_t>{1, 9, 99, 924, 6295}));
}

TEST(OstleBfs, PublishedLevelsAgreeAtPliesZeroAndOneOnly) {
  // The paper's levels are 1, 9, 102, 954, 6329, 33052. Under the rules as written (the exact
  // previous board is forbidden, the forbidden move is not played) only plies 0 and 1 agree; the
  // paper's come from the published solver's reading (the test below and docs/ostle.md).
  const std::vector<std::uint64_t> levels = zermelo::ostle::bfs_levels(5);
  EXPECT_EQ(levels[0], 1u);
  EXPECT_EQ(levels[1], 9u);
  EXPECT_EQ(levels[5], 32962u);
}

TEST(OstleBfs, PublishedReadingGivesThePapersLevelsOutOfCore) {
  // The published search through the out-of-core pipeline: that reading of the repetition rule,
  // the forbidden move played, checkmate states expanded. The paper's plies 0-7.
  zermelo::testing::ScratchDir dir;
  auto game = zermelo::make_game("ostle", {"reference", "play-restricted"});
  zermelo::BfsOptions o;
  o.job_dir = dir / "bfs";
  o.max_ply = 7;
  o.expand_decided = true;
  const zermelo::BfsResult r = zermelo::breadth_first(*game, o);
  EXPECT_EQ(r.new_states,
            (std::vector<std::uint64_t>{1, 9, 102, 954, 6329, 33052, 147620, 556811}));
  // The rules as written with the same options are not the paper's from ply 2 on.
  auto exact = zermelo::make_game("ostle", {"play-restricted"});
  o.job_dir = dir / "exact";
  o.max_ply = 3;
  EXPECT_EQ(zermelo::breadth_first(*exact, o).new_states,
            (std::vector<std::uint64_t>{1, 9, 102, 946}));
}
