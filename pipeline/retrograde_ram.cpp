// The in-RAM retrograde solver: the same definition as the out-of-core engine, written plainly
// (vectors, binary search, reverse adjacency from successors) for small games, and as the
// independent reference the out-of-core engine must match byte for byte.
#include <algorithm>
#include <filesystem>
#include <map>
#include <stdexcept>

#include "pipeline/values_tally.hpp"
#include "zermelo/engine/retrograde.hpp"
#include "zermelo/engine/values_run.hpp"
#include "zermelo/io/run_file.hpp"

namespace zermelo {

SolveResult solve_retrograde_in_ram(const Game& game, const SolveOptions& opt) {
  std::vector<StateKey> keys;
  game.enumerate(opt.tier, [&](StateKey k) { keys.push_back(k); });
  std::sort(keys.begin(), keys.end());
  if (std::adjacent_find(keys.begin(), keys.end()) != keys.end()) throw std::logic_error(game.name() + ": duplicate state");
  auto index = [&](StateKey k) -> std::int64_t {
    auto it = std::lower_bound(keys.begin(), keys.end(), k);
    return it != keys.end() && *it == k ? it - keys.begin() : -1;
  };
  std::vector<KeyValue> lower;
  for (auto& p : opt.lower_tier_values) {
    auto v = load_values(p);
    lower.insert(lower.end(), v.begin(), v.end());
  }
  std::sort(lower.begin(), lower.end(), [](const KeyValue& a, const KeyValue& b) { return a.key < b.key; });

  const std::size_t n = keys.size();
  std::vector<Value> value(n);
  std::vector<std::uint32_t> pending(n, 0);
  std::vector<std::vector<std::uint32_t>> parents(n);        // reverse edges, with multiplicity
  std::map<std::uint32_t, std::vector<std::pair<std::uint32_t, Value>>> scheduled;  // level -> (state, child value)
  std::map<std::uint32_t, std::vector<std::uint32_t>> seeds;                         // level -> decided states
  std::vector<Child> kids;
  for (std::size_t i = 0; i < n; ++i) {
    Value tv = game.terminal_value(keys[i]);
    if (tv.is_known()) {
      value[i] = tv;
      if (!tv.is_draw()) seeds[tv.plies()].push_back(static_cast<std::uint32_t>(i));
      continue;
    }
    game.successors(keys[i], kids);
    if (kids.empty()) throw std::logic_error(game.name() + ": state with no moves and no terminal value");
    pending[i] = static_cast<std::uint32_t>(kids.size());
    for (auto& c : kids) {
      Value cv = c.terminal;
      if (!c.is_terminal()) {
        std::int64_t j = index(c.key);
        if (j >= 0) {
          parents[static_cast<std::size_t>(j)].push_back(static_cast<std::uint32_t>(i));
          continue;
        }
        auto it = std::lower_bound(lower.begin(), lower.end(), c.key, [](const KeyValue& a, StateKey k) { return a.key < k; });
        if (it == lower.end() || it->key != c.key)
          throw std::runtime_error(game.name() + ": child " + std::to_string(c.key) + " is in no tier");
        cv = Value::from_raw(it->value);
      }
      if (cv.is_win() || cv.is_loss()) scheduled[cv.plies()].push_back({static_cast<std::uint32_t>(i), cv});
    }
  }

  std::vector<std::uint32_t> frontier;
  std::uint32_t d = 0;
  for (;; ++d) {
    if (seeds.count(d)) frontier.insert(frontier.end(), seeds[d].begin(), seeds[d].end());
    // All of a level's messages, losses first: one lost child makes a win whatever else arrives.
    std::vector<std::pair<std::uint32_t, Value>> msgs = std::move(scheduled[d]);
    for (auto f : frontier)
      for (auto p : parents[f]) msgs.push_back({p, value[f]});
    std::stable_partition(msgs.begin(), msgs.end(), [](auto& m) { return m.second.is_loss(); });
    std::vector<std::uint32_t> next;
    for (auto& [p, v] : msgs) {
      if (value[p].is_known()) continue;
      if (v.is_loss()) value[p] = Value::win(d + 1), next.push_back(p);
      else if (--pending[p] == 0) value[p] = Value::loss(d + 1), next.push_back(p);
    }
    frontier = std::move(next);
    if (frontier.empty() && (scheduled.empty() || scheduled.rbegin()->first <= d) && (seeds.empty() || seeds.rbegin()->first <= d))
      break;
  }

  std::filesystem::create_directories(opt.job_dir);
  const std::string values_path = opt.job_dir + "/" + values_run_name(opt.tier);
  RunWriter out(values_path, values_run_options());
  ValuesTally tally;
  for (std::size_t i = 0; i < n; ++i) {
    const Value v = value[i].is_known() ? value[i] : Value::draw();
    out.push(KeyValue{keys[i], v.raw()});
    tally.add(keys[i], v);
  }
  SolveResult r = tally.result();
  r.values_path = values_path;
  r.levels = d + 1;
  r.digest = out.finish().digest_hex();
  return r;
}

}  // namespace zermelo
