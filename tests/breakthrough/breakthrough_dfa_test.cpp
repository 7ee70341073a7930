// Breakthrough solved with DFA sets, checked against the spec's published figures (winners, the 3×4
// reachable-set sizes) and against a plain explicit-state solver written here independently.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <map>
#include <set>

#include "zermelo/dfa/set_file.hpp"
#include "zermelo/games/breakthrough/breakthrough_sets.hpp"

namespace {

using namespace zermelo;
using Str = std::vector<std::uint8_t>;

// ---- An explicit-state Breakthrough, sharing nothing with the set module but the string layout
// used to compare results (side to move, then squares row by row from row 1).
struct Explicit {
  int w, h;
  // grid[r][c]: 0 empty, 1 first player's pawn (moves up), 2 second player's (moves down)
  using Grid = std::vector<std::vector<int>>;
  struct Pos {
    Grid grid;
    int to_move;  // 1 or 2
    Str key() const {
      Str s{static_cast<std::uint8_t>(to_move - 1)};
      for (auto& row : grid)
        for (int v : row) s.push_back(static_cast<std::uint8_t>(v));
      return s;
    }
  };
  Pos start() const {
    Pos p{Grid(h, std::vector<int>(w, 0)), 1};
    for (int c = 0; c < w; ++c)
      p.grid[0][c] = p.grid[1][c] = 1, p.grid[h - 1][c] = p.grid[h - 2][c] = 2;
    return p;
  }
  // The game is over when a pawn stands on its far row or a side has no pawns; the mover then lost.
  bool over(const Pos& p) const {
    int n1 = 0, n2 = 0;
    for (int r = 0; r < h; ++r)
      for (int c = 0; c < w; ++c) n1 += p.grid[r][c] == 1, n2 += p.grid[r][c] == 2;
    for (int c = 0; c < w; ++c)
      if (p.grid[h - 1][c] == 1 || p.grid[0][c] == 2) return true;
    return n1 == 0 || n2 == 0;
  }
  std::vector<Pos> moves(const Pos& p) const {
    std::vector<Pos> out;
    if (over(p)) return out;
    int me = p.to_move, dr = me == 1 ? 1 : -1;
    for (int r = 0; r < h; ++r)
      for (int c = 0; c < w; ++c) {
        if (p.grid[r][c] != me) continue;
        int nr = r + dr;
        if (nr < 0 || nr >= h) continue;
        for (int dc : {-1, 0, 1}) {
          int nc = c + dc;
          if (nc < 0 || nc >= w) continue;
          int target = p.grid[nr][nc];
          if (target == me || (dc == 0 && target != 0)) continue;
          Pos q = p;
          q.grid[r][c] = 0;
          q.grid[nr][nc] = me;
          q.to_move = 3 - me;
          out.push_back(q);
        }
      }
    return out;
  }
};

struct ExplicitSolution {
  std::vector<std::set<Str>> by_ply;  // positions reachable in exactly n plies
  std::map<Str, bool> won;            // every reachable position -> won for the player to move
};

ExplicitSolution solve_explicitly(int w, int h) {
  Explicit game{w, h};
  ExplicitSolution s;
  std::map<Str, Explicit::Pos> frontier{{game.start().key(), game.start()}};
  std::map<Str, Explicit::Pos> all;
  while (!frontier.empty()) {
    std::set<Str> keys;
    std::map<Str, Explicit::Pos> next;
    for (auto& [k, p] : frontier) {
      keys.insert(k);
      all.emplace(k, p);
      for (auto& q : game.moves(p)) next.emplace(q.key(), q);
    }
    s.by_ply.push_back(keys);
    frontier = std::move(next);
  }
  // Negamax with memo; the game is finite (pawns only move forward).
  std::function<bool(const Explicit::Pos&)> value = [&](const Explicit::Pos& p) -> bool {
    Str k = p.key();
    auto it = s.won.find(k);
    if (it != s.won.end()) return it->second;
    bool win = false;
    for (auto& q : game.moves(p))  // no moves (game over or blocked): lost
      if (!value(q)) {
        win = true;
        break;
      }
    s.won[k] = win;
    return win;
  };
  for (auto& [k, p] : all) value(p);
  return s;
}

std::set<Str> contents(const dfa::Set& set) {
  std::set<Str> out;
  set.enumerate([&](const Str& x) {
    out.insert(x);
    return true;
  });
  return out;
}

struct SetSolve {
  std::unique_ptr<dfa::Manager> m;
  dfa::SetGame g;
};
SetSolve make(const std::string& board) {
  SetSolve s;
  auto b = breakthrough::parse_board(board);
  s.m = breakthrough::make_manager(b, 512u << 20);
  s.g = breakthrough::make_game(*s.m, b);
  return s;
}

TEST(BreakthroughDfa, ReachableSetsOf3x4MatchTheSpec) {
  const std::vector<std::uint64_t> expected = {1,    4,    19,    98,    352,   1254, 2947,
                                               6622, 9373, 14025, 12503, 11904, 7047, 4446,
                                               1755, 971,  252,   66,    9};
  SetSolve s = make("3x4");
  auto r = dfa::solve_by_reach(s.g, s.g.won0, s.g.lost0, 100);
  std::vector<std::uint64_t> sizes;
  for (auto& set : r.reach) sizes.push_back(set.count());
  EXPECT_EQ(sizes, expected);  // R(19) is empty: the loop stopped there
  EXPECT_EQ(r.distinct_positions, 55152u);
  // The explicit breadth-first search agrees set for set.
  ExplicitSolution ex = solve_explicitly(3, 4);
  ASSERT_EQ(ex.by_ply.size(), r.reach.size());
  for (std::size_t i = 0; i < r.reach.size(); ++i)
    EXPECT_EQ(contents(r.reach[i]), ex.by_ply[i]) << "ply " << i;
}

void cross_check(int w, int h) {
  SetSolve s = make(std::to_string(w) + "x" + std::to_string(h));
  ExplicitSolution ex = solve_explicitly(w, h);
  std::set<Str> ex_won, ex_lost;
  for (auto& [k, win] : ex.won) (win ? ex_won : ex_lost).insert(k);

  // Forward sets backed up: the union over plies of Won(i) / Lost(i) is exactly the explicit split.
  auto r = dfa::solve_by_reach(s.g, s.g.won0, s.g.lost0, 100);
  std::set<Str> won, lost;
  for (auto& set : r.won)
    for (auto& x : contents(set)) won.insert(x);
  for (auto& set : r.lost)
    for (auto& x : contents(set)) lost.insert(x);
  EXPECT_EQ(won, ex_won);
  EXPECT_EQ(lost, ex_lost);

  // Retrograde over every string: the fixpoint values every reachable position the same way.
  auto rr = dfa::retrograde(s.g, 1000);
  ASSERT_TRUE(rr.converged);
  std::size_t bad = 0;
  for (auto& [k, win] : ex.won) bad += rr.won.contains(k) != win || rr.lost.contains(k) == win;
  EXPECT_EQ(bad, 0u);
  // And it decides every string (Breakthrough has no draws, from any board).
  EXPECT_EQ(rr.won.count() + rr.lost.count(), s.g.all.count());
  EXPECT_TRUE((rr.won & rr.lost).is_empty());
}

TEST(BreakthroughDfa, ExplicitSolverAgreesOn2x4) { cross_check(2, 4); }
TEST(BreakthroughDfa, ExplicitSolverAgreesOn3x4) { cross_check(3, 4); }

TEST(BreakthroughDfa, PublishedWinnersOfSmallBoards) {
  const std::vector<std::pair<std::string, bool>> boards = {
      {"2x4", false}, {"2x5", false}, {"2x6", true}, {"3x4", false},
      {"3x5", false}, {"3x6", true},  {"4x4", false}};
  for (auto& [board, first_wins] : boards) {
    SetSolve s = make(board);
    auto r = dfa::solve_by_reach(s.g, s.g.won0, s.g.lost0, 200);
    EXPECT_EQ(r.start_won, first_wins) << board;
  }
}

TEST(BreakthroughDfa, MeetInTheMiddleAgreesWithPlainReach) {
  for (const char* board : {"2x5", "3x4", "2x6"}) {
    SetSolve s = make(board);
    auto plain = dfa::solve_by_reach(s.g, s.g.won0, s.g.lost0, 200);
    auto back = dfa::retrograde(s.g, 3);
    auto mitm = dfa::solve_by_reach(s.g, back.won, back.lost, 200);
    EXPECT_EQ(mitm.start_won, plain.start_won) << board;
    // The back-up that hands restricted lost sets up gives the very same sets.
    s.g.simplify_backup = true;
    auto restricted = dfa::solve_by_reach(s.g, back.won, back.lost, 200);
    s.g.simplify_backup = false;
    EXPECT_EQ(restricted.won, mitm.won) << board;
    EXPECT_EQ(restricted.lost, mitm.lost) << board;
    // Forward sets spilled to set files and loaded back in the back-up: the same sets again, and
    // the scratch files are gone afterwards.
    std::string spill = testing::TempDir() + "breakthrough_spill_" + board;
    auto spilled = dfa::solve_by_reach(s.g, back.won, back.lost, 200, {}, true, spill);
    EXPECT_EQ(spilled.reach, mitm.reach) << board;
    EXPECT_EQ(spilled.won, mitm.won) << board;
    EXPECT_EQ(spilled.lost, mitm.lost) << board;
    EXPECT_TRUE(std::filesystem::is_empty(spill)) << board;
    std::filesystem::remove_all(spill);
    EXPECT_LE(mitm.reach.size(), plain.reach.size()) << board;
    // On every ply both methods value the positions they share identically.
    for (std::size_t i = 0; i < mitm.reach.size(); ++i) {
      EXPECT_TRUE((mitm.won[i] & plain.lost[i]).is_empty()) << board << " ply " << i;
      EXPECT_TRUE((mitm.lost[i] & plain.won[i]).is_empty()) << board << " ply " << i;
    }
  }
}

// A spilled solve that stopped (here at the ply limit, as a kill would stop it) resumes from its
// set files: the plies on disk are read back, the rest computed, and every set, every ply's
// statistics and the value are those of a solve in one go. Files of another board or of other
// known sets are refused by name.
TEST(BreakthroughDfa, SpilledSolveResumesFromItsSetFiles) {
  for (const char* board : {"3x5", "4x4"}) {
    SetSolve s = make(board);
    auto back = dfa::retrograde(s.g, 2);
    auto whole = dfa::solve_by_reach(s.g, back.won, back.lost, 200);
    std::string spill = testing::TempDir() + "breakthrough_resume_" + board;
    std::filesystem::remove_all(spill);
    EXPECT_THROW(dfa::solve_by_reach(s.g, back.won, back.lost, 5, {}, true, spill),
                 std::runtime_error);
    EXPECT_TRUE(std::filesystem::exists(spill + "/open_5.zdfa")) << board;
    EXPECT_FALSE(std::filesystem::exists(spill + "/open_6.zdfa")) << board;
    // Another start (2x8 has 4x4's string shape) and other known sets: refused, files kept.
    if (std::string(board) == "4x4") {
      SetSolve other = make("2x8");
      EXPECT_THROW(dfa::solve_by_reach(other.g, other.g.won0, other.g.lost0, 200, {}, true, spill),
                   std::runtime_error);
    }
    EXPECT_THROW(dfa::solve_by_reach(s.g, s.g.won0, s.g.lost0, 200, {}, true, spill),
                 std::runtime_error);
    auto resumed = dfa::solve_by_reach(s.g, back.won, back.lost, 200, {}, true, spill);
    EXPECT_EQ(resumed.resumed_plies, 6u) << board;
    EXPECT_EQ(resumed.reach, whole.reach) << board;
    EXPECT_EQ(resumed.won, whole.won) << board;
    EXPECT_EQ(resumed.lost, whole.lost) << board;
    EXPECT_EQ(resumed.start_won, whole.start_won) << board;
    EXPECT_EQ(resumed.distinct_positions, whole.distinct_positions) << board;
    EXPECT_EQ(resumed.distinct.states, whole.distinct.states) << board;
    ASSERT_EQ(resumed.steps.size(), whole.steps.size()) << board;
    for (std::size_t i = 0; i < whole.steps.size(); ++i) {
      const auto &a = resumed.steps[i], &b = whole.steps[i];
      EXPECT_EQ(a.resumed, i < 6) << board << " ply " << i;
      EXPECT_EQ(a.reach.positions, b.reach.positions) << board << " ply " << i;
      EXPECT_EQ(a.reach.states, b.reach.states) << board << " ply " << i;
      EXPECT_EQ(a.undecided.positions, b.undecided.positions) << board << " ply " << i;
      EXPECT_EQ(a.undecided.states, b.undecided.states) << board << " ply " << i;
      EXPECT_EQ(a.won.states, b.won.states) << board << " ply " << i;
      EXPECT_EQ(a.lost.states, b.lost.states) << board << " ply " << i;
    }
    EXPECT_TRUE(std::filesystem::is_empty(spill)) << board;
    std::filesystem::remove_all(spill);
  }
}

// A solve stopped in its back-up (here by its progress callback, once ply k is backed up; twice
// when k >= 2) resumes there: the plies backed up are read back, not redone, and every ply's
// statistics and the value are those of a solve in one go. A solve that keeps its sets has no
// file of the won and lost sets, so it backs every ply up again, to the same sets.
TEST(BreakthroughDfa, SpilledSolveResumesItsBackUp) {
  struct Stop {};
  auto stop_at = [](std::size_t ply) {
    return [ply](const dfa::ReachStep& st, bool backing_up) {
      if (backing_up && !st.backup_resumed && st.ply == ply) throw Stop{};
    };
  };
  for (const char* board : {"3x5", "4x4"}) {
    SetSolve s = make(board);
    auto back = dfa::retrograde(s.g, 2);
    auto solve = [&](auto progress, bool keep_sets, const std::string& spill) {
      return dfa::solve_by_reach(s.g, back.won, back.lost, 200, progress, keep_sets, spill);
    };
    const auto whole = solve(nullptr, false, "");
    const std::size_t n = whole.steps.size();
    const std::string spill = testing::TempDir() + "breakthrough_backup_resume_" + board;
    for (std::size_t k : {n - 1, n / 2, std::size_t{1}, std::size_t{0}}) {
      std::filesystem::remove_all(spill);
      EXPECT_THROW(solve(stop_at(k), false, spill), Stop);
      if (k >= 2) {
        EXPECT_THROW(solve(stop_at(k / 2), false, spill), Stop);
      }
      const std::size_t lowest = k >= 2 ? k / 2 : k;
      const auto resumed = solve(nullptr, false, spill);
      const std::string at = std::string(board) + " stopped at " + std::to_string(k);
      EXPECT_EQ(resumed.resumed_plies, lowest) << at;
      EXPECT_EQ(resumed.resumed_backup_plies, n - lowest) << at;
      EXPECT_EQ(resumed.start_won, whole.start_won) << at;
      EXPECT_EQ(resumed.reach[0], whole.reach[0]) << at;
      EXPECT_EQ(resumed.won[0], whole.won[0]) << at;
      EXPECT_EQ(resumed.lost[0], whole.lost[0]) << at;
      EXPECT_EQ(resumed.distinct_positions, whole.distinct_positions) << at;
      EXPECT_EQ(resumed.distinct.states, whole.distinct.states) << at;
      ASSERT_EQ(resumed.steps.size(), n) << at;
      for (std::size_t i = 0; i < n; ++i) {
        const auto &a = resumed.steps[i], &b = whole.steps[i];
        const std::string ply = at + ", ply " + std::to_string(i);
        EXPECT_EQ(a.backup_resumed, i >= lowest) << ply;
        EXPECT_EQ(a.reach.positions, b.reach.positions) << ply;
        EXPECT_EQ(a.undecided.states, b.undecided.states) << ply;
        EXPECT_EQ(a.won.positions, b.won.positions) << ply;
        EXPECT_EQ(a.won.states, b.won.states) << ply;
        EXPECT_EQ(a.lost.positions, b.lost.positions) << ply;
        EXPECT_EQ(a.lost.states, b.lost.states) << ply;
        EXPECT_EQ(a.passed_states, b.passed_states) << ply;
      }
      EXPECT_TRUE(std::filesystem::is_empty(spill)) << at;
    }
    std::filesystem::remove_all(spill);
    const auto kept_whole = solve(nullptr, true, "");
    EXPECT_THROW(solve(stop_at(n / 2), true, spill), Stop);
    const auto kept = solve(nullptr, true, spill);
    EXPECT_EQ(kept.resumed_backup_plies, 0u) << board;
    EXPECT_EQ(kept.won, kept_whole.won) << board;
    EXPECT_EQ(kept.lost, kept_whole.lost) << board;
    EXPECT_TRUE(std::filesystem::is_empty(spill)) << board;
    std::filesystem::remove_all(spill);
  }
}

// A solve on two threads makes the very states of a solve on one: the same roots, ply by ply, in
// one table. The budget is tight, so the table grows (and collects garbage) while threads build.
TEST(BreakthroughDfa, TwoThreadsSolveLikeOne) {
  for (const char* board : {"3x5", "4x4"}) {
    auto b = breakthrough::parse_board(board);
    auto m = breakthrough::make_manager(b, 48u << 20);
    dfa::SetGame g = breakthrough::make_game(*m, b);
    auto back = dfa::retrograde(g, 2);
    auto one = dfa::solve_by_reach(g, back.won, back.lost, 200);
    m->set_threads(2, 0);  // split even these small operations
    m->clear_operation_cache();
    auto back2 = dfa::retrograde(g, 2);
    EXPECT_EQ(back2.won, back.won) << board;
    EXPECT_EQ(back2.lost, back.lost) << board;
    auto two = dfa::solve_by_reach(g, back.won, back.lost, 200);
    EXPECT_EQ(two.reach, one.reach) << board;
    EXPECT_EQ(two.won, one.won) << board;
    EXPECT_EQ(two.lost, one.lost) << board;
    EXPECT_EQ(two.start_won, one.start_won) << board;
    EXPECT_GT(m->parallel_stats().sections, 0u) << board;
  }
}

TEST(BreakthroughDfa, TerminalSetsAndStart) {
  SetSolve s = make("3x4");
  auto b = breakthrough::parse_board("3x4");
  Str start = breakthrough::start_position(b);
  EXPECT_FALSE((s.g.won0 | s.g.lost0).contains(start));
  // P1 pawn on row 4 with P2 to move: P2 has lost.
  Str done = start;
  done[0] = 1;
  done[b.index(3, 0)] = 1;
  EXPECT_TRUE(s.g.lost0.contains(done));
  EXPECT_EQ(breakthrough::render(b, start),
            "4  OOO\n3  OOO\n2  XXX\n1  XXX\n   abc\nP1 (X) to move\n");
  EXPECT_EQ(dfa::forward(s.g, s.m->singleton(start)).count(),
            4u);  // the four captures a2xb3, b2xa3, ...
}

TEST(BreakthroughDfa, RejectsBadBoards) {
  for (const char* bad : {"3", "3x", "x4", "3x3", "1x4", "ax4", "3x4x5", "13x4", "7x7"})
    EXPECT_THROW(breakthrough::parse_board(bad), std::invalid_argument) << bad;
  EXPECT_EQ(breakthrough::parse_board("5X6").width, 5u);
}

#ifdef ZERMELO_CLI
std::string run(const std::string& args, int* status) {
  std::string out;
  FILE* p = popen((std::string(ZERMELO_CLI) + " " + args + " 2>&1").c_str(), "r");
  char buf[4096];
  while (fgets(buf, sizeof buf, p)) out += buf;
  *status = pclose(p);
  return out;
}

TEST(BreakthroughDfa, CommandLine) {
  int st = 0;
  std::string out = run("--memory 512M --json breakthrough solve --board 3x4", &st);
  EXPECT_EQ(st, 0);
  EXPECT_NE(out.find("\"winner\": \"P2\""), std::string::npos) << out;
  EXPECT_NE(out.find("\"positions\": 55152"), std::string::npos) << out;
  out = run("--memory 512M nim solve --heaps 3 --sticks 5", &st);
  EXPECT_EQ(st, 0);
  EXPECT_NE(out.find("winner: first player"), std::string::npos) << out;
  out = run("--memory 512M breakthrough solve --board 3x3", &st);
  EXPECT_NE(st, 0);
  EXPECT_NE(out.find("height must be 4..12"), std::string::npos) << out;
  // --save writes the won/lost sets per ply; loaded back they hold exactly the reachable positions.
  std::string dir = testing::TempDir() + "bt_dfa_save";
  out = run("--memory 512M --quiet breakthrough solve --board 2x4 --save " + dir, &st);
  EXPECT_EQ(st, 0) << out;
  {
    SetSolve s = make("2x4");
    std::uint64_t total = 0;
    for (int ply = 0; ply < 13; ++ply)
      total += dfa::load_set(*s.m, dir + "/won_" + std::to_string(ply) + ".zdfa").count() +
               dfa::load_set(*s.m, dir + "/lost_" + std::to_string(ply) + ".zdfa").count();
    auto r = dfa::solve_by_reach(s.g, s.g.won0, s.g.lost0, 100);
    std::uint64_t expect = 0;
    for (auto& set : r.reach) expect += set.count();
    EXPECT_EQ(total, expect);
  }
  out = run("--memory 64K breakthrough solve --board 3x4", &st);
  EXPECT_NE(st, 0);
  EXPECT_NE(out.find("memory budget"), std::string::npos) << out;
}
#endif

}  // namespace
