// Onitama's moves as typed and shown: a move is named by its squares alone unless another card
// makes the same step, then with its card; every name, the full name with the card and the other
// separator read back as the move; squares two cards share are refused naming both moves.
// Checked against the rules' own moves (from, to, card) on the states near the start.
#include <gtest/gtest.h>

#include <cctype>
#include <deque>
#include <set>

#include "zermelo/game.hpp"
#include "zermelo/games/onitama/rules.hpp"

namespace zermelo::onitama {
namespace {

const std::vector<std::string> kOptions{"3x3", "tiger,ox,crab,eel,boar"};

struct Step {
  Move move;
  std::string full;  // with its card: "Ox a1-a2"
};

std::vector<Step> steps(const Rules& rules, const Position& p) {
  std::vector<Step> out;
  rules.for_each_child(p, [&](const Position&, const Move& m) {
    out.push_back({m, rules.move_name(p, m)});
  });
  return out;
}

bool same_squares(const Move& a, const Move& b) {
  return a.pass == b.pass && (a.pass || (a.from == b.from && a.to == b.to));
}

std::string squares(const Rules& rules, const Move& m) {
  return m.pass ? "pass" : rules.cell_name(m.from) + "-" + rules.cell_name(m.to);
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// Checks one state's names; returns how many of its moves share their squares with another.
int check_state(const Game& game, const Rules& rules, StateKey key) {
  const std::vector<Step> moves = steps(rules, rules.decode(key));
  std::set<std::string> names;
  int shared = 0;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    bool alone = true;
    for (std::size_t j = 0; j < moves.size(); ++j)
      alone = alone && (i == j || !same_squares(moves[i].move, moves[j].move));
    const std::string name = game.move_name(key, i);
    EXPECT_TRUE(names.insert(name).second) << name << " names two moves";
    const std::string without_card =
        moves[i].move.pass ? "pass" : moves[i].full.substr(moves[i].full.rfind(' ') + 1);
    EXPECT_EQ(name, alone ? without_card : moves[i].full);
    std::string error;
    for (const std::string& typed : {name, moves[i].full, upper(moves[i].full)})
      EXPECT_EQ(game.parse_move(key, typed, &error), std::optional<std::size_t>(i)) << typed;
    const std::optional<std::size_t> by_squares =
        game.parse_move(key, squares(rules, moves[i].move), &error);
    EXPECT_EQ(by_squares, alone ? std::optional<std::size_t>(i) : std::nullopt);
    if (alone) continue;
    ++shared;
    EXPECT_NE(error.find("is ambiguous"), std::string::npos) << error;
    EXPECT_NE(error.find(moves[i].full), std::string::npos) << error;
  }
  return shared;
}

TEST(OnitamaMoveText, TheCardIsNamedOnlyWhenTwoCardsMakeTheSameStep) {
  const auto game = make_game("onitama", kOptions);
  const Rules rules = Rules::from_options(kOptions);
  std::deque<StateKey> todo{game->start()};
  std::set<StateKey> seen{game->start()};
  int states = 0, shared = 0;
  std::vector<Child> kids;
  while (!todo.empty() && states < 3000) {
    const StateKey key = todo.front();
    todo.pop_front();
    ++states;
    shared += check_state(*game, rules, key);
    game->successors(key, kids);
    for (const Child& c : kids)
      if (!c.is_terminal() && seen.insert(c.key).second) todo.push_back(c.key);
  }
  EXPECT_EQ(states, 3000);
  EXPECT_GT(shared, 0) << "no state where two cards make the same step";
}

TEST(OnitamaMoveText, ACaptureReadsWithEitherSeparatorAndNonsenseIsRefused) {
  const auto game = make_game("onitama", {"3x3", "boar"});
  // Red's student on b2 faces Blue's master on b3: b2xb3 takes it (and wins).
  std::string error;
  const auto key = game->parse("rR./.r./bBb red", &error);
  ASSERT_TRUE(key) << error;
  const std::optional<std::size_t> x = game->parse_move(*key, "b2xb3", &error);
  ASSERT_TRUE(x) << error;
  EXPECT_EQ(game->move_name(*key, *x), "b2xb3");
  EXPECT_EQ(game->parse_move(*key, "b2-b3", &error), x);
  EXPECT_EQ(game->parse_move(*key, "boar  B2XB3", &error), x);
  EXPECT_FALSE(game->parse_move(*key, "c3-c1", &error));
  EXPECT_NE(error.find("is not a move here"), std::string::npos) << error;
}

}  // namespace
}  // namespace zermelo::onitama
