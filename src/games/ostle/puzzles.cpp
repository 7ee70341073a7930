// The puzzle finder of a solved Ostle game (see zermelo/games/ostle/puzzles.hpp).
#include "zermelo/games/ostle/puzzles.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>

#include "zermelo/games/ostle/group_losses.hpp"
#include "zermelo/games/ostle/index.hpp"
#include "zermelo/games/ostle/mini.hpp"
#include "zermelo/io/run_file.hpp"
#include "zermelo/util/progress.hpp"

namespace zermelo::ostle {
namespace {

constexpr std::size_t kBatch = std::size_t{1} << 20;  // won states scanned at once

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

// Whether a move to `kid` wins for the mover of a state won in `v`: the child is lost for the
// opponent (with shortest_only, lost in v's plies less one, which only the values runs know).
bool wins(const Child& kid, Value v, const GroupLosses& groups, ValuesLookup* values,
          bool shortest_only) {
  if (kid.is_terminal())
    return kid.terminal.is_loss() && (!shortest_only || kid.terminal.parent_via() == v);
  if (!groups.lost(kid.key)) return false;
  return !shortest_only || values->find(kid.key).parent_via() == v;
}

// Won, not checkmate, at least one winning move and every winning move a sacrifice (with
// shortest_only, the winning moves are those of the shortest win): returns how many moves win,
// 0 for no puzzle. The moves that are no sacrifice are looked at first: most won states have a
// winning one.
int puzzle_wins(const Game& game, const GroupLosses& groups, ValuesLookup* values, StateKey s,
                Value v, std::uint32_t sacrifices, bool shortest_only) {
  if (!v.is_win() || v.plies() == 0 || sacrifices == 0) return 0;
  thread_local std::vector<Child> kids;
  game.successors(s, kids);
  for (std::size_t i = 0; i < kids.size(); ++i)
    if (!(sacrifices >> i & 1) && wins(kids[i], v, groups, values, shortest_only)) return 0;
  int winning = 0;
  for (std::size_t i = 0; i < kids.size(); ++i)
    winning += (sacrifices >> i & 1) && wins(kids[i], v, groups, values, shortest_only);
  return winning;
}

// The counts of `found` (every puzzle, any order) by position, tier and length.
void count_puzzles(const Game& game, const std::vector<std::pair<Value, StateKey>>& found,
                   PuzzleScan& scan) {
  std::vector<std::uint64_t> slots;
  for (const auto& [v, s] : found) {
    slots.push_back(game.group_slot(s));
    ++scan.by_tier[game.tier_of(s)];
    ++scan.by_plies[v.plies()];
  }
  std::sort(slots.begin(), slots.end());
  scan.positions =
      static_cast<std::uint64_t>(std::unique(slots.begin(), slots.end()) - slots.begin());
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

// One batch of a values run, on `threads` threads (each looks up in runs of its own).
void scan_batch(const std::vector<KeyValue>& batch, const Game& game, const GroupLosses& groups,
                const std::vector<std::string>& values_runs, const SacrificeMask& sacrifices,
                bool shortest_only, int threads, PuzzleScan& scan,
                std::vector<std::pair<Value, StateKey>>& found) {
  std::uint64_t won = 0, one_winning_move = 0;
#pragma omp parallel num_threads(threads) reduction(+ : won, one_winning_move)
  {
    std::optional<ValuesLookup> values;  // only the shortest wins need the values runs
    if (shortest_only) values.emplace(values_runs);
    std::vector<std::pair<Value, StateKey>> mine;
#pragma omp for schedule(dynamic, 4096) nowait
    for (std::size_t i = 0; i < batch.size(); ++i) {
      const Value v = Value::from_raw(batch[i].value);
      if (!v.is_win() || v.plies() == 0) continue;
      ++won;
      const int winning = puzzle_wins(game, groups, values ? &*values : nullptr, batch[i].key, v,
                                      sacrifices(batch[i].key), shortest_only);
      if (winning > 0) mine.push_back({v, batch[i].key});
      one_winning_move += winning == 1;
    }
#pragma omp critical
    found.insert(found.end(), mine.begin(), mine.end());
  }
  scan.scanned += batch.size(), scan.won += won, scan.one_winning_move += one_winning_move;
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
                        const SacrificeMask& sacrifices, std::size_t keep, bool shortest_only,
                        int threads, std::uint64_t memory_bytes) {
  PuzzleScan scan;
  // The batch of won states and the reader of the runs come out of the budget first.
  constexpr std::uint64_t kScanBytes = kBatch * sizeof(KeyValue) + (8u << 20);
  if (memory_bytes <= kScanBytes)
    throw std::invalid_argument("puzzles: --memory " + std::to_string(memory_bytes >> 20) +
                                " MiB leaves nothing for the lost states beside the scan's " +
                                std::to_string(kScanBytes >> 20) + " MiB");
  const GroupLosses groups(game, values_runs, memory_bytes - kScanBytes);
  scan.mixed_groups = groups.mixed_groups();
  std::vector<std::pair<Value, StateKey>> found;
  std::uint64_t total = 0;
  for (const std::string& path : values_runs) total += inspect_run(path).record_count;
  Progress bar("puzzles", total);
  std::vector<KeyValue> batch;
  for (const std::string& path : values_runs) {
    RunReader run(path);
    for (KeyValue kv;;) {
      batch.clear();
      while (batch.size() < kBatch && run.next(kv)) batch.push_back(kv);
      if (batch.empty()) break;
      scan_batch(batch, game, groups, values_runs, sacrifices, shortest_only, threads, scan, found);
      bar.add(batch.size());
    }
  }
  bar.finish();
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) {
    return a.first.plies() != b.first.plies() ? a.first.plies() > b.first.plies()
                                              : a.second < b.second;
  });
  scan.puzzles = found.size();
  ValuesLookup values(values_runs);
  count_puzzles(game, found, scan);
  for (std::size_t i = 0; i < found.size() && i < keep; ++i)
    scan.longest.push_back(
        Puzzle{found[i].second, found[i].first, solution(game, values, found[i].second)});
  return scan;
}

}  // namespace zermelo::ostle
