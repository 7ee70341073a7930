// Onitama rules: key round trips, card orientation and exchange, passes, wins, symmetry, parsing
// and the errors for bad boards, cards and states.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "zermelo/games/onitama/graph.hpp"

using namespace zermelo::onitama;

namespace {

std::set<std::string> move_names(const Rules& rules, const Position& p) {
  std::set<std::string> names;
  rules.for_each_child(
      p, [&](const Position&, const Move& m) { names.insert(rules.move_name(p, m)); });
  return names;
}

std::vector<Position> children(const Rules& rules, const Position& p) {
  std::vector<Position> out;
  rules.for_each_child(p, [&](const Position& c, const Move&) { out.push_back(c); });
  return out;
}

std::string expect_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  ADD_FAILURE() << "no error";
  return "";
}

}  // namespace

TEST(OnitamaRules, KeysRoundTripAndSymmetryIsAnInvolution) {
  for (const char* deck : {"boar", "rabbit,tiger,crab,eel,boar"}) {
    Rules rules(3, 3, parse_deck(deck));
    KeySet set;
    explore(rules, false, set);
    std::uint64_t n = 0;
    set.for_each([&](Key k) {
      const Position p = rules.decode(k);
      ASSERT_EQ(rules.encode(p), k);
      ASSERT_EQ(rules.swapped(rules.swapped(p)), p);
      ASSERT_EQ(rules.is_terminal(p), rules.is_terminal(rules.swapped(p)));
      ASSERT_LT(k, rules.key_space());
      // The cheap folding test agrees with comparing the twins' keys.
      ASSERT_EQ(rules.is_folded(p), rules.canonical(k) == k) << k;
      ASSERT_EQ(rules.folded_key(p), rules.canonical(k)) << k;
      ++n;
    });
    EXPECT_EQ(n, set.size());
  }
}

TEST(OnitamaRules, StartPosition) {
  Rules rules(5, 5, parse_deck("tiger,ox,crab,eel,boar"));
  const Position p = rules.start_position();
  EXPECT_EQ(p.player, kRed);  // Boar, the set-aside card, is red
  EXPECT_EQ(rules.render(p),
            "Onitama 5x5, Red to move\n"
            "    a b c d e\n"
            "  1 r r R r r\n"
            "  2 . . . . .\n"
            "  3 . . . . .\n"
            "  4 . . . . .\n"
            "  5 b b B b b\n"
            "red: Tiger, Ox\nblue: Crab, Eel\naside: Boar\n");
  // Red flips the offsets: Tiger (0,-2) is two rows down, Ox (0,-1) one; nothing else fits.
  EXPECT_EQ(move_names(rules, p).size(), 10u);
  EXPECT_TRUE(move_names(rules, p).count("Tiger c1-c3"));
  EXPECT_TRUE(move_names(rules, p).count("Ox a1-a2"));
  Rules blue_starts(4, 3, parse_deck("tiger,ox,boar,eel,crab"));
  EXPECT_EQ(blue_starts.start_position().player, kBlue);  // Crab is blue
  // Even width: Red's arch at column 2, Blue's at column 3 (1-based).
  const std::string top =
      "Onitama 4x3, Blue to move\n    a b c d\n  1 r R r r\n  2 . . . .\n  3 b b B b\n";
  EXPECT_EQ(blue_starts.render(blue_starts.start_position()).substr(0, top.size()), top);
}

TEST(OnitamaRules, CardOrientationAndExchange) {
  Rules rules(3, 3, parse_deck("rabbit,tiger,crab,eel,boar"));
  const Position red = rules.parse("..R/.../B.. red red=rabbit,tiger blue=crab,eel aside=boar");
  // Rabbit (1,-1) (-1,1) (2,0) for Red: down-left, off board, two to the screen left.
  EXPECT_EQ(move_names(rules, red),
            (std::set<std::string>{"Rabbit c1-b2", "Rabbit c1-a1", "Tiger c1-c3"}));
  for (const Position& c : children(rules, red)) {
    if (c.master[kRed] != 4) continue;  // b2
    EXPECT_EQ(rules.render(c).substr(rules.render(c).find("red:")),
              "red: Tiger, Boar\nblue: Crab, Eel\naside: Rabbit\n");
    // Blue as printed: Crab (0,-1) up, (2,0) two right; Eel (-1,-1) off the left edge, (1,0) right.
    EXPECT_EQ(move_names(rules, c),
              (std::set<std::string>{"Crab a3-a2", "Crab a3-c3", "Eel a3-b3"}));
  }
}

TEST(OnitamaRules, WinsByCaptureAndByTemple) {
  Rules rules(3, 3, parse_deck("boar"));
  const Position p = rules.parse("r../.R./B.. red");
  std::set<std::string> names = move_names(rules, p);
  EXPECT_EQ(names, (std::set<std::string>{"Boar b2-a2", "Boar b2-c2", "Boar b2-b3", "Boar a1-a2",
                                          "Boar a1-b1"}));
  int terminal = 0;
  for (const Position& c : children(rules, p)) terminal += rules.is_terminal(c);
  EXPECT_EQ(terminal, 1);  // b2-b3 reaches Blue's temple arch
  const Position q = rules.parse("r../.R./.B. red");
  for (const Position& c : children(rules, q))
    if (c.master[kBlue] == rules.cells()) {
      EXPECT_TRUE(rules.is_terminal(c));
    }
  EXPECT_TRUE(move_names(rules, q).count("Boar b2xb3"));
}

TEST(OnitamaRules, ForcedPassSwapsACard) {
  Rules one_card(2, 3, parse_deck("fwd=(0,-1)"));
  const Position stuck = one_card.parse(".B/../R. red");
  ASSERT_FALSE(one_card.has_move(stuck));
  auto kids = children(one_card, stuck);
  ASSERT_EQ(kids.size(), 1u);
  EXPECT_EQ(kids[0].player, kBlue);
  EXPECT_EQ(move_names(one_card, stuck), std::set<std::string>{"pass fwd"});
  Rules two_cards(2, 3, parse_deck("fwd=(0,-1),(0,-2)@red,ox,crab,eel"));
  const Position stuck2 = two_cards.parse(".B/../R. red red=fwd,(0,-2) blue=ox,crab aside=eel");
  EXPECT_EQ(move_names(two_cards, stuck2), (std::set<std::string>{"pass fwd", "pass custom"}));
  // Passing gives the card away: Red then holds the old set-aside card.
  for (const Position& c : children(two_cards, stuck2))
    EXPECT_NE(two_cards.render(c).find("Eel"), std::string::npos);
}

TEST(OnitamaRules, ParseRoundTripsRender) {
  Rules rules(2, 4, parse_deck("rabbit,tiger,crab,eel,boar"));
  KeySet set;
  explore(rules, false, set);
  int checked = 0;
  set.for_each([&](Key k) {
    if (k % 7 != 0) return;
    const Position p = rules.decode(k);
    ASSERT_EQ(rules.parse(rules.render(p)), p) << rules.render(p);
    ++checked;
  });
  EXPECT_GT(checked, 100);
}

TEST(OnitamaRules, ClearErrors) {
  EXPECT_NE(expect_error([] {
              parse_deck("boar,dragonfly,ox,crab,eel");
            }).find("unknown card 'dragonfly'"),
            std::string::npos);
  EXPECT_NE(expect_error([] { parse_deck("boar,ox"); }).find("one card or five"),
            std::string::npos);
  EXPECT_NE(expect_error([] { parse_card("(0,0)"); }).find("(0,0)"), std::string::npos);
  EXPECT_NE(expect_error([] { parse_card("(1,2"); }).find("expected ')'"), std::string::npos);
  EXPECT_NE(expect_error([] { parse_card("(1,0)@green"); }).find("@red or @blue"),
            std::string::npos);
  EXPECT_NE(expect_error([] { Rules::from_options({"3by4"}); }).find("bad board '3by4'"),
            std::string::npos);
  EXPECT_NE(expect_error([] { Rules::from_options({"3x1"}); }).find("height >= 2"),
            std::string::npos);
  EXPECT_NE(expect_error([] { Rules::from_options({"9x9"}); }).find("at most 63"),
            std::string::npos);
  EXPECT_NE(expect_error([] { Rules::from_options({"7x9"}); }).find("64-bit key"),
            std::string::npos);
  EXPECT_NO_THROW(Rules::from_options({"5x5", "tiger,ox,crab,eel,boar"}));
  Rules rules(3, 3, parse_deck("rabbit,tiger,crab,eel,boar"));
  EXPECT_NE(expect_error([&] { rules.parse("r../.R./B.. red"); }).find("missing 'red:'"),
            std::string::npos);
  EXPECT_NE(expect_error([&] { rules.parse("r../.R. red"); }).find("expected 3 rows"),
            std::string::npos);
  EXPECT_NE(expect_error([&] { rules.parse("rr../.R./B.. red"); }).find("row 1 has 4 cells"),
            std::string::npos);
  EXPECT_NE(expect_error([&] { rules.parse("rrr/.R./B.. red"); }).find("more than 2 students"),
            std::string::npos);
  EXPECT_NE(expect_error([&] { rules.parse("rR./.../... red"); }).find("made the last move"),
            std::string::npos);
  EXPECT_NE(expect_error([&] { rules.parse("r../.../BR. red"); }).find("already stands"),
            std::string::npos);
  // A terminal state is fine: Blue has just taken Red's master.
  EXPECT_TRUE(
      rules.is_terminal(rules.parse("r../.../B.. red red=rabbit,tiger blue=crab,eel aside=boar")));
  EXPECT_NE(expect_error([&] {
              rules.parse("r../.R./B.. red red=rabbit,ox blue=crab,eel aside=boar");
            }).find("'ox' is not one of this game's cards"),
            std::string::npos);
  EXPECT_NE(expect_error([&] {
              rules.parse("r../.R./B.. red red=rabbit,tiger blue=crab,boar aside=boar");
            }).find("not a deal"),
            std::string::npos);
  EXPECT_NE(expect_error([&] { rules.parse("r../.R./B.."); }).find("who is to move"),
            std::string::npos);
}

// Boards too big to explore: random games checking keys, symmetry and that every move can be
// undone (the child's un-moves contain the parent). 8x4 has too many student sets to tabulate.
TEST(OnitamaRules, RandomGamesOnLargeBoards) {
  for (auto [w, h, deck] :
       {std::tuple{5, 5, "tiger,ox,crab,eel,boar"},
        std::tuple{8, 4, "dragon,horse,frog,goose,monkey"}, std::tuple{6, 6, "boar"}}) {
    Rules rules(w, h, parse_deck(deck));
    std::uint64_t seed = 12345;
    for (int game = 0; game < 20; ++game) {
      Position p = rules.start_position();
      for (int ply = 0; ply < 200 && !rules.is_terminal(p); ++ply) {
        ASSERT_EQ(rules.decode(rules.encode(p)), p);
        ASSERT_EQ(rules.swapped(rules.swapped(p)), p);
        auto kids = children(rules, p);
        ASSERT_EQ(static_cast<int>(kids.size()), rules.count_children(p));
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        const Position next = kids[(seed >> 33) % kids.size()];
        bool found = false;
        rules.for_each_parent(next, [&](const Position& q, const Move&) { found |= q == p; });
        ASSERT_TRUE(found) << rules.render(p) << rules.render(next);
        p = next;
      }
    }
  }
}
