// Step 6: the values run. The states decided by the initial scan and at every level (sorted
// runs, merged k ways) and, between them, the states still undecided at the fixpoint, which are
// draws. Stage "final" records it with the solve's counts. With shards the same one merge takes
// every shard's decided runs and the shards' draws one shard after the other (key order), so
// the values run is the unsharded one, byte for byte (docs/shards.md); across processes each
// rank writes the blocks that start in its range and rank 0 joins them (values_ranks.cpp).
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "pipeline/retrograde/steps.hpp"
#include "pipeline/solve_record.hpp"
#include "pipeline/values_tally.hpp"
#include "zermelo/engine/cluster.hpp"
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
      if (shard_ + 1 == s_.local_shards()) return false;
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

}  // namespace

// The scan's decided parts hold every shard's: across processes, those of the shards held
// elsewhere are left to them.
void merge_values(const SolveState& s, std::uint32_t last,
                  const std::function<void(const KeyValue&)>& emit) {
  ExternalSorter<KeyValue, KeyValueOrder> decided(sort_options(s, Sorter::final), decided_runs(s));
  Draws draws(s, last);
  Progress bar("values " + s.opt.tier);
  auto next_draw = [&](KeyValue& kv) { return draws.next(kv); };
  auto next_decided = [&](KeyValue& kv) {
    while (decided.next(kv))
      if (!s.clustered() || s.local_index(s.ranges.shard_of(kv.key)) < s.local_shards())
        return true;
    return false;
  };
  auto key = [](const KeyValue& kv) { return kv.key; };
  merge_join<KeyValue, KeyValue>(
      next_decided, next_draw, key, key, [&](const KeyValue* a, const KeyValue* b) {
        if (a && b)
          throw std::logic_error(s.game.name() + ": state " + std::to_string(a->key) +
                                 " is both decided and undecided");
        emit(a ? *a : *b);
        bar.add(1);
      });
  bar.finish();
}

// Every rank's result: rank 0's facts, recorded by each as its "final"; the other ranks, which
// hold no values run, keep its digest with them (docs/distributed.md).
void record_final(SolveState& s, const std::vector<RunInfo>& outputs, nlohmann::json facts) {
  if (s.clustered()) {
    nlohmann::json shared = facts;
    if (!outputs.empty()) shared["digest"] = outputs.front().digest_hex();
    shared = nlohmann::json::parse(s.opt.cluster->broadcast(shared.dump()));
    if (s.opt.cluster->rank() != 0) facts = shared;
  }
  s.record(Stage::final(), outputs, facts);
}

void write_values(SolveState& s, std::uint32_t last) {
  // Under MPI each rank scanned its own keys (or, with reverse edges, all of them). A level's
  // filtered count is already every rank's (send_and_receive sums it for the level's report).
  const std::uint64_t exits = s.facts(Stage::scan()).value("exit_moves_settled", std::uint64_t{0});
  const std::uint64_t copied = s.total(s.copied_total), filtered = s.filtered_total,
                      spilled = s.total(s.spilled_total),
                      exit_moves = s.reverse_edges() ? exits : s.total(exits);
  ValuesTally tally;
  std::vector<RunInfo> outputs;
  if (s.clustered()) {
    outputs = write_values_across_ranks(s, last, tally);
  } else {
    RunWriter out(s.files.values(s.opt.tier), values_run_options());
    merge_values(s, last, [&](const KeyValue& kv) {
      out.push(kv);
      tally.add(kv.key, Value::from_raw(kv.value));
    });
    outputs.push_back(out.finish());
  }
  SolveResult r = tally.result();
  r.levels = last;
  r.copied_records = copied, r.filtered_messages = filtered, r.exit_moves_settled = exit_moves;
  r.spilled_runs = spilled;
  record_final(s, outputs, final_facts(r));
}

}  // namespace zermelo::retro
