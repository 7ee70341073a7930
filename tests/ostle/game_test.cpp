// Ostle behind the Game interface: registry, keys and symmetry, successors against predecessors,
// values of game-ending moves and checkmates, rendering and parsing.
#include "zermelo/games/ostle/game.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <random>
#include <tuple>

#include "tests/ostle/crosscheck.hpp"
#include "tests/test_util.hpp"
#include "zermelo/games/ostle/index.hpp"
#include "zermelo/games/ostle/published.hpp"

using namespace zermelo;
using namespace zermelo::ostle;

namespace {

// A random possibly reachable state, as a canonical key.
StateKey random_state(std::mt19937_64& rng) {
  const Position p = ostle_check::random_position_with_states(rng);
  const ForbidList codes = reachable_forbid_codes(p);
  return state_key(p, codes.codes[rng() % static_cast<std::uint64_t>(codes.size)]).key;
}

// A random state that exists under the published reading (a position without any is redrawn).
StateKey random_published_state(std::mt19937_64& rng) {
  for (;;) {
    const Position p = canonical_position(ostle_check::random_position_with_states(rng)).pos;
    const ForbidList codes = published_codes(p);
    if (codes.size == 0) continue;
    const Key base = make_key(class_of(p), PositionIndex::get().rank(p), kNoForbidden);
    return base | codes.codes[rng() % static_cast<std::uint64_t>(codes.size)];
  }
}

std::size_t count_of(const std::vector<StateKey>& v, StateKey k) {
  return static_cast<std::size_t>(std::count(v.begin(), v.end(), k));
}
std::size_t count_child(const std::vector<Child>& v, StateKey k) {
  return static_cast<std::size_t>(std::count_if(
      v.begin(), v.end(), [&](const Child& c) { return !c.is_terminal() && c.key == k; }));
}

}  // namespace

TEST(OstleGame, IsRegisteredWithTiersBottomUp) {
  auto game = make_game("ostle");
  EXPECT_EQ(game->name(), "ostle");
  const auto tiers = game->tiers();
  ASSERT_EQ(tiers.size(), 3u);
  EXPECT_EQ(tiers[0].name, "4v4");
  EXPECT_EQ(tiers[1].name, "5v4+4v5");
  EXPECT_EQ(tiers[2].name, "5v5");
  EXPECT_EQ(game->tier_of(game->start()), "5v5");
  EXPECT_TRUE(game->has_predecessors());
}

TEST(OstleGame, KeysAreTheSameForEverySymmetricImage) {
  std::mt19937_64 rng(3);
  for (int i = 0; i < 20000; ++i) {
    const Position p = ostle_check::random_position_with_states(rng);
    const ForbidList codes = reachable_forbid_codes(p);
    const int forbid = codes.codes[rng() % static_cast<std::uint64_t>(codes.size)];
    const Key k = state_key(p, forbid).key;
    for (int g = 0; g < kSymmetries; ++g)
      ASSERT_EQ(state_key(sym_position(g, p), sym_forbid(g, forbid)).key, k);
    // The key's representative is the same position up to symmetry (checked by the reference).
    const auto [rep, rep_forbid] = key_state(k);
    EXPECT_TRUE(ostle_ref::equivalent(ostle_ref::from_text(to_text(rep)),
                                      ostle_ref::from_text(to_text(p))));
    EXPECT_EQ(state_key(rep, rep_forbid).key, k);
  }
}

// Forward: every child c of s has s among its predecessors as often as c among s's children
// (checkmate parents are left out of predecessors: their value is fixed by the rules). Backward:
// every predecessor p of s has s among its successors as often. Returns the edges checked.
std::size_t expect_edges_agree_at(const Game& game, StateKey s) {
  std::vector<Child> kids, kids2;
  std::vector<StateKey> preds, preds2;
  std::size_t edges = 0;
  game.successors(s, kids);
  const bool listed = !game.terminal_value(s).is_known();
  for (const Child& c : kids) {
    if (c.is_terminal()) continue;
    game.predecessors(c.key, preds);
    EXPECT_EQ(count_of(preds, s), listed ? count_child(kids, c.key) : 0u)
        << game.render(s) << game.render(c.key);
    ++edges;
  }
  game.predecessors(s, preds2);
  for (StateKey p : preds2) {
    game.successors(p, kids2);
    EXPECT_EQ(count_child(kids2, s), count_of(preds2, p)) << game.render(p) << game.render(s);
    ++edges;
  }
  return edges;
}

// Edges both ways at 3000 random states of a reading (checkmate parents left out).
void expect_edges_agree_at_random_states(Reading reading, std::uint64_t seed) {
  auto game = make_ostle_game(GameOptions{reading, false});
  std::mt19937_64 rng(seed);
  std::size_t edges = 0;
  for (int i = 0; i < 3000 && !::testing::Test::HasFailure(); ++i) {
    const StateKey s = reading == Reading::kExact ? random_state(rng) : random_published_state(rng);
    edges += expect_edges_agree_at(*game, s);
  }
  EXPECT_GT(edges, 50000u);
}

TEST(OstleGame, PredecessorsAndSuccessorsAgree) {
  expect_edges_agree_at_random_states(Reading::kExact, 5);
}

// The published reading's un-moves (published_parents) against its successors.
TEST(OstleGame, PublishedReadingPredecessorsAndSuccessorsAgree) {
  expect_edges_agree_at_random_states(Reading::kPublished, 7);
}

TEST(OstleGame, SymmetricStatesCountMovesWithMultiplicity) {
  // The start is mirror-symmetric: b1D and d1D lead to the same state, listed twice.
  auto game = make_ostle_game();
  std::vector<Child> kids;
  game->successors(game->start(), kids);
  ASSERT_EQ(kids.size(), 24u);
  std::vector<StateKey> preds;
  std::map<StateKey, int> times;
  for (const Child& c : kids)
    if (!c.is_terminal()) ++times[c.key];
  EXPECT_EQ(times.size(), 9u);  // the 9 states of ply 1
  for (auto [c, n] : times) {
    game->predecessors(c, preds);
    EXPECT_EQ(static_cast<int>(count_of(preds, game->start())), n) << game->render(c);
  }
}

TEST(OstleGame, ValuesOfCheckmatesAndGameEndingMoves) {
  auto game = make_ostle_game();
  std::string error;
  // The mover can push their a5 piece off: a checkmate position, decided as win in 0.
  auto mate = game->parse("10000-10000-10003-20000-22211", &error);
  ASSERT_TRUE(mate.has_value()) << error;
  EXPECT_EQ(game->terminal_value(*mate), Value::win(0));
  std::vector<Child> kids;
  game->successors(*mate, kids);
  bool wins = false;
  for (std::size_t i = 0; i < kids.size(); ++i)
    if (kids[i].is_terminal() && kids[i].terminal == Value::loss(0)) {
      wins = true;
      EXPECT_EQ(game->move_name(*mate, i).size(), 3u);
    }
  EXPECT_TRUE(wins);
  // With four pieces, moving one's own piece off loses: the next mover has won (loss in 1 here).
  auto four = game->parse("11110-00000-00300-00000-22222", &error);
  ASSERT_TRUE(four.has_value()) << error;
  EXPECT_EQ(game->terminal_value(*four), Value::unknown());
  game->successors(*four, kids);
  int suicides = 0;
  for (const Child& c : kids)
    if (c.is_terminal()) {
      EXPECT_EQ(c.terminal, Value::win(0));
      EXPECT_EQ(c.terminal.parent_via(), Value::loss(1));
      ++suicides;
    }
  EXPECT_GT(suicides, 0);
}

TEST(OstleGame, RendersAndParsesStates) {
  auto game = make_ostle_game();
  const std::string diagram = game->render(game->start());
  EXPECT_NE(diagram.find("a b c d e"), std::string::npos);
  EXPECT_NE(diagram.find("class 5v5/c3"), std::string::npos);
  std::string error;
  auto k = game->parse("11111-00000-00300-00000-22222", &error);
  ASSERT_TRUE(k.has_value()) << error;
  EXPECT_EQ(*k, game->start());
  // A mirrored state parses to the same key.
  auto a = game->parse("11111-00000-03000-00000-22222:b3R", &error);
  auto b = game->parse("11111-00000-00030-00000-22222:d3L", &error);
  ASSERT_TRUE(a && b) << error;
  EXPECT_EQ(*a, *b);
  EXPECT_EQ(key_forbid(*a) != 0, true);
  EXPECT_FALSE(game->parse("11111-00000-00300-00000-2222", &error).has_value());
  EXPECT_NE(error.find("wrong length"), std::string::npos);
  EXPECT_EQ(game->move_name(game->start(), 0), "a1U");
}

TEST(OstleGame, EnumeratesSortedPossiblyReachableStates) {
  // The c3 4v4 class: keys strictly increasing, each a round trip, as many as the counter says.
  const int cls = class_id(material_of(4, 4), 5);
  StateKey last = 0;
  std::uint64_t n = 0;
  bool sorted = true;
  enumerate_states(cls, 0, PositionIndex::get().size(cls), [&](StateKey k) {
    sorted &= n == 0 || k > last;
    last = k;
    ++n;
  });
  EXPECT_TRUE(sorted);
  std::uint64_t expected = 0;
  PositionIndex::get().for_each(
      cls, 0, PositionIndex::get().size(cls), [&](std::uint64_t, const Position& p, unsigned stab) {
        expected += static_cast<std::uint64_t>(distinct_forbid_count(p, stab));
      });
  EXPECT_EQ(n, expected);
  std::mt19937_64 rng(9);
  for (int i = 0; i < 2000; ++i) {
    const std::uint64_t r = rng() % PositionIndex::get().size(cls);
    enumerate_states(cls, r, r + 1, [&](StateKey k) {
      const auto [p, f] = key_state(k);
      EXPECT_EQ(state_key(p, f).key, k);
    });
  }
}

// Positions fixed by a reflection, with the hole on its axis: symmetric states are where the
// multiplicities of predecessors need care. Both readings.
TEST(OstleGame, PredecessorsAndSuccessorsAgreeOnSymmetricStates) {
  for (Reading reading : {Reading::kExact, Reading::kPublished}) {
    auto game = make_ostle_game(GameOptions{reading, false});
    std::mt19937_64 rng(13);
    int tested = 0;
    for (int g : {1, 2, 4}) {  // mirror files, mirror ranks, transpose (see symmetry.cpp)
      // Under the sanitizers a third as many: the same un-moves, each several times slower.
      const int wanted = zermelo::testing::release_else_sanitized(600, 200) * (g == 4 ? 3 : g);
      for (int tries = 0; tested < wanted && tries < 200000 && !HasFailure(); ++tries) {
        const auto p = ostle_check::random_symmetric_position(rng, g);
        if (!p) continue;
        ++tested;
        if (reading == Reading::kExact) {
          for (int code : reachable_forbid_codes(*p))
            expect_edges_agree_at(*game, state_key(*p, code).key);
          continue;
        }
        const Position canon = canonical_position(*p).pos;
        const Key base = make_key(class_of(canon), PositionIndex::get().rank(canon), kNoForbidden);
        for (int code : published_codes(canon))
          expect_edges_agree_at(*game, base | static_cast<Key>(code));
      }
    }
    EXPECT_GT(tested, zermelo::testing::release_else_sanitized(1000, 300));
  }
}

// States one and two moves from a symmetric position under the published reading: where its
// un-moves switch between a state's exact un-moves and matching classes (published.cpp).
TEST(OstleGame, PublishedReadingPredecessorsAndSuccessorsAgreeNearSymmetricStates) {
  auto game = make_ostle_game(GameOptions{Reading::kPublished, false});
  std::mt19937_64 rng(17);
  int states = 0;
  for (int i = 0; i < 600 && !HasFailure(); ++i) {
    const Position p =
        canonical_position(ostle_check::random_near_symmetric_position(rng, 1 + i % 2)).pos;
    const Key base = make_key(class_of(p), PositionIndex::get().rank(p), kNoForbidden);
    for (int code : published_codes(p)) {
      expect_edges_agree_at(*game, base | static_cast<Key>(code));
      ++states;
    }
  }
  EXPECT_GT(states, 2000);
}

// The child key from a move's result (the exact undo far from symmetry) against the one that
// compares the child's moves with the position before, on every continuing move of random and of
// near-symmetric positions.
TEST(OstleGame, PublishedChildKeyFromTheMoveIsTheChildsClassCode) {
  std::mt19937_64 rng(29);
  int compared = 0, undoable = 0;
  for (int i = 0; i < 4000 && !HasFailure(); ++i) {
    const Position p = i % 2 ? ostle_check::random_position_with_states(rng)
                             : ostle_check::random_near_symmetric_position(rng, 1 + i % 4 / 2);
    for (const Move& m : legal_moves(p, kNoForbidden)) {
      const MoveResult r = apply_move(p, m);
      if (r.outcome != Outcome::kContinues) continue;
      ASSERT_EQ(published_child_key(r, p), published_child_key(r.next, p))
          << to_text(p) << " move " << move_name(m);
      ++compared;
      undoable += r.next_forbid != kNoForbidden;
    }
  }
  EXPECT_GT(compared, 40000);
  EXPECT_GT(undoable, 1000);  // moves with an undo, whose code is carried into the canonical frame
}

TEST(OstleGame, EveryChildAndParentIsAnEnumeratedState) {
  auto game = make_ostle_game();
  std::mt19937_64 rng(21);
  std::vector<Child> kids;
  std::vector<StateKey> preds;
  auto enumerated = [](StateKey k) {
    bool found = false;
    enumerate_states(key_class(k), key_rank(k), key_rank(k) + 1,
                     [&](StateKey e) { found |= e == k; });
    return found;
  };
  for (int i = 0; i < 3000; ++i) {
    const StateKey s = random_state(rng);
    ASSERT_TRUE(enumerated(s));
    game->successors(s, kids);
    for (const Child& c : kids) {
      if (!c.is_terminal()) {
        ASSERT_TRUE(enumerated(c.key)) << game->render(c.key);
      }
    }
    game->predecessors(s, preds);
    for (StateKey p : preds) ASSERT_TRUE(enumerated(p)) << game->render(p);
  }
}

// Exit slots: every move into a lower tier reaches a numbered state of that tier's range, a state's
// slot is its position's, and the ranges hold exactly the classes with one piece fewer.
TEST(OstleGame, ExitSlotsNumberEveryChildInALowerTier) {
  auto game = make_ostle_game();
  const auto& index = PositionIndex::get();
  auto positions = [&](int pieces) {
    std::uint64_t n = 0;
    for (int cls = 0; cls < kClasses; ++cls)
      if (class_my_count(cls) + class_opp_count(cls) == pieces) n += index.size(cls);
    return n;
  };
  EXPECT_EQ(game->exit_slots("4v4").size(), 0u);
  EXPECT_EQ(game->exit_slots("5v4+4v5").size(), positions(8));
  EXPECT_EQ(game->exit_slots("5v5").size(), positions(9));
  std::mt19937_64 rng(34);
  std::vector<Child> kids;
  std::map<std::uint64_t, StateKey> owner;  // slot -> the state seen in it
  int exits = 0;
  for (int i = 0; i < 4000; ++i) {
    const StateKey s = random_state(rng);
    const std::string tier = game->tier_of(s);
    const Game::SlotRange range = game->exit_slots(tier);
    game->successor_outcomes(s, kids);
    for (const Child& c : kids) {
      if (c.is_terminal() || c.is_unkeyed_in_tier() || game->tier_of(c.key) == tier) continue;
      const std::uint64_t slot = game->exit_slot(c.key);
      ASSERT_GE(slot, range.first) << game->render(c.key);
      ASSERT_LT(slot, range.end) << game->render(c.key);
      auto [it, fresh] = owner.emplace(slot, c.key);
      ASSERT_EQ(it->second, c.key) << "two states in slot " << slot;
      ++exits;
    }
    if (key_forbid(s) != kNoForbidden) {
      EXPECT_EQ(game->exit_slot(s), Game::kNoSlot);
    }
  }
  EXPECT_GT(exits, 3000);
}

TEST(OstleGame, OptionsAreCheckedAndNamed) {
  EXPECT_EQ(make_game("ostle")->variant(), "");
  EXPECT_EQ(make_game("ostle", {"play-restricted", "reference"})->variant(),
            "reference play-restricted");
  EXPECT_TRUE(make_game("ostle", {"reference"})->has_predecessors());
  EXPECT_FALSE(make_game("ostle", {"reference", "play-restricted"})->has_predecessors());
  EXPECT_EQ(make_game("ostle-mini", {"3x3:p2", "reference"})->variant(), "3x3:p2 reference");
  EXPECT_EQ(make_game("ostle-mini", {"reference"})->variant(), "4x4:p3 reference");
  for (auto [game, options, why] :
       std::vector<std::tuple<std::string, std::vector<std::string>, std::string>>{
           {"ostle", {"bogus"}, "unknown option 'bogus'"},
           {"ostle", {"reference", "reference"}, "'reference' given twice"},
           {"ostle-mini", {"3x3:p2", "bogus"}, "unknown option 'bogus'"},
           {"ostle-mini", {"bogus"}, "unknown option 'bogus'"}}) {
    try {
      make_game(game, options);
      ADD_FAILURE() << game << " accepted a bad option";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    }
  }
  // From the command line: a clear error and a non-zero exit, before any work starts.
  zermelo::testing::ScratchDir dir;
  const auto r = zermelo::testing::run_command(std::string(ZERMELO_CLI) + " --quiet --work-dir " +
                                               (dir / "w") + " solve ostle bogus 2>&1");
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.out.find("unknown option 'bogus'"), std::string::npos) << r.out;
}
