// The independent check of a solved tier, and point lookups in values runs.
//
// check_solution recomputes every state's value from its children's stored values, by streaming:
// scan the values run and ask for each child's value (requests sorted by child), merge-join the
// requests with the values runs, sort the answers by parent and merge-join them with the values
// run again. It shares no code with the solver's level loop.
#include <algorithm>
#include <cstring>
#include <random>

#include "pipeline/retrograde_records.hpp"
#include "pipeline/tier_values.hpp"
#include "zermelo/engine/optimal_line.hpp"
#include "zermelo/engine/retrograde.hpp"
#include "zermelo/sort/external_sort.hpp"
#include "zermelo/util/progress.hpp"

namespace zermelo {
using namespace retro;

Value lookup_value(const std::string& values_path, StateKey key) {
  return ValuesLookup({values_path}).find(key);
}

namespace {

// What the definition says a state's value must be, given all its children's values.
Value recompute(Value terminal, const std::vector<Value>& children) {
  if (terminal.is_known()) return terminal;
  bool any_draw = false, any_unknown = false;
  std::uint32_t best_win = UINT32_MAX, worst_loss = 0;
  for (Value c : children) {
    if (!c.is_known())
      any_unknown = true;
    else if (c.is_loss())
      best_win = std::min(best_win, c.plies() + 1);
    else if (c.is_win())
      worst_loss = std::max(worst_loss, c.plies() + 1);
    else
      any_draw = true;
  }
  if (any_unknown) return Value::unknown();
  if (best_win != UINT32_MAX) return Value::win(best_win);
  if (!any_draw && !children.empty()) return Value::loss(worst_loss);
  return Value::draw();
}

// One checked state: counted, and described if its stored value is not what its children say.
void tally(CheckResult& res, const Game& game, const KeyValue& kv, Value want) {
  const Value got = Value::from_raw(kv.value);
  ++res.states;
  if (want == got) return;
  ++res.mismatches;
  if (res.examples.size() < 5)
    res.examples.push_back("state " + std::to_string(kv.key) + ": stored " + got.to_string() +
                           ", children say " + want.to_string() + "\n" + game.render(kv.key));
}

}  // namespace

namespace {

// The check's sorters split the budget left beside their readers.
SortOptions check_sort_options(const SolveOptions& opt, const std::string& name) {
  SortOptions so;
  const std::uint64_t memory = opt.memory_bytes;
  so.memory_bytes = memory > (96ull << 20) ? memory - (48ull << 20) : (48ull << 20);
  so.threads = opt.threads;
  so.scratch_dir = opt.job_dir + "/" + name + ".sort";
  return so;
}

// Every state's children: terminal ones answered at once, the others requested by child.
void ask_children(const Game& game, const std::string& values_path,
                  ExternalSorter<ChildValue>& answers, ExternalSorter<Edge>& requests) {
  RunReader values(values_path);
  Progress bar("check: children", values.size());
  KeyValue kv;
  std::vector<Child> kids;
  while (values.next(kv)) {
    if (!game.terminal_value(kv.key).is_known()) {
      game.successors(kv.key, kids);
      for (auto& c : kids) {
        if (c.is_terminal())
          answers.push(ChildValue{kv.key, c.terminal.raw(), {0, 0, 0}});
        else
          requests.push(Edge{c.key, kv.key});
      }
    }
    bar.add(1);
  }
}

// The requests (sorted by child) answered from the values runs: (parent, child value); a
// child's value is unknown (0) if no run holds it.
void answer_requests(ExternalSorter<Edge>& requests, std::vector<std::string> runs,
                     ExternalSorter<ChildValue>& answers) {
  requests.sort();
  TierValues tv(runs);
  Edge e;
  while (requests.next(e)) answers.push(ChildValue{e.parent, tv.find(e.child).raw(), {0, 0, 0}});
}

// Every stored value against what its children's answers (sorted by parent) say.
CheckResult compare_values(const Game& game, const std::string& values_path,
                           ExternalSorter<ChildValue>& answers) {
  CheckResult res;
  answers.sort();
  RunReader values(values_path);
  Progress bar("check: values", values.size());
  KeyValue kv;
  ChildValue m;
  bool has_m = answers.next(m);
  std::vector<Value> children;
  while (values.next(kv)) {
    children.clear();
    for (; has_m && m.key == kv.key; has_m = answers.next(m))
      children.push_back(Value::from_raw(m.value));
    tally(res, game, kv, recompute(game.terminal_value(kv.key), children));
    bar.add(1);
  }
  return res;
}

}  // namespace

CheckResult check_solution(const Game& game, const std::string& values_path,
                           const std::vector<std::string>& other_tier_values,
                           const SolveOptions& opt) {
  ExternalSorter<ChildValue> answers(check_sort_options(opt, "check-answers"));
  ExternalSorter<Edge> requests(check_sort_options(opt, "check-requests"));
  ask_children(game, values_path, answers, requests);
  std::vector<std::string> runs = other_tier_values;
  runs.push_back(values_path);
  answer_requests(requests, runs, answers);
  return compare_values(game, values_path, answers);
}

}  // namespace zermelo

namespace zermelo {

// The same local check on a random sample of states, reading only the blocks it needs: a quick
// check of a database too large to re-check whole in the time at hand.
CheckResult check_solution_sample(const Game& game, const std::string& values_path,
                                  const std::vector<std::string>& other_tier_values,
                                  std::size_t samples, std::uint64_t seed) {
  RunReader values(values_path);
  std::vector<std::string> runs{values_path};
  runs.insert(runs.end(), other_tier_values.begin(), other_tier_values.end());
  ValuesLookup lookup(runs);
  std::mt19937_64 rng(seed);
  const auto& blocks = values.info().blocks;
  CheckResult res;
  if (blocks.empty()) return res;
  Progress bar("check: sampled states", samples);
  std::vector<Child> kids;
  std::vector<Value> children;
  for (std::size_t i = 0; i < samples; ++i) {
    // A uniform record: a block weighted by its records, then a record in it.
    const std::uint64_t r = rng() % values.size();
    const auto b = static_cast<std::size_t>(
        std::upper_bound(blocks.begin(), blocks.end(), r,
                         [](std::uint64_t x, const BlockInfo& bi) { return x < bi.first_record; }) -
        blocks.begin() - 1);
    auto bytes = values.read_block(b);
    KeyValue kv;
    std::memcpy(&kv, bytes.data() + (r - blocks[b].first_record) * sizeof(KeyValue), sizeof kv);
    children.clear();
    const Value terminal = game.terminal_value(kv.key);
    if (!terminal.is_known()) {
      game.successors(kv.key, kids);
      for (auto& c : kids) children.push_back(c.is_terminal() ? c.terminal : lookup.find(c.key));
    }
    tally(res, game, kv, recompute(terminal, children));
    bar.add(1);
  }
  return res;
}

}  // namespace zermelo
