// See include/zermelo/engine/perfect_play.hpp.
#include "zermelo/engine/perfect_play.hpp"

#include <stdexcept>

namespace zermelo {

Value child_value(ValuesLookup& values, const Child& c) {
  return c.is_terminal() ? c.terminal : values.find(c.key);
}

std::size_t perfect_move(ValuesLookup& values, const std::vector<Child>& kids) {
  std::size_t best = kids.size();
  Value best_value = Value::unknown();
  for (std::size_t i = 0; i < kids.size(); ++i) {
    const Value c = child_value(values, kids[i]);
    if (!c.is_known()) return kids.size();  // not solved here: no perfect move to claim
    const Value mine = c.parent_via();
    if (best == kids.size() || better_for_mover(mine, best_value)) best = i, best_value = mine;
  }
  return best;
}

PlayedGame play_game(const Game& game, StateKey start, const Player players[2],
                     std::size_t max_plies) {
  PlayedGame g;
  std::vector<Child> kids;
  StateKey s = start;
  // The value of the game for the player to move at ply `ply`, turned into the first player's.
  auto for_first = [](Value v, std::size_t ply) { return ply % 2 == 0 ? v : v.for_opponent(); };
  for (std::size_t ply = 0;; ++ply) {
    const Value rule = game.terminal_value(s);
    if (rule.is_known()) {
      g.result_for_first = for_first(rule, ply), g.plies = ply;
      return g;
    }
    game.successors(s, kids);
    if (kids.empty())
      throw std::logic_error(game.name() + ": state " + std::to_string(s) +
                             " has no moves and no terminal value");
    if (ply == max_plies) {
      g.result_for_first = Value::draw(), g.plies = ply;
      return g;
    }
    const std::size_t i = players[ply % 2](s, kids);
    if (i >= kids.size())
      throw std::logic_error(game.name() + ": a player chose no move at state " +
                             std::to_string(s));
    g.moves.push_back(game.move_name(s, i));
    if (kids[i].is_terminal()) {  // the move ends the game: its value is the next mover's
      g.result_for_first = for_first(kids[i].terminal, ply + 1), g.plies = ply + 1;
      return g;
    }
    s = kids[i].key;
  }
}

}  // namespace zermelo
