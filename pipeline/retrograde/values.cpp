// Step 6: the values run. The states decided by the initial scan and at every level (sorted
// runs, merged k ways) and, between them, the states still undecided at the fixpoint, which are
// draws. Stage "final" records it with the solve's counts. With shards the same one merge takes
// every shard's decided runs and the shards' draws one shard after the other (key order), so
// the values run is the unsharded one, byte for byte (docs/shards.md).
#include <memory>
#include <string>
#include <vector>

#include "pipeline/retrograde/steps.hpp"
#include "pipeline/solve_record.hpp"
#include "pipeline/values_tally.hpp"
#include "zermelo/engine/values_run.hpp"
#include "zermelo/util/progress.hpp"

namespace zermelo::retro {
namespace {

// The scan's decided parts, then each level's decided runs (a shard's each), as recorded.
std::vector<std::string> decided_runs(const SolveState& s) {
  std::vector<std::string> runs;
  const std::size_t chunks = s.facts(Stage::scan())["chunks"];
  for (std::size_t i = 0; i < chunks; ++i) runs.push_back(s.files.path(Run::decided_part, i));
  for (const Stage& stage : s.stages())
    if (stage.kind == Stage::Kind::decided)
      for (const Layout& files : s.shard_files) runs.push_back(files.path(Run::frontier, stage.n));
  return runs;
}

// The states still undecided in S_last, the draws: shard after shard, so in key order.
class Draws {
 public:
  Draws(const SolveState& s, std::uint32_t last) : s_(s), last_(last) { open(); }
  bool next(KeyValue& kv) {
    Undecided u;
    while (!states_->next(u)) {
      if (shard_ + 1 == s_.shards()) return false;
      ++shard_;
      open();
    }
    kv = KeyValue{u.key, Value::draw().raw()};
    return true;
  }

 private:
  void open() {
    states_ = std::make_unique<RunReader>(s_.shard_files[shard_].path(Run::states, last_));
  }

  const SolveState& s_;
  const std::uint32_t last_;
  unsigned shard_ = 0;
  std::unique_ptr<RunReader> states_;
};

// The decided states merged with the draws, written to `out` and counted.
ValuesTally merge_values(const SolveState& s, std::uint32_t last, RunWriter& out) {
  ExternalSorter<KeyValue, KeyValueOrder> decided(sort_options(s, Sorter::final), decided_runs(s));
  Draws draws(s, last);
  ValuesTally tally;
  Progress bar("values " + s.opt.tier);
  auto next_draw = [&](KeyValue& kv) { return draws.next(kv); };
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
