// Small-board Ostle under the published solver's reading of the repetition rule, against a
// plain implementation of that rule on the literal grid rules (tests/ostle/mini_reference.hpp):
// the states that exist, every state's children, the solve, and the 5x5 module's reading.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>

#include "tests/ostle/crosscheck.hpp"
#include "tests/ostle/mini_reference.hpp"
#include "tests/ostle/plain_fixpoint.hpp"
#include "tests/test_util.hpp"
#include "zermelo/engine/retrograde.hpp"
#include "zermelo/games/ostle/board.hpp"
#include "zermelo/games/ostle/game.hpp"
#include "zermelo/games/ostle/mini.hpp"
#include "zermelo/games/ostle/published.hpp"

namespace {

using ostle_mini_ref::class_of;
using ostle_mini_ref::Grid;
using ostle_mini_ref::Result;

// The state a move from `before` into `now` leaves: `now`, and the first move of `now` whose
// result is in `before`'s class (none if no move is).
std::string state_text(const Grid& now, const Grid& before, int lose_at) {
  const std::vector<Grid> before_class = ostle_mini_ref::images(before);
  for (const auto& m : ostle_mini_ref::legal_moves(now, std::nullopt, lose_at)) {
    const auto q = ostle_mini_ref::play(now, m, lose_at);
    if (q.result == Result::kContinues && ostle_mini_ref::one_of(q.next, before_class))
      return ostle_mini_ref::to_text(now) + ":" + ostle_mini_ref::move_text(m);
  }
  return ostle_mini_ref::to_text(now);
}

// Every state some board's move produces (checkmate boards' moves included).
std::set<std::string> produced(int w, int h, int p) {
  std::set<std::string> out;
  for (const Grid& g : ostle_mini_ref::all_grids(w, h, p))
    for (const auto& m : ostle_mini_ref::legal_moves(g, std::nullopt, p - 2)) {
      const auto q = ostle_mini_ref::play(g, m, p - 2);
      if (q.result == Result::kContinues) out.insert(state_text(q.next, g, p - 2));
    }
  return out;
}

std::unique_ptr<zermelo::Game> published_game(const char* variant) {
  return zermelo::make_game("ostle-mini", {variant, "reference"});
}

TEST(OstleMiniPublished, StatesAreThoseSomeMoveProducesUpToSymmetry) {
  std::size_t mirrored = 0;
  std::vector<const char*> boards = {"3x3:p2", "3x3:p3"};
  if (!zermelo::testing::kSanitized) boards.insert(boards.end(), {"3x4:p2", "4x3:p2"});
  for (const char* v : boards) {
    const auto r = zermelo::ostle::mini::Rules::from_variant(v);
    auto g = published_game(v);
    std::set<std::string> states;
    g->enumerate("all", [&](zermelo::StateKey k) {
      const auto [b, f] = r.decode(k);
      states.insert(r.to_text(b, f));
    });
    const std::set<std::string> expected = produced(r.width(), r.height(), r.pieces());
    EXPECT_EQ(states, expected) << v;
    // States whose forbidden move recreates only a mirror image of the board before.
    auto exact = zermelo::make_game("ostle-mini", {v});
    std::set<zermelo::StateKey> exact_keys;
    exact->enumerate("all", [&](zermelo::StateKey k) { exact_keys.insert(k); });
    g->enumerate("all", [&](zermelo::StateKey k) { mirrored += !exact_keys.count(k); });
  }
  EXPECT_GT(mirrored, 0u);
}

// Each state's children: every legal move but its forbidden one, each leading to the state the
// plain rule gives; moves that end the game agree in value.
TEST(OstleMiniPublished, ChildrenFollowTheSymmetryClassRule) {
  ZERMELO_RELEASE_ONLY_SCALE_TEST();
  for (const char* v : {"3x3:p3", "3x4:p2"}) {
    const auto r = zermelo::ostle::mini::Rules::from_variant(v);
    auto g = published_game(v);
    const int lose_at = r.pieces() - 2;
    std::vector<zermelo::Child> kids;
    std::size_t checked = 0;
    g->enumerate("all", [&](zermelo::StateKey k) {
      const auto [b, f] = r.decode(k);
      const Grid now = ostle_mini_ref::from_text(r.width(), r.height(), r.to_text(b, 0));
      const std::string forbidden = f ? r.to_text(b, f).substr(r.to_text(b, 0).size() + 1) : "";
      std::multiset<std::string> want, got;
      for (const auto& m : ostle_mini_ref::legal_moves(now, std::nullopt, lose_at)) {
        if (ostle_mini_ref::move_text(m) == forbidden) continue;
        const auto q = ostle_mini_ref::play(now, m, lose_at);
        want.insert(q.result == Result::kContinues   ? state_text(q.next, now, lose_at)
                    : q.result == Result::kMoverWins ? "win"
                                                     : "lose");
      }
      g->successors(k, kids);
      for (const auto& c : kids) {
        if (c.is_terminal()) {
          got.insert(c.terminal.is_loss() ? "win" : "lose");
          continue;
        }
        const auto [cb, cf] = r.decode(c.key);
        got.insert(r.to_text(cb, cf));
      }
      ASSERT_EQ(got, want) << v << " " << r.to_text(b, f);
      ++checked;
    });
    EXPECT_GT(checked, 10000u) << v;
  }
}

// The engine (out of core, with this reading's un-moves and with a reverse-edge run) against
// the plain solver (more variants and modes: OstleMiniSolve.ReferenceReading*).
TEST(OstleMiniPublished, EngineMatchesThePlainFixpointSolver) {
  zermelo::testing::ScratchDir dir;
  // Under the sanitizers the same paths with two pieces a side.
  const std::string board = zermelo::testing::release_else_sanitized("3x3:p3", "3x3:p2");
  auto g = published_game(board.c_str());
  EXPECT_TRUE(g->has_predecessors());
  EXPECT_EQ(g->variant(), board + " reference");
  const auto plain = ostle_mini_test::plain_fixpoint_solve(*g);
  ASSERT_TRUE(plain.closed);
  for (bool unmoves : {true, false}) {
    zermelo::SolveOptions o;
    o.job_dir = dir / (unmoves ? "unmoves" : "reverse-edges");
    o.memory_bytes = 256ull << 20;
    o.use_predecessors = unmoves;
    const auto solved = zermelo::load_values(zermelo::solve_retrograde(*g, o).values_path);
    ASSERT_EQ(solved.size(), plain.keys.size());
    for (std::size_t i = 0; i < solved.size(); ++i) {
      ASSERT_EQ(zermelo::StateKey{solved[i].key}, plain.keys[i]);
      ASSERT_EQ(zermelo::Value::from_raw(solved[i].value), plain.values[i])
          << (unmoves ? "un-moves " : "reverse edges ") << g->render(solved[i].key);
    }
  }
}

// On 5x5 with five pieces the mini module under this reading is the 5x5 module's: the same
// states of a board (keys through the 5x5 module's parser) and the same children. Adds the
// board's states to `states`.
namespace {
void expect_5x5_module_agrees(const zermelo::ostle::Position& p, std::size_t& states) {
  using namespace zermelo::ostle;
  static const auto r = mini::Rules::from_variant("5x5:p5");
  static const auto small = published_game("5x5:p5");
  static const auto big = zermelo::make_game("ostle", {"reference"});
  mini::Board board;
  board.hole = p.hole;
  board.cell[static_cast<std::size_t>(p.hole)] = mini::kHole;
  for (int q = 0; q < 25; ++q) {
    if (p.me & bit(q)) board.cell[static_cast<std::size_t>(q)] = mini::kMine;
    if (p.opp & bit(q)) board.cell[static_cast<std::size_t>(q)] = mini::kTheirs;
  }
  std::vector<zermelo::Child> a, b;
  std::set<zermelo::StateKey> mapped, listed;
  for (int code : r.published_forbids(board)) {
    const std::string text = r.to_text(board, code);
    std::string error;
    const auto key = big->parse(text, &error);
    ASSERT_TRUE(key) << text << ": " << error;
    mapped.insert(*key);
    small->successors(r.key(board, code), a);
    big->successors(*key, b);
    std::multiset<std::pair<std::uint16_t, zermelo::StateKey>> x, y;
    for (const auto& c : a) {
      if (c.is_terminal()) {
        x.insert({c.terminal.raw(), 0});
        continue;
      }
      const auto [cb, cf] = r.decode(c.key);
      x.insert({0, *big->parse(r.to_text(cb, cf), nullptr)});
    }
    for (const auto& c : b)
      y.insert({c.is_terminal() ? c.terminal.raw() : 0, c.is_terminal() ? 0 : c.key});
    ASSERT_EQ(x, y) << text;
    ++states;
  }
  const Position canon = canonical_position(p).pos;
  const Key base = make_key(class_of(canon), PositionIndex::get().rank(canon), kNoForbidden);
  for (int code : published_codes(canon)) listed.insert(base | static_cast<Key>(code));
  ASSERT_EQ(mapped, listed) << r.to_text(board, 0);
}
}  // namespace

TEST(OstleMiniPublished, FiveByFiveAgreesWithThe5x5Module) {
  std::mt19937_64 rng(31);
  std::size_t states = 0;
  for (int i = 0; i < 1500 && !HasFailure(); ++i)
    expect_5x5_module_agrees(ostle_check::random_position(rng), states);
  EXPECT_GT(states, 3000u);
}

// The same one and two moves from a symmetric board, where the 5x5 module stops taking a
// board's exact codes for its states and matches classes (published.cpp, near_symmetric).
TEST(OstleMiniPublished, FiveByFiveAgreesWithThe5x5ModuleNearSymmetry) {
  std::mt19937_64 rng(37);
  std::size_t states = 0;
  for (int i = 0; i < 1500 && !HasFailure(); ++i)
    expect_5x5_module_agrees(ostle_check::random_near_symmetric_position(rng, 1 + i % 2), states);
  EXPECT_GT(states, 3000u);
}

TEST(OstleMiniPublished, LevelsFromTheStartAreThePapers) {
  // The published search: this reading, the forbidden move played, checkmate states expanded.
  zermelo::ostle::GameOptions o;
  o.reading = zermelo::ostle::Reading::kPublished;
  o.play_restricted = true;
  EXPECT_EQ(zermelo::ostle::bfs_levels(5, o),
            (std::vector<std::uint64_t>{1, 9, 102, 954, 6329, 33052}));
}

}  // namespace
