// See include/zermelo/engine/verify_game.hpp.
#include "zermelo/engine/verify_game.hpp"

#include <algorithm>
#include <deque>
#include <unordered_set>

namespace zermelo {
namespace {

std::size_t count_key(const std::vector<StateKey>& v, StateKey k) { return static_cast<std::size_t>(std::count(v.begin(), v.end(), k)); }
std::size_t count_child(const std::vector<Child>& v, StateKey k) {
  return static_cast<std::size_t>(std::count_if(v.begin(), v.end(), [&](const Child& c) { return !c.is_terminal() && c.key == k; }));
}

}  // namespace

namespace {

// A walk from the start, checking each state's moves against its outcomes and un-moves.
class MoveChecker {
 public:
  explicit MoveChecker(const Game& game) : game_(game) {}

  GameCheck run(std::size_t max_states) {
    std::deque<StateKey> queue{game_.start()};
    std::unordered_set<StateKey> seen{game_.start()};
    while (!queue.empty() && r_.states < max_states && r_.problems.size() < kMaxProblems) {
      const StateKey s = queue.front();
      queue.pop_front();
      ++r_.states;
      // The engine's messages pack a key into 63 bits (retrograde_records.hpp).
      if (s >> 63) problem("a state key of 2^63 or more (the engine needs keys below 2^63)", s, s);
      if (game_.terminal_value(s).is_known()) continue;  // no moves are played from it
      game_.successors(s, kids_);
      check_outcomes(s);
      for (const Child& c : kids_) {
        if (c.is_terminal()) continue;
        if (seen.insert(c.key).second) queue.push_back(c.key);
        check_child(s, c);
      }
      if (game_.has_predecessors()) check_parents(s);
    }
    return r_;
  }

 private:
  static constexpr std::size_t kMaxProblems = 5;

  void problem(const std::string& what, StateKey a, StateKey b) {
    if (r_.problems.size() < kMaxProblems)
      r_.problems.push_back(what + "\n" + game_.render(a) + "and\n" + game_.render(b));
  }

  // successor_outcomes agrees with successors, move by move.
  void check_outcomes(StateKey s) {
    game_.successor_outcomes(s, outcomes_);
    if (outcomes_.size() != kids_.size())
      problem("successor_outcomes lists " + std::to_string(outcomes_.size()) +
                  " moves, successors " + std::to_string(kids_.size()), s, s);
    for (std::size_t i = 0; i < std::min(kids_.size(), outcomes_.size()); ++i) {
      const Child &c = kids_[i], &o = outcomes_[i];
      const bool same = o.key == Child::kNoKey ? keyless_outcome_matches(s, c, o)
                                               : o.key == c.key && o.terminal == c.terminal;
      if (!same) problem("successor_outcomes and successors differ at move " + std::to_string(i), s,
                         c.is_terminal() ? s : c.key);
    }
  }

  // An outcome without a key: a child in s's tier whose value the rules fix as the outcome says.
  bool keyless_outcome_matches(StateKey s, const Child& c, const Child& o) const {
    return !c.is_terminal() && o.rule_known && game_.tier_of(c.key) == game_.tier_of(s) &&
           o.rule == game_.terminal_value(c.key);
  }

  // A child's rule value, and the child's un-moves back to s as many as the moves to it.
  void check_child(StateKey s, const Child& c) {
    if (c.rule_known && c.rule != game_.terminal_value(c.key))
      problem("a child's rule value differs from terminal_value", s, c.key);
    if (!game_.has_predecessors()) return;
    ++r_.edges;
    game_.predecessors(c.key, preds_);
    if (count_key(preds_, s) != count_child(kids_, c.key))
      problem("moves from the first to the second: " + std::to_string(count_child(kids_, c.key)) +
                  ", un-moves: " + std::to_string(count_key(preds_, s)), s, c.key);
  }

  // Each parent's moves to s as many as s's un-moves to it.
  void check_parents(StateKey s) {
    game_.predecessors(s, preds_);
    for (StateKey p : preds_) {
      game_.successors(p, parent_kids_);
      if (count_child(parent_kids_, s) != count_key(preds_, p))
        problem("un-moves of the second to the first: " + std::to_string(count_key(preds_, p)) +
                    ", moves: " + std::to_string(count_child(parent_kids_, s)), p, s);
    }
  }

  const Game& game_;
  GameCheck r_;
  std::vector<Child> kids_, outcomes_, parent_kids_;
  std::vector<StateKey> preds_;
};

}  // namespace

GameCheck verify_game_moves(const Game& game, std::size_t max_states) {
  return MoveChecker(game).run(max_states);
}

}  // namespace zermelo
