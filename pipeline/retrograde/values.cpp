// Step 6: the values run. The states decided by the initial scan and at every level (sorted
// runs, merged k ways) and, between them, the states still undecided at the fixpoint, which are
// draws. Stage "final" records it with the solve's counts. With shards the same one merge takes
// every shard's decided runs and the shards' draws one shard after the other (key order), so
// the values run is the unsharded one, byte for byte (docs/shards.md); across processes rank 0
// writes it, the others' values streamed to it (docs/distributed.md).
#include <cstring>
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

// The decided states of this process's shards merged with their draws, each passed to `emit`
// in key order. The scan's decided parts hold every shard's: across processes, those of the
// shards held elsewhere are left to them.
template <class Emit>
void merge_values(const SolveState& s, std::uint32_t last, Emit&& emit) {
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

// Across processes, rank 0 writes the values run: every other rank streams its shards' values
// to it in batches, in rank order, which is key order (docs/distributed.md).
void send_values_to_root(const SolveState& s, std::uint32_t last) {
  constexpr std::size_t kBatchValues = 1u << 16;
  std::vector<KeyValue> batch;
  auto send = [&] {
    s.opt.cluster->send_to_root(batch.data(), batch.size() * sizeof(KeyValue));
    batch.clear();
  };
  merge_values(s, last, [&](const KeyValue& kv) {
    batch.push_back(kv);
    if (batch.size() == kBatchValues) send();
  });
  if (!batch.empty()) send();
  s.opt.cluster->send_to_root(nullptr, 0);  // the end of this rank's stream
}

// Rank 0: the other ranks' values, appended after its own.
void receive_values(const SolveState& s, RunWriter& out, ValuesTally& tally) {
  std::vector<std::byte> batch;
  for (unsigned from = 1; from < s.opt.cluster->ranks(); ++from)
    while (s.opt.cluster->receive_from(from, batch))
      for (std::size_t at = 0; at + sizeof(KeyValue) <= batch.size(); at += sizeof(KeyValue)) {
        KeyValue kv;
        std::memcpy(&kv, batch.data() + at, sizeof kv);
        out.push(kv);
        tally.add(kv.key, Value::from_raw(kv.value));
      }
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

}  // namespace

void write_values(SolveState& s, std::uint32_t last) {
  const std::uint64_t copied = s.total(s.copied_total), filtered = s.total(s.filtered_total);
  if (s.clustered() && s.opt.cluster->rank() != 0) {
    send_values_to_root(s, last);
    return record_final(s, {}, {});
  }
  RunWriter out(s.files.values(s.opt.tier), values_run_options());
  ValuesTally tally;
  merge_values(s, last, [&](const KeyValue& kv) {
    out.push(kv);
    tally.add(kv.key, Value::from_raw(kv.value));
  });
  if (s.clustered()) receive_values(s, out, tally);
  SolveResult r = tally.result();
  r.levels = last;
  r.copied_records = copied, r.filtered_messages = filtered;
  r.exit_moves_settled = s.facts(Stage::scan()).value("exit_moves_settled", std::uint64_t{0});
  record_final(s, {out.finish()}, final_facts(r));
}

}  // namespace zermelo::retro
