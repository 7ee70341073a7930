// Step 5a: a level's messages. The frontier F_d and the seeds scheduled for level d (merged by
// key) send their values to their predecessors, found by the game's un-moves or in the reverse
// edges; the messages scheduled for d are sent as they are passed. The filter of undecided
// groups, when there is one, drops the messages to decided groups before they are sorted. Every
// shard sends its own frontier's messages, the shards at once, each message routed to the shard
// that owns its target (docs/shards.md).
#include <cstring>
#include <string>
#include <vector>

#include "pipeline/parallel_for.hpp"
#include "pipeline/retrograde/steps.hpp"
#include "zermelo/util/progress.hpp"

namespace zermelo::retro {
namespace {

// Where a level's messages go: to their shard's inbox, or dropped by the filter (counted).
class Sender {
 public:
  Sender(Router& msgs, const UndecidedFilter* filter, std::uint64_t& filtered)
      : msgs_(msgs), filter_(filter), filtered_(filtered) {}
  void operator()(StateKey parent, bool child_lost) {
    if (filter_ && !filter_->may_be_undecided(parent))
      ++filtered_;
    else
      msgs_.send(Msg::to(parent, child_lost));
  }

 private:
  Router& msgs_;
  const UndecidedFilter* filter_;
  std::uint64_t& filtered_;
};

// Positions a run sorted by level at the block where level d may begin, found by binary search
// over the blocks' first records: the scheduled run of a large tier holds billions of messages,
// and reading past the earlier levels' every level would decompress all of them a hundred times.
void skip_to_level(RunReader& run, std::uint32_t d) {
  const auto& blocks = run.info().blocks;
  auto first_level = [&](std::size_t b) {
    LevelMsg m;
    std::memcpy(&m, run.read_block(b).data(), sizeof m);
    return m.level;
  };
  std::size_t lo = 0, hi = blocks.size();  // the answer: the last block whose first level is < d
  while (hi - lo > 1) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (first_level(mid) < d)
      lo = mid;
    else
      hi = mid;
  }
  if (!blocks.empty()) run.skip_to(blocks[lo].first_record);
}

// A shard's frontier of level d in key order (edge joins need it): its F_d and the seeds
// scheduled for d.
class Frontier {
 public:
  Frontier(const SolveState& s, const Layout& files, std::uint32_t d, Sender& send)
      : d_(d),
        send_(send),
        frontier_(files.path(Run::frontier, d)),
        scheduled_(files.path(Run::scheduled)) {
    // Past the last scheduled level the run has nothing left for us: do not read it again.
    if (d <= s.max_scheduled) skip_to_level(scheduled_, d);
    has_lm_ = d <= s.max_scheduled && scheduled_.next(lm_);
    while (has_lm_ && lm_.level < d) has_lm_ = scheduled_.next(lm_);
    has_f_ = frontier_.next(f_);
  }

  bool next(KeyValue& out) {
    send_scheduled_messages();
    const bool seed = has_lm_ && lm_.level == d_;
    if (!has_f_ && !seed) return false;
    ++size_;
    if (has_f_ && (!seed || f_.key < lm_.key)) {
      out = f_;
      has_f_ = frontier_.next(f_);
    } else {
      out = KeyValue{lm_.key, lm_.value};
      has_lm_ = scheduled_.next(lm_);
    }
    return true;
  }
  std::uint64_t size() const { return size_; }

 private:
  void send_scheduled_messages() {
    for (; has_lm_ && lm_.level == d_ && lm_.kind == kMessage; has_lm_ = scheduled_.next(lm_)) {
      const Value v = Value::from_raw(lm_.value);
      if (v.is_win() || v.is_loss()) send_(lm_.key, v.is_loss());
    }
  }

  const std::uint32_t d_;
  Sender& send_;
  RunReader frontier_, scheduled_;
  LevelMsg lm_;
  KeyValue f_;
  bool has_lm_ = false, has_f_ = false;
  std::uint64_t size_ = 0;
};

// One thread's messages of a batch, pushed in thread order after it.
struct ThreadMessages {
  std::vector<Msg> msgs;
  std::uint64_t filtered = 0;
};

// Un-moves of batches of the frontier on the shard's threads.
void send_by_unmoves(const SolveState& s, Frontier& frontier, Router& msgs, std::uint64_t& filtered,
                     Progress& bar) {
  const UndecidedFilter* filter = s.filter.get();
  std::vector<ThreadMessages> out(worker_count(s.shard_threads()));
  std::vector<KeyValue> batch;
  KeyValue f;
  for (bool more = true; more;) {
    batch.clear();
    while (batch.size() < kBatch && (more = frontier.next(f))) batch.push_back(f);
    parallel_for<std::vector<StateKey>>(
        s.shard_threads(), batch.size(), 1024,
        [&](std::size_t t, std::size_t i, std::vector<StateKey>& preds) {
          s.game.predecessors(batch[i].key, preds);
          const bool lost = Value::from_raw(batch[i].value).is_loss();
          for (StateKey p : preds) {
            if (filter && !filter->may_be_undecided(p))
              ++out[t].filtered;
            else
              out[t].msgs.push_back(Msg::to(p, lost));
          }
        });
    for (ThreadMessages& o : out) {
      for (const Msg& m : o.msgs) msgs.send(m);
      filtered += o.filtered;
      o.msgs.clear(), o.filtered = 0;
    }
    bar.add(batch.size());
  }
}

// The shard's reverse edges (sorted by child: many parents a child) merge-joined with its
// frontier.
void send_by_edges(const Layout& files, Frontier& frontier, Sender& send, Progress& bar) {
  RunReader edges(files.path(Run::edges));
  KeyValue f;
  bool has_f = frontier.next(f);
  Edge e;
  while (has_f && edges.next(e)) {
    while (has_f && f.key < e.child) has_f = frontier.next(f);
    if (has_f && f.key == e.child) send(e.parent, Value::from_raw(f.value).is_loss()), bar.add(1);
  }
  while (frontier.next(f)) {  // drain: scheduled messages still to be pushed
  }
}

// One shard's messages of level d; returns its frontier's size.
std::uint64_t send_shard(const SolveState& s, unsigned shard, std::uint32_t d, Transport& transport,
                         std::uint64_t& filtered) {
  Router msgs(s.ranges, transport);
  Sender send(msgs, s.filter.get(), filtered);
  Frontier frontier(s, s.shard_files[shard], d, send);
  Progress bar("level " + std::to_string(d) + " messages" +
               (s.shards() > 1 ? ", shard " + std::to_string(s.shard_ids[shard]) : ""));
  if (s.game.has_predecessors() && s.opt.use_predecessors)
    send_by_unmoves(s, frontier, msgs, filtered, bar);
  else
    send_by_edges(s.shard_files[shard], frontier, send, bar);
  msgs.flush();
  return frontier.size();
}

}  // namespace

std::uint64_t send_messages(SolveState& s, std::uint32_t d, Transport& transport,
                            std::uint64_t& filtered) {
  std::vector<std::uint64_t> sizes(s.local_shards()), dropped(s.local_shards());
  s.for_each_shard(
      [&](unsigned shard) { sizes[shard] = send_shard(s, shard, d, transport, dropped[shard]); });
  for (std::uint64_t n : dropped) filtered += n;
  std::uint64_t frontier = 0;
  for (std::uint64_t n : sizes) frontier += n;
  return frontier;
}

}  // namespace zermelo::retro
