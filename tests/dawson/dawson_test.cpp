// Dawson's Kayles (src/games/dawson), the game docs/new-game.md adds, checked by independent
// means: every state's win or loss against Sprague-Grundy theory (a state is lost iff the XOR of
// its runs' Grundy numbers is 0), the Grundy numbers against the published sequence (OEIS
// A002187), every state's plies against a plain memoised minimax, and a copy of the game with the
// bug the doc plants (an un-move forgotten at the row's right end) rejected by the verifier.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "tests/test_util.hpp"
#include "zermelo/engine/retrograde.hpp"
#include "zermelo/engine/verify_game.hpp"
#include "zermelo/io/run_file.hpp"

namespace zermelo {
namespace {

// Grundy numbers of one run of n standing pins, by the mex rule over the two runs a move leaves.
std::vector<unsigned> grundy_of_runs(unsigned max_pins) {
  std::vector<unsigned> g(max_pins + 1, 0);
  for (unsigned n = 2; n <= max_pins; ++n) {
    std::set<unsigned> options;
    for (unsigned left = 0; left + 2 <= n; ++left) options.insert(g[left] ^ g[n - 2 - left]);
    while (options.count(g[n])) ++g[n];
  }
  return g;
}

// The XOR of the Grundy numbers of a state's runs of standing pins.
unsigned grundy_of_state(StateKey s, const std::vector<unsigned>& g) {
  unsigned x = 0, run = 0;
  for (; s; s >>= 1) {
    if (s & 1)
      ++run;
    else
      x ^= g[run], run = 0;
  }
  return x ^ g[run];
}

// Plies to the end under perfect play (fastest win, slowest loss): plain recursion, memoised.
Value minimax(StateKey s, unsigned pins, std::vector<Value>& memo) {
  if (memo[s].is_known()) return memo[s];
  Value best = Value::loss(0);
  for (unsigned i = 0; i + 1 < pins; ++i) {
    if ((s >> i & 3) != 3) continue;
    const Value child = minimax(s & ~(StateKey{3} << i), pins, memo);
    const Value mine =
        child.is_loss() ? Value::win(child.plies() + 1) : Value::loss(child.plies() + 1);
    if (mine.is_win() ? !best.is_win() || mine.plies() < best.plies()
                      : best.is_loss() && mine.plies() > best.plies())
      best = mine;
  }
  return memo[s] = best;
}

SolveResult solve(const Game& game, const std::string& dir, bool in_ram = false) {
  SolveOptions o;
  o.job_dir = dir;
  o.in_ram = in_ram;
  o.memory_bytes = 256ull << 20;
  return solve_retrograde(game, o);
}

TEST(Dawson, GrundyNumbersAreThePublishedOnes) {
  // OEIS A002187 (Dawson's Chess), which is Dawson's Kayles with one pin more.
  const std::vector<unsigned> a002187 = {0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2,
                                         3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4, 5, 2, 7, 4, 0, 1};
  const std::vector<unsigned> g = grundy_of_runs(static_cast<unsigned>(a002187.size()));
  for (std::size_t n = 0; n < a002187.size(); ++n)
    EXPECT_EQ(g[n + 1], a002187[n]) << n + 1 << " pins";
}

TEST(Dawson, EveryStateIsLostExactlyWhenItsGrundyNumberIsZero) {
  testing::ScratchDir dir;
  const unsigned pins = 14;
  const auto game = make_game("dawson", {std::to_string(pins)});
  const SolveResult r = solve(*game, dir / "dawson");
  const std::vector<unsigned> g = grundy_of_runs(pins);
  std::vector<Value> memo(std::size_t{1} << pins);
  EXPECT_EQ(r.states, memo.size());
  EXPECT_EQ(r.draws, 0u);
  for (const KeyValue& kv : load_values(r.values_path)) {
    const Value v = Value::from_raw(kv.value);
    ASSERT_EQ(v.is_loss(), grundy_of_state(kv.key, g) == 0) << game->render(kv.key);
    ASSERT_EQ(v, minimax(kv.key, pins, memo)) << game->render(kv.key);
  }
}

// Sixteen small solves: in RAM (the out-of-core solver's fixed cost is most of a tiny solve).
TEST(Dawson, TheFullRowIsLostForTheKnownLengthsOnly) {
  testing::ScratchDir dir;
  const std::set<unsigned> lost = {1, 5, 9, 15};  // up to 16 pins: 1, 15, 35, and 5, 9 mod 34
  for (unsigned pins = 1; pins <= 16; ++pins) {
    const auto game = make_game("dawson", {std::to_string(pins)});
    const SolveResult r = solve(*game, dir / std::to_string(pins), /*in_ram=*/true);
    EXPECT_EQ(lookup_value(r.values_path, game->start()).is_loss(), lost.count(pins) == 1) << pins;
  }
}

TEST(Dawson, TextFormReadsBackAndNamesMoves) {
  const auto game = make_game("dawson", {"6"});
  const StateKey s = *game->parse("II.III", nullptr);
  EXPECT_EQ(game->render(s), "II.III\n");
  EXPECT_EQ(game->move_name(s, 0), "1-2");
  EXPECT_EQ(game->move_name(s, 2), "5-6");
  std::string error;
  EXPECT_FALSE(game->parse("II.II", &error).has_value());
  EXPECT_NE(error.find("5 pins, not 6"), std::string::npos) << error;
}

// The bug docs/new-game.md plants: predecessors stops one pair short of the row's right end
// (`i + 2 < n` for `i + 1 < n`), so the solver would never learn of some parents.
class DawsonWithPlantedBug final : public Game {
 public:
  explicit DawsonWithPlantedBug(unsigned pins)
      : g_(make_game("dawson", {std::to_string(pins)})), n_(pins) {}
  std::string name() const override { return g_->name(); }
  void enumerate(const std::string& t, const std::function<void(StateKey)>& emit) const override {
    g_->enumerate(t, emit);
  }
  Value terminal_value(StateKey s) const override { return g_->terminal_value(s); }
  void successors(StateKey s, std::vector<Child>& out) const override { g_->successors(s, out); }
  bool has_predecessors() const override { return true; }
  void predecessors(StateKey s, std::vector<StateKey>& out) const override {
    out.clear();
    for (unsigned i = 0; i + 2 < n_; ++i)  // the planted bug: i + 1 < n_ is right
      if ((s >> i & 3) == 0) out.push_back(s | StateKey{3} << i);
  }
  StateKey start() const override { return g_->start(); }
  std::string render(StateKey s) const override { return g_->render(s); }

 private:
  std::unique_ptr<Game> g_;
  unsigned n_;
};

TEST(Dawson, TheVerifierAcceptsTheGameAndRejectsTheCopyWithThePlantedBug) {
  const GameCheck good = verify_game_moves(*make_game("dawson", {"6"}), 1000);
  EXPECT_TRUE(good.problems.empty());
  EXPECT_EQ(good.states, 13u);  // fallen pins pair up: the matchings of a path of 6, Fibonacci 13
  const GameCheck bad = verify_game_moves(DawsonWithPlantedBug(6), 1000);
  ASSERT_FALSE(bad.problems.empty());
  EXPECT_EQ(bad.problems[0].rfind(
                "moves from the first to the second: 1, un-moves: 0\nIIIIII\nand\nIIII..\n", 0),
            0u)
      << bad.problems[0];
}

}  // namespace
}  // namespace zermelo
