// The puzzle finder of a solved Ostle game (see zermelo/games/ostle/puzzles.hpp).
#include "zermelo/games/ostle/puzzles.hpp"

#include <algorithm>
#include <stdexcept>

#include "zermelo/games/ostle/index.hpp"
#include "zermelo/games/ostle/mini.hpp"
#include "zermelo/io/run_file.hpp"

namespace zermelo::ostle {
namespace {

// Bit i per move of successors (the moves but the forbidden one, unless the game plays it).
std::uint32_t mask_5x5(const Game& game, StateKey s) {
  const auto [p, forbid] = key_state(s);
  const bool all = game.variant().find("play-restricted") != std::string::npos;
  std::uint32_t mask = 0;
  int i = 0;
  for (const Move& m : legal_moves(p, all ? kNoForbidden : forbid))
    mask |= static_cast<std::uint32_t>(apply_move(p, m).removed == 0) << i++;
  return mask;
}

std::uint32_t mask_mini(const mini::Rules& r, bool all, StateKey s) {
  const auto [b, forbid] = r.decode(s);
  const int mine = r.count(b, mini::kMine);
  std::uint32_t mask = 0;
  int i = 0;
  for (const mini::MiniMove& m : r.legal_moves(b, all ? mini::kNoForbid : forbid)) {
    const mini::Played p = r.play(b, m);  // the next board is from the opponent's side
    mask |= static_cast<std::uint32_t>(r.count(p.next, mini::kTheirs) < mine) << i++;
  }
  return mask;
}

// Won, not checkmate, at least one winning move and every winning move a sacrifice (with
// shortest_only, the winning moves are those of the shortest win).
bool is_puzzle(const Game& game, ValuesLookup& values, StateKey s, Value v,
               std::uint32_t sacrifices, bool shortest_only) {
  if (!v.is_win() || v.plies() == 0) return false;
  thread_local std::vector<Child> kids;
  game.successors(s, kids);
  bool some = false;
  for (std::size_t i = 0; i < kids.size(); ++i) {
    const Value c = kids[i].is_terminal() ? kids[i].terminal : values.find(kids[i].key);
    if (!c.is_loss() || (shortest_only && c.parent_via() != v)) continue;
    if (!(sacrifices >> i & 1)) return false;
    some = true;
  }
  return some;
}

// The optimal line's moves, then the capture that ends the game from the checkmate position.
std::vector<std::string> solution(const Game& game, ValuesLookup& values, StateKey s) {
  std::vector<std::string> moves;
  const std::vector<LineStep> line = optimal_line(game, values, s, 1000);
  for (const LineStep& step : line)
    if (!step.move.empty()) moves.push_back(step.move);
  std::vector<Child> kids;
  game.successors(line.back().key, kids);
  for (std::size_t i = 0; i < kids.size(); ++i)
    if (kids[i].is_terminal() && kids[i].terminal.is_loss()) {
      moves.push_back(game.move_name(line.back().key, i));
      break;
    }
  return moves;
}

}  // namespace

SacrificeMask ostle_sacrifices(const Game& game) {
  if (game.name() == "ostle") return [&game](StateKey s) { return mask_5x5(game, s); };
  if (game.name() != "ostle-mini")
    throw std::invalid_argument("puzzles: " + game.name() + " is not Ostle");
  const std::string v = game.variant();
  const mini::Rules rules = mini::Rules::from_variant(v.substr(0, v.find(' ')));
  const bool all = v.find("play-restricted") != std::string::npos;
  return [rules, all](StateKey s) { return mask_mini(rules, all, s); };
}

PuzzleScan find_puzzles(const Game& game, const std::vector<std::string>& values_runs,
                        const SacrificeMask& sacrifices, std::size_t keep, bool shortest_only) {
  PuzzleScan scan;
  ValuesLookup values(values_runs);
  std::vector<std::pair<Value, StateKey>> found;
  for (const std::string& path : values_runs) {
    RunReader run(path);
    for (KeyValue kv; run.next(kv);) {
      ++scan.scanned;
      const Value v = Value::from_raw(kv.value);
      if (!v.is_win() || v.plies() == 0) continue;
      ++scan.won;
      if (!is_puzzle(game, values, kv.key, v, sacrifices(kv.key), shortest_only)) continue;
      ++scan.puzzles;
      found.push_back({v, kv.key});
    }
  }
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) {
    return a.first.plies() != b.first.plies() ? a.first.plies() > b.first.plies()
                                              : a.second < b.second;
  });
  for (std::size_t i = 0; i < found.size() && i < keep; ++i)
    scan.longest.push_back(
        Puzzle{found[i].second, found[i].first, solution(game, values, found[i].second)});
  return scan;
}

}  // namespace zermelo::ostle
