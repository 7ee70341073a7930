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
namespace {

using Message = std::pair<std::uint32_t, Value>;  // (state index, a child's value)

class InRamSolve {
 public:
  InRamSolve(const Game& game, const SolveOptions& opt) : game_(game), opt_(opt) {}

  SolveResult run() {
    enumerate();
    load_lower_tiers();
    scan();
    return write_values(solve_levels());
  }

 private:
  void enumerate() {
    game_.enumerate(opt_.tier, [&](StateKey k) { keys_.push_back(k); });
    std::sort(keys_.begin(), keys_.end());
    if (std::adjacent_find(keys_.begin(), keys_.end()) != keys_.end())
      throw std::logic_error(game_.name() + ": duplicate state");
  }

  std::int64_t index(StateKey k) const {
    auto it = std::lower_bound(keys_.begin(), keys_.end(), k);
    return it != keys_.end() && *it == k ? it - keys_.begin() : -1;
  }

  void load_lower_tiers() {
    for (auto& p : opt_.lower_tier_values) {
      auto v = load_values(p);
      lower_.insert(lower_.end(), v.begin(), v.end());
    }
    std::sort(lower_.begin(), lower_.end(),
              [](const KeyValue& a, const KeyValue& b) { return a.key < b.key; });
  }

  Value lower_value(StateKey child) const {
    auto it = std::lower_bound(lower_.begin(), lower_.end(), child,
                               [](const KeyValue& a, StateKey k) { return a.key < k; });
    if (it == lower_.end() || it->key != child)
      throw std::runtime_error(game_.name() + ": child " + std::to_string(child) +
                               " is in no tier");
    return Value::from_raw(it->value);
  }

  // Every state once: values the rules fix (seeds), reverse edges, children in lower tiers and
  // terminal moves scheduled for the level of their plies.
  void scan() {
    const std::size_t n = keys_.size();
    value_.assign(n, Value{});
    pending_.assign(n, 0);
    parents_.assign(n, {});
    std::vector<Child> kids;
    for (std::size_t i = 0; i < n; ++i) scan_state(static_cast<std::uint32_t>(i), kids);
  }

  void scan_state(std::uint32_t i, std::vector<Child>& kids) {
    const Value tv = game_.terminal_value(keys_[i]);
    if (tv.is_known()) {
      value_[i] = tv;
      if (!tv.is_draw()) seeds_[tv.plies()].push_back(i);
      return;
    }
    game_.successors(keys_[i], kids);
    if (kids.empty())
      throw std::logic_error(game_.name() + ": state with no moves and no terminal value");
    pending_[i] = static_cast<std::uint32_t>(kids.size());
    for (auto& c : kids) {
      Value cv = c.terminal;
      if (!c.is_terminal()) {
        if (const std::int64_t j = index(c.key); j >= 0) {
          parents_[static_cast<std::size_t>(j)].push_back(i);
          continue;
        }
        cv = lower_value(c.key);
      }
      if (cv.is_win() || cv.is_loss()) scheduled_[cv.plies()].push_back({i, cv});
    }
  }

  // Levels until nothing is decided and nothing is scheduled later; returns the levels run.
  std::uint32_t solve_levels() {
    std::vector<std::uint32_t> frontier;
    std::uint32_t d = 0;
    for (;; ++d) {
      if (seeds_.count(d)) frontier.insert(frontier.end(), seeds_[d].begin(), seeds_[d].end());
      frontier = level(d, frontier);
      if (frontier.empty() && (scheduled_.empty() || scheduled_.rbegin()->first <= d) &&
          (seeds_.empty() || seeds_.rbegin()->first <= d))
        return d + 1;
    }
  }

  // All of a level's messages, losses first: one lost child makes a win whatever else arrives.
  std::vector<std::uint32_t> level(std::uint32_t d, const std::vector<std::uint32_t>& frontier) {
    std::vector<Message> msgs = std::move(scheduled_[d]);
    for (auto f : frontier)
      for (auto p : parents_[f]) msgs.push_back({p, value_[f]});
    std::stable_partition(msgs.begin(), msgs.end(), [](auto& m) { return m.second.is_loss(); });
    std::vector<std::uint32_t> next;
    for (auto& [p, v] : msgs) {
      if (value_[p].is_known()) continue;
      if (v.is_loss())
        value_[p] = Value::win(d + 1), next.push_back(p);
      else if (--pending_[p] == 0)
        value_[p] = Value::loss(d + 1), next.push_back(p);
    }
    return next;
  }

  SolveResult write_values(std::uint32_t levels) const {
    std::filesystem::create_directories(opt_.job_dir);
    const std::string values_path = opt_.job_dir + "/" + values_run_name(opt_.tier);
    RunWriter out(values_path, values_run_options());
    ValuesTally tally;
    for (std::size_t i = 0; i < keys_.size(); ++i) {
      const Value v = value_[i].is_known() ? value_[i] : Value::draw();
      out.push(KeyValue{keys_[i], v.raw()});
      tally.add(keys_[i], v);
    }
    SolveResult r = tally.result();
    r.values_path = values_path;
    r.levels = levels;
    r.digest = out.finish().digest_hex();
    return r;
  }

  const Game& game_;
  const SolveOptions& opt_;
  std::vector<StateKey> keys_;
  std::vector<KeyValue> lower_;  // the lower tiers' values, sorted by key
  std::vector<Value> value_;
  std::vector<std::uint32_t> pending_;
  std::vector<std::vector<std::uint32_t>> parents_;            // reverse edges, with multiplicity
  std::map<std::uint32_t, std::vector<Message>> scheduled_;    // level -> (state, child value)
  std::map<std::uint32_t, std::vector<std::uint32_t>> seeds_;  // level -> decided states
};

}  // namespace

SolveResult solve_retrograde_in_ram(const Game& game, const SolveOptions& opt) {
  return InRamSolve(game, opt).run();
}

}  // namespace zermelo
