// The puzzle finder on solved ostle-mini work dirs against a brute force: the plain fixpoint
// solver's values and the literal grid rules' count of pieces decide which states are puzzles.
// The lost states it holds in memory (GroupLosses) are the plain solver's, state for state.
#include "zermelo/games/ostle/puzzles.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "tests/ostle/mini_reference.hpp"
#include "tests/ostle/plain_fixpoint.hpp"
#include "tests/test_util.hpp"
#include "zermelo/engine/retrograde.hpp"
#include "zermelo/games/ostle/group_losses.hpp"
#include "zermelo/games/ostle/mini.hpp"

namespace {

using namespace zermelo;

// Won (not at once) and every move to a lost child leaves the mover with fewer pieces, by the
// literal rules; at least one such move. Returns how many winning moves (0: no puzzle).
int plain_puzzle(const ostle::mini::Rules& r, const Game& g,
                 const ostle_mini_test::PlainSolution& plain, StateKey s, bool shortest_only) {
  const Value v = plain.at(s);
  if (!v.is_win() || v.plies() == 0) return 0;
  const auto [b, f] = r.decode(s);
  const auto grid = ostle_mini_ref::from_text(r.width(), r.height(), r.to_text(b, 0));
  std::vector<Child> kids;
  g.successors(s, kids);
  int winning = 0;
  for (std::size_t i = 0; i < kids.size(); ++i) {
    const Value c = kids[i].is_terminal() ? kids[i].terminal : plain.at(kids[i].key);
    if (!c.is_loss()) continue;
    if (shortest_only && c.plies() + 1 != v.plies()) continue;  // a longer win
    const std::string name = g.move_name(s, i);
    const ostle_mini_ref::Move m{name[0] - 'a', name[1] - '1',
                                 static_cast<int>(std::string("UDLR").find(name[2]))};
    const auto q = ostle_mini_ref::play(grid, m, r.pieces() - 2);
    if (q.next.count('o') == grid.count('x')) return 0;  // kept every piece
    ++winning;
  }
  return winning;
}

void expect_puzzles_match(const std::string& variant, const std::string& reading) {
  zermelo::testing::ScratchDir dir;
  std::vector<std::string> options{variant};
  if (!reading.empty()) options.push_back(reading);
  auto g = make_game("ostle-mini", options);
  const std::string cli = std::string(ZERMELO_CLI) + " --quiet --work-dir " + (dir / "w");
  const auto solved =
      zermelo::testing::run_command(cli + " solve ostle-mini " + variant + " " + reading + " 2>&1");
  ASSERT_EQ(solved.code, 0) << solved.out;
  std::vector<std::string> runs;
  for (const auto& t : g->tiers()) runs.push_back(tier_values_path(*g, dir / "w", t.name));
  const auto scan =
      ostle::find_puzzles(*g, runs, ostle::ostle_sacrifices(*g), 1000000, false, 2, 1u << 30);

  const auto r = ostle::mini::Rules::from_variant(variant);
  const auto plain = ostle_mini_test::plain_fixpoint_solve(*g);
  // The lost states in memory, state for state; positions whose states differ (lost with one
  // forbidden move, not with another) are among them, so the list beside the bits is used.
  const ostle::GroupLosses losses(*g, runs, 1u << 30);
  for (StateKey k : plain.keys) EXPECT_EQ(losses.lost(k), plain.at(k).is_loss()) << k;
  EXPECT_GT(losses.mixed_groups(), 0u) << variant << " " << reading;
  EXPECT_THROW(ostle::GroupLosses(*g, runs, losses.bytes() - 1), std::invalid_argument);
  // The budget covers the scan's batch too: the lost states alone in it are not enough.
  EXPECT_THROW(
      ostle::find_puzzles(*g, runs, ostle::ostle_sacrifices(*g), 1, false, 1, losses.bytes() + 1),
      std::invalid_argument);
  std::set<StateKey> want;
  std::set<std::string> boards;  // a position's states differ only by the forbidden move
  std::uint64_t one_winning_move = 0;
  std::map<int, std::uint64_t> by_plies;
  for (StateKey k : plain.keys)
    if (const int winning = plain_puzzle(r, *g, plain, k, false)) {
      want.insert(k);
      boards.insert(r.to_text(r.decode(k).first, 0));
      one_winning_move += winning == 1;
      ++by_plies[plain.at(k).plies()];
    }
  EXPECT_EQ(scan.positions, boards.size()) << variant << " " << reading;
  EXPECT_EQ(scan.one_winning_move, one_winning_move) << variant << " " << reading;
  EXPECT_EQ(scan.by_plies, by_plies) << variant << " " << reading;
  std::uint64_t in_tiers = 0;
  for (const auto& [tier, n] : scan.by_tier) in_tiers += n;
  EXPECT_EQ(in_tiers, want.size());
  std::set<StateKey> got;
  for (const auto& p : scan.longest) {
    got.insert(p.key);
    EXPECT_EQ(p.value, plain.at(p.key));
  }
  EXPECT_EQ(scan.puzzles, want.size()) << variant << " " << reading;
  EXPECT_EQ(got, want) << variant << " " << reading;
  EXPECT_GT(want.size(), 0u) << variant << " " << reading;
  // Only the shortest wins counted: a superset (a puzzle's shortest wins are sacrifices too).
  std::set<StateKey> want_short, got_short;
  for (StateKey k : plain.keys)
    if (plain_puzzle(r, *g, plain, k, true)) want_short.insert(k);
  const auto short_scan =
      ostle::find_puzzles(*g, runs, ostle::ostle_sacrifices(*g), 1000000, true, 2, 1u << 30);
  for (const auto& p : short_scan.longest) got_short.insert(p.key);
  EXPECT_EQ(got_short, want_short) << variant << " " << reading;
  std::set<std::string> short_boards;
  for (StateKey k : want_short) short_boards.insert(r.to_text(r.decode(k).first, 0));
  EXPECT_EQ(short_scan.positions, short_boards.size()) << variant << " " << reading;
  std::cout << "  on " << boards.size() << " and " << short_boards.size() << " positions\n";
  EXPECT_TRUE(std::includes(want_short.begin(), want_short.end(), want.begin(), want.end()));
  std::cout << variant << " " << reading << ": " << want.size() << " puzzles, " << want_short.size()
            << " counting the shortest wins only\n";
  ASSERT_FALSE(scan.longest.empty());
  // Longest first; the line replays: its first move a sacrifice, as long as the value says (the
  // capture at the end, or the loser's own last piece off the board).
  for (std::size_t i = 1; i < scan.longest.size(); ++i)
    EXPECT_GE(scan.longest[i - 1].value.plies(), scan.longest[i].value.plies());
  const ostle::Puzzle& top = scan.longest.front();
  StateKey s = top.key;
  std::vector<Child> kids;
  std::size_t played = 0;
  for (const std::string& move : top.line) {
    g->successors(s, kids);
    std::size_t i = 0;
    while (i < kids.size() && g->move_name(s, i) != move) ++i;
    ASSERT_LT(i, kids.size()) << move << " is not a move of\n" << g->render(s);
    if (played == 0) {
      EXPECT_TRUE(ostle::ostle_sacrifices(*g)(s) >> i & 1);
    }
    ++played;
    if (kids[i].is_terminal()) break;
    s = kids[i].key;
  }
  EXPECT_EQ(played, top.line.size());
  EXPECT_GE(played, top.value.plies());
  EXPECT_LE(played, top.value.plies() + 1u);

  // The command, bound to the work dir's manifest: the same count and longest line, in JSON.
  const auto cmd = zermelo::testing::run_command(cli + " --json ostle puzzles --limit 3 2>&1");
  ASSERT_EQ(cmd.code, 0) << cmd.out;
  const auto j = nlohmann::json::parse(cmd.out);
  EXPECT_EQ(j["puzzles"].get<std::size_t>(), want.size());
  EXPECT_EQ(j["positions"].get<std::size_t>(), boards.size());
  EXPECT_EQ(j["one_winning_move"].get<std::uint64_t>(), one_winning_move);
  EXPECT_EQ(j["variant"], g->variant());
  ASSERT_EQ(j["longest"].size(), std::min<std::size_t>(3, want.size()));
  std::string line;
  for (const auto& m : top.line) line += (line.empty() ? "" : ",") + m;
  EXPECT_EQ(j["longest"][0]["line"], line);
  EXPECT_EQ(j["longest"][0]["diagram"], g->render(top.key));
  const auto short_cmd =
      zermelo::testing::run_command(cli + " --json ostle puzzles --shortest-only 2>&1");
  ASSERT_EQ(short_cmd.code, 0) << short_cmd.out;
  EXPECT_EQ(nlohmann::json::parse(short_cmd.out)["puzzles"].get<std::size_t>(), want_short.size());
  // Asked about the other reading, the command refuses rather than answer about this one.
  const std::string other = reading.empty() ? variant + " reference" : variant;
  const auto wrong =
      zermelo::testing::run_command(cli + " ostle puzzles ostle-mini " + other + " 2>&1");
  EXPECT_NE(wrong.code, 0);
  EXPECT_NE(wrong.out.find("holds"), std::string::npos) << wrong.out;

  // Solved tier by tier up to all but the top tier: the puzzles of the solved tiers only.
  const auto tiers = g->tiers();
  std::string partial_cli = std::string(ZERMELO_CLI) + " --quiet --work-dir " + (dir / "tiers");
  for (std::size_t t = 0; t + 1 < tiers.size(); ++t) {
    const auto step = zermelo::testing::run_command(partial_cli + " solve ostle-mini " + variant +
                                                    " " + reading + " --tier " + tiers[t].name);
    ASSERT_EQ(step.code, 0) << step.out;
  }
  std::size_t below_top = 0;
  for (StateKey k : want) below_top += g->tier_of(k) != tiers.back().name;
  const auto part = zermelo::testing::run_command(partial_cli + " --json ostle puzzles 2>&1");
  ASSERT_EQ(part.code, 0) << part.out;
  const auto pj = nlohmann::json::parse(part.out);
  EXPECT_EQ(pj["puzzles"].get<std::size_t>(), below_top);
  EXPECT_EQ(pj["unsolved_tiers"], nlohmann::json::array({tiers.back().name}));
}

TEST(OstlePuzzles, MatchTheBruteForceOnSmallBoards) {
  ZERMELO_RELEASE_ONLY_SCALE_TEST();
  expect_puzzles_match("3x3:p3", "");
  expect_puzzles_match("3x3:p3", "reference");
}

}  // namespace
