// Onitama through the generic Game interface and the registry, and the `zermelo onitama` CLI.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <memory>
#include <string>

#include "zermelo/engine/verify_game.hpp"
#include "zermelo/game.hpp"
#include "zermelo/games/onitama/graph.hpp"

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

namespace {

// Every legal state of the key space, found the slow way: decode every key and keep those that
// are legal and encode back to themselves. Independent of the streaming enumeration.
// With the symmetry, only the smaller key of a state and its twin.
std::vector<zermelo::StateKey> legal_keys_by_brute_force(const std::vector<std::string>& opts) {
  const bool symmetry = opts.size() == 3;
  auto rules = zermelo::onitama::Rules::from_options({opts[0], opts[1]});
  std::vector<zermelo::StateKey> out;
  for (zermelo::StateKey k = 0; k < rules.key_space(); ++k) {
    auto p = rules.decode(k);
    if (rules.is_legal(p) && rules.encode(p) == k &&
        (!symmetry || rules.encode(rules.swapped(p)) >= k))
      out.push_back(k);
  }
  return out;
}

const std::vector<std::vector<std::string>> kSmallGames = {
    {"3x3", "boar"},
    {"3x4", "boar"},
    {"2x4", "tiger,ox,crab,eel,boar"},
    {"3x2", "fwd=(0,-1)@blue,(0,-2)(1,1),crane,eel,horse"},
    {"3x3", "boar", "symmetry"},
    {"4x2", "boar", "symmetry"},
    {"2x4", "rabbit,monkey,elephant,crane,cobra", "symmetry"}};

}  // namespace

TEST(OnitamaGame, EnumerationStreamsEveryLegalStateOnceTierByTier) {
  for (auto& opts : kSmallGames) {
    auto game = zermelo::make_game("onitama", opts);
    const bool symmetry = opts.size() == 3;
    auto rules = zermelo::onitama::Rules::from_options({opts[0], opts[1]});
    std::vector<zermelo::StateKey> streamed;
    for (auto& tier : game->tiers()) {
      std::size_t first = streamed.size();
      game->enumerate(tier.name, [&](zermelo::StateKey k) { streamed.push_back(k); });
      const int red = tier.name[1] - '0', blue = tier.name[3] - '0';
      if (!symmetry) {
        EXPECT_EQ(streamed.size() - first, rules.count_legal(red, blue)) << tier.name;
      } else {
        EXPECT_EQ(streamed.size() - first, rules.count_folded(red, blue))
            << tier.name;  // "s<hi>s<lo>"
      }
      for (std::size_t i = first; i < streamed.size(); ++i) {
        ASSERT_EQ(game->tier_of(streamed[i]), tier.name);
        if (i > first) {
          ASSERT_LT(streamed[i - 1], streamed[i]) << "keys of a tier come in increasing order";
        }
      }
    }
    std::vector<zermelo::StateKey> all;
    game->enumerate("all", [&](zermelo::StateKey k) { all.push_back(k); });
    std::sort(streamed.begin(), streamed.end());
    std::sort(all.begin(), all.end());
    EXPECT_EQ(streamed, legal_keys_by_brute_force(opts)) << opts[0] << " " << opts[1];
    EXPECT_EQ(all, streamed);
    // The reachable states are among them.
    zermelo::onitama::KeySet reachable;
    zermelo::onitama::explore(rules, false, reachable);
    std::size_t missing = 0;
    reachable.for_each([&](zermelo::StateKey k) {
      missing += !std::binary_search(all.begin(), all.end(), symmetry ? rules.canonical(k) : k);
    });
    EXPECT_EQ(missing, 0u);
    if (!symmetry) {
      EXPECT_GT(all.size(), reachable.size());
    } else {  // no state is its own twin (the player to move changes), so folding halves exactly
      std::uint64_t legal = 0;
      for (int red = 0; red < rules.width(); ++red)
        for (int blue = 0; blue < rules.width(); ++blue) legal += rules.count_legal(red, blue);
      EXPECT_EQ(2 * all.size(), legal);
    }
  }
  EXPECT_THROW(zermelo::make_game("onitama", {"3x3"})->enumerate("r3b0", [](zermelo::StateKey) {}),
               std::invalid_argument);
  EXPECT_THROW(zermelo::make_game("onitama", {"3x3", "boar", "symmetry"})
                   ->enumerate("s1s2", [](zermelo::StateKey) {}),
               std::invalid_argument);
}

// The verifier: the multiset of (parent, child) edges seen through successors equals the one seen
// through predecessors, over every legal state; children stay in the tier or go to a dependency.
TEST(OnitamaGame, SuccessorsAndPredecessorsAgreeOnEveryEdge) {
  for (auto& opts : kSmallGames) {
    auto game = zermelo::make_game("onitama", opts);
    std::map<std::string, std::vector<std::string>> deps;
    for (auto& t : game->tiers()) deps[t.name] = t.depends_on;
    std::vector<zermelo::StateKey> states;
    game->enumerate("all", [&](zermelo::StateKey k) { states.push_back(k); });
    std::sort(states.begin(), states.end());
    using Edge = std::pair<zermelo::StateKey, zermelo::StateKey>;
    std::vector<Edge> forward, backward;
    std::vector<zermelo::Child> kids;
    std::vector<zermelo::StateKey> parents;
    std::size_t terminal = 0, bad_tier = 0, unknown_child = 0, unknown_parent = 0;
    for (auto s : states) {
      game->successors(s, kids);
      if (game->terminal_value(s).is_known()) {
        EXPECT_EQ(game->terminal_value(s), zermelo::Value::loss(0));
        EXPECT_TRUE(kids.empty());
        ++terminal;
      } else {
        EXPECT_FALSE(kids.empty());
      }
      const std::string tier = game->tier_of(s);
      for (auto& c : kids) {
        ASSERT_FALSE(c.is_terminal());
        unknown_child += !std::binary_search(states.begin(), states.end(), c.key);
        const std::string ct = game->tier_of(c.key);
        bad_tier +=
            ct != tier && std::find(deps[tier].begin(), deps[tier].end(), ct) == deps[tier].end();
        forward.push_back({s, c.key});
      }
      game->predecessors(s, parents);
      for (auto p : parents) {
        unknown_parent += !std::binary_search(states.begin(), states.end(), p);
        backward.push_back({p, s});
      }
    }
    std::sort(forward.begin(), forward.end());
    std::sort(backward.begin(), backward.end());
    EXPECT_EQ(unknown_child, 0u) << opts[0] << " " << opts[1];
    EXPECT_EQ(unknown_parent, 0u) << opts[0] << " " << opts[1];
    EXPECT_EQ(bad_tier, 0u) << opts[0] << " " << opts[1];
    EXPECT_EQ(forward.size(), backward.size()) << opts[0] << " " << opts[1];
    EXPECT_TRUE(forward == backward) << opts[0] << " " << opts[1];
    EXPECT_GT(terminal, 0u);
  }
}

// The engine's own verifier (moves against un-moves, successor_outcomes against successors) on
// the variants the default game does not cover: the symmetry and five distinct cards.
TEST(OnitamaGame, VerifierAcceptsTheSymmetryAndRealCards) {
  for (auto options : std::vector<std::vector<std::string>>{
           {"3x4", "boar", "symmetry"},
           {"2x4", "rabbit,monkey,elephant,crane,cobra", "symmetry"},
           {"3x3", "tiger,ox,crab,eel,boar"}}) {
    auto game = zermelo::make_game("onitama", options);
    zermelo::GameCheck c = zermelo::verify_game_moves(*game, 5000);
    EXPECT_GE(c.states, 5000u) << options[0];
    for (auto& p : c.problems) ADD_FAILURE() << options[0] << " " << options[1] << ": " << p;
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
  EXPECT_EQ(game->move_name(start, 0), "a1-a2");  // one card: no card named
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
  std::tie(status, out) = run(std::string(ZERMELO_CLI) + " --json onitama tiers --board 3x3");
  EXPECT_EQ(status, 0) << out;
  EXPECT_NE(out.find("\"legal_states\": 82362"), std::string::npos)
      << out;  // = the streamed count (test above)
  std::tie(status, out) =
      run(std::string(ZERMELO_CLI) + " --json onitama tiers --board 3x3 --symmetry");
  EXPECT_EQ(status, 0) << out;
  EXPECT_NE(out.find("\"legal_states\": 41181"), std::string::npos)
      << out;  // every state has a twin: half
  EXPECT_NE(out.find("\"s1s0\""), std::string::npos) << out;
  std::tie(status, out) =
      run(std::string(ZERMELO_CLI) + " onitama query --board 3x3 --state 'rRr/.../bBb red'");
  EXPECT_EQ(status, 0) << out;
  EXPECT_NE(out.find("value: loss in 6"), std::string::npos) << out;
  std::tie(status, out) =
      run(std::string(ZERMELO_CLI) + " onitama count --board 3x3 --cards boar,ox");
  EXPECT_NE(status, 0);
  EXPECT_NE(out.find("one card or five"), std::string::npos) << out;
  std::tie(status, out) = run(std::string(ZERMELO_CLI) + " --memory 1M onitama count --board 4x4");
  EXPECT_NE(status, 0);
  EXPECT_NE(out.find("over the --memory budget"), std::string::npos) << out;
  std::tie(status, out) = run(std::string(ZERMELO_CLI) + " onitama solve --board 3x0");
  EXPECT_NE(status, 0);
  EXPECT_NE(out.find("height >= 2"), std::string::npos) << out;
}

TEST(OnitamaGame, TiersAreListedBottomUp) {
  auto game = zermelo::make_game("onitama", {"4x3", "boar"});
  auto tiers = game->tiers();
  ASSERT_EQ(tiers.size(), 16u);  // 0..3 students a side
  EXPECT_EQ(tiers.front().name, "r0b0");
  EXPECT_EQ(tiers.back().name, "r3b3");
  std::map<std::string, std::vector<std::string>> deps;
  for (auto& t : tiers) {
    for (auto& d : t.depends_on) EXPECT_TRUE(deps.count(d)) << t.name << " listed before " << d;
    deps[t.name] = t.depends_on;
  }
  EXPECT_EQ(deps["r2b3"], (std::vector<std::string>{"r1b3", "r2b2"}));
  EXPECT_EQ(game->tier_of(game->start()), "r3b3");
  auto folded = zermelo::make_game("onitama", {"4x3", "boar", "symmetry"});
  std::vector<std::string> names;
  for (auto& t : folded->tiers())
    names.push_back(t.name + "<" + (t.depends_on.empty() ? "" : t.depends_on[0]) +
                    (t.depends_on.size() > 1 ? "," + t.depends_on[1] : "") + ">");
  EXPECT_EQ(names, (std::vector<std::string>{"s0s0<>", "s1s0<s0s0>", "s1s1<s1s0>", "s2s0<s1s0>",
                                             "s2s1<s1s1,s2s0>", "s3s0<s2s0>", "s2s2<s2s1>",
                                             "s3s1<s2s1,s3s0>", "s3s2<s2s2,s3s1>", "s3s3<s3s2>"}));
}

// The counts a solve is refused by (too big for the disk or --max-states) are the enumeration's.
TEST(OnitamaGame, CountStatesIsTheEnumerationsCount) {
  for (auto opts : std::vector<std::vector<std::string>>{{"3x3"}, {"3x4", "boar", "symmetry"}}) {
    auto game = zermelo::make_game("onitama", opts);
    std::uint64_t all = 0;
    for (auto& t : game->tiers()) {
      std::uint64_t n = 0;
      game->enumerate(t.name, [&](zermelo::StateKey) { ++n; });
      EXPECT_EQ(game->count_states(t.name), n) << opts[0] << " " << t.name;
      all += n;
    }
    EXPECT_EQ(game->count_states("all"), all) << opts[0];
  }
}
