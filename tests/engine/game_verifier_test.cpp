// Every registered game's moves and un-moves agree (verify_game_moves), and the check does catch
// a game whose un-moves are wrong.
#include "zermelo/engine/verify_game.hpp"

#include <gtest/gtest.h>

#include "tests/test_util.hpp"

namespace zermelo {
namespace {

TEST(GameVerifier, EveryRegisteredGameIsConsistent) {
  for (auto& [name, summary] : registered_games()) {
    auto game = make_game(name);
    // Under the sanitizers a third of the states: the same moves and un-moves of every game.
    GameCheck c =
        verify_game_moves(*game, testing::release_else_sanitized<std::size_t>(3000, 1000));
    EXPECT_GT(c.states, 10u) << name;
    if (game->has_predecessors()) {
      EXPECT_GT(c.edges, 10u) << name;
    }
    for (auto& p : c.problems) ADD_FAILURE() << name << ": " << p;
  }
}

// Nim with an un-move hook that drops one parent: the verifier must notice.
class BrokenUnmoves final : public Game {
 public:
  explicit BrokenUnmoves(std::unique_ptr<Game> g) : g_(std::move(g)) {}
  std::string name() const override { return "broken-" + g_->name(); }
  void enumerate(const std::string& t, const std::function<void(StateKey)>& emit) const override {
    g_->enumerate(t, emit);
  }
  Value terminal_value(StateKey s) const override { return g_->terminal_value(s); }
  void successors(StateKey s, std::vector<Child>& out) const override { g_->successors(s, out); }
  bool has_predecessors() const override { return true; }
  void predecessors(StateKey s, std::vector<StateKey>& out) const override {
    g_->predecessors(s, out);
    if (out.size() > 1) out.pop_back();
  }
  StateKey start() const override { return g_->start(); }
  std::string render(StateKey s) const override { return g_->render(s); }

 private:
  std::unique_ptr<Game> g_;
};

TEST(GameVerifier, CatchesMissingUnmoves) {
  auto nim = make_game("nim", {"3x4"});
  ASSERT_TRUE(nim->has_predecessors());
  BrokenUnmoves broken(std::move(nim));
  EXPECT_FALSE(verify_game_moves(broken, 1000).problems.empty());
}

}  // namespace
}  // namespace zermelo
