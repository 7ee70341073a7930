// Step 6: the values run. The states decided by the initial scan and at every level (sorted
// runs, merged k ways) and, between them, the states still undecided at the fixpoint, which are
// draws. Stage "final" records it with the solve's counts.
#include <string>
#include <vector>

#include "pipeline/retrograde/steps.hpp"
#include "pipeline/solve_record.hpp"
#include "pipeline/values_tally.hpp"
#include "zermelo/engine/values_run.hpp"
#include "zermelo/util/progress.hpp"

namespace zermelo::retro {
namespace {

// The scan's decided parts, then each level's decided run, as recorded.
std::vector<std::string> decided_runs(const SolveState& s) {
  std::vector<std::string> runs;
  const std::size_t chunks = s.facts(Stage::scan())["chunks"];
  for (std::size_t i = 0; i < chunks; ++i) runs.push_back(s.files.path(Run::decided_part, i));
  for (const Stage& stage : s.stages())
    if (stage.kind == Stage::Kind::decided) runs.push_back(s.files.path(Run::frontier, stage.n));
  return runs;
}

// The decided states merged with the draws in S_last, written to `out` and counted.
ValuesTally merge_values(const SolveState& s, std::uint32_t last, RunWriter& out) {
  ExternalSorter<KeyValue, KeyValueOrder> decided(sort_options(s, Sorter::final), decided_runs(s));
  RunReader draws(s.files.path(Run::states, last));
  ValuesTally tally;
  Progress bar("values " + s.opt.tier);
  auto next_draw = [&](KeyValue& kv) {
    Undecided u;
    if (!draws.next(u)) return false;
    kv = KeyValue{u.key, Value::draw().raw()};
    return true;
  };
  auto next_decided = [&](KeyValue& kv) { return decided.next(kv); };
  auto key = [](const KeyValue& kv) { return kv.key; };
  merge_join<KeyValue, KeyValue>(
      next_decided, next_draw, key, key, [&](const KeyValue* a, const KeyValue* b) {
        if (a && b)
          throw std::logic_error(s.game.name() + ": state " + std::to_string(a->key) +
                                 " is both decided and undecided");
        const KeyValue kv = a ? *a : *b;
        out.push(kv);
        bar.add(1);
        tally.add(kv.key, Value::from_raw(kv.value));
      });
  bar.finish();
  return tally;
}

}  // namespace

void write_values(SolveState& s, std::uint32_t last) {
  RunWriter out(s.files.values(s.opt.tier), values_run_options());
  SolveResult r = merge_values(s, last, out).result();
  r.levels = last;
  r.copied_records = s.copied_total, r.filtered_messages = s.filtered_total;
  r.exit_moves_settled = s.facts(Stage::scan()).value("exit_moves_settled", std::uint64_t{0});
  s.record(Stage::final(), {out.finish()}, final_facts(r));
}

}  // namespace zermelo::retro
