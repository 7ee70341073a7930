// Small-board Ostle (ostle-mini): the rules against a literal reference and against the 5x5
// module, successors against predecessors on every state, and the engine's solves (in RAM, out
// of core with un-moves, out of core with a reverse-edge run, tier by tier) against a plain
// fixpoint solver written without the engine.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>

#include "tests/json_value.hpp"
#include "tests/ostle/mini_reference.hpp"
#include "tests/ostle/plain_fixpoint.hpp"
#include "tests/test_util.hpp"
#include "zermelo/engine/retrograde.hpp"
#include "zermelo/engine/verify_game.hpp"
#include "zermelo/games/ostle/board.hpp"
#include "zermelo/games/ostle/mini.hpp"

namespace zermelo::ostle::mini {
namespace {

Board random_board(const Rules& r, std::mt19937_64& rng) {
  std::vector<int> squares(static_cast<std::size_t>(r.squares()));
  for (int i = 0; i < r.squares(); ++i) squares[static_cast<std::size_t>(i)] = i;
  std::shuffle(squares.begin(), squares.end(), rng);
  const int mine = r.pieces() - 1 + static_cast<int>(rng() % 2),
            theirs = r.pieces() - 1 + static_cast<int>(rng() % 2);
  Board b;
  b.hole = squares[0];
  b.cell[b.hole] = kHole;
  for (int i = 0; i < mine; ++i) b.cell[squares[static_cast<std::size_t>(1 + i)]] = kMine;
  for (int i = 0; i < theirs; ++i)
    b.cell[squares[static_cast<std::size_t>(1 + mine + i)]] = kTheirs;
  return b;
}

TEST(OstleMiniRules, VariantsParseAndBadOnesAreNamed) {
  EXPECT_EQ(Rules::from_variant("4x4:p3").variant(), "4x4:p3");
  EXPECT_EQ(Rules::from_variant("3x4:p2").width(), 3);
  EXPECT_EQ(Rules::from_variant("3x4:p2").height(), 4);
  for (const char* bad :
       {"4x4", "4x4:3", "ax4:p3", "4x4:p9", "4x4:p1", "2x2:p2", "6x6:p3", "4x4:p3x"})
    EXPECT_THROW(Rules::from_variant(bad), std::invalid_argument) << bad;
  auto g = make_game("ostle-mini", {"4x4:p3"});
  EXPECT_EQ(g->variant(), "4x4:p3");
  EXPECT_THROW(make_game("ostle-mini", {"5x5"}), std::invalid_argument);
}

TEST(OstleMiniRules, StartAndTextForms) {
  const Rules r(4, 4, 3);
  const Board s = r.start();
  EXPECT_EQ(r.to_text(s, kNoForbid), "1110-0300-0000-2220");
  EXPECT_EQ(Rules(5, 5, 5).to_text(Rules(5, 5, 5).start(), kNoForbid),
            "11111-00000-00300-00000-22222");  // 5x5 Ostle's start
  EXPECT_EQ(r.legal_moves(s, kNoForbid).size(),
            3u * 4 + 3);  // 3 pieces x 4 directions, the hole onto 3 empty squares (b1 is taken)
  std::string err;
  auto st = r.parse("1110-0300-0000-2220", &err);
  ASSERT_TRUE(st) << err;
  EXPECT_EQ(st->first, s);
  EXPECT_TRUE(r.parse("1110030000002220", &err));  // dashes optional
  // The start after the hole moved b2 -> b3: the hole may go back.
  st = r.parse("2220-0000-0300-1110:b3U", &err);
  ASSERT_TRUE(st) << err;
  EXPECT_EQ(r.to_text(st->first, st->second), "2220-0000-0300-1110:b3U");
  for (auto [text, why] : std::vector<std::pair<std::string, std::string>>{
           {"1110-0300-0000-222", "wrong length"},
           {"1110-0300-0000-2229", "bad digit '9' on d4"},
           {"1110-0000-0000-2220", "0 holes"},
           {"1000-0300-0000-2220", "game already over: the side to move has 1"},
           {"1111-0300-0000-2220", "the side to move has 4 pieces"},
           {"1110-0300-0000-2220:b2Q", "malformed forbidden move"},
           {"1110-0300-0000-2220:a1D", "could not have been caused"}}) {
    err.clear();
    EXPECT_FALSE(r.parse(text, &err)) << text;
    EXPECT_NE(err.find(why), std::string::npos) << text << ": " << err;
  }
}

// Random games on several shapes, move by move against the literal reference.
// Under the sanitizers a third of the walks (the same boards and code paths, fewer games).
TEST(OstleMiniRules, RandomGamesAgreeWithTheLiteralReference) {
  const int walks = testing::release_else_sanitized(300, 100);
  std::mt19937_64 rng(20261122);
  std::uint64_t moves = 0, forbidden_seen = 0;
  for (const char* v :
       {"3x3:p2", "3x3:p3", "3x4:p3", "4x3:p3", "4x4:p3", "5x3:p4", "4x5:p4", "5x5:p5", "7x4:p5"}) {
    const Rules r = Rules::from_variant(v);
    const int lose_at = r.pieces() - 2;
    for (int walk = 0; walk < walks; ++walk) {
      Board b = random_board(r, rng);
      while (r.unmoves(b, kNoForbid).empty()) b = random_board(r, rng);  // (b, none) exists
      int forbid = kNoForbid;
      auto grid = ostle_mini_ref::from_text(r.width(), r.height(), r.to_text(b, kNoForbid));
      std::optional<ostle_mini_ref::Grid> before;
      for (int ply = 0; ply < 40; ++ply) {
        const std::string where = std::string(v) + " " + r.to_text(b, forbid);
        const auto fast = r.legal_moves(b, forbid);
        const auto ref = ostle_mini_ref::legal_moves(grid, before, lose_at);
        ASSERT_EQ(fast.size(), ref.size()) << where;
        for (std::size_t i = 0; i < fast.size(); ++i) {
          ASSERT_EQ(ostle_mini_ref::Move(
                        {r.file_of(fast[i].square), r.rank_of(fast[i].square), fast[i].dir}),
                    ref[i])
              << where;
        }
        const auto codes = r.reachable_forbids(b);
        ASSERT_NE(std::find(codes.begin(), codes.end(), forbid), codes.end()) << where;
        ASSERT_EQ(r.is_checkmate(b), ostle_mini_ref::is_checkmate(grid, before, lose_at)) << where;
        forbidden_seen += forbid != kNoForbid;
        std::vector<MiniMove> going;
        for (const MiniMove& m : fast) {
          ++moves;
          const Played p = r.play(b, m);
          const auto q = ostle_mini_ref::play(
              grid, ostle_mini_ref::Move{r.file_of(m.square), r.rank_of(m.square), m.dir}, lose_at);
          const int outcome = static_cast<int>(p.outcome), ref_outcome = static_cast<int>(q.result);
          ASSERT_EQ(outcome, ref_outcome) << where << " " << r.move_name(m);
          if (p.outcome == MoveOutcome::kContinues) {
            ASSERT_EQ(r.to_text(p.next, kNoForbid), ostle_mini_ref::to_text(q.next))
                << where << " " << r.move_name(m);
            going.push_back(m);
          }
        }
        if (going.empty()) break;
        const MiniMove m = going[rng() % going.size()];
        const Played p = r.play(b, m);
        before = grid;
        grid = ostle_mini_ref::play(
                   grid, ostle_mini_ref::Move{r.file_of(m.square), r.rank_of(m.square), m.dir},
                   lose_at)
                   .next;
        b = p.next, forbid = p.next_forbid;
      }
    }
  }
  // 1,313,185 moves and 33,370 forbidden ones in 300 walks a board (Release).
  const auto per_walk = [&](std::uint64_t n) { return n * static_cast<std::uint64_t>(walks); };
  EXPECT_GT(moves, per_walk(3333));
  EXPECT_GT(forbidden_seen, per_walk(80));  // the repetition rule was exercised
}

// The 5x5 module's position of a 5x5 mini board (the same square numbering).
Position big_position(const Rules& r, const Board& b) {
  Position p;
  for (int q = 0; q < r.squares(); ++q) {
    if (b.cell[q] == kMine) p.me |= zermelo::ostle::bit(q);
    if (b.cell[q] == kTheirs) p.opp |= zermelo::ostle::bit(q);
  }
  p.hole = b.hole;
  return p;
}

// On 5x5 with five pieces the mini module is Ostle: the same children as the 5x5 module. That
// module identifies symmetric states (its successors follow the canonical image's move order), so
// the children are compared as multisets of its canonical keys.
TEST(OstleMiniRules, FiveByFiveWithFivePiecesIsOstle) {
  const Rules r(5, 5, 5);
  auto mini = make_mini_game(r);
  auto big = make_game("ostle");
  std::mt19937_64 rng(7);
  std::vector<Child> a, b;
  std::uint64_t children = 0;
  for (int i = 0; i < 3000; ++i) {
    const Board board = random_board(r, rng);
    const auto codes = r.reachable_forbids(board);
    if (codes.empty()) continue;
    // The two modules' possibly reachable codes (the same encoding on 5x5) agree.
    const Position same = big_position(r, board);
    std::vector<int> big_codes;
    for (int c : reachable_forbid_codes(same)) big_codes.push_back(c);
    ASSERT_EQ(codes, big_codes) << r.to_text(board, kNoForbid);
    const int forbid = codes[rng() % codes.size()];
    const StateKey k = r.key(board, forbid);
    const std::string text = r.to_text(board, forbid);
    auto big_key = big->parse(text, nullptr);
    ASSERT_TRUE(big_key) << text;
    ASSERT_EQ(mini->terminal_value(k), big->terminal_value(*big_key)) << text;
    mini->successors(k, a);
    big->successors(*big_key, b);
    std::vector<std::pair<std::uint16_t, StateKey>> mine, theirs;
    for (const Child& c : a) {
      if (c.is_terminal()) {
        mine.push_back({c.terminal.raw(), 0});
        continue;
      }
      auto [cb, cf] = r.decode(c.key);
      auto mapped = big->parse(r.to_text(cb, cf), nullptr);
      ASSERT_TRUE(mapped) << text << " child " << r.to_text(cb, cf);
      mine.push_back({0, *mapped});
    }
    for (const Child& c : b) theirs.push_back({c.terminal.raw(), c.is_terminal() ? 0 : c.key});
    std::sort(mine.begin(), mine.end());
    std::sort(theirs.begin(), theirs.end());
    ASSERT_EQ(mine, theirs) << text;
    children += mine.size();
  }
  EXPECT_GT(children, 30000u);
}

Board board_of(const Rules& r, const ostle_mini_ref::Grid& g) {
  Board b;
  for (int f = 0; f < g.w; ++f)
    for (int k = 0; k < g.h; ++k) {
      const char c = g.at(f, k);
      const int q = r.square_at(f, k);
      b.cell[q] = c == 'x' ? kMine : c == 'o' ? kTheirs : c == 'H' ? kHole : kEmpty;
      if (c == 'H') b.hole = q;
    }
  return b;
}

std::string ref_move_name(const ostle_mini_ref::Move& m) {
  return std::string(1, static_cast<char>('a' + m.file)) + std::to_string(m.rank + 1) +
         "UDLR"[m.dir];
}

// The states some move produces, by brute force on the literal rules: from every board, every
// move that does not end the game (the repetition rule ignored: any board may have been reached
// any way), and the state it leaves is the board plus the first move there that recreates the
// board before, if any.
std::set<std::string> produced_states(const Rules& r) {
  const std::vector<ostle_mini_ref::Grid> grids =
      ostle_mini_ref::all_grids(r.width(), r.height(), r.pieces());
  const int lose_at = r.pieces() - 2;
  std::set<std::string> out;
  for (const auto& g : grids)
    for (const auto& m : ostle_mini_ref::legal_moves(g, std::nullopt, lose_at)) {
      const auto q = ostle_mini_ref::play(g, m, lose_at);
      if (q.result != ostle_mini_ref::Result::kContinues) continue;
      std::string text = ostle_mini_ref::to_text(q.next);
      for (const auto& back : ostle_mini_ref::legal_moves(q.next, std::nullopt, lose_at))
        if (ostle_mini_ref::play(q.next, back, lose_at).next == g) {
          text += ":" + ref_move_name(back);
          break;
        }
      out.insert(text);
    }
  return out;
}

std::set<std::string> enumerated_states(const Game& g, const Rules& r) {
  std::set<std::string> out;
  g.enumerate("all", [&](StateKey k) {
    const auto [b, forbid] = r.decode(k);
    out.insert(r.to_text(b, forbid));
  });
  return out;
}

std::string first_of(const std::set<std::string>& a, const std::set<std::string>& b) {
  for (const auto& s : a)
    if (!b.count(s)) return s;
  return "(none)";
}

// A state exists exactly when some move produces it: in particular (board, none) only when some
// move into the board leaves nothing to undo. The rest of the boards' "none" states are counted.
TEST(OstleMiniGame, StatesAreExactlyThoseSomeMoveProduces) {
  ZERMELO_RELEASE_ONLY_SCALE_TEST();
  std::size_t orphans = 0;
  for (const char* v : {"3x3:p2", "3x3:p3", "3x4:p2", "4x3:p2", "3x4:p3"}) {
    const Rules r = Rules::from_variant(v);
    const std::set<std::string> produced = produced_states(r);
    const std::set<std::string> states = enumerated_states(*make_mini_game(r), r);
    EXPECT_EQ(states.size(), produced.size()) << v;
    EXPECT_EQ(first_of(states, produced), "(none)") << v << ": enumerated, never produced";
    EXPECT_EQ(first_of(produced, states), "(none)") << v << ": produced, not enumerated";
    std::set<std::string> boards;
    for (const auto& s : states) boards.insert(s.substr(0, s.find(':')));
    for (const auto& b : boards) orphans += !produced.count(b);
  }
  EXPECT_GT(orphans, 0u);  // boards whose "nothing forbidden" state no move makes
}

// Every edge s -> c listed by successors(s) is listed by predecessors(c) as often, and back:
// the same multiset of edges both ways, over every state of the variant (GamesmanOne's check).
void expect_successors_and_predecessors_agree(const Game& g) {
  std::vector<StateKey> states;
  g.enumerate("all", [&](StateKey k) { states.push_back(k); });
  std::sort(states.begin(), states.end());
  std::vector<std::pair<StateKey, StateKey>> forward, backward;  // (parent, child)
  std::vector<Child> kids;
  std::vector<StateKey> parents;
  for (StateKey s : states) {
    g.successors(s, kids);
    for (const Child& c : kids)
      if (!c.is_terminal()) forward.push_back({s, c.key});
    g.predecessors(s, parents);
    for (StateKey p : parents) backward.push_back({p, s});
  }
  std::sort(forward.begin(), forward.end());
  std::sort(backward.begin(), backward.end());
  auto known = [&](StateKey k) { return std::binary_search(states.begin(), states.end(), k); };
  for (auto& [p, c] : forward)
    ASSERT_TRUE(known(c)) << g.variant() << ": child not enumerated\n" << g.render(c);
  for (auto& [p, c] : backward)
    ASSERT_TRUE(known(p)) << g.variant() << ": parent not enumerated\n" << g.render(p);
  EXPECT_GT(forward.size(), states.size());
  ASSERT_EQ(forward.size(), backward.size()) << g.variant();
  for (std::size_t i = 0; i < forward.size(); ++i)
    ASSERT_EQ(forward[i], backward[i]) << g.variant() << ": edge\n"
                                       << g.render(forward[i].first) << "->\n"
                                       << g.render(forward[i].second) << "vs\n"
                                       << g.render(backward[i].first) << "->\n"
                                       << g.render(backward[i].second);
}

TEST(OstleMiniGame, SuccessorsAndPredecessorsAgreeOnEveryState) {
  // Under the sanitizers the square boards only: the 3x4 and 4x3 ones take the same paths.
  std::vector<const char*> boards = {"3x3:p2", "3x3:p3"};
  if (!testing::kSanitized) boards.insert(boards.end(), {"3x4:p2", "4x3:p2"});
  for (const char* v : boards)
    expect_successors_and_predecessors_agree(*make_game("ostle-mini", {v}));
}

// The published reading's un-moves (from the exact ones, kept by the class of the board before)
// against its successors, which OstleMiniPublished checks against the literal grid rules.
TEST(OstleMiniGame, ReferenceReadingPredecessorsAreTheInverseOfSuccessors) {
  std::vector<const char*> boards = {"3x3:p2"};
  if (!testing::kSanitized) boards.insert(boards.end(), {"3x3:p3", "3x4:p2", "4x3:p2"});
  for (const char* v : boards) {
    auto g = make_game("ostle-mini", {v, "reference"});
    ASSERT_TRUE(g->has_predecessors());
    expect_successors_and_predecessors_agree(*g);
  }
  EXPECT_FALSE(
      make_game("ostle-mini", {"3x3:p3", "reference", "play-restricted"})->has_predecessors());
}

// Placements of a v b pieces on the n squares beside the hole.
std::uint64_t placements(int n, int a, int b) {
  auto choose = [](int m, int k) {
    std::uint64_t c = 1;
    for (int i = 1; i <= k; ++i) c = c * static_cast<std::uint64_t>(m - k + i) / i;
    return c;
  };
  return choose(n, a) * choose(n - a, b);
}

TEST(OstleMiniGame, TiersPartitionTheStates) {
  // Under the sanitizers the 3x3 board: the same tiers, a sixth of the positions.
  const char* board = testing::release_else_sanitized("3x4:p3", "3x3:p3");
  auto g = make_game("ostle-mini", {board});
  std::vector<std::string> names;
  for (auto& t : g->tiers()) names.push_back(t.name);
  EXPECT_EQ(names, (std::vector<std::string>{"2v2", "3v2+2v3", "3v3"}));
  std::uint64_t all = 0, by_tier = 0;
  g->enumerate("all", [&](StateKey) { ++all; });
  for (auto& t : names)
    g->enumerate(t, [&](StateKey k) {
      ++by_tier;
      ASSERT_EQ(g->tier_of(k), t);
    });
  EXPECT_EQ(all, by_tier);
  EXPECT_THROW(g->enumerate("4v4", [](StateKey) {}), std::invalid_argument);
  // Positions: 12 hole squares x the ways to place the pieces on the other 11 squares, less
  // those with no state at all (no previous ply can lead to them).
  std::set<StateKey> positions;
  g->enumerate("all", [&](StateKey k) { positions.insert(k >> kCodeBits); });
  const Rules r = Rules::from_variant(board);
  const std::vector<ostle_mini_ref::Grid> grids =
      ostle_mini_ref::all_grids(r.width(), r.height(), 3);
  std::size_t stateless = 0;
  for (const auto& grid : grids) stateless += r.reachable_forbids(board_of(r, grid)).empty();
  const int squares = r.width() * r.height(), free = squares - 1;
  EXPECT_EQ(grids.size(),
            static_cast<std::uint64_t>(squares) *
                (placements(free, 3, 3) + 2 * placements(free, 3, 2) + placements(free, 2, 2)));
  if (!testing::kSanitized) {  // the count written out for 3x4: 12 holes
    EXPECT_EQ(grids.size(), 12u * (165 * 56 + 2 * 165 * 28 + 55 * 36));
  }
  EXPECT_EQ(positions.size() + stateless, grids.size());
}

// The engine's solves against the plain fixpoint solver, state by state.
// `options`: the variant, then the game's options. `tiers`: also solve tier by tier out of core
// (each tier's values must be the whole solve's). Every whole solve gives the same values digest.
void expect_engine_matches_plain_solver(const std::vector<std::string>& options, bool tiers,
                                        std::uint64_t* states_out = nullptr) {
  testing::ScratchDir dir;
  auto g = make_game("ostle-mini", options);
  const std::string variant = g->variant();
  std::set<std::string> digests;
  const ostle_mini_test::PlainSolution plain = ostle_mini_test::plain_fixpoint_solve(*g);
  ASSERT_TRUE(plain.closed) << variant << ": a successor outside enumerate()";
  if (states_out) *states_out = plain.keys.size();
  auto expect_same = [&](const std::vector<KeyValue>& values, const std::string& how) {
    ASSERT_EQ(values.size(), plain.keys.size()) << variant << " " << how;
    for (std::size_t i = 0; i < values.size(); ++i) {
      ASSERT_EQ(StateKey{values[i].key}, plain.keys[i]) << variant << " " << how;
      ASSERT_EQ(Value::from_raw(values[i].value), plain.values[i])
          << variant << " " << how << ": engine " << Value::from_raw(values[i].value).to_string()
          << ", plain " << plain.values[i].to_string() << "\n"
          << g->render(values[i].key);
    }
  };
  struct Mode {
    std::string name;
    bool in_ram, preds;
  };
  for (const Mode& m : {Mode{"in-ram", true, true}, Mode{"out-of-core", false, true},
                        Mode{"reverse-edges", false, false}}) {
    SolveOptions o;
    o.job_dir = dir / (m.name + "-whole");
    o.in_ram = m.in_ram;
    o.use_predecessors = m.preds;
    o.memory_bytes = 130ull << 20;  // near the solver's floor, so big sorts spill to runs
    const SolveResult whole = solve_retrograde(*g, o);
    expect_same(load_values(whole.values_path), m.name + " whole");
    digests.insert(whole.digest);
    if (!m.in_ram) {  // the filter of undecided groups did drop messages; without it, the same
                      // values
      EXPECT_GT(whole.filtered_messages, whole.states / 2) << m.name;
      o.job_dir = dir / (m.name + "-whole-unfiltered");
      o.message_filter = false;
      const SolveResult unfiltered = solve_retrograde(*g, o);
      EXPECT_EQ(unfiltered.filtered_messages, 0u);
      EXPECT_EQ(unfiltered.digest, whole.digest) << m.name;
      o.message_filter = true;
    }
    if (!tiers || m.in_ram) continue;
    // Moves into lower tiers settled from the exit values array and, for comparison, by lookups.
    for (bool exits : {true, false}) {
      const std::string how = m.name + (exits ? " tiers, exit values" : " tiers, exit lookups");
      o.job_dir = dir / how;
      o.exit_values = exits;
      std::vector<KeyValue> merged;
      std::uint64_t settled = 0;
      for (auto& r : solve_tiers(*g, o, "all")) {
        auto v = load_values(r.values_path);
        merged.insert(merged.end(), v.begin(), v.end());
        settled += r.exit_moves_settled;
      }
      std::sort(merged.begin(), merged.end(),
                [](const KeyValue& a, const KeyValue& b) { return a.key < b.key; });
      expect_same(merged, how);
      if (exits)
        EXPECT_GT(settled, 1000u) << how;
      else
        EXPECT_EQ(settled, 0u) << how;
    }
  }
  EXPECT_EQ(digests.size(), 1u) << variant << ": the solves' values digests differ";
}

// ostle-mini with a broken exit or group numbering: the solver must name the fault, not mis-solve.
enum class Broken { kExitsCollide, kExitsMissing, kGroupsReversed };
class BrokenSlots final : public Game {
 public:
  BrokenSlots(std::unique_ptr<Game> g, Broken how) : g_(std::move(g)), how_(how) {}
  std::string name() const override { return g_->name(); }
  std::string variant() const override { return g_->variant(); }
  void enumerate(const std::string& t, const std::function<void(StateKey)>& emit) const override {
    g_->enumerate(t, emit);
  }
  Value terminal_value(StateKey s) const override { return g_->terminal_value(s); }
  void successors(StateKey s, std::vector<Child>& out) const override { g_->successors(s, out); }
  bool has_predecessors() const override { return true; }
  void predecessors(StateKey s, std::vector<StateKey>& out) const override {
    g_->predecessors(s, out);
  }
  std::vector<Tier> tiers() const override { return g_->tiers(); }
  std::string tier_of(StateKey s) const override { return g_->tier_of(s); }
  SlotRange exit_slots(const std::string& tier) const override { return g_->exit_slots(tier); }
  // Exits collide: every state in slot 7; missing: every other state has none.
  std::uint64_t exit_slot(StateKey s) const override {
    const std::uint64_t slot = g_->exit_slot(s);
    if (slot == kNoSlot || how_ == Broken::kGroupsReversed) return slot;
    return how_ == Broken::kExitsCollide ? 7 : slot % 2 ? kNoSlot : slot;
  }
  SlotRange group_slots(const std::string& tier) const override { return g_->group_slots(tier); }
  std::uint64_t group_slot(StateKey s) const override {
    const std::uint64_t slot = g_->group_slot(s);
    return how_ == Broken::kGroupsReversed ? g_->group_slots(g_->tier_of(s)).end - 1 - slot : slot;
  }
  StateKey start() const override { return g_->start(); }
  std::string render(StateKey s) const override { return g_->render(s); }

 private:
  std::unique_ptr<Game> g_;
  Broken how_;
};

// The game verifier finds the same faults before any solve (include/zermelo/game.hpp: pairs of
// hooks that must agree).
TEST(OstleMiniSolve, TheVerifierNamesBrokenSlots) {
  for (auto [how, error] : {std::pair{Broken::kExitsCollide, "exit slot"},
                            std::pair{Broken::kExitsMissing, "exit_slot of the second"},
                            std::pair{Broken::kGroupsReversed, "group slots decrease"}}) {
    const BrokenSlots broken(make_game("ostle-mini", {"3x3:p3"}), how);
    const GameCheck c = verify_game_moves(broken, 5000);
    ASSERT_FALSE(c.problems.empty()) << error;
    EXPECT_NE(c.problems[0].find(error), std::string::npos) << c.problems[0];
  }
  EXPECT_TRUE(verify_game_moves(*make_game("ostle-mini", {"3x3:p3"}), 5000).problems.empty());
}

TEST(OstleMiniSolve, BrokenSlotsAreNamed) {
  for (auto [how, error] :
       {std::pair{Broken::kExitsCollide, "which another state"},
        std::pair{Broken::kExitsMissing, "has no exit slot"},
        std::pair{Broken::kGroupsReversed, "group slots are not in key order"}}) {
    testing::ScratchDir dir;
    BrokenSlots g(make_game("ostle-mini", {"3x3:p3"}), how);
    SolveOptions o;
    o.job_dir = dir / "w";
    o.memory_bytes = 130ull << 20;
    try {
      solve_tiers(g, o, "all");
      ADD_FAILURE() << "a broken numbering went unnoticed: " << error;
    } catch (const std::exception& e) {
      EXPECT_NE(std::string(e.what()).find(error), std::string::npos) << e.what();
    }
  }
}

// Small blocks, so that late levels copy most blocks of the state run undecoded while the filter
// of undecided groups drops messages: the filter must keep the groups whose states it never saw.
TEST(OstleMiniSolve, FilterBesideCopiedBlocksAndShardsKeepsTheValues) {
  testing::ScratchDir dir;
  auto g = make_game("ostle-mini", {"3x4:p2"});
  SolveOptions o;
  o.job_dir = dir / "ram";
  o.in_ram = true;
  const SolveResult ram = solve_retrograde(*g, o);
  o.job_dir = dir / "disk";
  o.in_ram = false;
  o.memory_bytes = 256ull << 20;
  o.block_bytes = 4096;
  const SolveResult disk = solve_retrograde(*g, o);
  EXPECT_EQ(disk.digest, ram.digest);
  EXPECT_GT(disk.copied_records, 10000u);
  EXPECT_GT(disk.filtered_messages, disk.states);

  // Per shard (docs/shards.md): each shard's merge clears its own groups, the groups at a shard's
  // ends kept; the same values, and about as many messages dropped (not fewer than nine in ten:
  // the shards' runs cut their blocks elsewhere, so the groups kept beside copied blocks differ).
  o.job_dir = dir / "shards";
  o.shards = 3;
  const SolveResult sharded = solve_retrograde(*g, o);
  EXPECT_EQ(sharded.digest, ram.digest);
  EXPECT_GT(sharded.filtered_messages, disk.filtered_messages * 9 / 10);
}

TEST(OstleMiniSolve, EngineMatchesThePlainFixpointSolver3x3) {
  std::uint64_t states = 0;
  // Under the sanitizers the same paths (tier by tier too) with two pieces a side.
  expect_engine_matches_plain_solver({testing::release_else_sanitized("3x3:p3", "3x3:p2")}, true,
                                     &states);
  // The set is the brute force's (StatesAreExactlyThoseSomeMoveProduces); 45,300 before the 256
  // "nothing forbidden" states no move makes were left out.
  if (!testing::kSanitized) {
    EXPECT_EQ(states, 45044u);
  }
}

TEST(OstleMiniSolve, EngineMatchesThePlainFixpointSolver3x4) {
  std::uint64_t states = 0;
  // Under the sanitizers the same paths (reverse edges) on the smaller 3x3 board.
  expect_engine_matches_plain_solver({testing::release_else_sanitized("3x4:p2", "3x3:p2")}, false,
                                     &states);
  if (!testing::kSanitized) {
    EXPECT_EQ(states, 121218u);  // 121,248 with the 30 states no move makes
  }
}

// The published reading: in RAM, out of core with its un-moves and with a reverse-edge run
// (about a minute each here, so Release only).
TEST(OstleMiniSolve, ReferenceReadingEngineMatchesThePlainFixpointSolver3x3) {
  ZERMELO_RELEASE_ONLY_SCALE_TEST();
  expect_engine_matches_plain_solver({"3x3:p3", "reference"}, true);
}
TEST(OstleMiniSolve, ReferenceReadingEngineMatchesThePlainFixpointSolver3x4) {
  ZERMELO_RELEASE_ONLY_SCALE_TEST();
  expect_engine_matches_plain_solver({"3x4:p2", "reference"}, false);
}
TEST(OstleMiniSolve, ReferenceReadingEngineMatchesThePlainFixpointSolver4x3) {
  ZERMELO_RELEASE_ONLY_SCALE_TEST();
  expect_engine_matches_plain_solver({"4x3:p2", "reference"}, false);
}

// `zermelo solve` then `zermelo query STATE --forbidden MOVE`: the state's value and every move's
// value are those of the plain solver.
TEST(OstleMiniSolve, CliSolvesAndQueriesAStateWithAForbiddenMove) {
  testing::ScratchDir dir;
  const std::string cli = std::string(ZERMELO_CLI) + " --quiet --json --work-dir " + (dir / "w");
  auto r = testing::run_command(cli + " solve ostle-mini 3x3:p2 --in-ram");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("\"variant\": \"3x3:p2\""), std::string::npos) << r.out;
  auto g = make_game("ostle-mini", {"3x3:p2"});
  const auto plain = ostle_mini_test::plain_fixpoint_solve(*g);
  // The start after the hole went b2 -> c2: moving it back is forbidden.
  const std::string board = "220-003-110", forbidden = "c2L";
  auto q = testing::run_command(cli + " query ostle-mini " + board + " --forbidden " + forbidden +
                                " --options 3x3:p2");
  ASSERT_EQ(q.code, 0) << q.out;
  const auto json = nlohmann::json::parse(q.out);
  const StateKey key = *g->parse(board + ":" + forbidden, nullptr);
  EXPECT_EQ(json["key"].get<StateKey>(), key);
  EXPECT_EQ(testing::value_text(json["value"]), plain.at(key).to_string());
  std::vector<Child> kids;
  g->successors(key, kids);
  ASSERT_EQ(json["moves"].size(), kids.size());
  for (std::size_t i = 0; i < kids.size(); ++i) {
    EXPECT_NE(g->move_name(key, i), forbidden);
    EXPECT_EQ(json["moves"][i]["move"].get<std::string>(), g->move_name(key, i));
    const Value child = kids[i].is_terminal() ? kids[i].terminal : plain.at(kids[i].key);
    EXPECT_EQ(testing::value_text(json["moves"][i]["value"]), child.parent_via().to_string())
        << g->move_name(key, i);
  }
  auto twice = testing::run_command(cli + " query ostle-mini " + board +
                                    ":c2L --forbidden c2L --options 3x3:p2 2>&1");
  EXPECT_NE(twice.code, 0);
  auto bad = testing::run_command(cli + " solve ostle-mini 3x3 2>&1");
  EXPECT_NE(bad.code, 0);
  EXPECT_NE(bad.out.find("bad variant '3x3'"), std::string::npos) << bad.out;
}

}  // namespace
}  // namespace zermelo::ostle::mini
