// An independent, plain in-RAM solver for any small Game, written without the engine: the state
// set is closed by forward search from every enumerated state, then the negamax equations with
// ply counts are iterated in whole sweeps (each sweep reads only the previous sweep's values)
// until nothing changes:
//   a state with a lost child wins in 1 + (fewest plies of a lost child),
//   a state all of whose children are won loses in 1 + (most plies of a won child),
//   anything else stays unknown, and what is unknown at the fixpoint is a draw.
// States the rules decide (terminal_value) keep that value. Same Value convention as the engine.
#pragma once
#include <algorithm>
#include <cstdint>
#include <deque>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "zermelo/game.hpp"

namespace ostle_mini_test {

struct PlainSolution {
  std::vector<zermelo::StateKey> keys;  // sorted
  std::vector<zermelo::Value> values;   // values[i] is the value of keys[i]
  std::uint32_t sweeps = 0;
  bool closed = true;  // forward search found no state outside enumerate()

  zermelo::Value at(zermelo::StateKey k) const {
    auto it = std::lower_bound(keys.begin(), keys.end(), k);
    if (it == keys.end() || *it != k) throw std::out_of_range("no state " + std::to_string(k));
    return values[static_cast<std::size_t>(it - keys.begin())];
  }
};

inline PlainSolution plain_fixpoint_solve(const zermelo::Game& game) {
  using zermelo::Child;
  using zermelo::StateKey;
  using zermelo::Value;
  PlainSolution sol;
  // Forward search from every enumerated state.
  std::unordered_map<StateKey, std::uint32_t> index;
  std::deque<StateKey> todo;
  std::vector<StateKey> order;
  auto visit = [&](StateKey k) {
    if (index.emplace(k, static_cast<std::uint32_t>(order.size())).second)
      order.push_back(k), todo.push_back(k);
  };
  game.enumerate("all", visit);
  const std::size_t enumerated = order.size();
  // Children: index of a state, or a fixed value for a move that ends the game.
  struct Edge {
    std::uint32_t state;
    Value fixed;
  };
  std::vector<std::vector<Edge>> children;
  std::vector<Value> terminal;
  std::vector<Child> kids;
  while (!todo.empty()) {
    const StateKey k = todo.front();
    todo.pop_front();
    terminal.push_back(game.terminal_value(k));
    children.emplace_back();
    if (terminal.back().is_known()) continue;
    game.successors(k, kids);
    for (const Child& c : kids) {
      if (c.is_terminal()) {
        children.back().push_back({0, c.terminal});
        continue;
      }
      visit(c.key);
      children.back().push_back({index.at(c.key), Value::unknown()});
    }
  }
  sol.closed = order.size() == enumerated;
  // Sweeps to the fixpoint.
  std::vector<Value> value = terminal, next;
  for (bool changed = true; changed; ++sol.sweeps) {
    if (sol.sweeps > order.size() + 1)
      throw std::logic_error("plain fixpoint: values still changing after a sweep per state");
    changed = false;
    next = value;
    for (std::size_t i = 0; i < order.size(); ++i) {
      if (terminal[i].is_known()) continue;
      bool some_lost = false, all_won = true;
      std::uint32_t fewest_lost = 0, most_won = 0;
      for (const Edge& e : children[i]) {
        const Value v = e.fixed.is_known() ? e.fixed : value[e.state];
        if (v.is_loss())
          fewest_lost = some_lost ? std::min(fewest_lost, v.plies()) : v.plies(), some_lost = true;
        if (v.is_win())
          most_won = std::max(most_won, v.plies());
        else
          all_won = false;
      }
      if (children[i].empty())
        throw std::logic_error("state " + std::to_string(order[i]) + " has no moves and no value");
      const Value now = some_lost ? Value::win(fewest_lost + 1)
                        : all_won ? Value::loss(most_won + 1)
                                  : Value::unknown();
      if (!(now == value[i])) next[i] = now, changed = true;
    }
    value.swap(next);
  }
  std::vector<std::uint32_t> by_key(order.size());
  for (std::uint32_t i = 0; i < by_key.size(); ++i) by_key[i] = i;
  std::sort(by_key.begin(), by_key.end(),
            [&](std::uint32_t a, std::uint32_t b) { return order[a] < order[b]; });
  for (std::uint32_t i : by_key) {
    sol.keys.push_back(order[i]);
    sol.values.push_back(value[i].is_known() ? value[i] : Value::draw());
  }
  return sol;
}

}  // namespace ostle_mini_test
