// Breadth-first levels from the start of small-board Ostle under both readings of the repetition
// rule, with and without the published search's options (the forbidden move played, checkmate
// states expanded): the out-of-core search against a plain search on the literal grid rules
// (tests/ostle/mini_reference.hpp), which names each state by its text and finds the forbidden
// move by playing every move of the board (the exact previous board, or one congruent to it).
#include <gtest/gtest.h>

#include <unordered_set>

#include "tests/ostle/mini_reference.hpp"
#include "tests/test_util.hpp"
#include "zermelo/engine/bfs.hpp"
#include "zermelo/games/ostle/mini.hpp"

namespace {

using ostle_mini_ref::Grid;
using ostle_mini_ref::Result;

// The boards a move may not recreate: `before` itself, or with `published` every board congruent
// to it (its images, made once a parent rather than once a move of each of its children).
std::vector<Grid> boards_like(const Grid& before, bool published) {
  return published ? ostle_mini_ref::images(before) : std::vector<Grid>{before};
}

struct Search {
  bool published = false;        // the forbidden move: first move to a board congruent to before
  bool play_restricted = false;  // the forbidden move is played all the same
  bool expand_checkmates = false;
};

// The state `now` is in after a move from `before` (`like_before`: boards_like(before)): its text
// and the forbidden move's name.
std::pair<std::string, std::string> state_of(const Grid& now, const std::vector<Grid>& like_before,
                                             int lose_at) {
  for (const auto& m : ostle_mini_ref::legal_moves(now, std::nullopt, lose_at)) {
    const auto q = ostle_mini_ref::play(now, m, lose_at);
    if (q.result != Result::kContinues) continue;
    if (ostle_mini_ref::one_of(q.next, like_before))
      return {ostle_mini_ref::to_text(now) + ":" + ostle_mini_ref::move_text(m),
              ostle_mini_ref::move_text(m)};
  }
  return {ostle_mini_ref::to_text(now), ""};
}

std::vector<std::uint64_t> plain_levels(int p, const Grid& start, const Search& s) {
  const int lose_at = p - 2;
  struct Node {
    Grid board;
    std::string forbidden;
  };
  std::unordered_set<std::string> seen{ostle_mini_ref::to_text(start)};
  std::vector<Node> frontier{{start, ""}};
  std::vector<std::uint64_t> levels{1};
  while (true) {
    std::vector<Node> next;
    for (const Node& n : frontier) {
      if (!s.expand_checkmates && ostle_mini_ref::is_checkmate(n.board, std::nullopt, lose_at))
        continue;
      const std::vector<Grid> like_parent = boards_like(n.board, s.published);
      for (const auto& m : ostle_mini_ref::legal_moves(n.board, std::nullopt, lose_at)) {
        if (!s.play_restricted && ostle_mini_ref::move_text(m) == n.forbidden) continue;
        const auto q = ostle_mini_ref::play(n.board, m, lose_at);
        if (q.result != Result::kContinues) continue;
        auto [id, forbidden] = state_of(q.next, like_parent, lose_at);
        if (seen.insert(id).second) next.push_back(Node{q.next, forbidden});
      }
    }
    if (next.empty()) return levels;
    levels.push_back(next.size());
    frontier.swap(next);
  }
}

void expect_levels(const std::string& variant, const Search& s) {
  const auto r = zermelo::ostle::mini::Rules::from_variant(variant);
  std::vector<std::string> options{variant};
  if (s.published) options.push_back("reference");
  if (s.play_restricted) options.push_back("play-restricted");
  auto game = zermelo::make_game("ostle-mini", options);
  zermelo::testing::ScratchDir dir;
  zermelo::BfsOptions o;
  o.job_dir = dir / "bfs";
  o.expand_decided = s.expand_checkmates;
  o.memory_bytes = 256ull << 20;
  const zermelo::BfsResult got = zermelo::breadth_first(*game, o);
  const Grid start = ostle_mini_ref::from_text(r.width(), r.height(), r.to_text(r.start(), 0));
  const std::vector<std::uint64_t> want = plain_levels(r.pieces(), start, s);
  EXPECT_EQ(got.new_states, want) << game->variant() << (s.expand_checkmates ? " expanded" : "");
  EXPECT_GT(want.size(), 5u) << variant;
}

TEST(OstleMiniBfs, LevelsOfBothReadingsMatchAPlainSearch) {
  ZERMELO_RELEASE_ONLY_SCALE_TEST();
  for (const char* v : {"3x3:p3", "3x4:p2", "4x3:p2"}) {
    for (bool published : {false, true}) {
      expect_levels(v, Search{published, false, false});
      expect_levels(v, Search{published, true, true});  // the published search's options
    }
  }
}

}  // namespace
