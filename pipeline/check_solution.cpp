// The independent check of a solved tier, and point lookups in values runs.
//
// check_solution recomputes every state's value from its children's stored values, by streaming:
// scan the values run and ask for each child's value (requests sorted by child), merge-join the
// requests with the values runs, sort the answers by parent and merge-join them with the values
// run again. It shares no code with the solver's level loop.
#include <algorithm>
#include <cstring>

#include "pipeline/retrograde_records.hpp"
#include "pipeline/tier_values.hpp"
#include "zermelo/engine/retrograde.hpp"
#include "zermelo/engine/optimal_line.hpp"
#include "zermelo/sort/external_sort.hpp"
#include "zermelo/util/progress.hpp"

namespace zermelo {
using namespace retro;

Value lookup_value(const std::string& values_path, StateKey key) { return ValuesLookup({values_path}).find(key); }

namespace {

// What the definition says a state's value must be, given all its children's values.
Value recompute(Value terminal, const std::vector<Value>& children) {
  if (terminal.is_known()) return terminal;
  bool any_draw = false, any_unknown = false;
  std::uint32_t best_win = UINT32_MAX, worst_loss = 0;
  for (Value c : children) {
    if (!c.is_known()) any_unknown = true;
    else if (c.is_loss()) best_win = std::min(best_win, c.plies() + 1);
    else if (c.is_win()) worst_loss = std::max(worst_loss, c.plies() + 1);
    else any_draw = true;
  }
  if (any_unknown) return Value::unknown();
  if (best_win != UINT32_MAX) return Value::win(best_win);
  if (!any_draw && !children.empty()) return Value::loss(worst_loss);
  return Value::draw();
}

}  // namespace

CheckResult check_solution(const Game& game, const std::string& values_path, const std::vector<std::string>& other_tier_values,
                           const SolveOptions& opt) {
  SortOptions so;
  so.memory_bytes = opt.memory_bytes > (96ull << 20) ? opt.memory_bytes - (48ull << 20) : (48ull << 20);
  so.threads = opt.threads;
  // Answers: (parent, child value); a child's value is unknown (0) if no run holds it.
  so.scratch_dir = opt.job_dir + "/check-answers.sort";
  ExternalSorter<Msg> answers(so);
  so.scratch_dir = opt.job_dir + "/check-requests.sort";
  ExternalSorter<Edge> requests(so);
  CheckResult res;
  {
    RunReader values(values_path);
    Progress bar("check: children", values.size());
    KeyValue kv;
    std::vector<Child> kids;
    while (values.next(kv)) {
      if (!game.terminal_value(kv.key).is_known()) {
        game.successors(kv.key, kids);
        for (auto& c : kids) {
          if (c.is_terminal()) answers.push(Msg{kv.key, c.terminal.raw(), {0, 0, 0}});
          else requests.push(Edge{c.key, kv.key});
        }
      }
      bar.add(1);
    }
  }
  requests.sort();
  {
    std::vector<std::string> runs = other_tier_values;
    runs.push_back(values_path);
    TierValues tv(runs);
    Edge e;
    while (requests.next(e)) answers.push(Msg{e.parent, tv.find(e.child).raw(), {0, 0, 0}});
  }
  answers.sort();
  RunReader values(values_path);
  Progress bar("check: values", values.size());
  KeyValue kv;
  Msg m;
  bool has_m = answers.next(m);
  std::vector<Value> children;
  while (values.next(kv)) {
    children.clear();
    for (; has_m && m.key == kv.key; has_m = answers.next(m)) children.push_back(Value::from_raw(m.value));
    Value want = recompute(game.terminal_value(kv.key), children);
    Value got = Value::from_raw(kv.value);
    ++res.states;
    if (!(want == got)) {
      ++res.mismatches;
      if (res.examples.size() < 5)
        res.examples.push_back("state " + std::to_string(kv.key) + ": stored " + got.to_string() + ", children say " +
                               want.to_string() + "\n" + game.render(kv.key));
    }
    bar.add(1);
  }
  return res;
}

}  // namespace zermelo
