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

GameCheck verify_game_moves(const Game& game, std::size_t max_states) {
  GameCheck r;
  constexpr std::size_t kMaxProblems = 5;
  auto problem = [&](const std::string& what, StateKey a, StateKey b) {
    if (r.problems.size() < kMaxProblems) r.problems.push_back(what + "\n" + game.render(a) + "and\n" + game.render(b));
  };
  std::deque<StateKey> queue{game.start()};
  std::unordered_set<StateKey> seen{game.start()};
  std::vector<Child> kids, outcomes, parent_kids;
  std::vector<StateKey> preds;
  while (!queue.empty() && r.states < max_states && r.problems.size() < kMaxProblems) {
    const StateKey s = queue.front();
    queue.pop_front();
    ++r.states;
    // The engine's messages pack a key into 63 bits (retrograde_records.hpp).
    if (s >> 63) problem("a state key of 2^63 or more (the engine needs keys below 2^63)", s, s);
    if (game.terminal_value(s).is_known()) continue;  // no moves are played from it
    game.successors(s, kids);
    game.successor_outcomes(s, outcomes);
    if (outcomes.size() != kids.size()) problem("successor_outcomes lists " + std::to_string(outcomes.size()) + " moves, successors " +
                                                std::to_string(kids.size()), s, s);
    for (std::size_t i = 0; i < std::min(kids.size(), outcomes.size()); ++i) {
      const Child &c = kids[i], &o = outcomes[i];
      const bool same = o.key == Child::kNoKey
                            ? !c.is_terminal() && o.rule_known && game.tier_of(c.key) == game.tier_of(s) && o.rule == game.terminal_value(c.key)
                            : o.key == c.key && o.terminal == c.terminal;
      if (!same) problem("successor_outcomes and successors differ at move " + std::to_string(i), s, c.is_terminal() ? s : c.key);
    }
    for (const Child& c : kids) {
      if (c.is_terminal()) continue;
      if (c.rule_known && c.rule != game.terminal_value(c.key)) problem("a child's rule value differs from terminal_value", s, c.key);
      if (seen.insert(c.key).second) queue.push_back(c.key);
      if (!game.has_predecessors()) continue;
      ++r.edges;
      game.predecessors(c.key, preds);
      if (count_key(preds, s) != count_child(kids, c.key))
        problem("moves from the first to the second: " + std::to_string(count_child(kids, c.key)) + ", un-moves: " +
                    std::to_string(count_key(preds, s)), s, c.key);
    }
    if (!game.has_predecessors()) continue;
    game.predecessors(s, preds);
    for (StateKey p : preds) {
      game.successors(p, parent_kids);
      if (count_child(parent_kids, s) != count_key(preds, p))
        problem("un-moves of the second to the first: " + std::to_string(count_key(preds, p)) + ", moves: " +
                    std::to_string(count_child(parent_kids, s)), p, s);
    }
  }
  return r;
}

}  // namespace zermelo
