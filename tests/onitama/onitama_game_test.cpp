// Onitama through the generic Game interface and the registry, and the `zermelo onitama` CLI.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <memory>
#include <string>

#include "zermelo/game.hpp"

namespace {

// Runs a command, returns (exit status, stdout+stderr).
std::pair<int, std::string> run(const std::string& cmd) {
  std::string out;
  FILE* f = popen((cmd + " 2>&1").c_str(), "r");
  if (!f) return {-1, ""};
  std::array<char, 4096> buf{};
  while (std::size_t n = fread(buf.data(), 1, buf.size(), f)) out.append(buf.data(), n);
  int status = pclose(f);
  return {WEXITSTATUS(status), out};
}

}  // namespace

TEST(OnitamaGame, EnumerateSuccessorsPredecessorsAgree) {
  for (auto opts : {std::vector<std::string>{"3x3", "boar"}, std::vector<std::string>{"2x4", "tiger,ox,crab,eel,boar"},
                    std::vector<std::string>{"2x4", "fwd=(0,-1)@blue,(0,-2)(1,1),crane,eel,horse"}}) {
    auto game = zermelo::make_game("onitama", opts);
    std::vector<zermelo::StateKey> states;
    game->enumerate("all", [&](zermelo::StateKey k) { states.push_back(k); });
    std::sort(states.begin(), states.end());
    ASSERT_TRUE(std::binary_search(states.begin(), states.end(), game->start()));
    if (opts[1] == "boar") {
      EXPECT_EQ(states.size(), 59666u);
    }
    // Every edge seen from the parent's side equals one seen from the child's side.
    std::map<std::pair<zermelo::StateKey, zermelo::StateKey>, int> edges;
    std::vector<zermelo::Child> kids;
    std::vector<zermelo::StateKey> parents;
    std::size_t terminal = 0;
    for (auto s : states) {
      game->successors(s, kids);
      if (game->terminal_value(s).is_known()) {
        EXPECT_EQ(game->terminal_value(s), zermelo::Value::loss(0));
        EXPECT_TRUE(kids.empty());
        ++terminal;
      } else {
        EXPECT_FALSE(kids.empty());
      }
      for (auto& c : kids) {
        ASSERT_FALSE(c.is_terminal());
        ASSERT_TRUE(std::binary_search(states.begin(), states.end(), c.key));
        ++edges[{s, c.key}];
      }
    }
    for (auto s : states) {
      game->predecessors(s, parents);
      for (auto p : parents) --edges[{p, s}];
    }
    std::size_t bad = 0;
    for (auto& [e, n] : edges) bad += n != 0;
    EXPECT_EQ(bad, 0u) << opts[0] << " " << opts[1];
    EXPECT_GT(terminal, 0u);
  }
}

TEST(OnitamaGame, ParseRenderAndMoveNames) {
  auto game = zermelo::make_game("onitama", {"3x4", "boar"});
  const auto start = game->start();
  std::string err;
  EXPECT_EQ(game->parse(game->render(start), &err), start) << err;
  EXPECT_EQ(game->parse("rRr/.../.../bBb red", &err), start) << err;
  EXPECT_FALSE(game->parse("rRr/.../bBb red", &err));
  EXPECT_NE(err.find("expected 4 rows"), std::string::npos);
  std::vector<zermelo::Child> kids;
  game->successors(start, kids);
  ASSERT_EQ(kids.size(), 3u);  // the three Red pawns step down; sideways is blocked
  EXPECT_EQ(game->move_name(start, 0), "Boar a1-a2");
  EXPECT_THROW(zermelo::make_game("onitama", {"3x4", "wolf"}), std::invalid_argument);
}

TEST(OnitamaGame, CommandLine) {
  auto [status, out] = run(std::string(ZERMELO_CLI) + " --json onitama count --board 3x3");
  EXPECT_EQ(status, 0) << out;
  EXPECT_NE(out.find("\"states\": 59666"), std::string::npos) << out;
  EXPECT_NE(out.find("\"edges\": 168860"), std::string::npos) << out;
  std::tie(status, out) = run(std::string(ZERMELO_CLI) + " onitama solve --board 3x4 --symmetry");
  EXPECT_EQ(status, 0) << out;
  EXPECT_NE(out.find("Red"), std::string::npos) << out;
  std::tie(status, out) = run(std::string(ZERMELO_CLI) + " --json onitama weak-solve --board 4x3");
  EXPECT_EQ(status, 0) << out;
  EXPECT_NE(out.find("\"winner\": \"Blue\""), std::string::npos) << out;
  std::tie(status, out) = run(std::string(ZERMELO_CLI) + " onitama query --board 3x3 --state 'rRr/.../bBb red'");
  EXPECT_EQ(status, 0) << out;
  EXPECT_NE(out.find("value: loss in 6"), std::string::npos) << out;
  std::tie(status, out) = run(std::string(ZERMELO_CLI) + " onitama count --board 3x3 --cards boar,ox");
  EXPECT_NE(status, 0);
  EXPECT_NE(out.find("one card or five"), std::string::npos) << out;
  std::tie(status, out) = run(std::string(ZERMELO_CLI) + " --memory 1M onitama count --board 4x4");
  EXPECT_NE(status, 0);
  EXPECT_NE(out.find("over the --memory budget"), std::string::npos) << out;
  std::tie(status, out) = run(std::string(ZERMELO_CLI) + " onitama solve --board 3x0");
  EXPECT_NE(status, 0);
  EXPECT_NE(out.find("height >= 2"), std::string::npos) << out;
}

TEST(OnitamaGame, TiersPartitionTheStatesAndMovesOnlyGoDown) {
  auto game = zermelo::make_game("onitama", {"3x4", "boar"});
  auto tiers = game->tiers();
  ASSERT_EQ(tiers.size(), 9u);  // 0..2 students a side
  std::map<std::string, std::vector<std::string>> deps;
  std::size_t total = 0;
  for (auto& t : tiers) {
    for (auto& d : t.depends_on) EXPECT_TRUE(deps.count(d)) << t.name << " listed before " << d;
    deps[t.name] = t.depends_on;
    game->enumerate(t.name, [&](zermelo::StateKey) { ++total; });
  }
  EXPECT_EQ(total, 431793u);
  std::vector<zermelo::Child> kids;
  std::size_t bad = 0;
  game->enumerate("all", [&](zermelo::StateKey s) {
    const std::string t = game->tier_of(s);
    game->successors(s, kids);
    for (auto& c : kids) {
      const std::string ct = game->tier_of(c.key);
      bad += ct != t && std::find(deps[t].begin(), deps[t].end(), ct) == deps[t].end();
    }
  });
  EXPECT_EQ(bad, 0u);
}
